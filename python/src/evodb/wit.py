"""Between the Python types of `evodb.types` and WIT's shapes, guided by the type hints alone.

Two WIT shapes meet here: the values wasmtime-py passes and returns (`Record` objects with
kebab-case attributes, tuples, lists) and the same values as JSON (records as objects with
kebab-case keys, tuples as arrays) — the shape of `tests/wit-calls.json` and of every face's
conformance runner. Nothing here knows a record by name: the dataclass fields and their
annotations say everything, so a new field in `types.py` needs no code here.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import types
import typing
from typing import Any, Literal, Union

import wasmtime.component as wc


def wit_name(field: dataclasses.Field[Any]) -> str:
    """A dataclass field's WIT name: snake_case to kebab-case (`pass_` is WIT's `pass`)."""
    explicit = field.metadata.get("wit")
    return str(explicit) if explicit else field.name.replace("_", "-")


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, str, Any], ...]:
    """(name, WIT name, type) of each field: resolving annotations is slow, so once per class."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, wit_name(f), hints[f.name]) for f in dataclasses.fields(cls))


@functools.cache
def _optional_payload(tp: Any) -> Any | None:
    """`T` for `Optional[T]`, else None."""
    if typing.get_origin(tp) in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and type(None) in typing.get_args(tp):
            return args[0]
    return None


def _field(value: Any, name: str) -> Any:
    return value[name] if isinstance(value, dict) else getattr(value, name)


def lift(tp: Any, value: Any) -> Any:
    """A WIT value (from wasmtime-py or from JSON) as the Python type `tp`."""
    payload = _optional_payload(tp)
    if payload is not None:
        return None if value is None else lift(payload, value)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return tp(**{name: lift(ty, _field(value, wit)) for name, wit, ty in _fields(tp)})
    origin = typing.get_origin(tp)
    if origin is dict:
        return {str(name): float(v) for name, v in value}
    if origin is tuple:
        (element, _) = typing.get_args(tp)
        return tuple(lift(element, v) for v in value)
    if origin in (list, collections.abc.Sequence, collections.abc.Iterable):
        (element,) = typing.get_args(tp)
        return [lift(element, v) for v in value]
    if tp is float:
        return float(value)
    if tp in (int, str, bool) or origin is Literal:
        return value
    raise TypeError(f"evodb.wit.lift: no WIT shape for {tp!r}")


def lower(tp: Any, value: Any) -> Any:
    """A Python value of type `tp` as wasmtime-py takes it."""
    payload = _optional_payload(tp)
    if payload is not None:
        return None if value is None else lower(payload, value)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        record = wc.Record()
        for name, wit, ty in _fields(tp):
            setattr(record, wit, lower(ty, getattr(value, name)))
        return record
    origin = typing.get_origin(tp)
    if origin is dict:
        return [(str(name), float(v)) for name, v in value.items()]
    if origin in (tuple, list):
        element = typing.get_args(tp)[0]
        return [lower(element, v) for v in value]
    if tp is float:
        return float(value)
    return value


def to_json(value: Any) -> Any:
    """A Python result as WIT-shaped JSON: kebab-case keys, metrics as `[name, value]` pairs."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {wit_name(f): to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return [[name, v] for name, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value
