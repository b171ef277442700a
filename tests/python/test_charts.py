# SPDX-License-Identifier: MIT
"""Description: diskio-plot's data tables, and which charts each kind of input makes.

the charts' data tables (log-binned histogram, percentile
curve at each bucket's top, latency over time) and which charts the inputs
make: a histogram and a percentile chart per mode, sweeps only for modes
run at several sizes, a latency-over-time chart per run with an interval
series (an interval without ops a gap in the latency lines and 0 ops/s;
drawn by the real gnuplot), two charts per trace; every latency axis logarithmic with
ticks in µs/ms/s, the sweeps logarithmic on both axes, block size and
pattern in the titles, a dash type per series; a histogram of many
series gives each its colour, its y range holds the highest bin, and no
line runs under its key."""

import os
import re
import shutil
import unittest

from diskio_analysis.outdir import OutputDir
from diskio_analysis.plot.charts import (bytes_label, histogram_rows,
                                         interval_rows, io_length_rows,
                                         percentile_rows, run_charts, safe_name,
                                         table_cell,
                                         sweep_groups, what_was_written)
from diskio_analysis.plot.gnuplot import key_size, render
from diskio_analysis.plot.plotinputs import PlotRun
from diskio_analysis.plot.trace import Trace
from diskio_analysis.result import Interval
from filelib import TempDirTest


def run(env="A", mode="fsync", block_size=8192, buckets=None, pattern="seq",
        mean_us=7.0, direction="write"):
    buckets = [(1000, 1000, 1), (10000, 10000, 3)] if buckets is None \
        else buckets
    return PlotRun(env, mode, block_size, 100.0, block_size / 1e4, mean_us,
                   sum(b[2] for b in buckets), buckets, f"{env} {mode}",
                   pattern, direction=direction)


def intervals():
    """1 s intervals: busy, a stall (no op completed), a slow op."""
    return [Interval("s[0]", 1, 0, 10**9, 1000, 8192000, 1000.0, 8.19,
                     900, 1000.0, 1000, 3000, 5000),
            Interval("s[1]", 1, 10**9, 10**9, 0, 0, 0.0, 0.0),
            Interval("s[2]", 1, 2 * 10**9, 5 * 10**8, 10, 81920, 20.0, 0.16,
                     1000, 2e8, 1000, 2000000000, 2000000000)]
def suite_run(env, column, mode, block_size, mb_per_s_runs):
    """A run of diskio --suite sweep, measured len(mb_per_s_runs) times."""
    r = run(env, mode, block_size, direction=column)
    r.suite, r.suite_title, r.column = "sweep", "I/O length sweep", column
    r.mb_per_s_runs = list(mb_per_s_runs)
    r.mb_per_s = sum(mb_per_s_runs) / len(mb_per_s_runs)
    return r


def sweep_runs():
    """A local disk and a network filesystem, reads and writes at three
    lengths, three runs each."""
    runs = []
    for env, scale in (("local", 100.0), ("sshfs", 1.0)):
        for column, mode in (("read", "read"), ("write", "fdatasync")):
            for kib, factor in ((8, 1.0), (64, 4.0), (1024, 10.0)):
                mean = scale * factor
                runs.append(suite_run(env, column, mode, kib * 1024,
                                      (mean * 0.9, mean, mean * 1.1)))
    return runs


class TableTest(unittest.TestCase):
    def test_interval_rows_leave_gaps_where_nothing_completed(self):
        r = run()
        r.intervals = intervals()
        rows = interval_rows(r)
        self.assertEqual(rows[0], ("0", "0.5", "1000", "1", "3", "5"))
        self.assertEqual(rows[1], ("1", "1.5", "0", "NaN", "NaN", "NaN"))
        self.assertEqual(rows[2], ("2", "2.25", "20", "1", "2e+06", "2e+06"))
        # the end of the last interval, for the ops/s steps
        self.assertEqual(rows[3], ("2.5", "NaN", "20", "NaN", "NaN", "NaN"))

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
        self.assertEqual(table_cell('a\tb\nc"d'), "a\\x09b\\x0ac'd")
        long_name = "m" * 5000
        self.assertEqual(len(safe_name(long_name)), 69)
        self.assertNotEqual(safe_name(long_name), safe_name(long_name + "x"))

    def test_sweeps_need_two_sizes(self):
        runs = [run(block_size=4096), run(block_size=8192), run(mode="async")]
        self.assertEqual([(env, mode, key.pattern) for env, mode, key
                          in sweep_groups(runs)], [("A", "fsync", "seq")])

    def test_what_was_written(self):
        self.assertEqual(bytes_label(8192), "8 KiB")
        self.assertEqual(bytes_label(1 << 20), "1 MiB")
        self.assertEqual(bytes_label(1000), "1000 B")
        self.assertEqual(what_was_written([run()]), "8 KiB seq writes")
        self.assertEqual(what_was_written([run(), run(block_size=4096,
                                                      pattern="rand")]),
                         "writes of several block sizes and patterns")
        self.assertEqual(what_was_written([run(mode="aio-read", direction="read"),
                                           run(mode="aio-read", direction="read",
                                               block_size=4096)]),
                         "seq reads of several block sizes")
        self.assertEqual(what_was_written([run(block_size=0,
                                               pattern="custom")]),
                         "custom operations")


