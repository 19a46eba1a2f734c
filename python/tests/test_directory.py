"""`Database.open` / `save` against evodb's directory format and the `evodb` CLI itself."""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

import evodb
from evodb import AddRequest, Database


def cli(evodb_bin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([evodb_bin, *args], capture_output=True, text=True, timeout=60)


def grown(seed: int = 5, n: int = 6) -> Database:
    db = Database(config={"numIslands": 2}, seed=seed)
    db.add(AddRequest(target_code="v = 0", metrics={"score": 0.0}, id="seed", changes="initial implementation"), now=1.0)
    for i in range(1, n):
        parent = db.sample().parent
        assert parent is not None
        db.add(AddRequest(target_code=f"v = {i}", metrics={"score": i / n}, parent_id=parent.id), now=1.0 + i)
    return db


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def test_save_then_open_round_trips_and_appends_only_new_events(tmp_path: Path) -> None:
    db = grown()
    where = db.save(tmp_path / "run")
    assert where == (tmp_path / "run").resolve()
    assert (where / "database.json").read_text() == db.to_json()
    history = (where / "history.ndjson").read_text().splitlines()
    assert json.loads(history[0])["event"] == "created"
    again = Database.open(tmp_path / "run")
    assert again.to_json() == db.to_json()
    parent = again.sample().parent
    assert parent is not None
    again.add(AddRequest(target_code="v = 99", metrics={"score": 1.0}, parent_id=parent.id), now=50.0)
    again.save()
    longer = (where / "history.ndjson").read_text().splitlines()
    assert longer[: len(history)] == history and len(longer) > len(history)
    assert Database.open(where).best() == again.best()
    assert sorted(os.listdir(where)) == [".evodb.lock", "database.json", "history.ndjson"]


def test_the_cli_reads_what_python_wrote_and_python_reads_what_the_cli_wrote(tmp_path: Path, evodb_bin: str) -> None:
    db = grown()
    db.save(tmp_path / "py")
    checked = cli(evodb_bin, "validate", "--history", str(tmp_path / "py"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["valid"] is True
    copied = cli(evodb_bin, "copy", str(tmp_path / "py"), str(tmp_path / "copy"))
    assert copied.returncode == 0, copied.stderr
    assert (tmp_path / "copy" / "database.json").read_bytes() == (tmp_path / "py" / "database.json").read_bytes()
    # The CLI adds to the Python run; Python opens it, adds, saves; the CLI still replays it all.
    added = cli(evodb_bin, "add", str(tmp_path / "py"), "--codePath", "f.py", "--targetCode", "v = 7",
                "--metrics", '{"score": 2}', "--parentId", "seed", "--id", "from-cli", "--changes", "from the CLI")
    assert added.returncode == 0, added.stderr
    reopened = Database.open(tmp_path / "py")
    assert reopened.best() is not None and reopened.best().id == "from-cli"  # type: ignore[union-attr]
    reopened.add(AddRequest(target_code="v = 8", metrics={"score": 3.0}, parent_id="from-cli", id="from-py"), now=60.0)
    reopened.save()
    best = cli(evodb_bin, "best", str(tmp_path / "py"))
    assert best.returncode == 0 and json.loads(best.stdout)["id"] == "from-py", best.stdout + best.stderr
    checked = cli(evodb_bin, "validate", "--history", str(tmp_path / "py"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_evodb_view_serves_the_run_python_wrote(tmp_path: Path, evodb_bin: str) -> None:
    grown().save(tmp_path / "run")
    view = subprocess.Popen([evodb_bin, "view", str(tmp_path / "run"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert view.stdout is not None
        url = None
        for line in view.stdout:
            found = re.search(r"http://127\.0\.0\.1:\d+", line)
            if found:
                url = found[0]
                break
        assert url, "evodb view printed no URL"
        for name in ("database.json", "history.ndjson"):
            with urllib.request.urlopen(f"{url}/run/{name}", timeout=30) as reply:
                assert reply.read() == (tmp_path / "run" / name).read_bytes()
    finally:
        view.kill()
        view.wait()


def test_save_waits_for_the_directory_lock_the_cli_takes(tmp_path: Path) -> None:
    db = grown()
    where = db.save(tmp_path / "run")
    db.add(AddRequest(target_code="v = 50", metrics={"score": 0.5}), now=70.0)
    lock = os.open(where / ".evodb.lock", os.O_WRONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)  # what a running `evodb add` holds
    saver = threading.Thread(target=db.save)
    saver.start()
    saver.join(timeout=1.0)
    try:
        assert saver.is_alive(), "save went ahead while another writer held the lock"
        assert (where / "database.json").read_text() != db.to_json()
    finally:
        os.close(lock)
    saver.join()
    assert (where / "database.json").read_text() == db.to_json()


def test_a_second_writer_is_refused_instead_of_losing_an_add(tmp_path: Path) -> None:
    grown().save(tmp_path / "run")
    first, second = Database.open(tmp_path / "run"), Database.open(tmp_path / "run")
    first.add(AddRequest(target_code="first", metrics={"score": 0.9}), now=80.0)
    first.save()
    before = files(tmp_path / "run")
    second.add(AddRequest(target_code="second", metrics={"score": 0.8}), now=81.0)
    with pytest.raises(evodb.StoreError) as refused:
        second.save()
    assert refused.value.code == "conflict" and "Database.open" in refused.value.message
    assert files(tmp_path / "run") == before


def test_save_refuses_a_directory_holding_another_database(tmp_path: Path) -> None:
    grown(seed=1).save(tmp_path / "run")
    before = files(tmp_path / "run")
    with pytest.raises(evodb.StoreError, match="already holds another database"):
        grown(seed=2).save(tmp_path / "run")
    assert files(tmp_path / "run") == before


def test_saving_elsewhere_writes_the_whole_history(tmp_path: Path, evodb_bin: str) -> None:
    grown().save(tmp_path / "a")
    db = Database.open(tmp_path / "a")
    db.add(AddRequest(target_code="v = 70", metrics={"score": 0.7}), now=90.0)
    db.save(tmp_path / "b")
    a = (tmp_path / "a" / "history.ndjson").read_bytes()
    b = (tmp_path / "b" / "history.ndjson").read_bytes()
    assert b.startswith(a) and len(b) > len(a)
    checked = cli(evodb_bin, "validate", "--history", str(tmp_path / "b"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_symlinks_and_missing_databases_are_refused_by_name(tmp_path: Path) -> None:
    where = grown().save(tmp_path / "run")
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text((where / "database.json").read_text())
    (where / "database.json").unlink()
    (where / "database.json").symlink_to(elsewhere)
    with pytest.raises(evodb.StoreError, match="symbolic link") as refused:
        Database.open(where)
    assert refused.value.code == "io" and "move it away" in refused.value.message
    with pytest.raises(evodb.StoreError, match="holds no database.json"):
        Database.open(tmp_path)
    with pytest.raises(evodb.StoreError, match="does not exist"):
        Database.open(tmp_path / "nowhere")
    with pytest.raises(evodb.StoreError, match="never saved"):
        Database(config={}, seed=1).save()


def test_a_torn_history_line_is_cut_before_appending(tmp_path: Path, evodb_bin: str) -> None:
    db = grown()
    where = db.save(tmp_path / "run")
    with open(where / "history.ndjson", "ab") as history:
        history.write(b'{"event":"added","torn')  # a writer killed mid-append
    db.add(AddRequest(target_code="v = 60", metrics={"score": 0.6}), now=100.0)
    db.save()
    lines = (where / "history.ndjson").read_bytes().split(b"\n")
    assert all(b"torn" not in line for line in lines) and lines[-1] == b""
    checked = cli(evodb_bin, "validate", "--history", str(where))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_failed_save_names_the_path_and_leaves_nothing_behind(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a directory")
    with pytest.raises(evodb.StoreError) as refused:
        grown().save(tmp_path / "a-file" / "run")
    assert refused.value.code == "io" and "a-file" in refused.value.message
    with pytest.raises(evodb.StoreError, match="is not a directory"):
        grown().save(tmp_path / "a-file")
    assert sorted(os.listdir(tmp_path)) == ["a-file"]


WORKER = """
import sys
from evodb import AddRequest, Database
path, name = sys.argv[1], sys.argv[2]
for i in range(10):
    with Database.edit(path) as db:
        best = db.best()
        db.add(AddRequest(target_code=f"v = '{name}-{i}'", metrics={"score": 0.01 * i},
                          parent_id=best.id if best else "0", id=f"{name}-{i}"))
"""


def test_parallel_edits_and_cli_adds_lose_nothing(tmp_path: Path, evodb_bin: str) -> None:
    where = tmp_path / "run"
    with Database.edit(where, config={"numIslands": 2}, seed=3) as db:
        db.add(AddRequest(target_code="v = 0", metrics={"score": 0.0}, id="seed"), now=1.0)
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(where), f"w{n}"]) for n in range(4)]
    for i in range(10):
        added = cli(evodb_bin, "add", str(where), "--codePath", "f.py", "--targetCode", f"v = 'cli-{i}'",
                    "--metrics", '{"score": 0.5}', "--parentId", "seed", "--id", f"cli-{i}", "--changes", "cli")
        assert added.returncode == 0, added.stderr
    assert [w.wait(timeout=300) for w in workers] == [0, 0, 0, 0]
    final = Database.open(where)
    assert final.info().program_count == 1 + 4 * 10 + 10
    checked = cli(evodb_bin, "validate", "--history", str(where))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_edit_that_raises_writes_nothing(tmp_path: Path) -> None:
    where = grown().save(tmp_path / "run")
    before = files(where)
    with pytest.raises(RuntimeError):
        with Database.edit(where) as db:
            db.add(AddRequest(target_code="v = 1000", metrics={"score": 9.0}), now=5.0)
            raise RuntimeError("the evaluation failed")
    assert files(where) == before
    with pytest.raises(RuntimeError):
        with Database.edit(tmp_path / "new") as db:
            raise RuntimeError("nothing to keep")
    assert not (tmp_path / "new").exists()
