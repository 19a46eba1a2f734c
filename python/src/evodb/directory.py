"""evodb's database directory — `database.json` and `history.ndjson` — by the CLI's rules.

The rules of `host-cli/src/directory/`: a writer holds an exclusive `flock` on
`<dir>/.evodb.lock` for its whole read-modify-write (the `evodb` CLI takes the same lock, so the
two queue on each other); readers take no lock. A commit writes the new `database.json` to a new
temp file (`database.json.tmp-<16 random hex digits>`, created exclusively), syncs it, keeps the
old file as the hard link `database.json.prev`, renames the temp file over `database.json`, then
appends the events to `history.ndjson` in one write; if that append fails, the history is cut
back and the old `database.json` put back, so a failed commit stores nothing. Files of the
directory must be regular files: a symlink could lead out of it, a FIFO would block.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from .errors import StoreError

DATABASE_FILE = "database.json"
HISTORY_FILE = "history.ndjson"
LOCK_FILE = ".evodb.lock"
TEMP_PREFIX = "database.json.tmp"
PREVIOUS_FILE = "database.json.prev"


def _io(action: str, path: Path, err: OSError) -> StoreError:
    return StoreError("io", f"cannot {action} `{path}`: {err.strerror or err}; check the path and its permissions")


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return name
    return "not a regular file"


def _refuse_special_files(directory: Path) -> None:
    for name in (DATABASE_FILE, HISTORY_FILE):
        try:
            mode = os.lstat(directory / name).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            raise StoreError(
                "io",
                f"cannot read `{directory / name}`: it is {_kind(mode)}, not a regular file; "
                f"move it away ({name} must be a file)",
            )


def _read_regular(path: Path) -> bytes | None:
    """A regular file's bytes, never through a symlink nor blocking on a FIFO; None when missing."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise StoreError("io", f"cannot read `{path}`: it is a symbolic link; move it away") from e
        raise _io("read", path, e) from e
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise StoreError("io", f"cannot read `{path}`: it is not a regular file; move it away")
        return file.read()


@dataclass
class Stored:
    """What a directory holds: `database.json`'s text and `history.ndjson`'s length."""

    path: Path
    database: bytes
    history_len: int


def read(path: str | os.PathLike[str]) -> Stored:
    """Reads a database directory, taking no lock (a commit replaces `database.json` atomically)."""
    directory = Path(path)
    if not directory.is_dir():
        what = "does not exist" if not directory.exists() else "is not a directory"
        raise StoreError("io", f"`{directory}` {what}; pass the database directory (the one holding database.json)")
    resolved = directory.resolve()
    _refuse_special_files(resolved)
    database = _read_regular(resolved / DATABASE_FILE)
    if database is None:
        raise StoreError(
            "io",
            f"`{directory}` holds no database.json; pass the database directory, or make one with "
            "evodb.Database(...) and save it there",
        )
    history = _read_regular(resolved / HISTORY_FILE)
    return Stored(resolved, database, 0 if history is None else len(history))


def read_history(path: Path, length: int) -> bytes:
    """The first `length` bytes of a directory's history (what it held when it was read)."""
    history = _read_regular(path / HISTORY_FILE) or b""
    return history[:length]