class BuildTest(TempDirTest):
    def charts(self, runs=(), traces=()):
        return run_charts(list(runs), list(traces), "svg", self.dir)

    def names(self, runs=(), traces=()):
        return [chart.filename for chart in self.charts(runs, traces)]

    def test_run_charts(self):
        self.assertEqual(self.names([run(block_size=4096), run(),
                                     run(mode="async")]),
                         ["diskio-hist-fsync.svg", "diskio-hist-async.svg",
                          "diskio-percentiles-fsync.svg",
                          "diskio-percentiles-async.svg",
                          "diskio-bs-throughput.svg", "diskio-bs-latency.svg"])
        self.assertTrue(os.path.exists(os.path.join(self.dir,
                                                    "hist-0-1.dat")))

    def test_a_histogram_of_twelve_series_shows_each_peak_clear_of_the_key(self):
        # a sweep suite's reads: twelve lengths from 8 KiB to 16 MiB, each
        # a peak of 60% to 85%, from the left end of the axis to its right
        # end, where the key's corners are
        runs = []
        for i in range(12):
            at_ns = int(700 * 2.0 ** (i * 1.1))
            share = 15 + 2 * i
            r = run("A", "read", 8192 << i, direction="read", buckets=[
                (at_ns, at_ns, share), (at_ns * 2, at_ns * 2, 100 - share)])
            r.series = f"A read {bytes_label(8192 << i)}"
            runs.append(r)
        hist = [c for c in self.charts(runs) if c.filename == "diskio-hist-read.svg"][0]
        commands = hist.commands
        colours = re.findall(r"lc rgb '(#[0-9a-f]{6})'", commands)
        self.assertEqual(len(set(colours)), 12, "a colour per series")
        top = float(re.search(r"set yrange \[0:([0-9.e+]+)\]", commands).group(1))
        peak = max(float(row[1]) for r in runs for row in histogram_rows(r))
        self.assertGreaterEqual(top, peak, "the y range holds the peak")
        place = re.search(r"set key inside (top|bottom) (left|right)", commands)
        self.assertIsNotNone(place, commands)
        titles = re.findall(r"title '([^']*)'", commands)
        height = key_size(titles)[1]
        # every line runs below the key's box in its top corner
        self.assertEqual(place.group(1), "top")
        self.assertLessEqual(peak, top * (1.0 - height))

    def test_latency_axes_are_logarithmic_in_time_units(self):
        hist, pct = self.charts([run(buckets=[(2000, 2000, 1),
                                              (3000000, 3000000, 1)])])
        self.assertIn("set title 'Latency histogram, fsync, 8 KiB seq "
                      "writes'", hist.commands)
        self.assertIn("set logscale x", hist.commands.splitlines())
        self.assertIn("'2 µs' 2", hist.commands)
        self.assertIn("'1 ms' 1000", hist.commands)
        self.assertIn("'2 ms' 2000", pct.commands)
        self.assertIn("set logscale xy", pct.commands)

    def test_sweeps_are_log_log_with_sizes_as_ticks(self):
        runs = [run(block_size=4096, mean_us=5.0),
                run(block_size=1 << 20, mean_us=5000.0),
                run("A", "async", 4096, mean_us=1.0),
                run("A", "async", 1 << 20, mean_us=50.0)]
        charts = {c.filename: c for c in self.charts(runs)}
        tp = charts["diskio-bs-throughput.svg"].commands
        lat = charts["diskio-bs-latency.svg"].commands
        for commands in (tp, lat):
            self.assertIn("set logscale x 2", commands)
            self.assertIn("set logscale y", commands)
            self.assertIn("'4 KiB' 4, '1 MiB' 1024", commands)
        self.assertIn("'1 µs' 1", lat)
        self.assertIn("'5 ms' 5000", lat)
        self.assertIn("Mean latency by block size, seq writes", lat)
        # each series its own dash type
        self.assertIn("dt 1", lat)
        self.assertIn("dt 2", lat)

    def interval_chart(self):
        r = run()
        r.intervals = intervals()
        charts = self.charts([r])
        self.assertEqual([c.filename for c in charts],
                         ["diskio-hist-fsync.svg",
                          "diskio-percentiles-fsync.svg",
                          "diskio-intervals-A_fsync.svg"])
        return charts[-1]

    def test_interval_chart_latency_log_and_ops_on_the_right(self):
        chart = self.interval_chart()
        self.assertIn("set title 'Latency over time, A fsync, 8 KiB seq "
                      "writes, 1 s intervals'", chart.commands)
        self.assertIn("set logscale y", chart.commands.splitlines())
        self.assertIn("set y2range [0:*]", chart.commands)
        self.assertIn("'1 µs' 1", chart.commands)
        self.assertIn("'1 s' 1e+06", chart.commands)
        self.assertIn('set yrange [0.714286:2.8e+06]', chart.commands)
        for title in ("p50", "p99", "max", "ops/s (right axis)"):
            self.assertIn(f"title '{title}'", chart.commands)
        self.assertIn("using 1:3 axes x1y2 with steps", chart.commands)
        self.assertTrue(os.path.exists(os.path.join(self.dir,
                                                    "intervals-0.dat")))

    def test_runs_without_a_series_have_no_interval_chart(self):
        r = run()
        r.intervals = []
        self.assertNotIn("diskio-intervals-A_fsync.svg", self.names([r]))

    @unittest.skipIf(shutil.which("gnuplot") is None, "no gnuplot")
    def test_real_gnuplot_draws_the_interval_chart(self):
        chart = self.interval_chart()
        outdir = os.path.join(self.dir, "out")
        os.mkdir(outdir)
        with OutputDir.open(outdir) as held:
            paths = render([chart], "svg", held, self.dir)
        self.assertEqual(paths, [os.path.join(outdir, chart.filename)])
        with open(paths[0], encoding="utf-8") as image:
            svg = image.read()
        self.assertIn("<svg", svg)
        self.assertIn("Latency over time, A fsync", svg)
        self.assertIn("ops/s (right axis)", svg)
    def test_a_suites_sweep_is_one_io_length_chart(self):
        charts = {c.filename: c for c in self.charts(sweep_runs())}
        # the suite's runs have their own chart, not the block-size ones
        self.assertIn("diskio-sweep-io-length.svg", charts)
        self.assertNotIn("diskio-bs-throughput.svg", charts)
        commands = charts["diskio-sweep-io-length.svg"].commands
        self.assertIn("set logscale x 2", commands)
        self.assertIn("'8 KiB' 8, '64 KiB' 64, '1 MiB' 1024", commands)
        self.assertIn("MB/s by I/O length, I/O length sweep (mean of 3 runs, "
                      "bars min to max)", commands)
        self.assertIn("with yerrorlines", commands)
        # a line per environment and column, each its own dash type
        # (the mode where it adds to the column: not "read (read)")
        for name in ("local read", "local write (fdatasync)",
                     "sshfs read", "sshfs write (fdatasync)"):
            self.assertIn(f"title '{name}'", commands)
        self.assertIn("dt 4", commands)

    def test_io_length_rows_are_the_mean_and_the_spread_of_the_runs(self):
        # from five runs on, mean ± one standard deviation
        rows = io_length_rows([suite_run("a", "read", "read", 8192,
                                         (8.0, 9.0, 10.0, 11.0, 12.0))])
        self.assertEqual(rows[0][:2], (8.0, 10.0))
        self.assertAlmostEqual(rows[0][2], 10.0 - 2.5 ** 0.5)
        self.assertAlmostEqual(rows[0][3], 10.0 + 2.5 ** 0.5)
        # a spread wider than the mean stays above 0 on the log axis
        rows = io_length_rows([suite_run("a", "read", "read", 8192,
                                         (1.0, 30.0, 1.0, 30.0, 1.0))])
        self.assertGreater(rows[0][2], 0)

    def test_few_runs_show_their_min_and_max(self):
        # two runs of 40 and 50 MB/s: the bar is 40 to 50, where mean ± sd
        # would claim 38 to 52 (and a wider pair would reach near 0)
        rows = io_length_rows([suite_run("a", "read", "read", 8192,
                                         (40.0, 50.0))])
        self.assertEqual(rows, [(8.0, 45.0, 40.0, 50.0, 2)])
        rows = io_length_rows([suite_run("a", "read", "read", 8192,
                                         (1.0, 30.0, 5.0))])
        self.assertEqual(rows[0][2:4], (1.0, 30.0))

    def test_one_length_per_line_makes_no_io_length_chart(self):
        runs = [suite_run("a", "read", "read", 8192, (1.0,)),
                suite_run("a", "write", "fdatasync", 8192, (1.0,))]
        self.assertNotIn("diskio-sweep-io-length.svg", self.names(runs))

    @unittest.skipIf(shutil.which("gnuplot") is None, "no gnuplot")
    def test_real_gnuplot_draws_the_io_length_chart(self):
        charts = [c for c in self.charts(sweep_runs())
                  if c.filename == "diskio-sweep-io-length.svg"]
        outdir = os.path.join(self.dir, "out")
        os.mkdir(outdir)
        with OutputDir.open(outdir) as held:
            paths = render(charts, "svg", held, self.dir)
        self.assertEqual(paths, [os.path.join(outdir,
                                              "diskio-sweep-io-length.svg")])
        with open(paths[0], encoding="utf-8") as image:
            svg = image.read()
        self.assertIn("<svg", svg)
        for text in ("sshfs write (fdatasync)", "1 MiB", "I/O length"):
            self.assertIn(text, svg)

    def test_trace_charts(self):
        trace = Trace("t 1", "t 1.csv", [0], [0.0], [1.0])
        self.assertEqual(self.names(traces=[trace]),
                         ["diskio-trace-t_1-index.svg",
                          "diskio-trace-t_1-time.svg"])


if __name__ == "__main__":
    unittest.main()
