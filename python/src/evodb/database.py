"""`Database`: one evodb population database, held in memory by the component."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Optional

from . import directory
from ._component import Instance
from .errors import InvalidConfig, StoreError
from .types import (
    AddOutcome,
    AddRequest,
    Admission,
    BestProgram,
    DatabaseInfo,
    ExportFormat,
    Lease,
    LeaseEntry,
    Lineage,
    Note,
    NoteKind,
    NoteRequest,
    PolicyVerdict,
    PopulationStats,
    Remeasured,
    RemeasureRequest,
    SampleResult,
    StopVerdict,
    WorkPlan,
)
from .wit import lift, lower

_MAX_SEED = 2**53 - 1


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Database:
    """A population database: islands, parent and inspiration sampling, migration, pruning, the
    best program — evodb's deterministic engine (the `pure` WebAssembly component).

    `Database(config={...}, seed=42)` makes a new one (`config` is evodb's options object — the
    keys of `database.json`'s `evodb.config`, e.g. `numIslands`; `{}` for the defaults);
    `Database.open(path)` reads a directory written by the `evodb` CLI or by `save`. The same seed
    and the same calls give the same results and the same `database.json` bytes on every host.
    Not thread-safe: use one `Database` per thread, or a lock.
    """

    def __init__(self, config: Mapping[str, Any] | str | None = None, seed: int = 0) -> None:
        text = config if isinstance(config, str) else json.dumps(dict(config or {}))
        if not 0 <= seed <= _MAX_SEED:
            raise InvalidConfig("invalid-config", f"seed {seed} is out of range; pass a seed from 0 to 2^53 - 1")
        self._begin(Instance(), "[static]database.create", text, seed)

    def _begin(self, instance: Instance, constructor: str, *args: Any) -> None:
        self._instance = instance
        self._handle = instance.call(constructor, *args)
        # Recording from the start: `save` appends these events to `history.ndjson`.
        instance.call("[method]database.record-events", self._handle, True)
        self._journal: list[str] = []
        self._origin: Optional[tuple[Path, int]] = None
        self._saved: dict[Path, tuple[int, str]] = {}

    @classmethod
    def create(cls, config_json: str, rng_seed: int) -> Database:
        """WIT's `create`: `config_json` is the options object as JSON text."""
        return cls(config_json, rng_seed)

    @classmethod
    def from_json(cls, text: str) -> Database:
        """Reads `database.json` text (written by evodb or by the seed skill's CLI)."""
        db = cls.__new__(cls)
        db._begin(Instance(), "[static]database.from-json", text)
        return db

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Database:
        """Reads the database directory at `path` (as the CLI writes it) without locking it;
        `save()` writes it back under its lock, and refuses if another writer changed it since."""
        stored = directory.read(path)
        db = cls.from_json(stored.database.decode("utf-8"))
        db._origin = (stored.path, stored.history_len)
        db._saved[stored.path] = (0, _digest(stored.database))
        return db

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Writes the database to a directory (by default the one it was opened from or last
        saved to): `database.json` replaced atomically, the events since appended to
        `history.ndjson`, under the directory's lock — so `evodb view`, `copy` and `validate`
        read it. A new directory gets the whole history. Returns the directory's resolved path."""
        if path is None:
            if not self._saved:
                raise StoreError("io", "this database was never saved or opened from a directory; pass save(path)")
            path = next(reversed(self._saved))
        with directory.Writer(path) as writer:
            return self._commit(writer)

    @classmethod
    @contextlib.contextmanager
    def edit(
        cls, path: str | os.PathLike[str], config: Mapping[str, Any] | str | None = None, seed: int = 0
    ) -> Iterator[Database]:
        """A read-modify-write of the directory at `path` under its lock, the way each `evodb`
        command makes one: parallel workers (processes, machines on a shared disk, the CLI)
        queue on the lock and no add is lost. A directory without a database gets a new one
        (`config`, `seed`). Saved when the block ends; nothing is written if it raises.

            with Database.edit("runs/r1") as db:
                db.add(AddRequest(...))
        """
        with directory.Writer(path) as writer:
            stored = writer.stored_database()
            if stored is None:
                db = cls(config, seed)
            else:
                db = cls.from_json(stored.decode("utf-8"))
                db._origin = (writer.path, len(writer.stored_history() or b""))
                db._saved[writer.path] = (0, _digest(stored))
            yield db
            db._commit(writer)

    def _commit(self, writer: directory.Writer) -> Path:
        """Commits to a directory whose lock `writer` holds."""
        self._journal.extend(self._take())
        data = self.export("json").encode("utf-8")
        known = self._saved.get(writer.path)
        stored = writer.stored_database()
        if known is None:
            if stored is not None or writer.stored_history():
                raise StoreError("conflict", (
                    f"`{writer.shown}` already holds another database; save to a new or empty directory, "
                    "or open that one with Database.open"))
            prefix = b"" if self._origin is None else directory.read_history(*self._origin)
            events = prefix + self._lines(self._journal)
        else:
            (saved_events, digest) = known
            if stored is None or _digest(stored) != digest:
                raise StoreError("conflict", (
                    f"`{writer.shown / directory.DATABASE_FILE}` changed since this Database read or wrote it "
                    "(another writer); open it again with Database.open and redo the change, or use "
                    "Database.edit, which holds the lock from the read to the write"))
            events = self._lines(self._journal[saved_events:])
        writer.commit(data, events)
        self._saved.pop(writer.path, None)
        self._saved[writer.path] = (len(self._journal), _digest(data))
        return writer.path

    @staticmethod
    def _lines(events: Sequence[str]) -> bytes:
        return "".join(event + "\n" for event in events).encode("utf-8")

    def _call(self, name: str, *args: Any) -> Any:
        return self._instance.call(name, self._handle, *args)

    # --- the `database` resource, method for method ---------------------------------------

    def add(self, request: AddRequest, now: Optional[float] = None) -> AddOutcome:
        """Adds a scored candidate; `now` (seconds since the epoch) defaults to the clock."""
        when = time.time() if now is None else now
        raw = self._call("[method]database.add", lower(AddRequest, request), float(when))
        result: AddOutcome = lift(AddOutcome, raw)
        return result

    def sample(self) -> SampleResult:
        """Draws a parent and inspirations for the next mutation (advances the PRNG)."""
        result: SampleResult = lift(SampleResult, self._call("[method]database.sample"))
        return result

    def sample_for(self, target: Optional[str]) -> SampleResult:
        result: SampleResult = lift(SampleResult, self._call("[method]database.sample-for", target))
        return result

    def sample_at(self, target: Optional[str] = None, now: Optional[float] = None) -> SampleResult:
        """`sample_for` at time `now` (defaults to the clock): a leased plan item whose lease
        expired unanswered is handed out again (its `plan_item`, a new `lease`) in place of a draw."""
        when = time.time() if now is None else now
        result: SampleResult = lift(SampleResult, self._call("[method]database.sample-at", target, float(when)))
        return result

    def best(self) -> Optional[BestProgram]:
        result: Optional[BestProgram] = lift(Optional[BestProgram], self._call("[method]database.best"))
        return result

    def best_for(self, target: Optional[str]) -> Optional[BestProgram]:
        raw = self._call("[method]database.best-for", target)
        result: Optional[BestProgram] = lift(Optional[BestProgram], raw)
        return result

    def info(self) -> DatabaseInfo:
        result: DatabaseInfo = lift(DatabaseInfo, self._call("[method]database.info"))
        return result

    def stats(self) -> PopulationStats:
        result: PopulationStats = lift(PopulationStats, self._call("[method]database.stats"))
        return result

    def export(self, format: ExportFormat = "json") -> str:
        """`database.json` text, the family tree (`mermaid`, `tree`) or the playbook's `markdown`."""
        return str(self._call("[method]database.export", format))

    def lineage(self, id: str) -> Optional[Lineage]:
        result: Optional[Lineage] = lift(Optional[Lineage], self._call("[method]database.lineage", id))
        return result

    def should_stop(self) -> StopVerdict:
        result: StopVerdict = lift(StopVerdict, self._call("[method]database.should-stop"))
        return result

    def should_stop_for(self, target: Optional[str]) -> StopVerdict:
        result: StopVerdict = lift(StopVerdict, self._call("[method]database.should-stop-for", target))
        return result

    def note(self, request: NoteRequest) -> Note:
        result: Note = lift(Note, self._call("[method]database.note", lower(NoteRequest, request)))
        return result

    def remeasure(self, request: RemeasureRequest) -> Remeasured:
        raw = self._call("[method]database.remeasure", lower(RemeasureRequest, request))
        result: Remeasured = lift(Remeasured, raw)
        return result

    def admit(self, code: str, code_path: str = "") -> Admission:
        """Before evaluating `code`: a duplicate or near-duplicate of a live program? Reads only."""
        result: Admission = lift(Admission, self._call("[method]database.admit", code, code_path))
        return result

    def admit_embedding(self, code: str, code_path: str, embedding: Sequence[float]) -> Admission:
        """`admit` by your own embedding of `code`: near-duplicates by cosine similarity to the
        live programs' stored embeddings (`AddRequest(embedding=…)`). Reads only."""
        raw = self._call("[method]database.admit-embedding", code, code_path, [float(x) for x in embedding])
        result: Admission = lift(Admission, raw)
        return result

    def notes(
        self, target: Optional[str] = None, kind: Optional[NoteKind] = None, limit: Optional[int] = None
    ) -> tuple[Note, ...]:
        result: tuple[Note, ...] = lift(tuple[Note, ...], self._call("[method]database.notes", target, kind, limit))
        return result

    def plan(self, n: int, frozen: Iterable[int] = (), boosted: Iterable[int] = ()) -> WorkPlan:
        """Plans `n` work items; `frozen` islands get none, `boosted` ones twice the share."""
        result: WorkPlan = lift(WorkPlan, self._call("[method]database.plan", n, list(frozen), list(boosted)))
        return result

    def plan_at(
        self,
        n: int,
        frozen: Iterable[int] = (),
        boosted: Iterable[int] = (),
        now: Optional[float] = None,
        lease_seconds: Optional[float] = None,
    ) -> WorkPlan:
        """`plan` at time `now` (defaults to the clock), each item under a lease of
        `lease_seconds` (else the config's `leaseSeconds`, else none). Expired, unanswered items
        are handed out again first, with a new token; answer with `AddRequest(token=…)`."""
        when = time.time() if now is None else now
        seconds = None if lease_seconds is None else float(lease_seconds)
        raw = self._call("[method]database.plan-at", n, list(frozen), list(boosted), float(when), seconds)
        result: WorkPlan = lift(WorkPlan, raw)
        return result

    def heartbeat(
        self, item: str, token: str, now: Optional[float] = None, lease_seconds: Optional[float] = None
    ) -> Lease:
        """Extends leased item `item`'s lease (its current `token`) to `now` + `lease_seconds`."""
        when = time.time() if now is None else now
        seconds = None if lease_seconds is None else float(lease_seconds)
        result: Lease = lift(Lease, self._call("[method]database.heartbeat", item, token, float(when), seconds))
        return result

    def leases(self, now: Optional[float] = None) -> tuple[LeaseEntry, ...]:
        """Every leased item not applied yet, in plan order: live, expired or held. Reads only."""
        when = time.time() if now is None else now
        result: tuple[LeaseEntry, ...] = lift(tuple[LeaseEntry, ...], self._call("[method]database.leases", float(when)))
        return result

    def load_warnings(self) -> tuple[str, ...]:
        return tuple(str(w) for w in self._call("[method]database.load-warnings"))

    def record_events(self, on: bool) -> None:
        """Recording is on from creation (`save` needs the events); off, `save` writes a history
        that no longer replays to the database."""
        self._call("[method]database.record-events", on)

    def take_events(self) -> tuple[str, ...]:
        """The events recorded since the last call, one JSON object each (kept for `save` too)."""
        events = self._take()
        self._journal.extend(events)
        return events

    def _take(self) -> tuple[str, ...]:
        return tuple(str(e) for e in self._call("[method]database.take-events"))

    def to_json(self) -> str:
        """`database.json` text (`export("json")`)."""
        return self.export("json")

    def close(self) -> None:
        """Frees the database inside the component (also done when it is garbage-collected)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.drop(self._instance.store)

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def validate(text: str) -> tuple[str, ...]:
    """Every problem found in a `database.json` text (empty: the file is sound)."""
    return tuple(str(p) for p in Instance().call("validate", text))


def policy_check(
    changed_files: Sequence[str], target_file: str, protected: Optional[Sequence[str]] = None
) -> PolicyVerdict:
    """Checks a candidate's changed files against its target file and protected globs."""
    raw = Instance().call("policy-check", list(changed_files), target_file, None if protected is None else list(protected))
    result: PolicyVerdict = lift(PolicyVerdict, raw)
    return result
