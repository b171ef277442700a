# SPDX-License-Identifier: MIT
"""Description: diskio-plot draws a diskio-compare comparison as B/A ratios with their intervals.

diskio-plot's chart of a diskio-compare comparison: the
comparison's JSON is read with its schema checked (a bad interval or
direction named by its JSON path), a chart is made per metric with a
point per run and compared environment at its ratio B/A, its 95%
interval as the error bar (the point itself without one), its ratio and
verdict as the label, every label ending inside the plot, on a log axis
centred on 1 with the ±min_change band shaded; a disturbed row's point
hollow and grey with a key entry of its own; the key in a corner the
points leave free or in a band above them, never under the x axis'
label."""

import json
import math
import os
import re
import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.plot.compare_charts import compare_charts, label, point_rows
from diskio_analysis.plot.ratio_axis import key_place, label_limit, label_share, plot_width
from diskio_analysis.plot.gnuplot import KEY_LINE_PX
from diskio_analysis.plot.comparefile import Ratio, is_comparison, load_comparison
from filelib import TempDirTest


def row(env, run, metric, ratio, interval=None, verdict="slower",
        better=False):
    return {"environment": env, "baseline": "A", "run_label": run,
            "metric": metric, "unit": "ns", "higher_is_better": better,
            "ratio": ratio, "interval": interval, "verdict": verdict}


DOC = {"schema": "diskio-compare", "schema_version": 2, "baseline": "A",
       "min_change": 0.05, "comparisons": [
           row("B", "fsync 8 KiB", "mean", 2.0, [1.8, 2.2]),
           row("B", "async 8 KiB", "mean", 0.97, [0.9, 1.04], "same"),
           row("C", "fsync 8 KiB", "mean", 3.0),
           row("B", "fsync 8 KiB", "mb_per_s", 0.5, [0.45, 0.55], "slower",
               True)]}


class ReadTest(TempDirTest):
    def load(self, doc):
        text = json.dumps(doc)
        return load_comparison(self.write("c.json", text), text, doc)

    def test_read(self):
        self.assertTrue(is_comparison(DOC))
        c = self.load(DOC)
        self.assertEqual((c.baseline, c.min_change), ("A", 0.05))
        self.assertEqual(c.ratios[0], Ratio("B", "fsync 8 KiB", "mean", False,
                                            2.0, 1.8, 2.2, "slower"))
        self.assertIsNone(c.ratios[2].low)

    def test_refused(self):
        bad = json.loads(json.dumps(DOC))
        bad["comparisons"][0]["interval"] = [1.0]
        with self.assertRaisesRegex(InputError, r"comparisons\[0\]\.interval"):
            self.load(bad)
        bad = json.loads(json.dumps(DOC))
        bad["comparisons"][1]["higher_is_better"] = "yes"
        with self.assertRaisesRegex(InputError, "higher_is_better"):
            self.load(bad)
        bad = json.loads(json.dumps(DOC))
        bad["schema_version"] = 99
        with self.assertRaises(InputError):
            self.load(bad)


