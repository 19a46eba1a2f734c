"""The pure component from Python (any component host works the same way):
    wasm/build.sh && wasm/tests/python/.venv/bin/python wasm/examples/component.py
(tests/run.sh makes the venv; wasm/tests/readme.test.mjs runs this.)
"""

import json
from pathlib import Path

import wasmtime
import wasmtime.component as wc

COMPONENT = Path(__file__).resolve().parents[1] / "dist" / "evodb-pure.wasm"

engine = wasmtime.Engine()
store = wasmtime.Store(engine)
instance = wc.Linker(engine).instantiate(store, wc.Component.from_file(engine, str(COMPONENT)))
interface = instance.get_export_index(store, "evodb:population/population@0.1.0")


def func(name):
    return instance.get_func(store, instance.get_export_index(store, name, interface))


create, add, sample, export = (func("[static]database.create"), func("[method]database.add"),
                               func("[method]database.sample"), func("[method]database.export"))

db = create(store, json.dumps({"numIslands": 2}), 42)  # result<database, error>: the value or the error variant
# A WIT record: every field of `add-request` set, `None` for an absent option (kebab-case names).
request = wc.Record()
for field, value in {"id": None, "code-path": "/src/f.py", "target-code": "def f(): ...", "parent-id": "0",
                     "metrics": [("score", 0.5)], "changes": "initial implementation", "island": None,
                     "status": "accepted", "reason": None, "operator": None, "plan-item": None, "token": None,
                     "branch": None, "commit": None, "target": None, "decide": False, "model": None,
                     "tokens-in": None, "tokens-out": None, "cost-usd": None, "eval-seconds": None,
                     "origin": None, "parents": [], "instance-scores": [], "embedding": None}.items():
    setattr(request, field, value)
outcome = add(store, db, request, 1700000000.0)
parent = sample(store, db).parent
print(json.dumps({"added": outcome.id, "parent": parent.id, "lastIteration": getattr(outcome, "last-iteration")}))
print(export(store, db, "json")[:60], "…")  # export-format: json, mermaid, tree or markdown
