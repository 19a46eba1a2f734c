"""The worked example's target: a deliberately slow prime lister.

Candidate 3 (prepared stand-in for a bad LLM mutation): only odd numbers are
tested, which is faster, but 2 is forgotten. The tests must reject it.
"""


def primes_below(n):
    """Return every prime p with 2 <= p < n, in increasing order, as a list."""
    primes = []
    for candidate in range(3, n, 2):
        divisor = 3
        while divisor * divisor <= candidate:
            if candidate % divisor == 0:
                break
            divisor += 2
        else:
            primes.append(candidate)
    return primes
