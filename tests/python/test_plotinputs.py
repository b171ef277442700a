# SPDX-License-Identifier: MIT
"""Description: diskio-plot takes results, traces and reports, and names each chart series.

diskio-plot takes results, traces and reports as files or
directories; a result's runs with ops become chart series named by
environment and mode (and size where one mode ran at several; a
suite's row, its words the entry already says not said again), with
their interval series where the run has one; fio output and unknown JSON
are refused."""

import json
import os
import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.compare.analysis import RunKey
from diskio_analysis.plot.plotinputs import (PlotRun, environment_name,
                                             load_inputs, name_series)
from diskio_analysis.result import Result
from filelib import FIXTURES, TempDirTest


class SeriesNameTest(unittest.TestCase):
    def test_a_legend_says_each_word_once(self):
        def suite_run(mode, row, block_size=8192):
            key = RunKey(mode, block_size, "seq", 1, 1, 1, 1, False, False, row)
            return PlotRun("A", mode, block_size, 1.0, 1.0, 1.0, 1, [], key=key)
        # the sweep's rows of mode read are "8 KiB read": not "A read 8 KiB read"
        runs = [suite_run("read", "8 KiB read"), suite_run("read", "16 KiB read", 16384),
                suite_run("fdatasync", "8 KiB write"),
                suite_run("fdatasync", "16 KiB write", 16384),
                suite_run("aio-read", "SEQ1M Q8T1 read"), suite_run("aio-read", "RND4K Q1T1 read")]
        name_series(runs)
        self.assertEqual([r.series for r in runs],
                         ["A read 8 KiB", "A read 16 KiB", "A fdatasync 8 KiB write",
                          "A fdatasync 16 KiB write", "A aio-read SEQ1M Q8T1 read",
                          "A aio-read RND4K Q1T1 read"])


class NameTest(unittest.TestCase):
    def test_label_else_directory(self):
        self.assertEqual(environment_name(Result("/d/e/r.json", label="L")),
                         "L")
        self.assertEqual(environment_name(Result("/d/e/r.json", label="")),
                         "e")


