"""A small OpenEvolve run made by OpenEvolve's own ProgramDatabase, saved as its controller saves
checkpoints (`<out>/checkpoints/checkpoint_<N>/`), for `evodb import openevolve` tests.

No LLM: each child is its parent's code with one line appended and a score drawn from a seeded
PRNG; the loop is the controller's (round-robin islands, sample from the island, add to it,
count the island's generation, migrate when due). Beside the checkpoint, `expected.json` records
what OpenEvolve itself reports (programs, best program, each program's island and parent) for
the test to compare with what evodb imported.

usage: python openevolve_run.py <out> [iterations]
"""

import json
import random
import sys
from pathlib import Path

from openevolve.config import DatabaseConfig
from openevolve.database import Program, ProgramDatabase

out = Path(sys.argv[1])
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 40
rng = random.Random(7)

config = DatabaseConfig(
    num_islands=3,
    population_size=30,
    archive_size=10,
    migration_interval=8,
    migration_rate=0.2,
    feature_dimensions=["complexity", "diversity"],
    feature_bins=4,
    random_seed=42,
)
db = ProgramDatabase(config)

clock = 1_700_000_000.0
initial = Program(
    id="initial",
    code="def solve(x):\n    return x\n",
    metrics={"combined_score": 0.1, "accuracy": 0.2, "runtime_s": 1.5},
    timestamp=clock,
    iteration_found=0,
    changes_description="the initial program",
)
db.add(initial, iteration=0)

for iteration in range(1, iterations + 1):
    island = db.next_island()
    parent, _inspirations = db.sample_from_island(island, num_inspirations=2)
    # Unclamped, to six places: no two programs tie for best (the tools break ties differently).
    score = round(parent.metrics["combined_score"] + rng.uniform(-0.15, 0.2), 6)
    metrics = {"combined_score": score, "accuracy": round(rng.random(), 4), "runtime_s": round(rng.uniform(0.5, 3), 3)}
    if iteration % 9 == 0 or iteration == iterations:
        # An evaluation that failed: OpenEvolve keeps the program with an error text among metrics.
        # The last one is a failure too: the newest program always survives the population limit,
        # so the fixture keeps one whatever order OpenEvolve prunes in.
        metrics = {"combined_score": 0.0, "error": "timed out after 30 s"}
    child = Program(
        id=f"p{iteration:03d}",
        code=parent.code + f"    # step {iteration}: x = x * {rng.randint(2, 9)}\n",
        parent_id=parent.id,
        generation=parent.generation + 1,
        timestamp=clock + iteration,
        iteration_found=iteration,
        metrics=metrics,
        changes_description=f"multiply by a constant (iteration {iteration})",
    )
    db.add(child, iteration=iteration, target_island=island)
    db.increment_island_generation(island)
    if db.should_migrate():
        db.migrate_programs()

checkpoint = out / "checkpoints" / f"checkpoint_{iterations}"
db.save(str(checkpoint), iterations)

island_of = {pid: i for i, members in enumerate(db.islands) for pid in members}
expected = {
    "checkpoint": str(checkpoint),
    "programs": len(db.programs),
    "islands": len(db.islands),
    "best": db.get_best_program().id,
    "island_of": island_of,
    "parent_of": {p.id: p.parent_id for p in db.programs.values()},
    "migrants": sorted(p.id for p in db.programs.values() if p.metadata.get("migrant")),
    "failed": sorted(p.id for p in db.programs.values() if "error" in p.metrics),
}
(out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True))
print(json.dumps({k: v for k, v in expected.items() if not isinstance(v, dict)}))
