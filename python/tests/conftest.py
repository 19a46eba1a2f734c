"""Shared fixtures: the `evodb` CLI the interop tests compare with.

`EVODB_BIN` names it (tests/run.sh passes the repository's target/release/evodb); without it the
tests that need it are skipped — shown as skipped, never passed — unless `EVODB_REQUIRE_NATIVE`
is set, which turns a missing binary into a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def evodb_bin() -> str:
    named = os.environ.get("EVODB_BIN")
    candidates = [named] if named else [str(REPO / "target" / "release" / "evodb"), shutil.which("evodb")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    message = "the evodb CLI is missing: build it (cargo build --release -p evodb-host) or set EVODB_BIN"
    if os.environ.get("EVODB_REQUIRE_NATIVE"):
        pytest.fail(message)
    pytest.skip(message)
