"""One CLI call as a whole process, three peers side by side: the seed skill's own CLI (the
AlphaEvolve skill's `scripts/db-cli.mjs`, given with --seed-cli and never committed here), evodb's
Node drop-in (`node skill/scripts/db-cli.mjs`) and evodb native (`evodb`).

The database is one the seed's CLI wrote itself: `seed` then 119 rounds of its own `sample` + `add`
(120 programs added; the seed keeps 3 islands × 40). Without --seed-cli the seed peer is skipped,
said so in the table, and the database is the committed `tests/fixtures/seed-written` (also
written by the seed's CLI, 46 programs).

Each round runs every peer once, in turn, on its own fresh copy of the database (restored before
the call, outside the timing), so a drift of the shared machine hits all three alike. A call's wall
time is from spawn to reaped; its CPU time is the kernel's account of the process (user + system,
with the children it reaped: the drop-in's flock(1)). Medians are quoted, and each ratio is the
median of the per-round ratios.
"""

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = ["info", "sample", "best", "add"]
# Environment variables that make every Node process start slower (NODE_EXTRA_CA_CERTS: Node
# parses that certificate bundle at start, ~50 ms of CPU a call on the machine where this was
# written); the table names the ones set, since they move both Node peers' figures.
NODE_START_VARIABLES = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"]
FIXTURE_PROGRAMS = 120
SEED = "seed"
DROP_IN = "drop-in"
NATIVE = "native"


def peers(repo, evodb, seed_cli):
    """(key, label, argv prefix) of each peer; the seed's is None when --seed-cli was not given."""
    seed = ["node", str(seed_cli)] if seed_cli else None
    return [
        (SEED, "the seed skill's CLI", seed),
        (DROP_IN, "evodb's Node drop-in", ["node", str(repo / "skill" / "scripts" / "db-cli.mjs")]),
        (NATIVE, "evodb native", [str(evodb)]),
    ]


def check_seed_cli(repo, seed_cli):
    """The seed's CLI must be a file, and not evodb's own drop-in (that would measure it twice)."""
    if seed_cli is None:
        return None
    seed_cli = seed_cli.resolve()
    if not seed_cli.is_file():
        sys.exit(f"--seed-cli {seed_cli}: no such file; give the seed skill's scripts/db-cli.mjs "
                 "(github.com/yangwenz/alphaevolve-skill), e.g. a clone under /tmp")
    if seed_cli == (repo / "skill" / "scripts" / "db-cli.mjs").resolve():
        sys.exit(f"--seed-cli {seed_cli}: that is evodb's own Node drop-in; give the seed skill's "
                 "scripts/db-cli.mjs (github.com/yangwenz/alphaevolve-skill)")
    return seed_cli


