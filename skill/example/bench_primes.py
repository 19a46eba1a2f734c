"""Benchmark for slow_primes.primes_below: prints one JSON line, e.g.

    {"score": 0.42, "seconds": 0.0021, "reference_seconds": 0.066, "speedup": 31.4, "n": 1500}

`score` is in [0, 1], higher is faster. The benchmark times a fixed workload,
primes_below(1500), and compares it with a private copy of the original slow
algorithm timed in the same process, so the score measures the speedup over
the original rather than the speed of this machine:

    score = log10(1 + speedup) / log10(1 + 10000)     (capped at 1)

The original scores about 0.08, a 10x speedup about 0.26, 100x about 0.50 and
10000x reaches 1. If the candidate returns a wrong answer the benchmark prints
{"score": 0, "error": ...} and exits 1. Runs in well under a second.
"""

import json
import math
import os
import sys
import time

sys.dont_write_bytecode = True  # the evolve loop swaps slow_primes.py in place
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

N = 1500
MAX_SPEEDUP = 10000.0


def reference_primes_below(n):
    """The original algorithm, kept here as the yardstick."""
    primes = []
    for candidate in range(2, n):
        is_prime = True
        for divisor in range(2, candidate):
            if candidate % divisor == 0:
                is_prime = False
        if is_prime:
            primes.append(candidate)
    return primes


def best_time(fn, min_sample=0.02, samples=3):
    """Best per-call time over a few samples; fast functions are looped."""
    loops = 1
    while True:  # grow the loop count until one sample takes min_sample
        start = time.perf_counter()
        for _ in range(loops):
            fn(N)
        elapsed = time.perf_counter() - start
        if elapsed >= min_sample or loops >= 1 << 16:
            break
        loops *= 4
    best = elapsed / loops
    for _ in range(samples - 1):
        start = time.perf_counter()
        for _ in range(loops):
            fn(N)
        best = min(best, (time.perf_counter() - start) / loops)
    return best


def main():
    try:
        from slow_primes import primes_below
        expected = reference_primes_below(N)
        got = primes_below(N)
    except Exception as exc:  # a candidate that does not even import or run
        print(json.dumps({"score": 0, "error": f"{type(exc).__name__}: {exc}"}))
        return 1
    if list(got) != expected:
        print(json.dumps({"score": 0, "error": f"wrong result for n={N}"}))
        return 1
    reference = best_time(reference_primes_below, samples=2)
    seconds = best_time(primes_below)
    speedup = reference / seconds
    score = min(1.0, math.log10(1 + speedup) / math.log10(1 + MAX_SPEEDUP))
    print(json.dumps({
        "score": round(score, 4),
        "seconds": round(seconds, 6),
        "reference_seconds": round(reference, 6),
        "speedup": round(speedup, 2),
        "n": N,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