class ChartTest(TempDirTest):
    def charts(self):
        text = json.dumps(DOC)
        c = load_comparison(self.write("c.json", text), text, DOC)
        return {chart.filename: chart for chart in
                compare_charts([c], "svg", self.dir)}

    def test_a_chart_per_metric(self):
        self.assertEqual(sorted(self.charts()),
                         ["diskio-compare-mb_per_s.svg",
                          "diskio-compare-mean.svg"])

    def test_points_with_their_interval_and_label(self):
        ratios = [Ratio("B", "fsync", "mean", False, 2.0, 1.8, 2.2, "slower"),
                  Ratio("B", "async", "mean", False, 0.97, None, None, "same")]
        rows = point_rows(ratios, ["fsync", "async"], 0, 1)
        self.assertEqual([r[0] for r in rows], ["2", "0.97"])
        self.assertEqual([r[2:4] for r in rows], [("1.8", "2.2"),
                                                   ("0.97", "0.97")])
        self.assertEqual([r[4] for r in rows], ["2.00× (slower)",
                                                "0.97× (same)"])
        # the first run at the top
        self.assertGreater(float(rows[0][1]), float(rows[1][1]))

    def test_log_axis_centred_on_one_with_the_band(self):
        commands = self.charts()["diskio-compare-mean.svg"].commands
        self.assertIn("set logscale x", commands.splitlines())
        low, high = map(float, re.search(
            r"set xrange \[([0-9.e+-]+):([0-9.e+-]+)\]", commands).groups())
        self.assertAlmostEqual(math.log(low), -math.log(high), places=4)
        self.assertIn("set object 1 rect from 0.952381, graph 0 to 1.05, "
                      "first 2", commands)
        self.assertIn("with xerrorbars", commands)
        self.assertIn("title 'B'", commands)
        self.assertIn("title 'C'", commands)
        self.assertIn("right of 1: slower", commands)
        mb = self.charts()["diskio-compare-mb_per_s.svg"].commands
        self.assertIn("right of 1: faster", mb)

    def test_a_run_without_a_verdict_gets_a_note_not_a_point(self):
        doc = json.loads(json.dumps(DOC))
        doc["not_direct"] = [{"environment": "B", "run_label": "direct 8 KiB", "on": ["B"],
                              "note": "direct 8 KiB: not direct on B (...): no verdict"}]
        text = json.dumps(doc)
        c = load_comparison(self.write("c.json", text), text, doc)
        self.assertEqual(c.not_direct[0].on, ["B"])
        commands = {chart.filename: chart for chart in
                    compare_charts([c], "svg", self.dir)}["diskio-compare-mean.svg"].commands
        # its row is there (the last, at the bottom), with the note at 1
        self.assertIn("'direct 8 KiB' 0.5", commands)
        self.assertIn("set label 1 'no verdict: not direct on B (the filesystem buffered "
                      "it)' at 1, 0.5000", commands)
        # and no point: the data tables hold the other runs only
        tables = [open(os.path.join(self.dir, name), encoding="utf-8").read()
                  for name in os.listdir(self.dir) if name.endswith(".dat")]
        self.assertFalse([t for t in tables if "direct" in t])

    def chart_of(self, comparisons, metric="mean"):
        doc = dict(DOC, comparisons=comparisons)
        text = json.dumps(doc)
        c = load_comparison(self.write("c.json", text), text, doc)
        return {chart.filename: chart for chart in compare_charts([c], "svg", self.dir)}[
            f"diskio-compare-{metric}.svg"].commands

    def test_every_label_ends_inside_the_plot(self):
        # the disturbed side's 1275x was the farthest point: its label ran
        # past the chart's right edge
        rows = [row("B", "fsync 8 KiB", "mean", 229, [79.6, 659]),
                row("C", "fsync 8 KiB", "mean", 1275, [432, 3768], "disturbed"),
                row("B", "direct 8 KiB", "mean", 68.6, [50.3, 93.5])]
        commands = self.chart_of(rows)
        limit = float(re.search(r"set xrange \[[0-9.e+-]+:([0-9.e+-]+)\]",
                                commands).group(1))
        plot_px = plot_width(["fsync 8 KiB", "direct 8 KiB"], 1000)
        for r in rows:
            text = label(Ratio(r["environment"], r["run_label"], "mean", False,
                               r["ratio"], *r["interval"], r["verdict"]))
            # from its interval's high end, in the plot's share of the axis
            start = (math.log10(r["interval"][1]) + math.log10(limit)) / (
                2 * math.log10(limit))
            # (the range is written with 6 digits)
            self.assertLessEqual(start + label_share(text, plot_px), 1.0 + 1e-6, text)
        # the margin is the longest label's: a longer one widens the axis
        self.assertGreater(label_limit([(3768, "1275× (disturbed) and more")],
                                       ["fsync 8 KiB"], 1000),
                           label_limit([(3768, "1275× (disturbed)")],
                                       ["fsync 8 KiB"], 1000))

    def test_disturbed_points_are_hollow_grey_and_in_the_key(self):
        commands = self.chart_of([
            row("B", "fsync 8 KiB", "mean", 2.0, [1.8, 2.2]),
            row("B", "fdatasync 8 KiB", "mean", 3.0, [2.0, 4.5], "disturbed"),
            row("C", "fsync 8 KiB", "mean", 2.5, [2.2, 2.9], "disturbed")])
        plots = commands.split("plot ", 1)[1]
        # B's judged point filled in its colour, its disturbed one hollow grey
        self.assertIn("with xerrorbars lc rgb '#9400d3' pt 7 ps 1.3 lw 2 title 'B'", plots)
        self.assertIn("with xerrorbars lc rgb '#a0a0a0' pt 6 ps 1.3 lw 2 "
                      "title 'B: disturbed, not judged'", plots)
        # C's (squares) hollow too: its shape kept, its colour not
        self.assertIn("with xerrorbars lc rgb '#a0a0a0' pt 4 ps 1.3 lw 2 "
                      "title 'C: disturbed, not judged'", plots)
        self.assertNotIn("title 'C',", plots)
        # their labels grey; the judged point's data table holds no disturbed row
        self.assertIn("with labels left offset 1,0 textcolor rgb '#808080' notitle", plots)
        tables = {name: open(os.path.join(self.dir, name), encoding="utf-8").read()
                  for name in os.listdir(self.dir) if name.endswith(".dat")}
        self.assertNotIn("disturbed", tables["compare-0-0-0.dat"])
        self.assertIn("disturbed", tables["compare-0-0-0-disturbed.dat"])

    def test_the_key_is_never_under_the_x_axis_label(self):
        # a chart with a corner free keeps its key there, the axis its runs
        commands = self.chart_of([row("B", "fsync 8 KiB", "mean", 2.0, [1.8, 2.2])])
        self.assertNotIn("set key below", commands)
        self.assertRegex(commands, r"set key inside (top|bottom) (left|right) opaque box")
        self.assertIn("set yrange [0:1]", commands)
        # intervals across the whole axis in every slot: no corner is
        # free, so the key gets a band of its own above the first run,
        # the chart that much taller
        runs = ["fsync 8 KiB", "async 8 KiB", "odsync 8 KiB"]
        drawn = [(k / 10.0, 1e-3, 1e3, "") for k in range(31)]
        place, rows, pixels = key_place(drawn, ["B", "C"], 1e3, runs, (1000, 400))
        self.assertEqual(place, "top left")
        self.assertGreater(rows, 0.0)
        self.assertGreater(pixels, 2 * KEY_LINE_PX)
        self.assertEqual(key_place(drawn[:2], ["B", "C"], 1e3, runs, (1000, 400)),
                         ("top right", 0.0, 0))

    def test_the_data_tables_are_the_work_directorys(self):
        self.charts()
        self.assertTrue(all(name.startswith("compare-") and name.endswith(".dat")
                            for name in os.listdir(self.dir)
                            if name != "c.json"))


if __name__ == "__main__":
    unittest.main()