def write_fixture(seed_cli, directory, programs=FIXTURE_PROGRAMS):
    """A database the seed's CLI writes itself: `seed`, then (`sample`, `add` a child of the sampled
    parent) until `programs` were added; metrics from a fixed PRNG, so the shape repeats."""
    directory.mkdir(parents=True)
    rng = random.Random(7)

    def call(*args):
        out = subprocess.run(["node", str(seed_cli), *args], check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    def metrics():
        return json.dumps({"benchmark-score": round(rng.random(), 4), "efficiency-score": round(rng.random(), 4)})

    call("seed", str(directory), "--codePath", "/candidates/seed.py", "--targetCode", "def f(x):\n    return x\n",
         "--metrics", metrics())
    for i in range(programs - 1):
        parent = call("sample", str(directory))["parent"]["id"]
        call("add", str(directory), "--codePath", f"/candidates/iteration_{i + 1}.py",
             "--targetCode", f"def f(x):\n    return x + {i}\n", "--parentId", parent,
             "--metrics", metrics(), "--changes", f"child {i + 1} of {parent}")
    return directory / "database.json"


def command_args(command, directory, parent):
    args = [command, str(directory)]
    if command == "add":
        args += ["--codePath", "/candidates/bench.py", "--targetCode", "def f(x):\n    return x\n",
                 "--parentId", parent, "--metrics", '{"benchmark-score": 0.5, "efficiency-score": 0.4}',
                 "--changes", "bench"]
    return args


def timed(argv):
    """(wall s, CPU s) of one process; stdout is dropped, a failure says the command and its stderr."""
    with tempfile.TemporaryFile() as err:
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                   (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(f"bench: `{' '.join(argv)}` failed: {err.read().decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime


def restore(directory, fixture_bytes):
    """The peer's directory holds the fixture again, and nothing else (no history, no lock)."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir()
    (directory / "database.json").write_bytes(fixture_bytes)


def measure(repo, evodb, seed_cli, runs, scratch):
    """The JSON lines bench/run reads: `cli.<command>.<peer>` with wall and CPU medians (ms), the
    ratios, `cli.floor` and `cli.version` for scale, and `cli.fixture` saying what was measured on."""
    seed_cli = check_seed_cli(repo, seed_cli)
    if not evodb.is_file():
        sys.exit(f"{evodb} is missing: cargo build --release -p evodb-host, or give --evodb PATH")
    # Timed as installed: `cargo install` copies the binary. The file the linker just wrote sits
    # in the page cache in small pieces, and starting it from there took ~55 more page faults a
    # call (~0.2 ms) than starting the same bytes copied.
    installed = scratch / "bin" / "evodb"
    installed.parent.mkdir()
    shutil.copy2(evodb, installed)
    evodb = installed
    if seed_cli:
        print(f"   writing the fixture with the seed's CLI ({FIXTURE_PROGRAMS} programs, ~{FIXTURE_PROGRAMS // 4} s)",
              file=sys.stderr)
        fixture = write_fixture(seed_cli, scratch / "fixture")
        fixture_label = (f"written by the seed's CLI: `seed` + {FIXTURE_PROGRAMS - 1} × (`sample`, `add`), "
                         f"{len(json.loads(fixture.read_text())['programs'])} programs kept")
    else:
        print("   the seed's CLI: not measured (no --seed-cli PATH/TO/alphaevolve-skill/scripts/db-cli.mjs)",
              file=sys.stderr)
        fixture = repo / "tests" / "fixtures" / "seed-written" / "database.json"
        fixture_label = "`tests/fixtures/seed-written` (written by the seed's CLI, 46 programs)"
    fixture_bytes = fixture.read_bytes()
    parent = json.loads(fixture_bytes)["bestProgramId"]
    lines = [{"id": "cli.fixture", "label": fixture_label, "runs": runs}]

    for key, argv in [("floor", ["true"]), ("version", [str(evodb), "--version"]), ("node", ["node", "-e", "0"])]:
        walls, cpus = zip(*[timed(argv) for _ in range(runs * 2)])
        lines.append({"id": f"cli.{key}", "wall_ms": ms(statistics.median(walls)), "cpu_ms": ms(statistics.median(cpus))})
    # Node reads these at every start, before any script runs: both Node peers pay them alike.
    lines.append({"id": "cli.node_env", "set": [name for name in NODE_START_VARIABLES if os.environ.get(name)]})

    present = [(key, label, argv) for key, label, argv in peers(repo, evodb, seed_cli) if argv]
    for key, label, argv in peers(repo, evodb, seed_cli):
        if not argv:
            lines.append({"id": f"cli.peer.{key}", "label": label, "skipped":
                          "not given: --seed-cli PATH/TO/alphaevolve-skill/scripts/db-cli.mjs"})
        else:
            lines.append({"id": f"cli.peer.{key}", "label": label})
    for command in COMMANDS:
        samples = {key: [] for key, _, _ in present}
        for round_ in range(runs + 1):  # the first round warms the page cache and is not counted
            order = present[round_ % len(present):] + present[:round_ % len(present)]
            for key, _, argv in order:
                directory = scratch / key
                restore(directory, fixture_bytes)
                figure = timed(argv + command_args(command, directory, parent))
                if round_:
                    samples[key].append(figure)
        for key, walls_cpus in samples.items():
            walls, cpus = zip(*walls_cpus)
            line = {"id": f"cli.{command}.{key}", "wall_ms": ms(statistics.median(walls)),
                    "cpu_ms": ms(statistics.median(cpus))}
            if SEED in samples and key != SEED:
                seed_walls, seed_cpus = zip(*samples[SEED])
                line["seed_over_wall"] = statistics.median(s / o for s, o in zip(seed_walls, walls))
                line["seed_over_cpu"] = statistics.median(s / o for s, o in zip(seed_cpus, cpus) if o)
                line["over_seed_cpu"] = statistics.median(o / s for s, o in zip(seed_cpus, cpus) if s)
            lines.append(line)
            print(f"   {command}, {key}: {line['wall_ms']:.2f} ms wall, {line['cpu_ms']:.2f} ms CPU", file=sys.stderr)
    return lines


def ms(seconds):
    return round(seconds * 1000, 3)


COMMAND_LINES = {
    SEED: "`node scripts/db-cli.mjs` of github.com/yangwenz/alphaevolve-skill (`--seed-cli`)",
    DROP_IN: "`node skill/scripts/db-cli.mjs`, on evodb's WebAssembly engine",
    NATIVE: "the `evodb` binary (`--evodb`, default `target/release/evodb`), copied as `cargo install` copies it",
}


def render(figures):
    """The markdown of the three-peer table (nothing when the CLI part did not run)."""
    fixture = figures.get("cli.fixture")
    if not fixture:
        return ""
    names = {key: figures[f"cli.peer.{key}"] for key in (SEED, DROP_IN, NATIVE)}
    out = [f"One CLI call as a whole process, the three peers in turn on a database {fixture['label']}; "
           f"medians of {fixture['runs']} rounds, each ratio the median of the rounds' ratios. The peers:", ""]
    for key, peer in names.items():
        out.append(f"- **{peer['label']}**: {COMMAND_LINES[key]}" +
                   (f" — **not measured** ({peer['skipped']})" if peer.get("skipped") else ""))
    head = " | ".join(f"{names[k]['label']}, wall / CPU" for k in (SEED, DROP_IN, NATIVE))
    out += ["", f"| command | {head} | evodb native against the seed's CLI, wall / CPU (goal ≥ 20×) "
            f"| the drop-in's CPU against the seed's (goal ≤ 1.0×) |", "|---|---|---|---|---|---|"]
    for command in COMMANDS:
        cells = []
        for key in (SEED, DROP_IN, NATIVE):
            line = figures.get(f"cli.{command}.{key}")
            cells.append("not measured" if line is None else f"{line['wall_ms']:,.2f} / {line['cpu_ms']:,.2f} ms")
        native, drop_in = figures.get(f"cli.{command}.{NATIVE}", {}), figures.get(f"cli.{command}.{DROP_IN}", {})
        faster, faster_cpu = native.get("seed_over_wall"), native.get("seed_over_cpu")
        cpu = drop_in.get("over_seed_cpu")
        goal = command in ("sample", "add")
        met = f" {'✓' if faster >= 20 and faster_cpu >= 20 else '✗'}" if goal and faster else ""
        cells.append("—" if faster is None else f"{faster:,.1f}× / {faster_cpu:,.1f}× faster{met}")
        cells.append("—" if cpu is None else f"{cpu:,.2f}× {'✓' if cpu <= 1.0 else '✗'}")
        out.append(f"| `{command}` | " + " | ".join(cells) + " |")
    floor, version, node = figures.get("cli.floor"), figures.get("cli.version"), figures.get("cli.node")
    if floor and version:
        out += ["", f"For scale, the same way: a process that does nothing (`/bin/true`) {floor['wall_ms']:,.2f} ms wall "
                f"/ {floor['cpu_ms']:,.2f} ms CPU; `evodb --version` {version['wall_ms']:,.2f} / "
                f"{version['cpu_ms']:,.2f} ms" + ("." if not node else
                f"; Node starting and running nothing (`node -e 0`) {node['wall_ms']:,.2f} / {node['cpu_ms']:,.2f} ms, "
                "which both Node peers pay on every call.")]
    node_env = figures.get("cli.node_env", {}).get("set")
    if node_env:
        out += ["", f"Set in this environment, and slowing every Node start: {', '.join(f'`{v}`' for v in node_env)} "
                "(run `env -u NODE_EXTRA_CA_CERTS bench/run …` to measure without it)."]
    return "\n".join(out) + "\n"
