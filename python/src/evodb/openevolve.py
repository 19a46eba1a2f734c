"""A drop-in population database for OpenEvolve (`pip install "evodb[openevolve]"`).

    from evodb.openevolve import EvodbOpenEvolve
    controller = EvodbOpenEvolve("initial_program.py", "evaluator.py", config=config)
    best = asyncio.run(controller.run(iterations=50))
    # every checkpoint directory is an evodb run: `evodb view <output>/checkpoints/checkpoint_50`

`EvodbProgramDatabase` is an `openevolve.database.ProgramDatabase` (a subclass, so everything
that accepts one accepts it) whose population lives in evodb's engine. What maps to what, and
where the adapter follows OpenEvolve rather than evodb, is in python/README.md ("OpenEvolve").
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import json
import logging
import math
import numbers
import os
import random
from pathlib import Path
from typing import Any, Optional

from openevolve.config import DatabaseConfig
from openevolve.controller import OpenEvolve
from openevolve.database import Program, ProgramDatabase
from openevolve.utils.metrics_utils import get_fitness_score

from .database import Database
from .types import AddRequest

logger = logging.getLogger(__name__)

#: The file beside database.json holding what evodb does not keep: OpenEvolve's Program fields
#: (metadata, non-numeric metrics, language…), artifacts, prompts and the sampler's state.
SIDECAR = "openevolve.json"
#: The metric evodb ranks by: OpenEvolve's fitness (`combined_score`, or the mean of the numeric
#: metrics that are not feature dimensions), added to the metrics evodb stores when missing.
FITNESS_METRIC = "combined_score"
_BUILT_IN_FEATURES = ("complexity", "diversity")


@dataclasses.dataclass(frozen=True)
class DatabaseState:
    """What `get_state()` reports (OpenEvolve's backend contract)."""

    program_count: int
    current_island: int
    last_iteration: int
    num_islands: int
    feature_dimensions: tuple[str, ...]
    best_program_id: Optional[str]


def evodb_config(config: DatabaseConfig, feature_ranges: Optional[dict[str, tuple[float, float]]] = None) -> dict[str, Any]:
    """evodb's options for an OpenEvolve `DatabaseConfig`."""
    islands = int(config.num_islands)
    features: list[dict[str, Any]] = []
    bins_of = config.feature_bins if isinstance(config.feature_bins, dict) else {}
    for dim in config.feature_dimensions:
        bins = int(bins_of.get(dim, config.feature_bins if isinstance(config.feature_bins, int) else 10))
        if dim == "complexity":
            # evodb's own measure of a program's size: small / medium / large by lines.
            features.append({"kind": "codeLines", "thresholds": [40, 100]})
        elif dim == "diversity":
            continue  # OpenEvolve's code-distance feature has no evodb counterpart (README)
        else:
            low, high = (feature_ranges or {}).get(dim, (0.0, 1.0))
            features.append({"kind": "metric", "metric": dim, "min": low, "max": high, "bins": max(1, min(bins, 1000))})
    return {
        "numIslands": islands,
        "maxIslandSize": max(1, math.ceil(int(config.population_size) / islands)),
        "migrationInterval": max(1, int(config.migration_interval)),
        "migrationRate": float(config.migration_rate),
        "explorationRatio": float(config.exploration_ratio),
        "archiveSize": max(0, int(config.archive_size)),
        "placement": "explicit",
        "migration": "copy",
        "fitness": {"kind": "primary", "metric": FITNESS_METRIC},
        "features": features,
    }


class EvodbProgramDatabase(ProgramDatabase):  # type: ignore[misc]
    """OpenEvolve's `ProgramDatabase`, kept by evodb's engine.

    evodb decides: where a program lives (the island OpenEvolve names), the best program,
    pruning each island to `population_size / num_islands` by MAP-Elites cells, the elite archive,
    ring migration (on evodb's schedule, inside `add`), and what is saved: `save(path)` writes an
    evodb database directory (`database.json`, `history.ndjson`) plus `openevolve.json`.
    OpenEvolve decides: which parent and inspirations to draw from the island its controller
    asks for (`sample_from_island`, with OpenEvolve's exploration/exploitation/weighted rule,
    seeded by `random_seed`), artifacts and prompt logs.
    """

    config: Any
    programs: dict[str, Program]
    islands: list[set[str]]
    archive: set[str]
    best_program_id: Optional[str]
    last_iteration: int
    current_island: int
    island_generations: list[int]
    prompts_by_program: dict[str, dict[str, Any]]

    def __init__(
        self,
        config: DatabaseConfig,
        population_strategy: Any = None,
        *,
        feature_ranges: Optional[dict[str, tuple[float, float]]] = None,
    ) -> None:
        if population_strategy is not None:
            raise ValueError(
                "EvodbProgramDatabase keeps evodb's admission and pruning rules; "
                "pass population_strategy=None (or use OpenEvolve's own ProgramDatabase)"
            )
        detached = copy.copy(config)
        detached.db_path = None  # the base class would load OpenEvolve's own format from it
        super().__init__(detached, None)
        self.config = config
        self.prompts_by_program = {}
        seed = 0 if config.random_seed is None else int(config.random_seed)
        self._feature_ranges = feature_ranges
        self._db = Database(config=evodb_config(config, feature_ranges), seed=seed)
        self._rng = random.Random(seed)
        self._members: list[dict[str, None]] = [{} for _ in range(config.num_islands)]
        self._fitness: dict[str, float] = {}
        self._artifacts: dict[str, dict[str, Any]] = {}
        if config.db_path and os.path.exists(os.path.join(config.db_path, "database.json")):
            self.load(config.db_path)

    # --- adding ----------------------------------------------------------------------------

    def add(self, program: Program, iteration: Optional[int] = None, target_island: Optional[int] = None) -> Optional[str]:
        stored = copy.deepcopy(program)
        if iteration is not None:
            if iteration < 0:
                raise ValueError(f"iteration {iteration} is negative; pass the iteration number (0 or more)")
            stored.iteration_found = iteration
            self.last_iteration = max(self.last_iteration, iteration)
        if stored.id in self.programs:
            # OpenEvolve replaces a re-added id in place; evodb keeps ids unique, so only the
            # Python-side record changes.
            stored.metadata["island"] = self.programs[stored.id].metadata.get("island", 0)
            self.programs[stored.id] = stored
            return str(stored.id)
        island = self._island_for(stored, target_island)
        fitness = float(get_fitness_score(stored.metrics, self.config.feature_dimensions))
        metrics = {k: float(v) for k, v in stored.metrics.items()
                   if isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)}
        if FITNESS_METRIC not in metrics:
            metrics[FITNESS_METRIC] = fitness if math.isfinite(fitness) else 0.0
        for dim in self.config.feature_dimensions:
            if dim not in _BUILT_IN_FEATURES and dim not in metrics:
                metrics[dim] = 0.0  # OpenEvolve bins a missing feature at 0 too
        outcome = self._db.add(
            AddRequest(
                id=str(stored.id),
                target_code=stored.code or " ",
                metrics=metrics,
                code_path=f"program.{'py' if stored.language == 'python' else stored.language}",
                parent_id=str(stored.parent_id) if stored.parent_id else "0",
                changes=stored.changes_description or "",
                island=island,
            ),
            now=float(stored.timestamp),
        )
        stored.metadata["island"] = island
        self._fitness[stored.id] = metrics[FITNESS_METRIC]
        self.programs[stored.id] = stored
        self._follow_events()
        self.best_program_id = outcome.best_program_id
        return str(stored.id)

    def _island_for(self, program: Program, target_island: Optional[int]) -> int:
        """OpenEvolve's placement: the named island, else the parent's, else the current one."""
        if target_island is not None:
            island = int(target_island)
        elif program.parent_id and program.parent_id in self.programs:
            island = int(self.programs[program.parent_id].metadata.get("island", self.current_island))
        else:
            island = int(self.current_island)
        return island % len(self._members)

    def _follow_events(self) -> None:
        """Mirrors what the engine did (joined, migrated, evicted, archive) on the Python side."""
        for line in self._db.take_events():
            event = json.loads(line)
            kind = event["event"]
            if kind == "added":
                self._join(event["id"], int(event["island"]))
            elif kind == "migrated":
                original = self.programs.get(event["id"])
                copy_id = event.get("copyId")
                if copy_id and original is not None:
                    migrant = copy.deepcopy(original)
                    migrant.id = copy_id
                    migrant.parent_id = original.id
                    migrant.metadata = {**migrant.metadata, "island": int(event["to"]), "migrant": True}
                    self.programs[copy_id] = migrant
                    self._fitness[copy_id] = self._fitness.get(original.id, 0.0)
                self._join(copy_id or event["id"], int(event["to"]))
            elif kind == "evicted":
                self._leave(event["id"], int(event["island"]), bool(event["deleted"]))
            elif kind == "archive":
                self.archive.difference_update(event["left"])
                self.archive.update(event["entered"])

    def _join(self, program_id: str, island: int) -> None:
        self._members[island][program_id] = None
        self.islands[island].add(program_id)

    def _leave(self, program_id: str, island: int, deleted: bool) -> None:
        self._members[island].pop(program_id, None)
        self.islands[island].discard(program_id)
        if deleted:
            self.programs.pop(program_id, None)
            self._fitness.pop(program_id, None)
            self._artifacts.pop(program_id, None)
            self.archive.discard(program_id)

    # --- reading -----------------------------------------------------------------------------

    def get(self, program_id: str) -> Optional[Program]:
        program = self.programs.get(program_id)
        return None if program is None else copy.deepcopy(program)

    def _ranked(self, candidates: list[str], metric: Optional[str]) -> list[str]:
        if metric:
            with_metric = [pid for pid in candidates if metric in self.programs[pid].metrics]
            return sorted(with_metric, key=lambda pid: -float(self.programs[pid].metrics[metric]))
        return sorted(candidates, key=lambda pid: -self._fitness.get(pid, 0.0))

    def get_best_program(self, metric: Optional[str] = None) -> Optional[Program]:
        if not self.programs:
            return None
        if metric is None and self.best_program_id is not None and self.best_program_id in self.programs:
            return self.get(self.best_program_id)
        ranked = self._ranked(list(self.programs), metric)
        return self.get(ranked[0]) if ranked else None

    def get_top_programs(self, n: int = 10, metric: Optional[str] = None, island_idx: Optional[int] = None) -> list[Program]:
        if n < 0:
            raise ValueError(f"n is {n}; ask for 0 or more programs")
        if island_idx is not None and not 0 <= island_idx < len(self._members):
            raise IndexError(f"Island index {island_idx} is out of range (0-{len(self._members) - 1})")
        candidates = list(self.programs) if island_idx is None else list(self._members[island_idx])
        return [p for p in (self.get(pid) for pid in self._ranked(candidates, metric)[:n]) if p is not None]

    def get_state(self) -> DatabaseState:
        return DatabaseState(
            program_count=len(self.programs),
            current_island=int(self.current_island),
            last_iteration=int(self.last_iteration),
            num_islands=len(self._members),
            feature_dimensions=tuple(self.config.feature_dimensions),
            best_program_id=self.best_program_id,
        )

    def record_iteration(self, iteration: int) -> None:
        """Progress without a new program: `last_iteration` only grows."""
        if iteration < 0:
            raise ValueError(f"iteration {iteration} is negative; pass the iteration number (0 or more)")
        self.last_iteration = max(self.last_iteration, iteration)

    @property
    def evodb(self) -> Database:
        """The evodb database underneath (stats, plan, export, lineage…)."""
        return self._db

    # --- sampling: OpenEvolve's rule over the island its controller names ----------------------

    def sample(self, num_inspirations: Optional[int] = None) -> tuple[Program, list[Program]]:
        return self.sample_from_island(int(self.current_island), num_inspirations)

    def sample_from_island(self, island_id: int, num_inspirations: Optional[int] = None) -> tuple[Program, list[Program]]:
        if not self.programs:
            raise ValueError("the database is empty: add the initial program before sampling")
        island = island_id % len(self._members)
        members = [pid for pid in self._members[island] if pid in self.programs] or list(self.programs)
        draw = self._rng.random()
        if draw < self.config.exploration_ratio:
            parent = self._rng.choice(members)
        elif draw < self.config.exploration_ratio + self.config.exploitation_ratio:
            elites = [pid for pid in members if pid in self.archive]
            parent = self._rng.choice(elites) if elites else self._ranked(members, None)[0]
        else:
            weights = [max(self._fitness.get(pid, 0.0), 0.0) + 1e-6 for pid in members]
            parent = self._rng.choices(members, weights=weights)[0]
        wanted = 5 if num_inspirations is None else max(0, int(num_inspirations))
        others = [pid for pid in members if pid != parent]
        top = self._ranked(others, None)[: wanted // 2 + wanted % 2]
        rest = [pid for pid in others if pid not in top]
        chosen = top + self._rng.sample(rest, min(len(rest), wanted - len(top)))
        found = self.get(parent)
        assert found is not None
        return found, [p for p in (self.get(pid) for pid in chosen[:wanted]) if p is not None]

    # --- islands and migration ------------------------------------------------------------------

    def should_migrate(self) -> bool:
        """evodb migrates by itself, inside `add`, every `migration_interval` island generations."""
        return False

    def migrate_programs(self) -> None:
        logger.debug("evodb migrates inside add (ring migration, copy mode); nothing to do here")

    def get_island_stats(self) -> list[dict[str, Any]]:
        stats = []
        for i, members in enumerate(self._members):
            scores = [self._fitness.get(pid, 0.0) for pid in members if pid in self.programs]
            stats.append({
                "island": i,
                "population_size": len(scores),
                "best_score": max(scores) if scores else 0.0,
                "average_score": sum(scores) / len(scores) if scores else 0.0,
                "diversity": 0.0,
                "generation": int(self.island_generations[i]),
                "is_current": i == self.current_island,
            })
        return stats

    def log_island_status(self) -> None:
        for stat in self.get_island_stats():
            logger.info("Island %d: %d programs, best %.4f, mean %.4f, generation %d", stat["island"],
                        stat["population_size"], stat["best_score"], stat["average_score"], stat["generation"])

    # --- artifacts and prompts ------------------------------------------------------------------

    def store_artifacts(self, program_id: str, artifacts: dict[str, Any]) -> None:
        if program_id not in self.programs:
            logger.warning("no program %s to store artifacts for", program_id)
            return
        self._artifacts.setdefault(program_id, {}).update(copy.deepcopy(artifacts))

    def get_artifacts(self, program_id: str) -> dict[str, Any]:
        return copy.deepcopy(self._artifacts.get(program_id, {}))

    def log_prompt(self, program_id: str, template_key: str, prompt: dict[str, Any],
                   responses: Optional[list[Optional[str]]] = None, token_usage: Optional[dict[str, Any]] = None) -> None:
        if not self.config.log_prompts:
            return
        entry = copy.deepcopy(prompt)
        entry["responses"] = list(copy.deepcopy(responses or []))
        if token_usage is not None:
            entry["token_usage"] = copy.deepcopy(token_usage)
        self.prompts_by_program.setdefault(program_id, {})[template_key] = entry

    def get_prompt_history(self, program_id: str) -> dict[str, Any]:
        return copy.deepcopy((self.prompts_by_program or {}).get(program_id, {}))

    # --- checkpoints: evodb database directories -----------------------------------------------

    def save(self, path: Optional[str] = None, iteration: int = 0) -> None:
        """Writes an evodb database directory (`evodb view`/`validate`/`copy` open it) with
        OpenEvolve's extra state in `openevolve.json` beside it."""
        where = path or self.config.db_path
        if not where:
            logger.warning("No database path specified, skipping save")
            return
        directory = self._db.save(where)
        sidecar = {
            "format": 1,
            "last_iteration": int(iteration or self.last_iteration),
            "current_island": int(self.current_island),
            "island_generations": [int(g) for g in self.island_generations],
            "islands": [list(members) for members in self._members],
            "archive": sorted(self.archive),
            "best_program_id": self.best_program_id,
            "programs": {pid: _program_json(p) for pid, p in self.programs.items()},
            "fitness": self._fitness,
            "artifacts": {pid: _artifacts_json(a) for pid, a in self._artifacts.items()},
            "prompts": self.prompts_by_program or {},
            "rng": _rng_json(self._rng),
        }
        temp = directory / f".{SIDECAR}.tmp"
        temp.write_text(json.dumps(sidecar), encoding="utf-8")
        os.replace(temp, directory / SIDECAR)
        logger.info("Saved evodb database with %d programs to %s", len(self.programs), directory)

    def load(self, path: str) -> None:
        """Reads a directory `save` wrote (or any evodb run: programs come from database.json)."""
        self._db = Database.open(path)
        sidecar_path = Path(path) / SIDECAR
        if sidecar_path.is_file():
            state = json.loads(sidecar_path.read_text(encoding="utf-8"))
            self.programs = {pid: Program.from_dict(p) for pid, p in state["programs"].items()}
            self._fitness = {pid: float(v) for pid, v in state["fitness"].items()}
            self._members = [dict.fromkeys(members) for members in state["islands"]]
            self.archive = set(state["archive"])
            self.best_program_id = state["best_program_id"]
            self.last_iteration = int(state["last_iteration"])
            self.current_island = int(state["current_island"])
            self.island_generations = list(state["island_generations"])
            self._artifacts = {pid: _artifacts_from_json(a) for pid, a in state["artifacts"].items()}
            self.prompts_by_program = state["prompts"]
            self._rng.setstate(_rng_from_json(state["rng"]))
        else:
            self._load_from_database_json(json.loads(self._db.to_json()))
        self.islands = [set(members) for members in self._members]

    def _load_from_database_json(self, stored: dict[str, Any]) -> None:
        """A run evodb made itself: its programs as OpenEvolve Programs."""
        self.programs, self._fitness = {}, {}
        self._members = [dict.fromkeys(island) for island in stored["islands"]]
        island_of = {pid: i for i, island in enumerate(stored["islands"]) for pid in island}
        for pid, p in stored["programs"].items():
            metrics = {name: float(v) for name, v in (p.get("metrics") or {}).items()}
            self.programs[pid] = Program(
                id=pid, code=p.get("targetCode", ""), parent_id=None if p.get("parentId") in (None, "0") else p["parentId"],
                generation=int(p.get("generation", 0)), timestamp=float(p.get("timestamp", 0.0)),
                iteration_found=int(p.get("iterationFound", 0)), metrics=metrics,
                changes_description=p.get("changes", ""), metadata={"island": island_of.get(pid, 0)})
            self._fitness[pid] = float(get_fitness_score(metrics, self.config.feature_dimensions))
        self.best_program_id = stored.get("bestProgramId") or None
        self.last_iteration = int(stored.get("lastIteration", 0))
        self.current_island = int(stored.get("currentIsland", 0))


class EvodbOpenEvolve(OpenEvolve):  # type: ignore[misc]
    """OpenEvolve's controller with its population in evodb: the same arguments as `OpenEvolve`,
    plus `feature_ranges` for metric feature dimensions (default `(0, 1)` each)."""

    def __init__(self, *args: Any, feature_ranges: Optional[dict[str, tuple[float, float]]] = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        use_evodb(self, feature_ranges=feature_ranges)


def use_evodb(controller: Any, feature_ranges: Optional[dict[str, tuple[float, float]]] = None) -> EvodbProgramDatabase:
    """Puts an `EvodbProgramDatabase` in place of an `OpenEvolve` controller's (before `run`)."""
    database = EvodbProgramDatabase(controller.config.database, feature_ranges=feature_ranges)
    controller.database = database
    controller.evaluator.database = database
    return database


def _program_json(program: Program) -> dict[str, Any]:
    data = program.to_dict()
    data.pop("embedding", None)
    return json.loads(json.dumps(data, default=str))  # type: ignore[no-any-return]


def _artifacts_json(artifacts: dict[str, Any]) -> dict[str, Any]:
    return {k: {"base64": base64.b64encode(v).decode("ascii")} if isinstance(v, bytes) else v for k, v in artifacts.items()}


def _artifacts_from_json(artifacts: dict[str, Any]) -> dict[str, Any]:
    return {k: base64.b64decode(v["base64"]) if isinstance(v, dict) and set(v) == {"base64"} else v
            for k, v in artifacts.items()}


def _rng_json(rng: random.Random) -> list[Any]:
    version, state, gauss = rng.getstate()
    return [version, list(state), gauss]


def _rng_from_json(data: list[Any]) -> tuple[Any, ...]:
    return (data[0], tuple(data[1]), data[2])
