# SPDX-License-Identifier: MIT
"""Description: diskio-correlate's ratios are judged against their noise and the phases' minimum change.

ratios are other/baseline, normalized so that > 1 is
worse; every metric is judged against its noise (inside the band it is
"same", whatever its ratio), every phase against --min-change; a metric
on one side only says so; the summary shows the top-level phases and the
mean latencies unless told otherwise, and the verdicts weigh those; the
report of two environments withholds correlations and fits with a
reason instead of printing null."""

import re
import unittest

from diskio_analysis.correlate.report import (build_report, candidate_metrics,
                                              check_same_phases,
                                              compare_environment, judge_phase,
                                              normalized_ratio, ordered_metrics,
                                              ordered_phases, select_metrics,
                                              select_phases)
from diskio_analysis.errors import InputError
from envlib import make_env

PHASES = {"power.q1": 10.0, "load": 100.0, "power": 50.0}


class RatioTest(unittest.TestCase):
    def test_higher_is_better_metrics_are_inverted(self):
        self.assertEqual(normalized_ratio(2.0, False), 2.0)
        self.assertEqual(normalized_ratio(2.0, True), 0.5)

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
        self.assertEqual(metrics["fsync.ops_per_s"]["verdict"], "slower")
        row = metrics["async.mean_us"]
        self.assertIsNone(row["ratio"])
        self.assertIsNone(row["verdict"])
        self.assertEqual(row["not_compared"], "only in B")

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


