"""The worked example's target: a deliberately slow prime lister.

Candidate 1 (prepared stand-in for an LLM mutation): stop testing a number
at its first divisor. Primes still cost a full scan, so the gain is modest.
"""


def primes_below(n):
    """Return every prime p with 2 <= p < n, in increasing order, as a list."""
    primes = []
    for candidate in range(2, n):
        is_prime = True
        for divisor in range(2, candidate):
            if candidate % divisor == 0:
                is_prime = False
                break
        if is_prime:
            primes.append(candidate)
    return primes
