# SPDX-License-Identifier: MIT
"""Description: ratios are other/baseline, normalized so that > 1 is
worse; each metric is classed as moving in the phase's direction, the
other way or not at all; verdicts say so; correlations need three
environments and refuse constant series."""

import math
import unittest

from diskio_analysis.correlate import (analyse_phase, build_report,
                                       check_same_phases, compare_environment,
                                       direction_of, metric_relation,
                                       normalized_ratio, ordered_phases,
                                       pearson, ranks, spearman)
from diskio_analysis.errors import InputError
from envlib import make_env

PHASES = {"power.q1": 10.0, "load": 100.0, "power": 50.0}


class RatioTest(unittest.TestCase):
    def test_higher_is_better_metrics_are_inverted(self):
        self.assertEqual(normalized_ratio(2.0, False), 2.0)
        self.assertEqual(normalized_ratio(2.0, True), 0.5)

    def test_direction_of_log_ratio(self):
        self.assertEqual([direction_of(x) for x in (0.1, -0.1, 0.0)],
                         [1, -1, 0])

    def test_metric_relation(self):
        self.assertEqual(metric_relation(1, 1), 1)
        self.assertEqual(metric_relation(-1, 1), -1)
        self.assertEqual(metric_relation(0, 1), 0)
        # moved while the phase did not: the other direction
        self.assertEqual(metric_relation(1, 0), -1)

    def test_top_level_phases_come_first(self):
        env = make_env("A", PHASES, {"fsync.mean_us": 1.0})
        self.assertEqual(ordered_phases(env), ["load", "power", "power.q1"])

    def test_compare_environment_ratios(self):
        base = make_env("A", {"load": 100.0},
                        {"fsync.mean_us": 100.0, "fsync.ops_per_s": 1000.0})
        other = make_env("B", {"load": 150.0},
                         {"fsync.mean_us": 300.0, "fsync.ops_per_s": 250.0})
        comparison = compare_environment(base, other, ["load"],
                                         ["fsync.mean_us", "fsync.ops_per_s",
                                          "async.mean_us"])
        self.assertEqual(comparison["phases"]["load"]["ratio"], 1.5)
        metrics = comparison["metrics"]
        self.assertEqual(metrics["fsync.mean_us"]["normalized_ratio"], 3.0)
        self.assertEqual(metrics["fsync.ops_per_s"]["ratio"], 0.25)
        self.assertEqual(metrics["fsync.ops_per_s"]["normalized_ratio"], 4.0)
        self.assertIsNone(metrics["async.mean_us"]["ratio"])

    def test_check_same_phases_names_missing_and_extra(self):
        base = make_env("A", {"load": 1.0, "power": 1.0}, {"m_us": 1.0})
        other = make_env("B", {"load": 1.0, "throughput": 1.0}, {"m_us": 1.0})
        with self.assertRaises(InputError) as ctx:
            check_same_phases(base, other)
        self.assertIn("missing power; extra throughput", str(ctx.exception))

    def test_a_huge_phase_mismatch_is_named_in_a_short_line(self):
        base = make_env("A", {f"q{i}": 1.0 for i in range(10000)}, {"m_us": 1.0})
        other = make_env("B", {"load": 1.0}, {"m_us": 1.0})
        with self.assertRaises(InputError) as ctx:
            check_same_phases(base, other)
        self.assertIn("missing q0, q1, q2, q3, q4, q5, q6, q7 and 9992 more",
                      str(ctx.exception))
        self.assertLess(len(str(ctx.exception)), 300)


class VerdictTest(unittest.TestCase):
    ROWS = {"fsync.mean_us": {"normalized_ratio": 3.0},
            "async.mean_us": {"normalized_ratio": 0.5},
            "direct.mean_us": {"normalized_ratio": 1.0},
            "aio.mean_us": {"normalized_ratio": None}}

    def test_groups_closest_and_verdict(self):
        analysis = analyse_phase("load", 2.0, self.ROWS)
        self.assertEqual(analysis["direction"], "slower")
        self.assertEqual(analysis["same_direction"], ["fsync.mean_us"])
        self.assertEqual(analysis["other_direction"], ["async.mean_us"])
        self.assertEqual(analysis["unchanged"], ["direct.mean_us"])
        self.assertEqual(analysis["closest"]["metric"], "fsync.mean_us")
        self.assertAlmostEqual(analysis["closest"]["log_distance"],
                               math.log(1.5))
        self.assertEqual(analysis["verdict"],
                         "load: 2.00× slower; closest: fsync.mean_us 3.00× "
                         "(same direction); async.mean_us moved the other way")

    def test_faster_phase_verdict(self):
        analysis = analyse_phase("power", 0.5, {"m_us": {"normalized_ratio":
                                                         0.4}})
        self.assertEqual(analysis["verdict"],
                         "power: 2.00× faster; closest: m_us 0.40× (same "
                         "direction); no metric moved the other way")

    def test_no_common_metric(self):
        self.assertEqual(analyse_phase("load", 1.0, {})["verdict"],
                         "load: unchanged; no metric in both environments")

    def test_many_opposites_are_cut_short(self):
        rows = {f"m{i}_us": {"normalized_ratio": 0.5} for i in range(6)}
        self.assertIn("m0_us, m1_us, m2_us, m3_us and 2 more moved the other "
                      "way", analyse_phase("load", 2.0, rows)["verdict"])


class CorrelationTest(unittest.TestCase):
    def test_pearson(self):
        self.assertAlmostEqual(pearson([1, 2, 3], [2, 4, 6]), 1.0)
        self.assertAlmostEqual(pearson([1, 2, 3], [3, 2, 1]), -1.0)
        self.assertIsNone(pearson([1, 1, 1], [1, 2, 3]))

    def test_ranks_average_ties(self):
        self.assertEqual(ranks([10, 20, 20, 5]), [2.0, 3.5, 3.5, 1.0])

    def test_spearman_is_rank_based(self):
        self.assertAlmostEqual(spearman([1, 2, 3], [1, 10, 1000]), 1.0)

    def test_report_correlates_only_with_three_environments(self):
        envs = [make_env(n, {"load": s}, {"fsync.mean_us": m})
                for n, s, m in (("A", 10.0, 1.0), ("B", 20.0, 2.0),
                                ("C", 40.0, 3.0))]
        report = build_report(envs, envs[0], "fdatasync")
        cell = report["correlations"]["phases"]["load"]["fsync.mean_us"]
        self.assertAlmostEqual(cell["spearman"], 1.0)
        self.assertEqual(report["schema"], "diskio-correlate")
        self.assertIsNone(build_report(envs[:2], envs[0],
                                       "fdatasync")["correlations"])

    def test_report_notes_metrics_in_one_environment_only(self):
        envs = [make_env("A", {"load": 1.0}, {"x_us": 1.0, "y_us": 1.0}),
                make_env("B", {"load": 1.0}, {"x_us": 1.0})]
        self.assertIn("only in A, not in B: y_us",
                      build_report(envs, envs[0], "fdatasync")["notes"])


if __name__ == "__main__":
    unittest.main()