class LoadTest(TempDirTest):
    def test_a_named_result_or_directory_is_its_environment(self):
        result = os.path.join(FIXTURES, "env-a", "result.json")
        runs, _, _, _ = load_inputs([f"A={result}", f"B={os.path.join(FIXTURES, 'env-b')}"])
        self.assertEqual({r.env for r in runs}, {"A", "B"})
        trace = os.path.join(FIXTURES, "plot", "fsync-trace.csv")
        with self.assertRaises(InputError) as ctx:
            load_inputs([f"A={trace}"])
        self.assertIn("named A, but a trace is not a result", str(ctx.exception))

    def test_directory_of_a_sweep_and_a_trace(self):
        runs, traces, reports, _ = load_inputs([os.path.join(FIXTURES, "plot")])
        self.assertEqual(len(traces), 1)
        self.assertEqual(reports, [])
        self.assertEqual(runs[0].series, "sweep fsync 4K")
        self.assertEqual((runs[0].block_size, runs[0].count), (4096, 2000))
        self.assertEqual(runs[0].buckets[0][2] > 0, True)

    def test_single_size_series_have_no_size(self):
        runs, _, _, _ = load_inputs([os.path.join(FIXTURES, "env-a",
                                               "result.json")])
        self.assertEqual([r.series for r in runs],
                         ["A async", "A fsync", "A fdatasync"])

    def test_runs_without_ops_are_left_out(self):
        with open(os.path.join(FIXTURES, "env-a", "result.json"),
                  encoding="utf-8") as handle:
            doc = json.load(handle)
        doc["runs"][0]["latency"]["total"]["count"] = 0
        runs, _, _, _ = load_inputs([self.write("r.json", json.dumps(doc))])
        self.assertEqual(len(runs), 2)

    def test_interval_series_come_with_the_run(self):
        with open(os.path.join(FIXTURES, "env-a", "result.json"),
                  encoding="utf-8") as handle:
            doc = json.load(handle)
        doc["runs"][1]["intervals"] = {"interval_ns": 10**9, "series": [
            {"repetition": 1, "start_ns": 0, "duration_ns": 10**9, "ops": 0,
             "bytes": 0, "ops_per_s": 0, "mb_per_s": 0, "min_ns": None,
             "mean_ns": None, "p50_ns": None, "p99_ns": None,
             "max_ns": None}]}
        runs, _, _, _ = load_inputs([self.write("r.json", json.dumps(doc))])
        self.assertIsNone(runs[0].intervals)
        self.assertEqual([(iv.start_ns, iv.ops) for iv in runs[1].intervals],
                         [(0, 0)])

    def test_a_custom_run_is_a_series_named_with_its_params(self):
        with open(os.path.join(FIXTURES, "env-a", "result.json"),
                  encoding="utf-8") as handle:
            doc = json.load(handle)
        doc["runs"] = doc["runs"][:1]
        doc["runs"][0].update(mode="commit", parameters=None,
                              params={"record": "512"})
        runs, _, _, _ = load_inputs([self.write("r.json", json.dumps(doc))])
        self.assertEqual([(r.series, r.block_size, r.pattern) for r in runs],
                         [("A commit (record=512)", 0, "custom")])
    def test_a_suites_runs_carry_their_suite_column_and_each_runs_mb_per_s(self):
        with open(os.path.join(FIXTURES, "env-a", "result.json"),
                  encoding="utf-8") as handle:
            doc = json.load(handle)
        run = doc["runs"][1]
        run["repetitions"] = [
            {"complete": True, "ops": 10, "bytes": 2000000,
             "duration_ns": 1000000000, "ops_per_s": 10.0,
             "latency": {"total": None}},
            {"complete": True, "ops": 10, "bytes": 4000000,
             "duration_ns": 1000000000, "ops_per_s": 10.0,
             "latency": {"total": None}},
            {"complete": False, "ops": 1, "bytes": 1,
             "duration_ns": 1000000000, "ops_per_s": 1.0,
             "latency": {"total": None}}]
        doc["suite"] = {"name": "sweep", "title": "I/O length sweep",
                        "summary": "mean",
                        "rows": [{"label": "8 KiB", "column": "write",
                                  "run": 1, "note": None}]}
        runs, _, _, _ = load_inputs([self.write("r.json", json.dumps(doc))])
        suite_runs = [r for r in runs if r.suite is not None]
        self.assertEqual(len(suite_runs), 1)
        r = suite_runs[0]
        self.assertEqual((r.suite, r.suite_title, r.column),
                         ("sweep", "I/O length sweep", "write"))
        # the complete repetitions' MB/s, the incomplete one left out
        self.assertEqual(r.mb_per_s_runs, [2.0, 4.0])
        self.assertEqual([x.suite for x in runs if x is not r], [None, None])

    def rejects(self, *paths):
        with self.assertRaises(InputError) as ctx:
            load_inputs(list(paths))
        return str(ctx.exception)

    def test_refusals(self):
        self.assertIn("fio output is not plotted", self.rejects(
            os.path.join(FIXTURES, "fio", "fio.json")))
        self.assertIn(":1: neither a diskio result, a diskio-correlate "
                      "report nor a diskio-compare comparison",
                      self.rejects(self.write("x.json", "[]")))
        self.assertIn("no such file or directory",
                      self.rejects(os.path.join(self.dir, "none")))
        empty = os.path.join(self.dir, "empty")
        os.mkdir(empty)
        self.assertIn("nothing to plot", self.rejects(empty))

    def test_result_needs_what_the_charts_draw(self):
        with open(os.path.join(FIXTURES, "env-a", "result.json"),
                  encoding="utf-8") as handle:
            doc = json.load(handle)
        del doc["runs"][1]["latency"]["total"]["buckets"]
        self.assertIn("runs[1].latency.total.buckets: missing, expected a "
                      "list", self.rejects(self.write("r.json",
                                                      json.dumps(doc))))


if __name__ == "__main__":
    unittest.main()
