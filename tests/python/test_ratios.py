# SPDX-License-Identifier: MIT
"""Description: every ratio is shown as B/A and the word beside it is derived from it.

the one ratio convention: every ratio is shown as B/A
whatever the quantity, and the word beside it is derived from it: above
1 is slower for a time and faster for a throughput, below 1 the other
way round; intervals and very large or small ratios keep their digits."""

import unittest

from diskio_analysis.ratios import (direction, distance, fmt_factor,
                                    fmt_interval, fmt_ratio_word)


class RatioTest(unittest.TestCase):
    def test_the_seed_studys_table_reads_as_it_did(self):
        # Table 4: load 0.93, power 0.90, throughput 0.89, fsync 0.74,
        # async 1.44 (all B/A)
        self.assertEqual([fmt_factor(r) for r in (0.93, 0.9, 0.89, 0.74, 1.44)],
                         ["0.93×", "0.90×", "0.89×", "0.74×", "1.44×"])

    def test_the_word_follows_from_the_ratio_and_the_quantity(self):
        self.assertEqual(fmt_ratio_word(0.74), "0.74× (faster)")
        self.assertEqual(fmt_ratio_word(1.35), "1.35× (slower)")
        self.assertEqual(fmt_ratio_word(0.89, higher_is_better=True),
                         "0.89× (slower)")
        self.assertEqual(fmt_ratio_word(1.25, higher_is_better=True),
                         "1.25× (faster)")
        self.assertEqual(fmt_ratio_word(1.0), "1.00×")
        self.assertEqual(direction(None), None)
        self.assertEqual(direction(1.0), "equal")

    def test_large_small_and_missing_ratios(self):
        self.assertEqual(fmt_factor(528.03), "528×")
        self.assertEqual(fmt_factor(12.345), "12.35×")
        self.assertEqual(fmt_factor(0.0042), "0.0042×")
        self.assertEqual(fmt_factor(0.0138), "0.014×")
        self.assertEqual(fmt_factor(None), "n/a")
        self.assertEqual(fmt_interval(0.7, 0.79), "0.70-0.79×")
        self.assertEqual(fmt_interval(None, None), "n/a")

    def test_a_halving_is_as_far_from_one_as_a_doubling(self):
        self.assertAlmostEqual(distance(2.0), distance(0.5))


if __name__ == "__main__":
    unittest.main()
