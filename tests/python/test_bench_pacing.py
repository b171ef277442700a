# SPDX-License-Identifier: MIT
"""Description: bench/rate-lag reads a paced run's figures and judges its target.

bench/rate-lag reads a paced run's corrected and service
p50, diskio's late starts and the device's backlog from diskio's result,
refuses an unpaced run, and calls the target met only when the median
gap over the rounds is at most 5 us; the scratch directory of the small
benchmarks is removed when left."""

import json
import os
import sys
import unittest

from diskio_analysis.result import result_from_json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.pacing import NotPaced, judge, paced_figures  # noqa: E402
from peers.scratch import Scratch  # noqa: E402


def paced(total_p50, service_p50, held=True, rate=True):
    """A paced run of a result, as diskio_analysis.result reads it."""
    run = {"mode": "async", "parameters": {"block_size": 8192}, "ops": 4000,
           "latency": {"total": {"p50": total_p50}, "service": {"p50": service_p50}},
           "rate": {"requested_ops_per_s": 2000.0, "achieved_ops_per_s": 1999.9,
                    "held": held, "max_start_lag_ns": 80000, "start_lag_p99_ns": 3000,
                    "late_start_ns": {"ops": 3990, "p50": 60, "p99": 1800, "max": 9000},
                    "backlog": {"ops": 10, "max_lag_ns": 80000}, "spin_margin_ns": 25000}
           if rate else None}
    doc = {"schema": "diskio-result", "schema_version": 2, "runs": [run]}
    return result_from_json("result.json", json.dumps(doc), doc).runs[0]


class PacedFiguresTest(unittest.TestCase):
    def test_gap_is_corrected_minus_service_p50(self):
        p = paced_figures(paced(2300, 2100))
        self.assertEqual(p["gap_p50"], 200)
        self.assertEqual((p["late_ops"], p["late_p99"], p["backlog_ops"]), (3990, 1800, 10))
        self.assertTrue(p["held"])

    def test_unpaced_run_is_refused(self):
        with self.assertRaises(NotPaced):
            paced_figures(paced(1, 1, rate=False))


class JudgeTest(unittest.TestCase):
    def test_median_gap_decides_not_the_worst_round(self):
        rounds = [(paced_figures(paced(2000 + g, 2000)), 1000) for g in (100, 300, 40000)]
        v = judge(rounds)
        self.assertEqual(v["gap_p50_median"], 300)
        self.assertEqual(v["gap_p50_range"], (100, 40000))
        self.assertTrue(v["met"])
        self.assertAlmostEqual(v["service_vs_unpaced_median"], 2.0)

    def test_gap_above_5_us_is_a_miss(self):
        rounds = [(paced_figures(paced(2000 + g, 2000, held=False)), 1000)
                  for g in (6000, 7000, 100)]
        v = judge(rounds)
        self.assertFalse(v["met"])
        self.assertEqual(v["held_rounds"], 0)


class ScratchTest(unittest.TestCase):
    def test_directory_removed_on_leaving(self):
        with Scratch("test-scratch", os.environ.get("TMPDIR", "/tmp")) as s:
            path = s.path
            self.assertTrue(os.path.isdir(path))
            with open(os.path.join(path, "f"), "w") as f:
                f.write("x")
        self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
