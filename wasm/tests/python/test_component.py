"""Every conformance vector through the pure component under Python's `wasmtime` package.

Typed WIT values go in (records built field by field, kebab-case names as the WIT spells them);
the seed CLI's JSON shapes are rebuilt from what comes out and compared with the vector files,
the database byte for byte against `JSON.stringify(expected.database, null, 2)`.
"""

import json
from pathlib import Path

import pytest
import wasmtime
import wasmtime.component as wc

EXPECTED_VECTORS = 59
ROOT = Path(__file__).resolve().parents[3]
COMPONENT = ROOT / "wasm" / "dist" / "evodb-pure.wasm"
VECTORS = ROOT / "tests" / "vectors"
INTERFACE = "evodb:population/population@0.1.0"


def js_pretty(value):
    """`JSON.stringify(value, null, 2)` for the values vectors hold (ints stay ints)."""
    return json.dumps(value, indent=2, ensure_ascii=False)


def js_compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Population:
    """The `population` interface of one instance of the pure component."""

    def __init__(self):
        assert COMPONENT.exists(), f"{COMPONENT} is missing: run wasm/build.sh first"
        engine = wasmtime.Engine()
        self.store = wasmtime.Store(engine)
        component = wc.Component.from_file(engine, str(COMPONENT))
        instance = wc.Linker(engine).instantiate(self.store, component)
        interface = instance.get_export_index(self.store, INTERFACE)
        self.funcs = {}
        for name in ["[static]database.create", "[static]database.from-json", "[method]database.add",
                     "[method]database.sample", "[method]database.best", "[method]database.info",
                     "[method]database.stats", "[method]database.to-json", "[method]database.should-stop",
                     "[method]database.plan", "[method]database.lineage", "[method]database.lineage-tree",
                     "[method]database.lineage-mermaid", "[method]database.population-markdown",
                     "[method]database.record-events", "[method]database.take-events", "validate", "policy-check"]:
            index = instance.get_export_index(self.store, name, interface)
            self.funcs[name.split(".", 1)[-1]] = instance.get_func(self.store, index)

    def call(self, name, *args):
        return self.funcs[name](self.store, *args)


def code(value):
    """A `result` comes back as its ok value or, for an error, the `error` variant."""
    if isinstance(value, wc.Variant):
        assert isinstance(value.payload, str) and value.payload, "errors carry a message"
        raise ComponentError(value.tag)
    return value


class ComponentError(Exception):
    pass


def get(record, field):
    return getattr(record, field)


def metrics(pairs):
    return {name: number(value) for name, value in pairs}


def number(value):
    """JavaScript prints 1.0 as 1: keep integral floats as ints so json.dumps agrees."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def add_request(r):
    record = wc.Record()
    for field, key in [("id", "id"), ("code-path", "codePath"), ("target-code", "targetCode"),
                       ("parent-id", "parentId"), ("changes", "changes"), ("island", "island"),
                       ("status", "status"), ("reason", "reason"), ("operator", "operator"), ("plan-item", "planItem")]:
        setattr(record, field, r.get(key))
    setattr(record, "metrics", [(name, float(value)) for name, value in r["metrics"].items()])
    return record


def some(out, key, value, absent=None):
    """Optional fields are left out of the core's JSON when absent."""
    if value != absent:
        out[key] = value
    return out


def add_outcome(o):
    best_metrics = get(o, "best-metrics")
    out = {"id": o.id, "metrics": metrics(o.metrics), "bestProgramId": get(o, "best-program-id"),
           "bestMetrics": None if best_metrics is None else metrics(best_metrics),
           "lastIteration": get(o, "last-iteration")}
    some(out, "warnings", o.warnings, [])
    some(out, "status", o.status, "accepted")
    some(out, "cached", o.cached, False)
    return some(out, "cell", o.cell)


def parent(p):
    return None if p is None else {"id": p.id, "codePath": get(p, "code-path"), "targetCode": get(p, "target-code"),
                                   "metrics": metrics(p.metrics), "changes": p.changes}


def sample(s):
    out = {"parent": parent(s.parent),
           "inspirations": [{"id": i.id, "metrics": metrics(i.metrics), "changes": i.changes} for i in s.inspirations]}
    some(out, "operator", s.operator)
    some(out, "island", s.island)
    some(out, "secondParent", parent(get(s, "second-parent")))
    some(out, "donorIsland", get(s, "donor-island"))
    return some(out, "forcedBy", get(s, "forced-by"))


def plan(p):
    items = []
    for i in p.items:
        item = {"name": i.name, "operator": i.operator, "island": i.island, "parentIds": get(i, "parent-ids")}
        some(item, "donorIsland", get(i, "donor-island"))
        items.append(some(item, "forcedBy", get(i, "forced-by")))
    return {"generation": p.generation, "items": items}


def stop_verdict(v):
    return {"stop": v.stop, "reason": v.reason, "evaluations": v.evaluations, "rounds": v.rounds,
            "stagnation": v.stagnation, "bestFitness": fitness(get(v, "best-fitness"))}


def lineage(l):
    return None if l is None else {"id": l.id, "ancestors": l.ancestors,
                                   "missingAncestor": get(l, "missing-ancestor"), "descendants": l.descendants}


