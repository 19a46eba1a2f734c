"""A deterministic stand-in for the LLM, for OpenEvolve's `init_client` hook: it reads `RATIO`
from the prompt's current program and answers with a full rewrite that moves it by a step
derived from the value itself (a hash), so the same parent always gets the same child."""

from __future__ import annotations

import hashlib
import re
from typing import Any

CURRENT = re.compile(r"# Current Program\n```\w*\n(.*?)```", re.S)
RATIO = re.compile(r"^RATIO = (-?[0-9.e+-]+)$", re.M)


def rewrite(prompt: str) -> str:
    found = CURRENT.search(prompt)
    code = found[1] if found else ""
    value = RATIO.search(code)
    current = float(value[1]) if value else 1.0
    digest = hashlib.sha256(repr(current).encode()).digest()
    step = (int.from_bytes(digest[:4], "big") / 2**32 - 0.4) * 0.5
    child = re.sub(RATIO, f"RATIO = {current + step!r}", code) if value else code
    return f"Moved RATIO by {step:+.4f}.\n```python\n{child}```\n"


class StubLLM:
    def __init__(self, model_cfg: Any = None) -> None:
        self.model = "stub"

    async def generate(self, prompt: str, **kwargs: Any) -> str:
        return rewrite(prompt)

    async def generate_with_context(self, system_message: str, messages: list[dict[str, str]], **kwargs: Any) -> str:
        return rewrite("\n".join(m["content"] for m in messages))


def init_client(model_cfg: Any) -> StubLLM:
    return StubLLM(model_cfg)
