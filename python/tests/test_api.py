"""The typed API over the component: every method returns its dataclass, errors are exceptions
carrying the engine's code and message, and the same seed gives the same bytes."""

from __future__ import annotations

import dataclasses
import json

import pytest

import evodb
from evodb import AddRequest, Database, NoteRequest, RemeasureRequest


def seeded(seed: int = 7, **config: object) -> Database:
    db = Database(config={"numIslands": 2, **config}, seed=seed)
    first = db.add(AddRequest(target_code="def f():\n    return 0\n", metrics={"score": 0.1}, id="p0"), now=1.0)
    assert first.id == "p0"
    for i in range(1, 8):
        parent = db.sample().parent
        assert parent is not None
        db.add(
            AddRequest(target_code=f"def f():\n    return {i}\n", metrics={"score": 0.1 * i}, parent_id=parent.id),
            now=1.0 + i,
        )
    return db


def test_results_are_frozen_dataclasses_with_python_shapes() -> None:
    db = seeded()
    outcome = db.add(AddRequest(target_code="x = 1", metrics={"score": 2.0, "size": 3}), now=20.0)
    assert isinstance(outcome, evodb.AddOutcome)
    assert outcome.metrics == {"score": 2.0, "size": 3.0} and list(outcome.metrics) == ["score", "size"]
    assert outcome.best_program_id == outcome.id and outcome.last_iteration == 9
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.id = "other"  # type: ignore[misc]
    sample = db.sample()
    assert sample.parent is not None and isinstance(sample.inspirations, tuple)
    best = db.best()
    assert best is not None and best.id == outcome.id and best.target_code == "x = 1"
    stats = db.stats()
    assert stats.program_count == 9 and len(stats.islands) == 2 and stats.best_fitness == 2.5  # the mean of the metrics
    info = db.info()
    assert not info.is_empty and info.seed_target_code == "def f():\n    return 0\n"


def test_the_same_seed_and_calls_give_the_same_database_bytes() -> None:
    assert seeded(seed=3).to_json() == seeded(seed=3).to_json()
    assert seeded(seed=3).to_json() != seeded(seed=4).to_json()
    assert json.loads(seeded().export("json"))["evodb"]["seed"] == 7


def test_plan_notes_remeasure_lineage_and_stop() -> None:
    db = seeded()
    plan = db.plan(4, frozen=[1])
    assert plan.generation == 0 and len(plan.items) == 4
    assert all(item.island == 0 and item.parent_ids for item in plan.items)
    note = db.note(NoteRequest(kind="idea", text="try a lookup table"))
    assert note.seq == 1 and db.notes(kind="idea") == (note,)
    again = db.remeasure(RemeasureRequest(id="p0", metrics={"score": 0.3}))
    assert again.measurements == 2 and again.metrics == {"score": pytest.approx(0.2)}
    lineage = db.lineage("p0")
    assert lineage is not None and lineage.ancestors == () and lineage.descendants
    assert db.lineage("nobody") is None
    verdict = db.should_stop()
    assert not verdict.stop and verdict.evaluations == 8
    assert db.export("mermaid").startswith("graph TD")


def test_engine_errors_are_exceptions_with_code_and_message_and_change_nothing() -> None:
    with pytest.raises(evodb.InvalidConfig) as config_error:
        Database(config={"numIslands": 0})
    assert config_error.value.code == "invalid-config" and "numIslands" in config_error.value.message
    for seed in (-1, 2**53):
        with pytest.raises(evodb.InvalidConfig, match="seed"):
            Database(config={}, seed=seed)
    db = seeded()
    before = db.to_json()
    with pytest.raises(evodb.InvalidInput) as bad:
        db.add(AddRequest(target_code="", metrics={"score": 1.0}), now=30.0)
    assert bad.value.code == "invalid-input" and bad.value.message
    with pytest.raises(evodb.InvalidInput):
        db.add(AddRequest(target_code="y", metrics={"score": float("nan")}), now=30.0)
    with pytest.raises(evodb.DuplicateId) as duplicate:
        db.add(AddRequest(target_code="other code", metrics={"score": 1.0}, id="p0"), now=30.0)
    assert duplicate.value.code == "duplicate-id"
    assert db.to_json() == before
    with pytest.raises(evodb.CorruptDatabase):
        Database.from_json("{")
    assert isinstance(config_error.value, evodb.EvodbError)


