"""Errors: the engine's (WIT `variant error`, one subclass per case) and the directory's."""

from __future__ import annotations


class EvodbError(Exception):
    """A call evodb refused. `code` is the engine's stable error code (the WIT `error` case, e.g.
    `invalid-config`), `message` names the problem and the fix; nothing was changed."""

    code: str = "evodb-error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class InvalidConfig(EvodbError):
    """A configuration option is out of range or of the wrong type."""


class InvalidInput(EvodbError):
    """A request is malformed: empty code, a non-finite metric, a missing fitness metric…"""


class DuplicateId(EvodbError):
    """An add supplied an `id` that is already in the database."""


class CorruptDatabase(EvodbError):
    """`database.json` text is not a database: not JSON, truncated, or inconsistent."""


class StoreError(EvodbError):
    """A database directory could not be read or written (code `io`), or changed under this
    `Database` since it was opened or last saved (code `conflict`)."""


#: The Python class of each engine error code.
BY_CODE: dict[str, type[EvodbError]] = {
    "invalid-config": InvalidConfig,
    "invalid-input": InvalidInput,
    "duplicate-id": DuplicateId,
    "corrupt-database": CorruptDatabase,
    "io": StoreError,
}


def from_code(code: str, message: str) -> EvodbError:
    return BY_CODE.get(code, EvodbError)(code, message)
