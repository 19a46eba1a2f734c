# EVOLVE-BLOCK-START
"""Guess the golden ratio: the evaluator scores how close `estimate()` comes."""

RATIO = 1.0


def estimate() -> float:
    return RATIO
# EVOLVE-BLOCK-END
