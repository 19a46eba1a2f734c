"""`evodb.openevolve.EvodbProgramDatabase` against the behaviours OpenEvolve's controller and its
backend contract (openevolve tests/test_database_contract.py) rely on — written here from those
behaviours, plus what evodb adds: its fitness, pruning, migration and checkpoint directories."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openevolve", reason="OpenEvolve is not installed: pip install 'evodb[openevolve]'")

from openevolve.config import DatabaseConfig  # noqa: E402
from openevolve.database import Program, ProgramDatabase  # noqa: E402

from evodb.openevolve import EvodbProgramDatabase  # noqa: E402


def config(tmp_path: Path, **overrides: Any) -> DatabaseConfig:
    settings: dict[str, Any] = dict(num_islands=3, feature_dimensions=["width"], exploration_ratio=1.0,
                                    exploitation_ratio=0.0, random_seed=11, artifacts_base_path=str(tmp_path))
    settings.update(overrides)
    return DatabaseConfig(**settings)


def program(pid: str, score: float, **fields: Any) -> Program:
    metrics = fields.pop("metrics", {"combined_score": score, "width": 0.25, "speed": 2 * score})
    return Program(id=pid, code=f"def solve():\n    return {score!r}\n", metrics=metrics, **fields)


@pytest.fixture
def db(tmp_path: Path) -> EvodbProgramDatabase:
    return EvodbProgramDatabase(config(tmp_path))


def populate(db: EvodbProgramDatabase) -> None:
    for island, (pid, score) in enumerate([("a", 0.3), ("b", 0.9), ("c", 0.6)]):
        assert db.add(program(pid, score), iteration=0, target_island=island) == pid


def test_an_empty_database_answers_empty_and_refuses_to_sample(db: EvodbProgramDatabase) -> None:
    assert isinstance(db, ProgramDatabase)
    assert db.get_state().program_count == 0
    assert db.get("nothing") is None and db.get_best_program() is None
    assert db.get_top_programs(5) == [] and db.get_artifacts("nothing") == {}
    assert db.get_prompt_history("nothing") == {}
    with pytest.raises(ValueError, match="empty"):
        db.sample_from_island(1)


def test_what_is_stored_is_a_copy_both_ways(db: EvodbProgramDatabase) -> None:
    mine = program("x", 0.5, metadata={"tags": ["kept"]})
    db.add(mine, iteration=4, target_island=2)
    mine.code, mine.metrics["combined_score"] = "mutated", 99.0
    mine.metadata["tags"].append("mutated")
    stored = db.get("x")
    assert stored is not None
    assert stored.code.startswith("def solve") and stored.iteration_found == 4
    assert stored.metadata == {"tags": ["kept"], "island": 2}
    stored.metrics["combined_score"] = -1.0
    again = db.get("x")
    assert again is not None and again.metrics["combined_score"] == 0.5


def test_ranked_queries_are_bounded_checked_and_detached(db: EvodbProgramDatabase) -> None:
    populate(db)
    assert [p.id for p in db.get_top_programs(2)] == ["b", "c"]
    assert db.get_top_programs(0) == []
    assert [p.id for p in db.get_top_programs(10, island_idx=2)] == ["c"]
    with pytest.raises(ValueError):
        db.get_top_programs(-2)
    with pytest.raises(IndexError):
        db.get_top_programs(1, island_idx=3)
    best = db.get_best_program()
    assert best is not None and best.id == "b"
    best.code = "changed"
    assert db.get("b").code != "changed"  # type: ignore[union-attr]


def test_a_named_metric_ranks_without_moving_the_best(db: EvodbProgramDatabase) -> None:
    populate(db)
    by_speed = db.get_best_program(metric="speed")
    assert by_speed is not None and by_speed.id == "b"
    db.add(program("d", 0.1, metrics={"combined_score": 0.1, "width": 0.2, "latency": 5.0}), target_island=0)
    assert db.get_best_program(metric="latency").id == "d"  # type: ignore[union-attr]
    assert db.get_best_program().id == "b"  # type: ignore[union-attr]
    assert db.get_top_programs(3, metric="no-such-metric") == []


def test_samples_stay_on_their_island_within_the_limit_and_are_copies(db: EvodbProgramDatabase) -> None:
    populate(db)
    db.add(program("b2", 0.8, parent_id="b"), iteration=1)
    for limit in (0, 1, 4):
        parent, inspirations = db.sample_from_island(1, num_inspirations=limit)
        assert parent.id in {"b", "b2"} and len(inspirations) <= limit
        assert all(p.id in {"b", "b2"} and p.id != parent.id for p in inspirations)
        parent.code = "changed"
    assert all("changed" != p.code for p in db.programs.values())
    assert db.get_state().current_island == 0


def test_a_named_island_wins_over_the_parents(db: EvodbProgramDatabase) -> None:
    populate(db)
    db.add(program("child", 0.95, parent_id="a"), iteration=2, target_island=2)
    db.add(program("heir", 0.2, parent_id="a"), iteration=3)
    assert db.get("child").metadata["island"] == 2  # type: ignore[union-attr]
    assert db.get("heir").metadata["island"] == 0  # type: ignore[union-attr]
    assert db.get_top_programs(1, island_idx=2)[0].id == "child"
    assert db.get_best_program().id == "child"  # type: ignore[union-attr]


def test_progress_only_grows(db: EvodbProgramDatabase) -> None:
    populate(db)
    for iteration in (6, 3, 9, 9):
        db.record_iteration(iteration)
    state = db.get_state()
    assert (state.last_iteration, state.program_count, state.num_islands) == (9, 3, 3)
    assert state.feature_dimensions == ("width",)
    with pytest.raises(ValueError):
        db.record_iteration(-3)


def test_artifacts_and_prompts_are_kept_as_written(db: EvodbProgramDatabase) -> None:
    populate(db)
    artifacts: dict[str, Any] = {"stdout": "ran", "blob": b"\x00\x01", "big": "y" * 50_000}
    db.store_artifacts("a", artifacts)
    artifacts["stdout"] = "changed"
    got = db.get_artifacts("a")
    assert got["stdout"] == "ran" and got["blob"] == b"\x00\x01" and len(got["big"]) == 50_000
    got["stdout"] = "changed"
    assert db.get_artifacts("a")["stdout"] == "ran"
    prompt = {"system": "be terse", "user": "improve it"}
    answers: list[str | None] = ["done"]
    db.log_prompt("a", "diff_user", prompt, answers)
    prompt["user"], answers[0] = "changed", "changed"
    assert db.get_prompt_history("a") == {"diff_user": {"system": "be terse", "user": "improve it", "responses": ["done"]}}


def test_island_generations_are_reported_as_copies(db: EvodbProgramDatabase) -> None:
    populate(db)
    assert not db.should_migrate()
    db.increment_island_generation(2)
    stats = db.get_island_stats()
    assert stats[2]["generation"] == 1 and stats[1]["best_score"] == 0.9
    stats[2]["generation"] = 50
    assert db.get_island_stats()[2]["generation"] == 1


def test_fitness_is_combined_score_else_the_mean_of_non_feature_metrics(tmp_path: Path) -> None:
    import numpy as np
    from openevolve.utils.metrics_utils import get_fitness_score

    db = EvodbProgramDatabase(config(tmp_path))
    db.add(program("plain", 0, metrics={"width": 0.9, "accuracy": 0.6, "recall": 0.2, "note": "text"}),
           target_island=0)
    mixed = {"width": 0.1, "accuracy": np.float32(0.25), "recall": np.int64(1), "passed": True}
    db.add(program("numpy", 0, metrics=mixed), target_island=1)
    db.add(program("scored", 0, metrics={"combined_score": 0.5, "width": 0.1}), target_island=0)
    assert db.get_best_program().id == "scored"  # type: ignore[union-attr]
    stats = db.evodb.stats()
    assert stats.best_fitness == 0.5 and stats.program_count == 3
    stored = json.loads(db.evodb.to_json())["programs"]
    assert stored["plain"]["metrics"]["combined_score"] == pytest.approx(0.4)  # the mean without `width`
    assert stored["numpy"]["metrics"]["combined_score"] == pytest.approx(get_fitness_score(mixed, ["width"]))
    assert set(stored["numpy"]["metrics"]) == {"width", "accuracy", "recall", "combined_score"}
    assert db.get("plain").metrics["note"] == "text"  # type: ignore[union-attr]


def test_islands_are_pruned_to_population_size_and_the_best_survives(tmp_path: Path) -> None:
    db = EvodbProgramDatabase(config(tmp_path, num_islands=2, population_size=8, archive_size=2,
                                     migration_interval=1000))
    for i in range(30):
        db.add(program(f"p{i}", (i * 7 % 30) / 30), iteration=i, target_island=i % 2)
    assert all(len(island) <= 4 for island in db.islands)
    assert len(db.programs) == sum(len(island) for island in db.islands)
    assert db.get_best_program().metrics["combined_score"] == pytest.approx(29 / 30)  # type: ignore[union-attr]
    assert db.evodb.info().program_count == len(db.programs)


def test_evodb_migrates_copies_around_the_ring(tmp_path: Path) -> None:
    db = EvodbProgramDatabase(config(tmp_path, num_islands=2, migration_interval=2, migration_rate=0.5))
    for i in range(8):
        db.add(program(f"m{i}", i / 10), iteration=i, target_island=i % 2)
    migrants = [p for p in db.programs.values() if p.metadata.get("migrant")]
    assert migrants, "no program migrated"
    for migrant in migrants:
        assert migrant.id in db.islands[migrant.metadata["island"]] and migrant.parent_id in db.programs


def test_a_checkpoint_is_an_evodb_run_and_loads_back_exactly(tmp_path: Path, evodb_bin: str) -> None:
    db = EvodbProgramDatabase(config(tmp_path))
    populate(db)
    db.add(program("d", 0.7, parent_id="c"), iteration=1)
    db.store_artifacts("d", {"stderr": b"warn"})
    db.log_prompt("d", "full_rewrite_user", {"system": "s", "user": "u"}, ["r"])
    checkpoint = tmp_path / "checkpoints" / "checkpoint_1"
    db.save(str(checkpoint), 1)
    checked = subprocess.run([evodb_bin, "validate", "--history", str(checkpoint)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    best = subprocess.run([evodb_bin, "best", str(checkpoint)], capture_output=True, text=True)
    assert json.loads(best.stdout)["id"] == "b"
    restored = EvodbProgramDatabase(config(tmp_path))
    restored.load(str(checkpoint))
    assert restored.programs.keys() == db.programs.keys() and restored.islands == db.islands
    assert restored.get_artifacts("d") == {"stderr": b"warn"} and restored.get_prompt_history("d")
    assert restored.last_iteration == 1 and restored.best_program_id == "b"
    assert [p.id for p in restored.sample_from_island(2, 2)[1]] == [p.id for p in db.sample_from_island(2, 2)[1]]
    restored.add(program("e", 0.99, parent_id="d"), iteration=2)
    restored.save(str(tmp_path / "checkpoints" / "checkpoint_2"), 2)
    checked = subprocess.run([evodb_bin, "validate", "--history", str(tmp_path / "checkpoints" / "checkpoint_2")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_same_seed_gives_the_same_samples_and_best(tmp_path: Path) -> None:
    def run(seed: int) -> list[str]:
        db = EvodbProgramDatabase(config(tmp_path, random_seed=seed, exploration_ratio=0.3, exploitation_ratio=0.4))
        db.add(program("root", 0.1), iteration=0, target_island=0)
        drawn = []
        for i in range(1, 40):
            parent, inspirations = db.sample_from_island(i % 3, 3)
            drawn.append(parent.id + ":" + ",".join(p.id for p in inspirations))
            db.add(program(f"n{i}", (i * 13 % 17) / 17, parent_id=parent.id), iteration=i, target_island=i % 3)
        return drawn + [str(db.best_program_id)]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_population_strategies_are_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="population_strategy=None"):
        EvodbProgramDatabase(config(tmp_path), population_strategy=object())
