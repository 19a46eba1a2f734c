"""Every method of the evodb package, typed: `mypy --strict` checks this file with the package.

    pip install ./python && python python/examples/every_method.py [directory]

Grows a small run, prints what each call returns, and saves it to a directory (a temporary one
unless given) that `evodb view`, `evodb validate` and `evodb copy` open.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import evodb
from evodb import AddRequest, Database, NoteRequest, RemeasureRequest


def main(out: Path) -> None:
    db = Database(config={"numIslands": 2, "operators": {}}, seed=42)
    seed = db.add(AddRequest(target_code="def f():\n    return 0\n", metrics={"score": 0.1}, code_path="f.py",
                             changes="initial implementation"), now=1_700_000_000.0)
    print("seeded:", seed.id, "best:", seed.best_program_id)
    for step in range(1, 6):
        sample: evodb.SampleResult = db.sample()
        assert sample.parent is not None
        outcome: evodb.AddOutcome = db.add(
            AddRequest(target_code=f"def f():\n    return {step}\n", metrics={"score": 0.1 + step / 10},
                       parent_id=sample.parent.id, changes=f"return {step}", operator=sample.operator),
            now=1_700_000_000.0 + step)
        print(f"{sample.operator or 'sample'} from {sample.parent.id[:8]} on island {sample.island}: "
              f"{outcome.id[:8]} scored {outcome.metrics['score']:.2f}")
    plan: evodb.WorkPlan = db.plan(2, frozen=(), boosted=[0])
    for item in plan.items:
        print("plan:", item.name, item.operator, "parents", [p[:8] for p in item.parent_ids])
    for_target: evodb.SampleResult = db.sample_for(None)
    print("sample_for:", for_target.parent.id[:8] if for_target.parent else None)
    at: evodb.SampleResult = db.sample_at(None, now=1_700_000_100.0)
    print("sample_at:", at.plan_item or "a fresh draw")
    note: evodb.Note = db.note(NoteRequest(kind="lesson", text="larger constants score higher"))
    notes: tuple[evodb.Note, ...] = db.notes(target=None, kind="lesson", limit=5)
    print("note", note.seq, "of", len(notes))
    best = db.best()
    assert best is not None
    again: evodb.Remeasured = db.remeasure(RemeasureRequest(id=best.id, metrics=dict(best.metrics)))
    print("remeasured", again.id[:8], "measurements", again.measurements)
    admitted: evodb.Admission = db.admit(best.target_code, "candidate.py")
    print("admit", admitted.verdict, admitted.of, admitted.similarity)
    by_vector: evodb.Admission = db.admit_embedding(best.target_code, "candidate.py", [0.1, 0.2])
    print("admit_embedding", by_vector.verdict, by_vector.of)
    print("best_for:", (db.best_for(None) or best).iteration_found)
    lineage = db.lineage(best.id)
    print("ancestors of the best:", len(lineage.ancestors) if lineage else 0)
    info: evodb.DatabaseInfo = db.info()
    stats: evodb.PopulationStats = db.stats()
    stop: evodb.StopVerdict = db.should_stop()
    for_one: evodb.StopVerdict = db.should_stop_for(None)
    print(f"{info.program_count} programs, best fitness {stats.best_fitness}, stop: {stop.stop}/{for_one.stop}")
    print(db.export("tree").splitlines()[0], "…")
    print("events so far:", len(db.take_events()))
    db.record_events(True)  # already on: save() writes the events to history.ndjson
    print("load warnings:", db.load_warnings())
    print("valid:", evodb.validate(db.to_json()) == ())
    verdict: evodb.PolicyVerdict = evodb.policy_check(["f.py"], "f.py", protected=None)
    print("policy:", verdict.pass_)
    where = db.save(out)
    reopened = Database.open(where)
    assert reopened.to_json() == db.to_json()
    copy = Database.create('{"numIslands": 1}', 1)
    copy.close()
    with Database.edit(where) as locked:  # read-modify-write under the directory's lock
        locked.note(NoteRequest(kind="idea", text="try a closed form"))
    with Database.from_json(reopened.to_json()) as same:
        print("saved to", where, "— same database:", same.to_json() == db.to_json(),
              "— notes now:", len(Database.open(where).notes()))
    try:
        db.add(AddRequest(target_code="", metrics={"score": 1.0}))
    except evodb.EvodbError as e:
        print("refused:", e.code, "-", e.message)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "database")
