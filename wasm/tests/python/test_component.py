"""Every conformance vector through the pure component under Python's `wasmtime` package.

The calls come from `tests/wit-calls.json` (written by the vector tool), arguments and results
already in WIT's shape. This runner has no per-type code: it lowers each argument by the
function's own parameter types (the component's reflection) and lifts each result to plain JSON,
then compares.
"""

import json
from pathlib import Path

import pytest
import wasmtime
import wasmtime.component as wc

EXPECTED_VECTORS = 74
ROOT = Path(__file__).resolve().parents[3]
COMPONENT = ROOT / "wasm" / "dist" / "evodb-pure.wasm"
CALLS = ROOT / "tests" / "wit-calls.json"
INTERFACE = "evodb:population/population@0.1.0"


class Population:
    """The `population` interface of one instance of the pure component."""

    def __init__(self):
        assert COMPONENT.exists(), f"{COMPONENT} is missing: run wasm/build.sh first"
        engine = wasmtime.Engine()
        self.store = wasmtime.Store(engine)
        component = wc.Component.from_file(engine, str(COMPONENT))
        self.instance = wc.Linker(engine).instantiate(self.store, component)
        self.interface = self.instance.get_export_index(self.store, INTERFACE)
        self.funcs = {}

    def func(self, name):
        """An export by its WIT name: `validate`, `[static]database.create`, `[method]database.add`."""
        if name not in self.funcs:
            index = self.instance.get_export_index(self.store, name, self.interface)
            assert index is not None, f"the component exports no `{name}`"
            self.funcs[name] = self.instance.get_func(self.store, index)
        return self.funcs[name]

    def call(self, name, *args):
        return self.func(name)(self.store, *args)


def lower(ty, value):
    """A WIT-shaped JSON value as wasmtime-py takes it, guided by the parameter's type."""
    if value is None:
        return None
    if isinstance(ty, wc.OptionType):
        return lower(ty.payload, value)
    if isinstance(ty, wc.RecordType):
        record = wc.Record()
        for name, field in ty.fields:
            setattr(record, name, lower(field, value[name]))
        return record
    if isinstance(ty, wc.TupleType):
        return tuple(lower(t, v) for t, v in zip(ty.elements, value))
    if isinstance(ty, wc.ListType):
        return [lower(ty.element, v) for v in value]
    if isinstance(ty, wc.F64):
        return float(value)
    return value


def lift(value):
    """A wasmtime-py result as WIT-shaped JSON."""
    if isinstance(value, wc.Record):
        return {name: lift(v) for name, v in vars(value).items()}
    if isinstance(value, (list, tuple)):
        return [lift(v) for v in value]
    return value


def code(value):
    """A `result` comes back as its ok value or, for an error, the `error` variant."""
    if isinstance(value, wc.Variant):
        assert isinstance(value.payload, str) and value.payload, "errors carry a message"
        raise ComponentError(value.tag)
    return value


class ComponentError(Exception):
    pass


def invoke(pop, db, name, args):
    """Calls an export by its WIT name; methods get the current database first."""
    func = pop.func(name)
    params = func.type(pop.store).params
    if name.startswith("[method]"):
        params = params[1:]
        return func(pop.store, db, *(lower(ty, v) for (_, ty), v in zip(params, args)))
    return func(pop.store, *(lower(ty, v) for (_, ty), v in zip(params, args)))


def replay(pop, vector):
    db = None
    for i, call in enumerate(vector["calls"]):
        where = f"{vector['name']} call {i} ({call['call']})"
        try:
            result = code(invoke(pop, db, call["call"], call["args"]))
        except ComponentError as e:
            assert str(e) == call.get("err"), f"{where}: {e}"
            continue
        assert "err" not in call, f"{where}: expected the error {call['err']}"
        if call["ok"] == "$database":
            db = result
        else:
            assert lift(result) == call["ok"], f"{where}: {lift(result)!r}"


def test_every_vector_replays_identically_under_wasmtime_py():
    pop = Population()
    calls = json.loads(CALLS.read_text(encoding="utf-8"))
    assert calls["vectorCount"] == EXPECTED_VECTORS
    ran = 0
    for vector in calls["vectors"]:
        replay(pop, vector)
        ran += 1
    print(f"component (wasmtime-py): ran {ran} conformance vectors")
    assert ran == EXPECTED_VECTORS


def test_errors_are_the_wit_error_variant_with_a_message():
    pop = Population()
    with pytest.raises(ComponentError, match="invalid-config"):
        code(pop.call("[static]database.create", '{"numIslands": 0}', 1))
    with pytest.raises(ComponentError, match="corrupt-database"):
        code(pop.call("[static]database.from-json", "{"))