def best(b):
    if b is None:
        return None
    return {"id": b.id, "codePath": get(b, "code-path"), "targetCode": get(b, "target-code"),
            "metrics": metrics(b.metrics), "changes": b.changes, "iterationFound": get(b, "iteration-found")}


def info(i):
    best_metrics = get(i, "best-metrics")
    return {"isEmpty": get(i, "is-empty"), "lastIteration": get(i, "last-iteration"),
            "programCount": get(i, "program-count"), "bestProgramId": get(i, "best-program-id"),
            "bestMetrics": None if best_metrics is None else metrics(best_metrics),
            "seedCodePath": get(i, "seed-code-path"), "seedTargetCode": get(i, "seed-target-code")}


def fitness(value):
    return None if value is None else number(value)


def stats(s):
    out = {"programCount": get(s, "program-count"), "evaluations": s.evaluations,
            "bestProgramId": get(s, "best-program-id"), "bestFitness": fitness(get(s, "best-fitness")),
            "meanFitness": fitness(get(s, "mean-fitness")), "baselineFitness": fitness(get(s, "baseline-fitness")),
            "improvement": fitness(s.improvement),
            "islands": [{"island": i.island, "size": i.size, "bestProgramId": get(i, "best-program-id"),
                         "bestFitness": fitness(get(i, "best-fitness")),
                         "meanFitness": fitness(get(i, "mean-fitness"))} for i in s.islands],
            "archive": s.archive, "stagnation": s.stagnation, "rounds": s.rounds,
            "recentStatuses": get(s, "recent-statuses")}
    c = s.cells
    return some(out, "cells", None if c is None else {
        "filled": c.filled, "total": c.total, "coverage": number(c.coverage), "qdScore": number(get(c, "qd-score")),
        "qdOffset": number(get(c, "qd-offset"))})


def apply(pop, db, op):
    kind = op["op"]
    if kind == "add":
        return db, add_outcome(code(pop.call("add", db, add_request(op["request"]), float(op["now"]))))
    if kind == "sample":
        return db, sample(pop.call("sample", db))
    if kind == "best":
        return db, best(pop.call("best", db))
    if kind == "info":
        return db, info(pop.call("info", db))
    if kind == "stats":
        return db, stats(pop.call("stats", db))
    if kind == "shouldStop":
        return db, stop_verdict(pop.call("should-stop", db))
    if kind == "plan":
        return db, plan(code(pop.call("plan", db, op["n"], op["frozen"], op["boosted"])))
    if kind == "lineage":
        return db, lineage(pop.call("lineage", db, op["id"]))
    if kind == "export":
        name = {"tree": "lineage-tree", "mermaid": "lineage-mermaid", "markdown": "population-markdown"}[op["format"]]
        return db, pop.call(name, db)
    if kind == "events":
        return db, [json.loads(line) for line in pop.call("take-events", db)]
    if kind == "validate":
        return db, pop.call("validate", op["text"])
    if kind == "policy":
        return db, policy(pop.call("policy-check", op["changed"], op["target"], op["protected"]))
    if kind == "reload":
        return recording(pop, code(pop.call("from-json", pop.call("to-json", db)))), None
    if kind == "snapshot":
        return db, json.loads(pop.call("to-json", db))
    raise ValueError(f"unknown op {kind}")


def policy(v):
    return {"pass": get(v, "pass"), "reason": v.reason}


def recording(pop, db):
    """Every database a runner opens records its events (the `events` op drains them)."""
    pop.call("record-events", db, True)
    return db


def create(pop, vector):
    if "initial" in vector:
        return recording(pop, code(pop.call("from-json", js_pretty(vector["initial"]))))
    if "initialText" in vector:
        return recording(pop, code(pop.call("from-json", vector["initialText"])))
    return recording(pop, code(pop.call("create", js_compact(vector.get("config", {})), vector["seed"])))


def replay(pop, vector):
    expected = vector["expected"]
    try:
        db = create(pop, vector)
    except ComponentError as e:
        assert str(e) == expected.get("createError"), vector["name"]
        return
    assert "createError" not in expected, f"{vector['name']}: expected a create error"
    for i, op in enumerate(vector["ops"]):
        try:
            db, value = apply(pop, db, op)
            result = {"ok": value}
        except ComponentError as e:
            result = {"error": str(e)}
        assert js_compact(result) == js_compact(expected["results"][i]), f"{vector['name']} op {i}"
    assert pop.call("to-json", db) == js_pretty(expected["database"]), f"{vector['name']}: database bytes"


def test_every_vector_replays_identically_under_wasmtime_py():
    pop = Population()
    ran = 0
    for path in sorted(VECTORS.glob("*.json")):
        replay(pop, json.loads(path.read_text(encoding="utf-8")))
        ran += 1
    print(f"component (wasmtime-py): ran {ran} conformance vectors")
    assert ran == EXPECTED_VECTORS


def test_errors_are_the_wit_error_variant_with_a_message():
    pop = Population()
    with pytest.raises(ComponentError, match="invalid-config"):
        code(pop.call("create", '{"numIslands": 0}', 1))
    with pytest.raises(ComponentError, match="corrupt-database"):
        code(pop.call("from-json", "{"))
