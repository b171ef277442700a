# SPDX-License-Identifier: MIT
"""Description: the benchmark harness's medians, spread and targets are over the used rounds only.

the benchmark harness's medians and spread are over the
used rounds only, its ratios are paired within a round, and each target
is judged on the median of those per-round ratios."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.summary import (judge, median, median_interval, memory_targets,  # noqa: E402
                           paired, record_targets, spread, summarize, targets)


def run(case, tool, ops_s=None, mean=None, p50=None, group="accuracy"):
    metrics = None if ops_s is None else {"ops_s": ops_s, "mean_ns": mean, "p50_ns": p50}
    return {"group": group, "case": case, "tool": tool, "metrics": metrics,
            "error": None if metrics else "failed"}


def rnd(index, *runs):
    return {"index": index, "runs": list(runs)}


# round 2 is busy (not used); in round 3 the bare loop failed
ROUNDS = [
    rnd(1, run("fsync", "diskio", 100, 1000, 900), run("fsync", "bare", 110, 1000, 1000),
        run("fsync", "pg_test_fsync", 90, 800)),
    rnd(2, run("fsync", "diskio", 1, 1e6, 1e6), run("fsync", "bare", 1, 1, 1)),
    rnd(3, run("fsync", "diskio", 120, 1100, 1000), run("fsync", "bare"),
        run("fsync", "pg_test_fsync", 95, 1000)),
    rnd(4, run("fsync", "diskio", 90, 1200, 1300), run("fsync", "bare", 100, 1250, 1300),
        run("fsync", "pg_test_fsync", 80, 1200)),
]
USED = [1, 3, 4]


class StatisticsTest(unittest.TestCase):
    def test_median_leaves_out_missing_values(self):
        self.assertEqual(median([3, None, 1, 2]), 2)
        self.assertIsNone(median([None]))

    def test_spread_is_range_over_median(self):
        self.assertAlmostEqual(spread([90, 100, 120]), 0.3)

    def test_spread_needs_two_values(self):
        self.assertIsNone(spread([100, None]))
        self.assertIsNone(spread([0, 0]))

    def test_summary_is_over_used_rounds_and_counts_failures(self):
        rows = {(r["case"], r["tool"]): r for r in summarize(ROUNDS, USED)}
        diskio = rows[("fsync", "diskio")]
        self.assertEqual((diskio["n"], diskio["failed"]), (3, 0))
        self.assertEqual((diskio["ops_per_s"], diskio["mean_ns"], diskio["p50_ns"]),
                         (100, 1100, 1000))
        self.assertAlmostEqual(diskio["spread_ops"], 0.3)
        bare = rows[("fsync", "bare")]
        self.assertEqual((bare["n"], bare["failed"], bare["ops_per_s"]), (2, 1, 105))

    def test_summary_rows_keep_first_seen_order(self):
        order = [r["tool"] for r in summarize(ROUNDS, USED)]
        self.assertEqual(order, ["diskio", "bare", "pg_test_fsync"])


class PairedTest(unittest.TestCase):
    def test_ratio_per_used_round_where_both_ran(self):
        self.assertEqual(paired(ROUNDS, USED, "fsync", "diskio", "bare", "mean_ns"),
                         [1.0, 1200 / 1250])

    def test_busy_round_is_left_out(self):
        self.assertNotIn(1e6, paired(ROUNDS, USED, "fsync", "diskio", "bare", "mean_ns"))
        self.assertEqual(len(paired(ROUNDS, [1, 2, 3, 4], "fsync", "diskio", "bare",
                                    "mean_ns")), 3)

    def test_other_key_of_the_second_tool(self):
        # pg_test_fsync has no median: diskio's median over its time per op
        self.assertEqual(paired(ROUNDS, USED, "fsync", "diskio", "pg_test_fsync",
                                "p50_ns", "mean_ns"), [900 / 800, 1.0, 1300 / 1200])


class JudgeTest(unittest.TestCase):
    def test_at_least(self):
        self.assertEqual(judge(0.97, ">=", 0.97), "PASS")
        self.assertEqual(judge(0.969, ">=", 0.97), "MISS")

    def test_within_is_symmetric_around_one(self):
        self.assertEqual(judge(1.029, "within", 0.03), "PASS")
        self.assertEqual(judge(0.971, "within", 0.03), "PASS")
        self.assertEqual(judge(0.96, "within", 0.03), "MISS")
        self.assertEqual(judge(1.031, "within", 0.03), "MISS")

    def test_at_most_and_no_value(self):
        self.assertEqual(judge(20.0, "<=", 20), "PASS")
        self.assertEqual(judge(20.5, "<=", 20), "MISS")
        self.assertEqual(judge(None, ">=", 1), "n/a")


class TargetsTest(unittest.TestCase):
    def by_id(self, memory=None, record=None):
        return {t["id"]: t for t in targets(ROUNDS, USED, memory, record)}

    def test_accuracy_target_is_median_of_per_round_ratios(self):
        t = self.by_id()["accuracy-bare-fsync-mean"]
        self.assertEqual(t["per_round"], [1.0, 0.96])
        self.assertAlmostEqual(t["value"], 0.98)
        self.assertEqual((t["need"], t["result"]), ("1 ± 0.03", "PASS"))

    def test_median_against_pg_test_fsync_time_per_op(self):
        t = self.by_id()["accuracy-pg-fsync-median"]
        self.assertAlmostEqual(t["value"], 1300 / 1200)
        self.assertEqual(t["result"], "MISS")
        self.assertIn("pg_test_fsync fsync usecs/op", t["what"])

    def test_case_that_did_not_run_is_not_judged(self):
        t = self.by_id()["overhead-bare+pool-512B"]
        self.assertEqual((t["value"], t["result"], t["need"]), (None, "n/a", "≥ 0.97"))

    def test_uring_targets_only_when_uring_ran(self):
        ids = self.by_id()
        self.assertIn("qd-aio-32", ids)
        self.assertNotIn("qd-uring-1", ids)

    def test_memory_targets_flat_and_above_baseline(self):
        mem = {"counts": [1000, 10000],
               "diskio": {"version_only": 1800, "1": 2000, "1000": 2100, "10000": 2200}}
        got = {t["id"]: t for t in memory_targets(mem)}
        self.assertEqual((got["memory-flat"]["value"], got["memory-flat"]["result"]),
                         (100, "MISS"))
        self.assertEqual((got["memory-above-baseline"]["value"],
                          got["memory-above-baseline"]["result"]), (200, "PASS"))
        self.assertEqual(got["memory-flat"]["need"], "≤ 64")

    def test_memory_targets_need_both_counts(self):
        self.assertEqual(memory_targets({"counts": [1, 2], "diskio": {"1": 5}}), [])
        self.assertEqual(memory_targets(None), [])

    def test_record_targets(self):
        got = record_targets({"available": True, "ir_per_call": 21.0,
                              "forbidden_calls": ["malloc"]})
        self.assertEqual([(t["id"], t["result"]) for t in got],
                         [("record-ir", "MISS"), ("record-no-alloc-lock", "MISS")])
        self.assertEqual(got[1]["value"], "malloc")
        self.assertEqual(record_targets({"available": False}), [])


class MedianIntervalTest(unittest.TestCase):
    """The median's interval from order statistics, as a binomial count
    gives it (for nine values: the 2nd lowest and 2nd highest, 96.1%)."""

    def test_nine_values_take_the_second_from_each_end(self):
        lo, hi, coverage = median_interval([9, 1, 8, 2, 7, 3, 6, 4, 5])
        self.assertEqual((lo, hi), (2, 8))
        self.assertAlmostEqual(coverage, 1 - 2 * 10 / 512)

    def test_more_values_narrow_it(self):
        lo, hi, coverage = median_interval(range(1, 26))
        # 25 values: P(Bin(25, 1/2) <= 7) = 2.2%: the 8th from each end
        self.assertEqual((lo, hi), (8, 18))
        self.assertGreaterEqual(coverage, 0.95)

    def test_too_few_values_give_none(self):
        self.assertIsNone(median_interval([1, 2, 3, 4, 5]))
        self.assertIsNotNone(median_interval([1, 2, 3, 4, 5, 6]))
        self.assertIsNone(median_interval([1, None, 2]))



if __name__ == "__main__":
    unittest.main()
