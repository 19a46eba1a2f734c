"""Every conformance vector through the `evodb` Python package (the pure component under
wasmtime-py), by its public API alone.

The calls come from `tests/wit-calls.json` (written by the vector tool), arguments and results
in WIT's shape. This runner has no per-type code: a WIT function name picks the package's
method (`[method]database.sample-for` → `Database.sample_for`), each argument becomes that
method's annotated parameter type through `evodb.wit.lift`, and each result goes back to WIT's
shape through `evodb.wit.to_json`; then it compares.
"""

import inspect
import json
import typing
from pathlib import Path

import pytest

import evodb
from evodb.wit import lift, to_json

EXPECTED_VECTORS = 92
ROOT = Path(__file__).resolve().parents[3]
CALLS = ROOT / "tests" / "wit-calls.json"


def python_name(wit: str) -> str:
    return wit.lstrip("%").replace("-", "_")


def target(db, call):
    """The package's callable for a WIT function name: static, method or free function."""
    if call.startswith("[static]database."):
        return getattr(evodb.Database, python_name(call.split(".", 1)[1]))
    if call.startswith("[method]database."):
        return getattr(db, python_name(call.split(".", 1)[1]))
    return getattr(evodb, python_name(call))


def invoke(db, call, args):
    func = target(db, call)
    hints = typing.get_type_hints(func)
    params = [p for p in inspect.signature(func).parameters.values() if p.name != "self"]
    return func(*(lift(hints[p.name], value) for p, value in zip(params, args)))


def replay(vector):
    db = None
    for i, call in enumerate(vector["calls"]):
        where = f"{vector['name']} call {i} ({call['call']})"
        try:
            result = invoke(db, call["call"], call["args"])
        except evodb.EvodbError as e:
            assert e.message, f"{where}: errors carry a message"
            assert e.code == call.get("err"), f"{where}: {e}"
            continue
        assert "err" not in call, f"{where}: expected the error {call['err']}"
        if call["ok"] == "$database":
            db = result
        else:
            assert to_json(result) == call["ok"], f"{where}: {to_json(result)!r}"


def test_every_vector_replays_identically_through_the_python_package():
    calls = json.loads(CALLS.read_text(encoding="utf-8"))
    assert calls["vectorCount"] == EXPECTED_VECTORS
    ran = 0
    for vector in calls["vectors"]:
        replay(vector)
        ran += 1
    print(f"component (evodb Python package, wasmtime-py): ran {ran} conformance vectors")
    assert ran == EXPECTED_VECTORS


def test_errors_are_exceptions_with_the_wit_error_code_and_a_message():
    with pytest.raises(evodb.InvalidConfig) as config:
        evodb.Database.create('{"numIslands": 0}', 1)
    assert config.value.code == "invalid-config" and "numIslands" in config.value.message
    with pytest.raises(evodb.CorruptDatabase) as corrupt:
        evodb.Database.from_json("{")
    assert corrupt.value.code == "corrupt-database" and corrupt.value.message
