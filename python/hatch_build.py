"""Ships the `pure` component in the wheel and the sdist: ../wasm/dist/evodb-pure.wasm, made by
wasm/build.sh.

The component is never committed under python/; a wheel built without it would fail at the first
call, so the build stops here instead, naming the fix. The sdist carries it inside the package
(`src/evodb/evodb-pure.wasm`), so a wheel built from the sdist, away from this repository, finds
it there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class ComponentHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        explicit = os.environ.get("EVODB_COMPONENT")
        shipped = Path(self.root) / "src" / "evodb" / "evodb-pure.wasm"
        if self.target_name == "wheel" and shipped.is_file() and not explicit:
            # Built from the sdist: the component is already in the package.
            return
        component = Path(explicit) if explicit else Path(self.root).parent / "wasm" / "dist" / "evodb-pure.wasm"
        if not component.is_file():
            raise RuntimeError(
                f"{component} is missing: run wasm/build.sh at the repository's root first "
                "(or set EVODB_COMPONENT to an evodb-pure.wasm)"
            )
        inside = "src/evodb/evodb-pure.wasm" if self.target_name == "sdist" else "evodb/evodb-pure.wasm"
        build_data["force_include"][str(component)] = inside
