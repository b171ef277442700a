# SPDX-License-Identifier: MIT
"""Description: diskio-compare judges suite rows, unhonoured O_DIRECT, steady and capacity runs by their rule.

Runs with rules of their own: a suite's rows are matched and named by
row; a side whose O_DIRECT the filesystem did not honour gets no
verdict, with a note; runs steady on both sides compare their windows;
capacities (diskio --target) compare as brackets with their interval."""

import json
import os
import unittest

from comparelib import hist, result, run
from diskio_analysis.compare import analysis as compare, render as compare_render
from diskio_analysis.errors import InputError
from diskio_analysis.result import result_from_json


def suite_result(label, mb_per_s, path=None):
    """A sweep suite's result: one read row at 8 KiB, measured 3 times."""
    r = run("read", 100)
    r["mb_per_s"] = mb_per_s[0]
    r["repetitions"] = [{"complete": True, "ops": 50, "bytes": 8192 * 50,
                         "duration_ns": 8192 * 50 / m * 1e3,
                         "ops_per_s": 1e9 / 100,
                         "latency": {"total": hist(100)}} for m in mb_per_s]
    doc = {"schema": "diskio-result", "schema_version": 1, "label": label,
           "complete": True, "environment": {}, "runs": [r],
           "suite": {"name": "sweep", "title": None, "summary": "mean",
                     "rows": [{"label": "8 KiB", "column": "read", "run": 0,
                               "note": None}]}}
    return result_from_json(path or f"/lab/{label}/result.json",
                            json.dumps(doc), doc)


class SuiteCompareTest(unittest.TestCase):
    def test_suite_rows_are_matched_by_row_and_named_by_it(self):
        comparison = compare.compare(
            [suite_result("local", [100.0, 101.0, 99.0]),
             suite_result("sshfs", [10.0, 10.5, 9.5])],
            metrics=("mb_per_s",))
        row = comparison["rows"][0]
        self.assertEqual(row.run, ("read", 8192, "seq", 1, 1, 1, 1, False, False,
                                   "8 KiB read", None))
        self.assertEqual(compare.run_label(row.run), "8 KiB read (read 8 KiB)")
        # MB/s: higher is better, each repetition a sample
        self.assertEqual(row.judgement.verdict, "slower")
        self.assertEqual(len(row.base_values), 3)
        self.assertAlmostEqual(sorted(row.base_values)[0], 99.0)

    def test_a_suite_row_is_not_the_same_workload_as_a_plain_run(self):
        plain = run("read", 100)
        plain["mb_per_s"] = 80.0
        with self.assertRaises(InputError) as ctx:
            compare.compare([suite_result("local", [100.0, 101.0, 99.0]),
                             result("other", [plain])], metrics=("mb_per_s",))
        self.assertIn("for a suite's runs, the suite row must agree",
                      str(ctx.exception))


# what diskio wrote for direct on ext4 data=journal (Linux 6.18): the
# filesystem took O_DIRECT and buffered the writes, 4 us a write
NOT_DIRECT = {"honoured": False, "source": "statx",
              "evidence": "statx: no direct I/O for this file, dio alignment 0",
              "dio_offset_align": 0, "dio_mem_align": 0}


DIRECT = {"honoured": True, "source": "statx",
          "evidence": "statx: direct I/O for this file, dio alignment 4096, memory 512",
          "dio_offset_align": 4096, "dio_mem_align": 512}


def direct_run(mean, direct):
    r = run("direct", mean)
    r["direct"] = direct
    return r


