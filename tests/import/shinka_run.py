"""A small ShinkaEvolve run made by ShinkaEvolve's own ProgramDatabase (its SQLite file), for
`evodb import shinka` tests.

No LLM: each child is its parent's code with one line appended and a score drawn from a seeded
PRNG; the loop is the runner's (sample a parent, add the child with the next generation, run the
deferred maintenance: archive, best, migration). Every seventh candidate is incorrect, as a
failed test makes it in Shinka. Beside `<out>/evolution_db.sqlite`, `expected.json` records what
Shinka itself reports (programs, best program, islands, parents) for the test to compare with.

usage: python shinka_run.py <out> [generations]
"""

import json
import logging
import random
import sys

import numpy as np
from pathlib import Path

from shinka.database import DatabaseConfig, Program, ProgramDatabase

logging.disable(logging.WARNING)
out = Path(sys.argv[1])
generations = int(sys.argv[2]) if len(sys.argv) > 2 else 30
out.mkdir(parents=True, exist_ok=True)
rng = random.Random(11)
random.seed(11)  # Shinka draws parents from the global PRNGs
np.random.seed(11)

config = DatabaseConfig(
    db_path=str(out / "evolution_db.sqlite"),
    num_islands=2,
    archive_size=8,
    migration_interval=6,
    migration_rate=0.2,
)
db = ProgramDatabase(config)

clock = 1_700_000_000.0
initial = Program(
    id="gen0",
    code="def solve(x):\n    return x\n",
    generation=0,
    timestamp=clock,
    combined_score=0.1,
    public_metrics={"accuracy": 0.2},
    private_metrics={"runtime_s": 1.5},
    correct=True,
    metadata={"patch_name": "initial_program", "patch_type": "init"},
)
db.add(initial)
db.check_scheduled_operations()

for generation in range(1, generations + 1):
    parent, _archive, _top_k = db.sample()
    correct = generation % 7 != 0
    # Unclamped, to six places: no two programs tie for best (the tools break ties differently).
    score = round(parent.combined_score + rng.uniform(-0.1, 0.2), 6) if correct else 0.0
    child = Program(
        id=f"gen{generation}",
        code=parent.code + f"    # step {generation}: x = x + {rng.randint(1, 9)}\n",
        parent_id=parent.id,
        generation=generation,
        timestamp=clock + generation,
        code_diff=f"+    # step {generation}\n",
        combined_score=score,
        public_metrics={"accuracy": round(rng.random(), 4)},
        private_metrics={"runtime_s": round(rng.uniform(0.5, 3), 3)},
        text_feedback="" if correct else "test_solve failed: expected 6, got 5",
        correct=correct,
        metadata={"patch_name": f"add_{generation}", "patch_type": "diff"},
    )
    db.add(child)
    db.check_scheduled_operations()

programs = db.get_all_programs()
expected = {
    "sqlite": config.db_path,
    "programs": len(programs),
    "best": db.get_best_program().id,
    "island_of": {p.id: p.island_idx for p in programs},
    "parent_of": {p.id: p.parent_id for p in programs},
    "incorrect": sorted(p.id for p in programs if not p.correct),
}
db.close()
(out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True))
print(json.dumps({k: v for k, v in expected.items() if not isinstance(v, dict)}))
