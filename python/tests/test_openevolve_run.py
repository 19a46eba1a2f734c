"""A whole OpenEvolve evolution on evodb (examples/openevolve/run.py: OpenEvolve's own controller,
the LLM a deterministic stub), twice with the same seed; the checkpoints open in the evodb CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openevolve", reason="OpenEvolve is not installed: pip install 'evodb[openevolve]'")

RUN = Path(__file__).resolve().parents[1] / "examples" / "openevolve" / "run.py"
INITIAL_SCORE = 1 / (1 + abs(1.0 - (1 + 5**0.5) / 2))


def evolve(output: Path, seed: int, *more: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(RUN), str(output), "--seed", str(seed), "--iterations", "12", *more],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_same_seed_evolves_the_same_best_program_and_the_cli_opens_the_run(tmp_path: Path, evodb_bin: str) -> None:
    first, second = evolve(tmp_path / "first", 7), evolve(tmp_path / "second", 7)
    assert (first["code"], first["metrics"]) == (second["code"], second["metrics"])
    assert first["metrics"]["combined_score"] > INITIAL_SCORE, "the run found nothing better than its start"
    assert first["checkpoints"] == ["checkpoint_10", "checkpoint_5"]
    checkpoint = tmp_path / "first" / "checkpoints" / "checkpoint_10"
    checked = subprocess.run([evodb_bin, "validate", "--history", str(checkpoint)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["lastIteration"] >= 10
    best = subprocess.run([evodb_bin, "best", str(checkpoint)], capture_output=True, text=True)
    info = json.loads((checkpoint / "best_program_info.json").read_text())
    assert json.loads(best.stdout)["id"] == info["id"], "evodb and OpenEvolve disagree on the best program"
    assert (checkpoint / "best_program.py").read_text() == json.loads(best.stdout)["targetCode"]
    view = subprocess.Popen([evodb_bin, "view", str(checkpoint), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert view.stdout is not None
        url = next((m[0] for line in view.stdout if (m := re.search(r"http://127\.0\.0\.1:\d+", line))), None)
        assert url, "evodb view printed no URL"
        with urllib.request.urlopen(f"{url}/run/database.json", timeout=30) as reply:
            assert json.loads(reply.read())["lastIteration"] >= 10
    finally:
        view.kill()
        view.wait()


def test_a_run_resumes_from_an_evodb_checkpoint(tmp_path: Path, evodb_bin: str) -> None:
    evolve(tmp_path / "run", 3)
    start = tmp_path / "run" / "checkpoints" / "checkpoint_10"
    resumed = evolve(tmp_path / "run", 3, "--resume", str(start))
    assert "checkpoint_20" in resumed["checkpoints"]
    later = tmp_path / "run" / "checkpoints" / "checkpoint_20"
    checked = subprocess.run([evodb_bin, "validate", "--history", str(later)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["lastIteration"] >= 20
    # The new checkpoint carries the whole history: the old one's lines, then the new ones.
    assert (later / "history.ndjson").read_bytes().startswith((start / "history.ndjson").read_bytes())
