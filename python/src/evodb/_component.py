"""The `pure` component (`evodb-pure.wasm`, shipped in the wheel) under wasmtime-py."""

from __future__ import annotations

import os
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import wasmtime
import wasmtime.component as wc

from .errors import EvodbError, from_code

INTERFACE = "evodb:population/population@0.1.0"
_compiled: tuple[wasmtime.Engine, wc.Component] | None = None
_compile_lock = threading.Lock()


def component_path() -> Path:
    """Where the component is: `$EVODB_COMPONENT`, else the wheel's copy, else (running from a
    checkout without installing) the repository's `wasm/dist/evodb-pure.wasm`."""
    explicit = os.environ.get("EVODB_COMPONENT")
    if explicit:
        return Path(explicit)
    shipped = Path(str(resources.files("evodb").joinpath("evodb-pure.wasm")))
    if shipped.is_file():
        return shipped
    checkout = Path(__file__).resolve().parents[3] / "wasm" / "dist" / "evodb-pure.wasm"
    if checkout.is_file():
        return checkout
    raise EvodbError(
        "io",
        f"the evodb component is missing (looked for {shipped} and {checkout}); "
        "install the evodb wheel, or run wasm/build.sh in a checkout",
    )


def _compiled_component() -> tuple[wasmtime.Engine, wc.Component]:
    """Compiled once per process: compiling is the slow part, instantiating is cheap."""
    global _compiled
    with _compile_lock:
        if _compiled is None:
            engine = wasmtime.Engine()
            _compiled = (engine, wc.Component.from_file(engine, str(component_path())))
        return _compiled


class Instance:
    """One instance of the component in its own store: the databases it made live in it."""

    def __init__(self) -> None:
        engine, component = _compiled_component()
        self.store = wasmtime.Store(engine)
        self.instance = wc.Linker(engine).instantiate(self.store, component)
        interface = self.instance.get_export_index(self.store, INTERFACE)
        if interface is None:
            raise EvodbError("io", f"the component at {component_path()} exports no `{INTERFACE}`")
        self.interface = interface
        self.funcs: dict[str, wc.Func] = {}
        self.returns_result: dict[str, bool] = {}

    def func(self, name: str) -> wc.Func:
        """An export by its WIT name: `validate`, `[static]database.create`, `[method]database.add`."""
        func = self.funcs.get(name)
        if func is None:
            index = self.instance.get_export_index(self.store, name, self.interface)
            found = None if index is None else self.instance.get_func(self.store, index)
            if found is None:
                raise EvodbError("io", f"the component exports no `{name}`; rebuild it with wasm/build.sh")
            func = self.funcs[name] = found
        return func

    def call(self, name: str, *args: Any) -> Any:
        """Calls an export; a WIT `result` comes back as its ok value or raises its error."""
        func = self.func(name)
        value = func(self.store, *args)
        if not isinstance(value, wc.Variant):
            return value
        returns_result = self.returns_result.get(name)
        if returns_result is None:
            returns_result = self.returns_result[name] = isinstance(func.type(self.store).result, wc.ResultType)
        if returns_result:
            raise from_code(str(value.tag), str(value.payload))
        return value
