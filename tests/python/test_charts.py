# SPDX-License-Identifier: MIT
"""Description: the charts' data tables (log-binned histogram, percentile
curve at each bucket's top) and which charts the inputs make: a
histogram and a percentile chart per mode, sweeps only for modes run at
several sizes, two charts per trace, the ratio bars filtered by --metrics
and the sync shares of a report."""

import os
import re
import unittest

from diskio_analysis.charts import (build_charts, histogram_rows, one_line,
                                    percentile_rows, safe_name, sweep_groups)
from diskio_analysis.plotinputs import PlotRun
from diskio_analysis.reportfile import Report
from diskio_analysis.trace import Trace
from filelib import TempDirTest


def run(env="A", mode="fsync", block_size=8192, buckets=None):
    buckets = [(1000, 1000, 1), (10000, 10000, 3)] if buckets is None \
        else buckets
    return PlotRun(env, mode, block_size, 100.0, 0.8, 7.0,
                   sum(b[2] for b in buckets), buckets, f"{env} {mode}")


class TableTest(unittest.TestCase):
    def test_histogram_rebins_by_decade_twentieths(self):
        rows = histogram_rows(run())
        self.assertEqual(rows[0], ("1", "25"))            # 1 us: 1 of 4
        self.assertEqual(rows[-2], ("10", "75"))
        self.assertEqual(rows[-1], ("11.2202", "0"))      # right edge
        self.assertEqual(len(rows), 22)
        self.assertEqual(histogram_rows(run(buckets=[])), [])

    def test_percentiles_at_bucket_tops(self):
        self.assertEqual(percentile_rows(run(buckets=[(1000, 1999, 1),
                                                      (2000, 3999, 3)])),
                         [("1", "1"), ("1.33333", "1.999"), ("4", "3.999")])

    def test_names_and_cells(self):
        self.assertEqual(safe_name("env 1/fsync@8k"), "env_1_fsync_8k")
        self.assertEqual(safe_name("///"), "x")
        self.assertEqual(one_line("a\tb\nc"), "a b c")

    def test_sweeps_need_two_sizes(self):
        runs = [run(block_size=4096), run(block_size=8192), run(mode="async")]
        self.assertEqual(list(sweep_groups(runs)), [("A", "fsync")])


class BuildTest(TempDirTest):
    def names(self, runs=(), traces=(), reports=(), metrics=r"mean_us$"):
        charts = build_charts(list(runs), list(traces), list(reports), "svg",
                              re.compile(metrics), self.dir)
        return [chart.filename for chart in charts]

    def test_run_charts(self):
        self.assertEqual(self.names([run(block_size=4096), run(),
                                     run(mode="async")]),
                         ["diskio-hist-fsync.svg", "diskio-hist-async.svg",
                          "diskio-percentiles-fsync.svg",
                          "diskio-percentiles-async.svg",
                          "diskio-bs-throughput.svg", "diskio-bs-latency.svg"])
        self.assertTrue(os.path.exists(os.path.join(self.dir,
                                                    "hist-fsync-1.dat")))

    def test_trace_charts(self):
        trace = Trace("t 1", "t 1.csv", [0], [0.0], [1.0])
        self.assertEqual(self.names(traces=[trace]),
                         ["diskio-trace-t_1-index.svg",
                          "diskio-trace-t_1-time.svg"])

    def test_report_charts_filter_metrics(self):
        report = Report("A", ["load"], ["fsync.mean_us", "fsync.p99_us"],
                        [("B", {"load": 2.0}, {"fsync.mean_us": 4.0,
                                               "fsync.p99_us": 3.0})],
                        "fsync", [("A", "load", 0.1, 0.2)])
        self.assertEqual(self.names(reports=[("r.json", report)]),
                         ["diskio-ratios.svg", "diskio-sync-share.svg"])
        with open(os.path.join(self.dir, "ratios-metrics.dat"),
                  encoding="utf-8") as table:
            self.assertEqual(table.read(), "name\tB\nfsync.mean_us\t4.0\n")
        with open(os.path.join(self.dir, "sync-share.dat"),
                  encoding="utf-8") as table:
            self.assertEqual(table.read().splitlines()[1], "A load\t10\t20\t70")


if __name__ == "__main__":
    unittest.main()