class NotDirectCompareTest(unittest.TestCase):
    """A side whose O_DIRECT the filesystem buffered is no measurement of
    its storage: no verdict on that run, and the notes say why."""
    def comparison(self, a_direct, b_direct):
        return compare.compare([
            result("a", [direct_run(66900, a_direct), run("fsync", 272000)], "/lab/a/1.json"),
            result("a", [direct_run(68000, a_direct), run("fsync", 275000)], "/lab/a/2.json"),
            result("b", [direct_run(4120, b_direct), run("fsync", 606000)], "/lab/b/1.json"),
            result("b", [direct_run(4300, b_direct), run("fsync", 610000)], "/lab/b/2.json")],
            metrics=("mean", "p99"))

    def test_a_side_not_direct_gets_no_verdict_and_a_note(self):
        c = self.comparison(DIRECT, NOT_DIRECT)
        self.assertEqual({(r.run.workload, r.metric) for r in c["rows"]},
                         {("fsync", "mean"), ("fsync", "p99")})
        note = ("direct 8 KiB: not direct on b (the filesystem buffered it; b: statx: no "
                "direct I/O for this file, dio alignment 0): no verdict")
        self.assertIn(note, compare_render.other_lines(c))
        text = compare_render.render_text(c)
        self.assertNotIn("faster in direct", text)
        self.assertIn("slower in fsync 8 KiB", text.splitlines()[0])
        self.assertNotIn("direct", text.splitlines()[0])
        doc = json.loads(compare_render.render_json(c))
        self.assertEqual(doc["not_direct"], [{"environment": "b", "run_label": "direct 8 KiB",
                                              "on": ["b"], "note": note}])
        self.assertNotIn("direct", {row["run"]["mode"] for row in doc["comparisons"]})

    def test_the_baseline_not_direct_is_named(self):
        c = self.comparison(NOT_DIRECT, NOT_DIRECT)
        self.assertEqual([n.on for n in c["not_direct"]], [("a", "b")])
        self.assertIn("direct 8 KiB: not direct on a and b (the filesystem buffered it; a: "
                      "statx: no direct I/O for this file, dio alignment 0; b: statx: no "
                      "direct I/O for this file, dio alignment 0): no verdict",
                      compare_render.other_lines(c))

    def test_direct_on_both_sides_or_unknown_is_judged(self):
        unknown = {**DIRECT, "honoured": None, "source": None}
        for a, b in ((DIRECT, DIRECT), (DIRECT, unknown), (None, None)):
            with self.subTest(a=a, b=b):
                c = self.comparison(a, b)
                self.assertEqual(c["not_direct"], [])
                verdicts = {r.run.workload: r.judgement.verdict for r in c["rows"]
                            if r.metric == "mean"}
                self.assertEqual(verdicts["direct"], "faster")

    def test_only_runs_not_direct_still_compare(self):
        c = compare.compare([result("a", [direct_run(66900, DIRECT)], "/lab/a/1.json"),
                             result("b", [direct_run(4120, NOT_DIRECT)], "/lab/b/1.json")])
        self.assertEqual(c["rows"], [])
        self.assertEqual(len(c["not_direct"]), 1)


def steady_run(mode, whole_mean, window_mean, attained=True, trend_pct=2.0):
    """A run made with diskio --steady: its whole run's mean, and its
    window's (steady, with its figures; or not, rising by trend_pct a
    minute, without them)."""
    r = run(mode, whole_mean)
    window = {"repetition": 1, "attained": attained, "first_interval": 3,
              "intervals": 5, "judged": 8, "start_ns": 3 * 10**9,
              "end_ns": 8 * 10**9, "average": window_mean, "range_pct": 4.0,
              "slope_pct": 2.0, "trend": "rising", "trend_per_min": window_mean / 100,
              "trend_pct_per_min": trend_pct, "ops": 50, "duration_ns": 5 * 10**9,
              "ops_per_s": 1e9 / window_mean, "mb_per_s": 8192 / window_mean * 1e3,
              "latency": {k: v for k, v in hist(window_mean).items()
                          if k not in ("overflow", "max_trackable_ns", "sub_buckets",
                                       "buckets")} if attained else None}
    r["steady"] = {"metric": "mean", "window": 5, "range_limit_pct": 20,
                   "slope_limit_pct": 10, "ramp_ns": 0, "interval_ns": 10**9,
                   "attained": attained, "windows": [window]}
    return r


class SteadyCompareTest(unittest.TestCase):
    """diskio --steady: the steady windows are compared when both sides
    were steady, said so; a side that was not steady is never taken for a
    steady disk (the whole runs are compared, and a note names it)."""

    def compare_two(self, a, b):
        c = compare.compare([result("a", [a], "/lab/a/1.json"),
                             result("b", [b], "/lab/b/1.json")])
        row = [r for r in c["rows"] if r.metric == "mean"][0]
        return c, row, compare_render.other_lines(c)

    def test_both_steady_compares_the_windows_and_says_so(self):
        # the whole runs (burst credits included) say 1.5x; the steady
        # windows say 3x
        c, row, notes = self.compare_two(steady_run("fsync", 100, 200),
                                         steady_run("fsync", 150, 600))
        self.assertTrue(row.steady)
        self.assertAlmostEqual(row.judgement.ratio, 3.0)
        self.assertTrue(any("compared over the steady windows" in n for n in notes))
        self.assertIn("(steady)", compare_render.render_text(c))
        self.assertTrue(json.loads(compare_render.render_json(c))["comparisons"][0]["steady"])

    def test_a_side_not_steady_is_never_a_steady_disk(self):
        c, row, notes = self.compare_two(steady_run("fsync", 100, 200),
                                         steady_run("fsync", 150, 600, attained=False,
                                                    trend_pct=35.0))
        self.assertFalse(row.steady)
        self.assertAlmostEqual(row.judgement.ratio, 1.5)
        self.assertTrue(any("NOT STEADY on b (b: rising 35%/min)" in n and
                            "whole runs" in n for n in notes), notes)
        self.assertNotIn("(steady)", compare_render.render_text(c))

    def test_steady_on_one_side_only_compares_the_whole_runs(self):
        c, row, notes = self.compare_two(steady_run("fsync", 100, 200), run("fsync", 150))
        self.assertFalse(row.steady)
        self.assertAlmostEqual(row.judgement.ratio, 1.5)
        self.assertTrue(any("steady on a only (b ran without --steady)" in n
                            for n in notes), notes)

    def test_a_steady_window_without_its_figures_is_refused(self):
        bad = steady_run("fsync", 100, 200)
        bad["steady"]["windows"][0]["latency"] = None
        with self.assertRaises(InputError) as ctx:
            self.compare_two(bad, steady_run("fsync", 150, 600))
        self.assertIn("steady.windows[0].latency", str(ctx.exception))


