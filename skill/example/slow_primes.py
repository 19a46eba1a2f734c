"""The worked example's target: a deliberately slow prime lister.

`primes_below` is the function to evolve. It checks every number against
every smaller number and never stops early, so it does roughly n*n/2
divisions. A sieve does the same job in a tiny fraction of that time.
"""


def primes_below(n):
    """Return every prime p with 2 <= p < n, in increasing order, as a list."""
    primes = []
    for candidate in range(2, n):
        is_prime = True
        for divisor in range(2, candidate):
            if candidate % divisor == 0:
                is_prime = False
        if is_prime:
            primes.append(candidate)
    return primes
