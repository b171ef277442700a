# SPDX-License-Identifier: MIT
"""Description: the ratio chart of a diskio-correlate report draws bars from 1 on a log axis.

the ratio chart of a diskio-correlate report draws
horizontal bars from 1 to each ratio on a logarithmic axis centred on 1
(so 0.5× and 2× are the same length), the top-level phases unless told
otherwise and the metrics --metrics selects, an own fill pattern per
environment; the sync-share chart draws the WAL and checkpoint shares of
the selected phases.  With gnuplot present, both are drawn for real."""

import math
import os
import re
import shutil
import unittest

from diskio_analysis.outdir import OutputDir
from diskio_analysis.plot.gnuplot import render
from diskio_analysis.plot.report_charts import (bar_rows, ratio_chart, ratio_tics,
                                                report_charts, select)
from diskio_analysis.plot.reportfile import Report
from filelib import TempDirTest

REPORT = Report("A", ["load", "power", "power.q1"],
                ["fsync.mean_us", "fsync.p99_us"],
                [("B", {"load": 2.0, "power": 0.5, "power.q1": 3.0},
                  {"fsync.mean_us": 4.0, "fsync.p99_us": float("nan")}),
                 ("C", {"load": 1.0, "power": 1.1, "power.q1": 0.01},
                  {"fsync.mean_us": 0.9, "fsync.p99_us": 2.0})],
                "fdatasync", [("A", "load", 0.1, 0.2), ("A", "power.q1", 0.01,
                                                        0.0)])
MEAN = re.compile(r"mean_us$")


class RatioTest(TempDirTest):
    def test_selection(self):
        self.assertEqual(select(REPORT.phases, None, True), ["load", "power"])
        self.assertEqual(select(REPORT.phases, "all", True), REPORT.phases)
        self.assertEqual(select(REPORT.phases, re.compile("q1"), True),
                         ["power.q1"])
        self.assertEqual(select(REPORT.metrics, None, False), REPORT.metrics)

    def test_bars_grow_from_one_and_nan_is_left_out(self):
        rows = bar_rows(["a", "b", "c"], [2.0, 0.5, float("nan")], 0, 2,
                        [False, True, False])
        self.assertEqual(len(rows), 2)
        ratio, y, xlow, xhigh, ylow, yhigh, label = rows[0]
        self.assertEqual((ratio, xlow, xhigh), ("2", "1", "2"))
        # each label the B/A ratio and its word: a time's 2 is slower, a
        # throughput's 0.5 slower too
        self.assertEqual((label, rows[1][6]), ("2.00× (slower)",
                                               "0.50× (slower)"))
        self.assertEqual(rows[1][2:4], ("0.5", "1"))
        # the first category is at the top, the first environment above
        # the second within it
        self.assertAlmostEqual(float(y), 2.5 + 0.2)
        self.assertAlmostEqual(float(bar_rows(["a", "b", "c"], [2.0], 1, 2)
                                     [0][1]), 2.5 - 0.2)

    def test_log_axis_centred_on_one(self):
        chart = ratio_chart(REPORT, "", None, MEAN, self.dir, "svg")[0]
        commands = chart.commands
        self.assertIn("set logscale x", commands.splitlines())
        xrange = re.search(r"set xrange \[([0-9.e+-]+):([0-9.e+-]+)\]",
                           commands)
        low, high = float(xrange.group(1)), float(xrange.group(2))
        self.assertAlmostEqual(math.log(low), -math.log(high), places=4)
        self.assertGreaterEqual(high, 4.0)
        self.assertIn("'1×' 1", commands)
        self.assertIn("'phase load'", commands)
        self.assertNotIn("power.q1", commands)
        self.assertNotIn("fsync.p99_us", commands)
        self.assertIn("fs pattern 1", commands)
        self.assertIn("fs pattern 2", commands)

    def test_ratio_tics_are_apart(self):
        tics = ratio_tics(2.6)
        values = [float(v) for v in re.findall(r"' ([0-9.e+-]+)", tics)]
        self.assertIn(1.0, values)
        gaps = [math.log(b / a) for a, b in zip(values, values[1:])]
        self.assertGreaterEqual(min(gaps), math.log(2.6) / 5 - 1e-9)

    def test_sync_share_of_the_selected_phases(self):
        charts = report_charts([("r.json", REPORT)], "svg", None, MEAN,
                               self.dir)
        self.assertEqual([c.filename for c in charts],
                         ["diskio-ratios.svg", "diskio-sync-share.svg"])
        with open(os.path.join(self.dir, "sync-share-0.dat"),
                  encoding="utf-8") as table:
            self.assertEqual(table.read().splitlines()[1:], ["A load\t10\t20"])

    @unittest.skipIf(shutil.which("gnuplot") is None, "no gnuplot")
    def test_gnuplot_draws_them(self):
        outdir = os.path.join(self.dir, "out")
        os.mkdir(outdir)
        charts = report_charts([("r.json", REPORT)], "png", "all", "all",
                               self.dir)
        with OutputDir.open(outdir) as held:
            paths = render(charts, "png", held, self.dir)
        for path in paths:
            with open(path, "rb") as image:
                self.assertEqual(image.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