class PhaseRoundsTest(unittest.TestCase):
    def rounds(self, base, other, disturbed=()):
        from diskio_analysis import noise
        a = make_env("A", {"load": sorted(base)[len(base) // 2]}, {"m_us": 1.0})
        b = make_env("B", {"load": sorted(other)[len(other) // 2]}, {"m_us": 1.0})
        a.phase_rounds["load"] = [noise.Sample(v, f"a{i}") for i, v in enumerate(base)]
        b.phase_rounds["load"] = [noise.Sample(v, f"b{i}", disturbed=(
            ("tasks waited for a CPU 98% of the time (threshold 10%)",) if i in disturbed
            else ())) for i, v in enumerate(other)]
        return compare_environment(a, b, ["load"], ["m_us"])["phases"]["load"]

    def test_rounds_that_agree_decide(self):
        row = self.rounds([10.0, 10.1, 9.9], [15.0, 15.1, 14.9])
        self.assertEqual(row["verdict"], "slower")
        self.assertEqual(row["rounds"], [3, 3])

    def test_rounds_that_disagree_are_inconclusive(self):
        row = self.rounds([10.0, 14.0, 7.0], [12.0, 8.0, 15.0])
        self.assertEqual(row["verdict"], "inconclusive")

    def test_a_disturbed_round_is_left_out_or_disturbs_the_phase(self):
        row = self.rounds([10.0, 10.1, 9.9], [15.0, 15.1, 14.9], disturbed=(0, 1))
        self.assertEqual(row["verdict"], "disturbed")
        self.assertIn("B: tasks waited for a CPU 98%", row["disturbed"])

    def test_a_single_disturbed_phase_run_is_disturbed_not_slower(self):
        a = make_env("A", {"load": 10.0}, {"m_us": 1.0})
        b = make_env("B", {"load": 15.0}, {"m_us": 1.0})
        b.phase_disturbed["load"] = [("58% of vda's I/O was not diskio's",)]
        comparison = compare_environment(a, b, ["load"], ["m_us"])
        self.assertEqual(comparison["phases"]["load"]["verdict"], "disturbed")
        self.assertIn("disturbed", comparison["phase_analysis"]["load"]["verdict"])
        self.assertNotIn("slower", comparison["phase_analysis"]["load"]["verdict"])


class NoiseTest(unittest.TestCase):
    def metric(self, base, other, name="async.mean_us"):
        comparison = compare_environment(
            make_env("A", {"load": 1.0}, {name: base}),
            make_env("B", {"load": 1.0}, {name: other}), ["load"], [name])
        return comparison["metrics"][name]

    def test_a_tiny_change_is_no_direction_and_not_shown_the_same(self):
        # the example: async 16 -> 16.001 us was "the other way";
        # one value a side cannot show it the same either
        row = self.metric(16.0, 16.001)
        self.assertEqual(row["verdict"], "inconclusive")
        self.assertEqual(row["basis"], "unrepeated")

    def test_single_values_need_a_change_beyond_the_unrepeated_band(self):
        self.assertEqual(self.metric(20.0, 18.6)["verdict"], "inconclusive")
        self.assertEqual(self.metric(100.0, 124.0)["verdict"], "inconclusive")
        self.assertEqual(self.metric(100.0, 151.0)["verdict"], "slower")
        self.assertEqual(self.metric(100.0, 60.0)["verdict"], "faster")

    def test_repetitions_give_an_interval(self):
        row = self.metric([100.0, 101.0, 99.0], [110.0, 111.0, 109.0])
        self.assertEqual(row["verdict"], "slower")
        self.assertEqual((row["n_baseline"], row["n_other"]), (3, 3))
        low, high = row["interval"]
        self.assertTrue(low < 1.1 < high)

    def test_interval_of_a_throughput_metric_is_of_its_b_over_a_ratio(self):
        row = self.metric([100.0, 101.0], [50.0, 51.0], "fsync.ops_per_s")
        low, high = row["interval"]
        self.assertTrue(low < row["ratio"] < high)
        self.assertTrue(high < 0.6)
        self.assertAlmostEqual(row["normalized_ratio"], 1.0 / row["ratio"])

    def test_phase_verdict_uses_min_change(self):
        self.assertEqual(judge_phase(100.0, 104.0, 0.05)["verdict"], "same")
        self.assertEqual(judge_phase(100.0, 106.0, 0.05)["verdict"], "slower")
        self.assertEqual(judge_phase(100.0, 90.0, 0.05)["verdict"], "faster")
        self.assertEqual(judge_phase(100.0, 106.0, 0.10)["verdict"], "same")


class SelectionTest(unittest.TestCase):
    PHASES = ["load", "power", "throughput", "power.q1", "throughput.qs1.all"]

    def test_phases(self):
        self.assertEqual(select_phases(self.PHASES, None),
                         ["load", "power", "throughput"])
        self.assertEqual(select_phases(self.PHASES, "all"), self.PHASES)
        self.assertEqual(select_phases(self.PHASES, re.compile(r"^power")),
                         ["power", "power.q1"])
        self.assertEqual(select_phases(["q1", "q2"], None), ["q1", "q2"])

    def test_metrics(self):
        names = ["fsync.mean_us", "fsync.p99_us", "fsync.write_mean_us",
                 "pg.tps"]
        self.assertEqual(select_metrics(names, None),
                         ["fsync.mean_us", "fsync.write_mean_us"])
        self.assertEqual(select_metrics(names, "all"), names)
        self.assertEqual(select_metrics(names, re.compile("tps")), ["pg.tps"])

    def test_verdicts_weigh_the_selected_metrics_only(self):
        envs = [make_env("A", {"load": 10.0}, {"fsync.mean_us": 100.0,
                                               "fsync.max_us": 100.0}),
                make_env("B", {"load": 15.0}, {"fsync.mean_us": 200.0,
                                               "fsync.max_us": 1000.0})]
        report = build_report(envs, envs[0], "fdatasync")
        analysis = report["comparisons"][0]["phase_analysis"]["load"]
        self.assertEqual([c["metric"] for c in analysis["candidates"]],
                         ["fsync.mean_us"])
        self.assertEqual(report["comparisons"][0]["metrics"]["fsync.max_us"]
                         ["verdict"], "slower")
        report = build_report(envs, envs[0], "fdatasync",
                              metrics_wanted="all")
        analysis = report["comparisons"][0]["phase_analysis"]["load"]
        self.assertEqual([c["metric"] for c in analysis["candidates"]],
                         ["fsync.max_us", "fsync.mean_us"])


class ReportTest(unittest.TestCase):
    def envs(self, n):
        return [make_env(name, {"load": s}, {"fsync.mean_us": m})
                for name, s, m in (("A", 10.0, 1.0), ("B", 20.0, 2.0),
                                   ("C", 40.0, 3.0), ("D", 30.0, 2.5))[:n]]

    def test_two_environments_withhold_with_a_reason_not_null(self):
        envs = self.envs(2)
        report = build_report(envs, envs[0], "fdatasync")
        self.assertEqual(report["schema_version"], 2)
        self.assertEqual(report["correlations"]["n"], 2)
        self.assertIn("n = 2 < 4", report["correlations"]["withheld"])
        self.assertIn("n = 2 < 3", report["fits"]["withheld"])

    def test_three_environments_fit_but_withhold_correlations(self):
        envs = self.envs(3)
        report = build_report(envs, envs[0], "fdatasync")
        self.assertIn("n = 3 < 4", report["correlations"]["withheld"])
        self.assertIsNone(report["fits"]["withheld"])
        self.assertEqual(report["fits"]["phases"]["load"][0]["metric"],
                         "fsync.mean_us")

    def test_four_environments_correlate_with_their_n(self):
        envs = self.envs(4)
        report = build_report(envs, envs[0], "fdatasync")
        cell = report["correlations"]["phases"]["load"]["fsync.mean_us"]
        self.assertEqual(cell["n"], 4)
        self.assertAlmostEqual(cell["spearman"], 1.0)

    def test_report_notes_metrics_in_one_environment_only(self):
        envs = [make_env("A", {"load": 1.0}, {"x_us": 1.0, "y_us": 1.0}),
                make_env("B", {"load": 1.0}, {"x_us": 1.0})]
        self.assertIn("only in A, not in B: y_us",
                      build_report(envs, envs[0], "fdatasync")["notes"])

    def test_noise_notes_say_how_verdicts_were_reached(self):
        envs = self.envs(2)
        notes = build_report(envs, envs[0], "fdatasync")["noise_notes"]
        self.assertTrue(any(n.startswith("phases are single runs (beyond 5% is a change")
                            for n in notes), notes)
        self.assertIn("disk metrics with one value per side need beyond 25%",
                      notes)


class CountedName(str):
    """A metric name that counts how often it is compared for equality."""
    compared = 0

    def __eq__(self, other):
        CountedName.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class ScaleTest(unittest.TestCase):
    def test_metric_lists_are_made_in_one_pass(self):
        """Gathering the metrics of the environments (and each phase's
        candidates) compares no name with every other: 40,000 metric
        lines took 5.6 s when each was looked for in the list so far."""
        count = 3000
        names = [CountedName(f"m{i}.mean_us") for i in range(count)]

        class Env:
            metrics = dict.fromkeys(names)
        CountedName.compared = 0
        self.assertEqual(ordered_metrics([Env, Env]), names)
        comparisons = [{"phase_analysis": {"load": {"candidates": [
            {"metric": name} for name in names]}}}] * 2
        self.assertEqual(candidate_metrics(comparisons, ["load"]),
                         {"load": names})
        self.assertLess(CountedName.compared, count)


if __name__ == "__main__":
    unittest.main()
