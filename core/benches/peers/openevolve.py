#!/usr/bin/env python3
"""evodb vs OpenEvolve 0.4.0's ProgramDatabase: the same add + sample workload, in one run.

    python3 core/benches/peers/openevolve.py [populations...]   # default: 120 1000

Installs openevolve==0.4.0 into core/benches/peers/.venv on first use (needs PyPI), builds and
runs evodb's bench runner (`cargo run --release -p evodb-core --example bench`), times OpenEvolve
on the same population sizes, and prints one JSON line per size with both figures and the ratio.
Not part of CI: it downloads a package and takes a minute.
"""

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv"
REPO = HERE.parents[2]
# This file is named like the package it measures: keep its folder off the import path.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
OPS = 200  # timed add + sample rounds per size on the peer (it is slow; ours runs 20,000)


def in_venv():
    python = VENV / "bin" / "python"
    if VENV.exists() and Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "openevolve==0.4.0"], check=True)
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


def evodb_figures(sizes):
    cmd = ["cargo", "run", "--release", "-q", "-p", "evodb-core", "--example", "bench", "--", *map(str, sizes)]
    out = subprocess.run(cmd, cwd=REPO, check=True, capture_output=True, text=True).stdout
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {line["population"]: line for line in lines}


def openevolve_us(population):
    from openevolve.config import DatabaseConfig
    from openevolve.database import Program, ProgramDatabase

    config = DatabaseConfig(
        population_size=population, num_islands=3, migration_interval=10, migration_rate=0.1,
        exploration_ratio=0.3, exploitation_ratio=0.7, archive_size=population, in_memory=True,
        db_path=None, random_seed=1,
    )
    db = ProgramDatabase(config)

    def program(i, parent):
        score = (i * 2654435761 % 10000) / 10000
        return Program(id=f"p{i}", code=f"def f(x):\n    return x * {i}\n", parent_id=parent,
                       changes_description="mutated", metrics={"score": score, "speed": 1 - score})

    for i in range(population):
        db.add(program(i, None), iteration=i)
    parent = None
    start = time.perf_counter()
    for i in range(population, population + OPS):
        db.add(program(i, parent), iteration=i)
        sampled, _inspirations = db.sample()
        parent = sampled.id
    return (time.perf_counter() - start) * 1e6 / OPS, len(db.programs)


def main():
    in_venv()
    logging.disable(logging.CRITICAL)
    sizes = [int(a) for a in sys.argv[1:]] or [120, 1000]
    # evodb's population is island capacity; shared migrants mean it holds ~1/3 as many distinct
    # programs. Three times the capacity holds about as many live programs as OpenEvolve does.
    ours = evodb_figures(sorted(set(sizes + [3 * s for s in sizes])))
    for population in sizes:
        peer_us, peer_live = openevolve_us(population)
        our_us = ours[population]["add_sample_us"]
        matched = ours[3 * population]
        print(json.dumps({
            "population": population,
            "openevolve_0_4_0_add_sample_us": round(peer_us, 1),
            "openevolve_live_programs": peer_live,
            "evodb_add_sample_us": our_us,
            "evodb_live_programs": ours[population]["live_programs"],
            "ratio": round(peer_us / our_us, 1),
            "evodb_live_matched_add_sample_us": matched["add_sample_us"],
            "evodb_live_matched_programs": matched["live_programs"],
            "ratio_live_matched": round(peer_us / matched["add_sample_us"], 1),
        }), flush=True)


if __name__ == "__main__":
    main()
