# SPDX-License-Identifier: MIT
"""Description: diskio-plot draws a capacity search as latency against offered rate, with its target and knee.

diskio --target's search (a run's capacity) is drawn as one chart: the
target's percentile against the offered rate, a line per count of
committers (bold), the answer's committers' p50 and max beside it; a
rate searched and then confirmed is one point, the confirming run's;
the target a horizontal line, the saturation rate a vertical one, the
capacity marked at its measured point and labelled (said not confirmed
when it was not); no chart for a search that measured no offered rate;
drawn by the real gnuplot."""

import os
import shutil
import unittest

from diskio_analysis.outdir import OutputDir
from diskio_analysis.plot.capacity_chart import (capacity_charts, curve_rows,
                                                 knee_us)
from diskio_analysis.plot.gnuplot import render
from diskio_analysis.plot.plotinputs import PlotRun
from diskio_analysis.result import Capacity, CapacityStep
from filelib import TempDirTest

MS = 10**6


def step(phase, offered, pct_ms, committers=1, met=None, seconds=1.0):
    return CapacityStep(
        "s", 0, phase, committers, offered, offered or 100.0, 100,
        int(seconds * 1e9), pct_ms * MS / 2, int(pct_ms * MS / 2), int(pct_ms * MS),
        int(pct_ms * MS), int(pct_ms * MS * 2),
        pct_ms <= 15 if met is None else met)


def capacity(confirmed=True, steps=None):
    steps = steps if steps is not None else [
        step("saturation", None, 10.2),
        step("search", 99.0, 10.4), step("search", 123.0, 97.0),
        step("search", 105.0, 36.0), step("search", 101.0, 16.0),
        step("search", 49.5, 10.1), step("confirm", 99.0, 12.0, seconds=2.5)]
    return Capacity("c", 90.0, 15 * MS, True, confirmed, 99.0, 101.0, 1,
                    60 * 10**9, 20 * 10**9, steps)


def run(cap):
    r = PlotRun("A", "fdatasync", 8192, 99.0, 0.8, 10000.0, 100,
                [(1000, 1000, 1)], "A fdatasync")
    r.capacity = cap
    return r


class CapacityChartTest(TempDirTest):
    def chart(self, cap):
        charts = capacity_charts([run(cap)], self.dir, "svg")
        self.assertEqual(len(charts), 1)
        return charts[0]

    def test_the_curve_is_by_offered_rate_with_one_point_per_rate(self):
        rows = curve_rows(capacity().steps)
        self.assertEqual([row[0] for row in rows], ["49.5", "99", "101", "105", "123"])
        # 99/s was searched (1 s) and confirmed (2.5 s): the confirmation's
        self.assertEqual(rows[1][3], "12000")
        self.assertEqual(knee_us(capacity()), 12000.0)

    def test_the_chart_says_target_knee_and_saturation(self):
        commands = self.chart(capacity()).commands
        self.assertIn("Latency against offered rate, A fdatasync, 8 KiB seq writes: "
                      "p90 at most 15 ms", commands)
        self.assertIn("'target: p90 at most 15 ms'", commands)
        self.assertIn("'capacity: 99/s'", commands)
        self.assertIn("set object circle at first 99, first 12000", commands)
        self.assertIn("'as fast as it goes: 100/s'", commands)
        self.assertIn("set logscale y", commands)
        self.assertIn("set key below", commands)
        self.assertIn("lw 3", commands)

    def test_an_unconfirmed_capacity_says_so(self):
        self.assertIn("'capacity (not confirmed): 99/s'",
                      self.chart(capacity(confirmed=False)).commands)

    def test_a_line_per_count_of_committers(self):
        steps = capacity().steps + [step("saturation", None, 8.0, committers=4),
                                    step("search", 300.0, 9.0, committers=4),
                                    step("search", 400.0, 30.0, committers=4)]
        commands = self.chart(capacity(steps=steps)).commands
        for title in ("'p90, 1 committer'", "'p90, 4 committers'",
                      "'p50, 1 committer'", "'max, 1 committer'"):
            self.assertIn(title, commands)

    def test_no_offered_rate_no_chart(self):
        cap = capacity(steps=[step("saturation", None, 10.2)])
        self.assertEqual(capacity_charts([run(cap)], self.dir, "svg"), [])

    @unittest.skipIf(shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is None,
                     "gnuplot not found")
    def test_real_gnuplot_draws_it(self):
        chart = self.chart(capacity())
        outdir = os.path.join(self.dir, "out")
        os.mkdir(outdir)
        with OutputDir.open(outdir) as held:
            paths = render([chart], "svg", held, self.dir)
        with open(paths[0], encoding="utf-8") as image:
            svg = image.read()
        for text in ("Latency against offered rate", "capacity: 99/s",
                     "target: p90 at most 15 ms", "offered rate"):
            self.assertIn(text, svg)


if __name__ == "__main__":
    unittest.main()
