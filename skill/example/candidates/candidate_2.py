"""The worked example's target: a deliberately slow prime lister.

Candidate 2 (prepared stand-in for an LLM mutation): a sieve of
Eratosthenes over a bytearray, crossing out multiples with slice assignment.
"""


def primes_below(n):
    """Return every prime p with 2 <= p < n, in increasing order, as a list."""
    if n < 3:
        return []
    sieve = bytearray([1]) * n
    sieve[0] = sieve[1] = 0
    p = 2
    while p * p < n:
        if sieve[p]:
            sieve[p * p :: p] = bytes(len(range(p * p, n, p)))
        p += 1
    return [i for i, flag in enumerate(sieve) if flag]
