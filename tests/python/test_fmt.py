# SPDX-License-Identifier: MIT
"""Description: numbers are shown with the precision their size needs, and missing ones as n/a.

numbers are shown with the precision their size needs,
and what is missing shows as n/a, never as a bare null."""

import unittest

from diskio_analysis.correlate.fmt import (fmt_count, fmt_interval, fmt_ratio,
                                           fmt_seconds, fmt_share, fmt_signed_seconds,
                                           fmt_times, fmt_value)


class FormatTest(unittest.TestCase):
    def test_value_precision_follows_magnitude(self):
        self.assertEqual(fmt_value(1234.5, "us"), "1234 us")
        self.assertEqual(fmt_value(123.45, "s"), "123.5 s")
        self.assertEqual(fmt_value(1.234, ""), "1.23")
        self.assertEqual(fmt_value(0.1234, "s"), "0.123 s")

    def test_a_value_that_rounds_up_takes_the_next_format(self):
        self.assertEqual(fmt_value(999.99, "us"), "1000 us")
        self.assertEqual(fmt_value(99.999, "s"), "100.0 s")
        self.assertEqual(fmt_value(0.99995, ""), "1.00")
        self.assertEqual(fmt_value(999.9, "us"), "999.9 us")

    def test_shares_ratios_seconds(self):
        self.assertEqual(fmt_share(0.0123), "1.2%")
        self.assertEqual(fmt_share(0.00005), "0.005%")
        self.assertEqual(fmt_share(5.5e-7), "<0.001%")
        self.assertEqual(fmt_share(0.0), "0%")
        self.assertEqual(fmt_ratio(1.234), "1.23")
        self.assertEqual(fmt_times(1.5), "1.50×")
        self.assertEqual(fmt_seconds(1.23456), "1.235 s")
        self.assertEqual(fmt_signed_seconds(-0.5), "-0.500 s")
        self.assertEqual(fmt_interval([0.9, 1.1]), "0.90-1.10×")
        self.assertEqual(fmt_count(5000.0), "5000")
        self.assertEqual(fmt_count(0.1010584), "0.101")

    def test_missing_is_n_a(self):
        for show in (fmt_share, fmt_ratio, fmt_times, fmt_seconds,
                     fmt_signed_seconds, fmt_interval, fmt_count):
            self.assertEqual(show(None), "n/a")
        self.assertEqual(fmt_value(None, "s"), "n/a")


if __name__ == "__main__":
    unittest.main()
