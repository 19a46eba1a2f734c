"""Scores a candidate by how close its `estimate()` comes to the golden ratio."""

import importlib.util
import math

GOLDEN = (1 + math.sqrt(5)) / 2


def evaluate(program_path: str) -> dict[str, float]:
    spec = importlib.util.spec_from_file_location("candidate", program_path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    error = abs(float(module.estimate()) - GOLDEN)
    return {"combined_score": 1.0 / (1.0 + error), "error": error}
