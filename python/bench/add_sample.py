#!/usr/bin/env python3
"""add + sample through the evodb Python package beside OpenEvolve's in-memory ProgramDatabase.

    python python/bench/add_sample.py [populations…]     # default: 120 1000 10000
    python python/bench/add_sample.py --native            # also the native core (cargo run
                                                          # --release -p evodb-core --example bench)

The workload is core/benches/workload.rs's, the one bench/run measures for the core: N programs
on 3 islands of N/3, then timed rounds of one add followed by one sample (islands full, so each
add also prunes). Measured in the same run, per population:
  evodb        evodb.Database (the pure component under wasmtime-py)
  adapter      evodb.openevolve.EvodbProgramDatabase (OpenEvolve's Program objects on evodb)
  OpenEvolve   openevolve.database.ProgramDatabase, in memory (the installed OpenEvolve)
and the ratios; then the cost of one call through wasmtime-py (raw, and with the package's typed
results) beside the native core. A benchmark, not a test: figures move ±30% on a shared machine;
ratios from one run move less. Filling OpenEvolve with 10,000 programs takes minutes.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from evodb import AddRequest, Database

REPO = Path(__file__).resolve().parents[2]


def score(i: int) -> float:
    return (i * 2654435761 % 10000) / 10000


def code(i: int) -> str:
    return "def f(x):\n" + "    x += 1\n" * (i % 5) + f"    return x * {i}\n"


def rounds_for(population: int, slow: bool) -> int:
    return max(20, min(200, 20_000 // population)) if slow else 2000


def timed(population: int, rounds: int, add: Callable[[int, str], None], sample: Callable[[], str]) -> float:
    for i in range(population):
        add(i, "0")
    parent = "0"
    start = time.perf_counter()
    for i in range(population, population + rounds):
        add(i, parent)
        parent = sample()
    return (time.perf_counter() - start) * 1e6 / rounds


def evodb_us(population: int) -> float:
    db = Database(config={"maxIslandSize": math.ceil(population / 3)}, seed=1)
    db.record_events(False)  # nothing is saved here; the core's bench records nothing either

    def add(i: int, parent: str) -> None:
        db.add(AddRequest(target_code=code(i), metrics={"score": score(i), "speed": 1 - score(i)},
                          code_path=f"/run/candidates/iteration_{i}.py", parent_id=parent, changes="mutated"),
               now=float(i))

    def sample() -> str:
        parent = db.sample().parent
        return parent.id if parent else "0"

    return timed(population, rounds_for(population, False), add, sample)


def openevolve_config(population: int) -> Any:
    from openevolve.config import DatabaseConfig

    return DatabaseConfig(population_size=population, num_islands=3, migration_interval=10, migration_rate=0.1,
                          exploration_ratio=0.3, exploitation_ratio=0.7, archive_size=population,
                          in_memory=True, db_path=None, random_seed=1)


def openevolve_us(population: int, adapter: bool) -> float:
    from openevolve.database import Program, ProgramDatabase

    if adapter:
        from evodb.openevolve import EvodbProgramDatabase

        db: Any = EvodbProgramDatabase(openevolve_config(population))
    else:
        db = ProgramDatabase(openevolve_config(population))

    def add(i: int, parent: str) -> None:
        db.add(Program(id=f"p{i}", code=code(i), parent_id=None if parent == "0" else parent,
                       changes_description="mutated", metrics={"score": score(i), "speed": 1 - score(i)}),
               iteration=i)

    def sample() -> str:
        parent, _inspirations = db.sample()
        return str(parent.id)

    return timed(population, rounds_for(population, True), add, sample)


def native_us(sizes: list[int]) -> dict[int, float]:
    done = subprocess.run(["cargo", "run", "--release", "-q", "-p", "evodb-core", "--example", "bench", "--",
                           *map(str, sizes)], cwd=REPO, capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {int(line["population"]): float(line["add_sample_us"]) for line in lines if line["engine"] == "seed"}


def one_call_us() -> tuple[float, float]:
    """`info` (no arguments, a small record back): raw wasmtime-py, and with the typed result."""
    db = Database(config={}, seed=1)
    db.add(AddRequest(target_code="x", metrics={"s": 1.0}), now=0.0)
    raw = db._instance.func("[method]database.info")  # the component call alone
    store, handle, n = db._instance.store, db._handle, 20_000
    start = time.perf_counter()
    for _ in range(n):
        raw(store, handle)
    raw_us = (time.perf_counter() - start) * 1e6 / n
    start = time.perf_counter()
    for _ in range(n):
        db.info()
    return raw_us, (time.perf_counter() - start) * 1e6 / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[120, 1000, 10000])
    parser.add_argument("--native", action="store_true", help="also run the native core's bench (a cargo build)")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    try:
        import openevolve  # noqa: F401
        peer = True
    except ImportError:
        peer = False
        print("OpenEvolve is not installed (pip install 'evodb[openevolve]'): measuring evodb alone", file=sys.stderr)
    native = native_us(args.sizes) if args.native else {}
    print("| population | evodb (Python) | adapter | OpenEvolve | OpenEvolve ÷ evodb | OpenEvolve ÷ adapter | native core | evodb ÷ native |")
    print("|---|---|---|---|---|---|---|---|")
    for population in args.sizes:
        ours = evodb_us(population)
        adapter = openevolve_us(population, adapter=True) if peer else math.nan
        theirs = openevolve_us(population, adapter=False) if peer else math.nan
        core = native.get(population, math.nan)
        print(f"| {population:,} | {ours:.1f} µs | {adapter:.1f} µs | {theirs:.1f} µs | {theirs / ours:.1f}× "
              f"| {theirs / adapter:.1f}× | {core:.2f} µs | {ours / core:.1f}× |", flush=True)
    raw, typed = one_call_us()
    print(f"\none call (`info`) through wasmtime-py: {raw:.1f} µs raw, {typed:.1f} µs with the typed result")


if __name__ == "__main__":
    main()