def capacity_run(mode, answer, high, confirmed=True, jobs=4, found=True):
    """A run made with diskio --target: its confirming run at the answer
    (its latencies those of that rate), the answer bracketed below the
    lowest rate that missed."""
    r = run(mode, 100)
    r["parameters"]["jobs"] = jobs
    step = {"step": 0, "phase": "confirm", "committers": jobs, "offered_ops_per_s": answer,
            "achieved_ops_per_s": answer, "ops": 100, "duration_ns": 5 * 10**9,
            "mean_ns": 100.0, "p50_ns": 100, "p99_ns": 200, "pct_ns": 200, "max_ns": 300,
            "met": True, "rate_held": True, "error": None}
    r["capacity"] = {"percentile": 99, "target_ns": 2 * 10**6, "found": found,
                     "confirmed": confirmed, "ops_per_s": answer if found else None,
                     "high_ops_per_s": high, "committers": jobs, "budget_ns": 60 * 10**9,
                     "duration_ns": 40 * 10**9, "steps": [step]}
    return r


class CapacityCompareTest(unittest.TestCase):
    """diskio --target: two capacities' ratio, with the interval the
    searches' brackets allow, matched whatever committers each answer
    has; the confirming runs' latencies are not compared."""

    def compare_two(self, a, b):
        c = compare.compare([result("a", [a], "/lab/a/1.json"),
                             result("b", [b], "/lab/b/1.json")])
        return c, c["rows"], compare_render.other_lines(c)

    def test_the_ratio_of_two_capacities_with_its_interval(self):
        c, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1020, jobs=4),
                                      capacity_run("fdatasync", 500, 510, jobs=1))
        self.assertEqual([r.metric for r in rows], ["capacity"])
        j = rows[0].judgement
        self.assertAlmostEqual(j.ratio, 0.5)
        self.assertAlmostEqual(j.low, 500 / 1020)
        self.assertAlmostEqual(j.high, 510 / 1000)
        self.assertEqual(j.verdict, "slower")
        self.assertIn("capacity at p99 <= 2 ms", compare_render.render_text(c))
        self.assertIn("0.49-0.51×", compare_render.render_text(c))
        record = json.loads(compare_render.render_json(c))["comparisons"][0]
        self.assertEqual((record["metric"], record["unit"]), ("capacity", "/s"))

    def test_brackets_that_overlap_past_the_band_are_inconclusive(self):
        _, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1200),
                                      capacity_run("fdatasync", 1050, 1300))
        self.assertEqual(rows[0].judgement.verdict, "inconclusive")
        self.assertAlmostEqual(rows[0].judgement.low, 1050 / 1200)

    def test_close_brackets_are_the_same(self):
        _, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1010),
                                      capacity_run("fdatasync", 1005, 1015))
        self.assertEqual(rows[0].judgement.verdict, "same")

    def test_an_open_bracket_is_open_above(self):
        c, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1020),
                                      capacity_run("fdatasync", 2000, None))
        self.assertIsNone(rows[0].judgement.high)
        self.assertEqual(rows[0].judgement.verdict, "faster")
        self.assertIn("1.96× or more", compare_render.render_text(c))

    def test_no_rate_met_and_unconfirmed_are_said(self):
        _, rows, notes = self.compare_two(capacity_run("fdatasync", 1000, 1020),
                                          capacity_run("fdatasync", 0, 12, found=False))
        self.assertEqual(rows, [])
        self.assertTrue(any("no rate met the target on b" in n for n in notes), notes)
        _, rows, notes = self.compare_two(capacity_run("fdatasync", 1000, 1020),
                                          capacity_run("fdatasync", 900, 920, confirmed=False))
        self.assertTrue(any("capacity of b was not confirmed" in n for n in notes), notes)


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    unittest.main()