class Writer:
    """A database directory under its exclusive lock (created when missing), as a context manager."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.shown = Path(path)
        self.created = False
        self.lock_fd: int | None = None
        self.path = self.shown

    def __enter__(self) -> Writer:
        shown = self.shown
        if shown.is_symlink() and not shown.exists():
            raise StoreError("io", f"`{shown}` is a symbolic link to `{os.readlink(shown)}`, which does not exist; "
                                   "create that directory or pass another path")
        if shown.exists() and not shown.is_dir():
            raise StoreError("io", f"`{shown}` is not a directory; pass the database directory (the one holding database.json)")
        if not shown.exists():
            try:
                shown.mkdir(parents=True)
            except OSError as e:
                raise _io("create the database directory", shown, e) from e
            self.created = True
        self.path = shown.resolve()
        lock = self.path / LOCK_FILE
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        except OSError as e:
            self._clean_up()
            if e.errno == errno.ELOOP:
                raise StoreError("io", f"cannot lock `{lock}`: it is a symbolic link, not a regular file; "
                                       f"move it away ({LOCK_FILE} must be a file)") from e
            raise _io("open the lock file", lock, e) from e
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise StoreError("io", f"cannot lock `{lock}`: it is not a regular file; move it away ({LOCK_FILE} must be a file)")
        fcntl.flock(fd, fcntl.LOCK_EX)
        self.lock_fd = fd
        try:
            _refuse_special_files(self.path)
            self._repair_torn_tail()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if error is not None:
            self._clean_up()
        if self.lock_fd is not None:
            os.close(self.lock_fd)  # closing releases the flock
            self.lock_fd = None

    def _clean_up(self) -> None:
        """After a failed call: no temp files left, and a directory this call created removed again."""
        _remove_stale_temps(self.path)
        try:
            os.unlink(self.path / PREVIOUS_FILE)
        except OSError:
            pass
        if not self.created:
            return
        try:
            left = {entry.name for entry in os.scandir(self.path)}
        except OSError:
            return
        history = self.path / HISTORY_FILE
        if left <= {LOCK_FILE, HISTORY_FILE} and (HISTORY_FILE not in left or history.stat().st_size == 0):
            for name in left:
                os.unlink(self.path / name)
            os.rmdir(self.path)

    def _repair_torn_tail(self) -> None:
        """A history whose last line was cut by a killed writer loses that partial line."""
        path = self.path / HISTORY_FILE
        data = _read_regular(path)
        if not data or data.endswith(b"\n"):
            return
        keep = data.rfind(b"\n") + 1
        with open(path, "r+b") as file:
            file.truncate(keep)
            os.fsync(file.fileno())

    def stored_database(self) -> bytes | None:
        return _read_regular(self.path / DATABASE_FILE)

    def stored_history(self) -> bytes | None:
        return _read_regular(self.path / HISTORY_FILE)

    def commit(self, database: bytes, events: bytes) -> None:
        """`database.json` replaced atomically, then `events` appended to the history in one write;
        a failed append puts everything back."""
        directory = self.path
        history_path = directory / HISTORY_FILE
        try:
            history = os.open(history_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as e:
            raise _io("open", history_path, e) from e
        try:
            history_len = os.fstat(history).st_size
            _remove_stale_temps(directory)
            temp = directory / f"{TEMP_PREFIX}-{secrets.token_hex(8)}"
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
                with os.fdopen(fd, "wb") as file:
                    file.write(database)
                    file.flush()
                    os.fsync(file.fileno())
            except OSError as e:
                _unlink_quietly(temp)
                raise _io("write", temp, e) from e
            target = directory / DATABASE_FILE
            previous = directory / PREVIOUS_FILE
            _unlink_quietly(previous)
            try:
                os.link(target, previous)
                existed, kept = True, True
            except FileNotFoundError:
                existed, kept = False, True
            except OSError:
                existed, kept = True, False
            try:
                os.rename(temp, target)
            except OSError as e:
                _unlink_quietly(temp)
                if kept and existed:
                    _unlink_quietly(previous)
                raise _io("replace", target, e) from e
            try:
                _write_all(history, events)
            except OSError as e:
                put_back = False
                try:
                    os.ftruncate(history, history_len)
                    if kept and existed:
                        os.rename(previous, target)
                    elif kept:
                        os.unlink(target)
                    put_back = kept
                except OSError:
                    pass
                shown = self.shown / HISTORY_FILE
                raise StoreError("io", (
                    f"cannot append to `{shown}`: {e.strerror}; nothing was stored (database.json was put back as it "
                    "was); free some space or check that the directory is writable, then save again"
                ) if put_back else (
                    f"cannot append to `{shown}`: {e.strerror}; database.json was saved but its history lines were "
                    "not: check the directory with `evodb validate` before saving again"
                )) from e
            if kept and existed:
                _unlink_quietly(previous)
        finally:
            os.close(history)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_stale_temps(directory: Path) -> None:
    """Temp files of writers killed mid-commit: regular files and links only."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(TEMP_PREFIX) and (entry.is_symlink() or entry.is_file(follow_symlinks=False)):
            _unlink_quietly(Path(entry.path))
