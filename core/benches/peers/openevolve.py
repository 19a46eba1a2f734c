#!/usr/bin/env python3
"""OpenEvolve 0.4.0's ProgramDatabase on evodb's add + sample workload (core/benches/workload.rs).

    python3 core/benches/peers/openevolve.py [populations...]   # default: 120 1000

Installs openevolve==0.4.0 into core/benches/peers/.venv on first use (needs PyPI) and prints one
JSON line per population: {"id": "peer.openevolve.<N>", "value": µs per add + sample, …}.
`bench/run` runs it beside evodb's own figures and prints the ratios.
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
# This file is named like the package it measures: keep its folder off the import path.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != HERE]
OPS = 200  # timed add + sample rounds per size (the peer is slow; evodb's bench runs 20,000)


def in_venv():
    python = VENV / "bin" / "python"
    if VENV.exists() and Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "openevolve==0.4.0"], check=True)
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


def openevolve_us(population):
    """The same config as evodb's bench: 3 islands, ring migration of 10% every 10 generations."""
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
    for population in [int(a) for a in sys.argv[1:]] or [120, 1000]:
        us, live = openevolve_us(population)
        print(json.dumps({"id": f"peer.openevolve.{population}", "label": "OpenEvolve 0.4.0 ProgramDatabase",
                          "value": round(us, 1), "unit": "µs", "live_programs": live}), flush=True)


if __name__ == "__main__":
    main()
