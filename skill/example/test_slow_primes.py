"""Correctness tests for slow_primes.primes_below (stdlib only).

Run from any directory:  python3 test_slow_primes.py
                    or:  python3 -m unittest test_slow_primes   (from this directory)
Exit status 0 means every test passed.
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True  # the evolve loop swaps slow_primes.py in place
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from slow_primes import primes_below  # noqa: E402


def is_prime(k):
    """An obviously correct (and slow) reference, independent of the target."""
    return k >= 2 and all(k % d for d in range(2, int(k**0.5) + 1))


class PrimesBelowTest(unittest.TestCase):
    def test_no_primes_below_three(self):
        for n in (-5, 0, 1, 2):
            self.assertEqual(primes_below(n), [], f"primes_below({n})")

    def test_small_values(self):
        self.assertEqual(primes_below(3), [2])
        self.assertEqual(primes_below(4), [2, 3])
        self.assertEqual(primes_below(30), [2, 3, 5, 7, 11, 13, 17, 19, 23, 29])

    def test_upper_bound_is_exclusive(self):
        self.assertNotIn(13, primes_below(13))
        self.assertIn(13, primes_below(14))

    def test_matches_reference_up_to_300(self):
        for n in range(0, 301):
            expected = [k for k in range(n) if is_prime(k)]
            self.assertEqual(primes_below(n), expected, f"primes_below({n})")

    def test_known_counts(self):
        self.assertEqual(len(primes_below(1000)), 168)
        self.assertEqual(len(primes_below(1500)), 239)

    def test_returns_a_list(self):
        self.assertIsInstance(primes_below(50), list)


if __name__ == "__main__":
    unittest.main()
