"""The Python types against wit/population.wit: a record, field, type, enum case or function
added, renamed or retyped in the WIT and not in `evodb` fails here."""

from __future__ import annotations

import re
import typing
from dataclasses import fields
from pathlib import Path
from typing import Any, Optional

import evodb
from evodb.types import ENUMS, RECORDS
from evodb.wit import wit_name

WIT = Path(__file__).resolve().parents[2] / "wit" / "population.wit"


def interface_text() -> str:
    text = WIT.read_text(encoding="utf-8")
    text = re.sub(r"//[^\n]*", "", text)
    start = text.index("interface population")
    return text[start : text.index("interface store")]


def split_top(text: str) -> list[str]:
    """Splits at commas outside `<…>`."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def blocks(kind: str) -> dict[str, str]:
    return {m[1]: m[2] for m in re.finditer(rf"\b{kind}\s+([\w-]+)\s*\{{([^}}]*)\}}", interface_text())}


def python_type(wit: str) -> Any:
    wit = wit.strip()
    simple = {"string": str, "bool": bool, "u32": int, "u64": int, "f64": float, "metrics": dict[str, float]}
    if wit in simple:
        return simple[wit]
    if wit in RECORDS:
        return RECORDS[wit]
    if wit in ENUMS:
        return ENUMS[wit]
    inner = re.fullmatch(r"(option|list)<(.*)>", wit)
    assert inner, f"the drift test knows no WIT type `{wit}`: teach python_type and evodb.wit"
    element = python_type(inner[2])
    return Optional[element] if inner[1] == "option" else tuple[element, ...]  # type: ignore[valid-type]


def test_every_wit_record_is_a_dataclass_field_for_field() -> None:
    records = blocks("record")
    assert set(records) == set(RECORDS), "records in the WIT and in evodb.types differ"
    for name, body in records.items():
        wit_fields = {}
        for part in split_top(body):
            field_name, _, ty = part.partition(":")
            wit_fields[field_name.strip()] = python_type(ty)
        cls = RECORDS[name]
        hints = typing.get_type_hints(cls)
        ours = {wit_name(f): hints[f.name] for f in fields(cls)}
        assert ours == wit_fields, f"record `{name}` drifted from {cls.__name__}"
        assert getattr(cls, "__dataclass_params__").frozen, f"{cls.__name__} must be frozen"


def test_every_wit_enum_is_a_literal_of_its_cases() -> None:
    enums = blocks("enum")
    assert set(enums) == set(ENUMS)
    for name, body in enums.items():
        assert list(typing.get_args(ENUMS[name])) == split_top(body), f"enum `{name}` drifted"


def test_the_error_variant_cases_are_the_exception_codes() -> None:
    body = blocks("variant")["error"]
    cases = [re.sub(r"\(.*", "", case) for case in split_top(body)]
    assert cases == list(evodb.errors.BY_CODE)


def test_every_wit_function_has_a_python_method() -> None:
    text = interface_text()
    resource = text[text.index("resource database") :]
    for name in re.findall(r"%?([\w-]+):\s*(?:static\s+)?func", resource):
        assert callable(getattr(evodb.Database, name.replace("-", "_"), None)), f"Database has no `{name}`"
    top = text[: text.index("resource database")]
    for name in re.findall(r"^\s*([\w-]+):\s*func", top, re.M):
        assert callable(getattr(evodb, name.replace("-", "_"), None)), f"evodb has no `{name}`"