def test_from_json_round_trips_and_module_functions() -> None:
    db = seeded()
    copy = Database.from_json(db.to_json())
    assert copy.to_json() == db.to_json() and copy.load_warnings() == ()
    assert copy.sample() == db.sample()
    assert evodb.validate(db.to_json()) == ()
    assert evodb.validate("{}")
    verdict = evodb.policy_check(["src/f.py", "eval.py"], "src/f.py")
    assert not verdict.pass_ and verdict.reason and "eval.py" in verdict.reason


def test_events_are_recorded_from_creation() -> None:
    db = Database(config={}, seed=1)
    db.add(AddRequest(target_code="a", metrics={"s": 1.0}), now=1.0)
    events = [json.loads(e) for e in db.take_events()]
    assert [e["event"] for e in events][:2] == ["created", "added"]
    assert db.take_events() == ()


def test_leases_reissue_expired_items_and_refuse_stale_answers() -> None:
    db = seeded()
    plan = db.plan_at(2, now=100.0, lease_seconds=60.0)
    first, second = plan.items
    assert first.lease is not None and second.lease is not None
    assert (first.lease.expires, first.lease.attempt) == (160.0, 1)
    assert db.heartbeat(first.name, first.lease.token, now=150.0).expires == 210.0
    states = [(entry.item, entry.state) for entry in db.leases(now=200.0)]
    assert states == [(first.name, "live"), (second.name, "expired")]
    again = db.plan_at(1, now=200.0).items[0]
    assert again.name == second.name and again.lease is not None and again.lease.attempt == 2
    parent = second.parent_ids[0]
    stale = AddRequest(target_code="y = 1", metrics={"score": 0.5}, parent_id=parent, plan_item=second.name)
    before = db.to_json()
    with pytest.raises(evodb.InvalidInput, match="stale"):
        db.add(dataclasses.replace(stale, token=second.lease.token), now=210.0)
    assert db.to_json() == before
    db.add(dataclasses.replace(stale, token=again.lease.token), now=220.0)
    # Its answer waits for the first item of its batch: held, not handed out again.
    states = [(entry.item, entry.state) for entry in db.leases(now=205.0)]
    assert states == [(first.name, "live"), (second.name, "held")]


def test_sample_at_hands_an_expired_item_out_again() -> None:
    db = seeded()
    item = db.plan_at(1, now=100.0, lease_seconds=60.0).items[0]
    assert db.sample_at(now=150.0).plan_item is None
    again = db.sample_at(now=200.0)
    assert again.plan_item == item.name and again.lease is not None
    assert (again.lease.attempt, again.lease.expires) == (2, 260.0)
    assert again.parent is not None and again.parent.id == item.parent_ids[0]
    with pytest.raises(evodb.InvalidInput, match="target"):
        db.sample_at("nope", now=210.0)


def test_admit_by_embedding() -> None:
    db = Database(config={"embeddingThreshold": 0.9}, seed=1)
    seed = db.add(AddRequest(target_code="x = 1", metrics={"s": 0.1}, embedding=(1.0, 0.0)), now=1.0)
    near = db.admit_embedding("y = 2", "c.py", [0.95, 0.1])
    assert (near.verdict, near.of) == ("near-duplicate", seed.id)
    assert db.admit_embedding("y = 2", "c.py", [0.0, 1.0]).verdict == "evaluate"
    before = db.to_json()
    with pytest.raises(evodb.InvalidInput, match="embedding"):
        db.admit_embedding("y = 2", "c.py", [1.0, 0.0, 0.0])
    with pytest.raises(evodb.InvalidInput, match="all zeros"):
        db.add(AddRequest(target_code="z = 3", metrics={"s": 0.2}, embedding=(0.0, 0.0)), now=2.0)
    assert db.to_json() == before
