# SPDX-License-Identifier: MIT
"""Description: correlations and fits across environments come with their n and are withheld when too few.

across environments, correlations come with their n and
are withheld below four points, and least-squares lines of phase time on
a candidate metric (from three points) give their R², residuals, degrees
of freedom and the share of the baseline's phase they attribute to the
metric; throughput-like metrics enter as time per operation."""

import unittest

from diskio_analysis.correlate.fit import (correlations, fits, least_squares, pearson,
                                           spearman, time_like)
from diskio_analysis.metrics import Metric
from envlib import make_env


class StatisticsTest(unittest.TestCase):
    def test_pearson(self):
        self.assertAlmostEqual(pearson([1, 2, 3], [2, 4, 6]), 1.0)
        self.assertAlmostEqual(pearson([1, 2, 3], [3, 2, 1]), -1.0)
        self.assertIsNone(pearson([1, 1, 1], [1, 2, 3]))

    def test_spearman_gives_ties_their_average_rank(self):
        # ranks 2, 3.5, 3.5, 1 against 1..4: r = -1.5 / sqrt(4.5 * 5)
        self.assertAlmostEqual(spearman([10, 20, 20, 5], [1, 2, 3, 4]),
                               -1 / 10 ** 0.5)
        self.assertIsNone(spearman([7, 7, 7], [1, 2, 3]))

    def test_spearman_is_rank_based(self):
        self.assertAlmostEqual(spearman([1, 2, 3], [1, 10, 1000]), 1.0)

    def test_least_squares(self):
        intercept, slope, r2, residuals = least_squares([1, 2, 3], [3, 5, 7])
        self.assertAlmostEqual(intercept, 1.0)
        self.assertAlmostEqual(slope, 2.0)
        self.assertAlmostEqual(r2, 1.0)
        self.assertTrue(all(abs(r) < 1e-12 for r in residuals))
        intercept, slope, r2, residuals = least_squares([0, 1, 2], [0, 2, 1])
        self.assertAlmostEqual(slope, 0.5)
        self.assertAlmostEqual(r2, 0.25)
        self.assertAlmostEqual(sum(residuals), 0.0)
        self.assertIsNone(least_squares([1, 1], [1, 2]))

    def test_time_like(self):
        self.assertEqual(time_like(Metric(4.0, "us", False, "")), 4.0)
        self.assertEqual(time_like(Metric(4.0, "/s", True, "")), 0.25)


class AcrossTest(unittest.TestCase):
    def envs(self, n):
        rows = (("A", 100.0, 100.0), ("B", 150.0, 200.0), ("C", 190.0, 300.0),
                ("D", 260.0, 400.0), ("E", 290.0, 500.0))[:n]
        return [make_env(name, {"load": s}, {"fsync.mean_us": m,
                                            "fsync.ops_per_s": 1e6 / m})
                for name, s, m in rows]

    def test_correlations_withheld_below_four_with_the_reason(self):
        envs = self.envs(3)
        result = correlations(envs, envs[0], ["load"], ["fsync.mean_us"])
        self.assertEqual(result["n"], 3)
        self.assertEqual(result["withheld"],
                         "n = 3 < 4: so few points give ±1 by chance")
        self.assertEqual(result["phases"], {})

    def test_correlations_from_four_on(self):
        envs = self.envs(5)
        result = correlations(envs, envs[0], ["load"],
                              ["fsync.mean_us", "fsync.ops_per_s"])
        self.assertIsNone(result["withheld"])
        cell = result["phases"]["load"]["fsync.mean_us"]
        self.assertEqual(cell["n"], 5)
        self.assertAlmostEqual(cell["spearman"], 1.0)
        # the throughput metric correlates on its normalized ratio
        self.assertAlmostEqual(result["phases"]["load"]["fsync.ops_per_s"]
                               ["pearson"], cell["pearson"])

    def test_fits_withheld_below_three(self):
        envs = self.envs(2)
        self.assertEqual(fits(envs, envs[0], ["load"],
                              {"load": ["fsync.mean_us"]})["withheld"],
                         "n = 2 < 3: a line through two points always fits")

    def test_fit_of_phase_time_on_a_candidate(self):
        envs = self.envs(3)
        result = fits(envs, envs[0], ["load"],
                      {"load": ["fsync.mean_us", "fsync.ops_per_s"]})
        best = result["phases"]["load"][0]
        intercept, slope, r2, residuals = least_squares(
            [100.0, 200.0, 300.0], [100.0, 150.0, 190.0])
        self.assertEqual(best["metric"], "fsync.mean_us")
        self.assertAlmostEqual(best["slope"], slope)
        self.assertAlmostEqual(best["r2"], r2)
        self.assertEqual(best["dof"], 1)
        self.assertAlmostEqual(best["residuals_s"]["B"], residuals[1])
        self.assertAlmostEqual(best["baseline_share"], slope * 100.0 / 100.0)
        # ops_per_s enters as time per op: the same line, in seconds
        tp = result["phases"]["load"][1]
        self.assertAlmostEqual(tp["r2"], r2)


if __name__ == "__main__":
    unittest.main()
