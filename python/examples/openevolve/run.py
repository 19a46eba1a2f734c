"""A whole OpenEvolve evolution on evodb, the LLM replaced by a deterministic stub.

    python python/examples/openevolve/run.py OUTPUT_DIR [--seed N] [--iterations N] [--resume CHECKPOINT]

OpenEvolve's own controller (`EvodbOpenEvolve` is `OpenEvolve` with `EvodbProgramDatabase`
in place of its `ProgramDatabase`) evolves `initial_program.py` against `evaluator.py`; every
checkpoint under OUTPUT_DIR/checkpoints is an evodb database directory (`evodb view` it). Prints
the best program as JSON. The same seed gives the same best program.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # OpenEvolve's worker processes import stub_llm by name

from openevolve.config import Config, LLMModelConfig  # noqa: E402

import stub_llm  # noqa: E402
from evodb.openevolve import EvodbOpenEvolve  # noqa: E402


def config(seed: int, iterations: int) -> Config:
    cfg = Config()
    cfg.max_iterations = iterations
    cfg.random_seed = seed
    cfg.checkpoint_interval = 5
    cfg.diff_based_evolution = False
    cfg.log_level = "WARNING"
    cfg.llm.models = [LLMModelConfig(name="stub", init_client=stub_llm.init_client, weight=1.0)]
    cfg.llm.evaluator_models = cfg.llm.models
    cfg.database.num_islands = 2
    cfg.database.population_size = 40
    cfg.database.archive_size = 10
    cfg.database.migration_interval = 4
    cfg.database.feature_dimensions = ["error"]
    cfg.database.random_seed = seed
    cfg.evaluator.parallel_evaluations = 1  # one worker: iterations complete in order
    cfg.evaluator.cascade_evaluation = False
    cfg.evaluator.timeout = 60
    return cfg


async def evolve(output: Path, seed: int, iterations: int, resume: Path | None = None) -> dict[str, object]:
    controller = EvodbOpenEvolve(str(HERE / "initial_program.py"), str(HERE / "evaluator.py"),
                                 config=config(seed, iterations), output_dir=str(output),
                                 feature_ranges={"error": (0.0, 1.0)})
    best = await controller.run(iterations=iterations, checkpoint_path=str(resume) if resume else None)
    assert best is not None
    return {"code": best.code, "metrics": best.metrics, "programs": len(controller.database.programs),
            "checkpoints": sorted(p.name for p in (output / "checkpoints").iterdir())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=12)
    parser.add_argument("--resume", type=Path, help="a checkpoint directory to go on from")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(json.dumps(asyncio.run(evolve(args.output, args.seed, args.iterations, args.resume)), indent=2))


if __name__ == "__main__":
    main()
