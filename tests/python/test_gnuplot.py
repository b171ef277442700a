# SPDX-License-Identifier: MIT
"""Description: diskio-plot writes gnuplot scripts and runs gnuplot with the documented statuses.

gnuplot script generation (quoting, terminal, one output
per chart into the work directory, a colour of its own for each of N
series) and running it: missing gnuplot is
exit 3, a failing one exit 4, and images appear only when it succeeded
and each is whole."""

import os
import re
import shutil
import unittest
from unittest import mock

from diskio_analysis.errors import InputError
from diskio_analysis.outdir import OutputDir
from diskio_analysis.plot.charts import Chart
from diskio_analysis.plot.gnuplot import (NOT_JUDGED_COLOUR, GnuplotError,
                                          check_outputs, commit,
                                          fmt_latency_us, gnuplot_script,
                                          gp_datafile, gp_format, gp_string,
                                          latency_tics, log_steps, plot_lines,
                                          render, series_style, size_tics,
                                          terminal)
from filelib import TempDirTest

CHART = Chart("diskio-x.svg", "x", "set title 'x'\nplot sin(x)\n")


class ScriptTest(TempDirTest):
    def test_strings_are_single_quoted_and_shown(self):
        """Single quotes: gnuplot substitutes no `command` and expands no
        @macro in them; a run of quotes is a double-quoted string of
        quotes alone (gnuplot cannot read '' after a quote), a newline
        (which would end the command) and every other control character
        shown as \\xHH, a backslash doubled (gnuplot prints a
        single-quoted one as it is)."""
        self.assertEqual(gp_string('a "b" \\c\nd'), "'a \"b\" \\\\c\\x0ad'")
        self.assertEqual(gp_string("it's `x` @m $(y)"),
                         "'it'.\"'\".'s `x` @m $(y)'")
        self.assertEqual(gp_string("''x'"), "\"''\".'x'.\"'\"")
        self.assertEqual(gp_string(""), "''")
        self.assertEqual(gp_format("50% of 'x'"),
                         "'50%% of '.\"'\".'x'.\"'\"")
        piece = r"('[^'\n]*'|\"'+\")"
        for byte in range(1, 0x80):
            quoted = gp_string(f"a{chr(byte)}b")
            with self.subTest(byte=byte):
                self.assertRegex(quoted, rf"^{piece}(\.{piece})*$")
                self.assertTrue(quoted.isprintable())
    def test_data_files_are_the_work_directorys_own(self):
        self.assertEqual(gp_datafile("/tmp/w/hist-0-1.dat"), "'hist-0-1.dat'")
        for name in ("<touch x", "|cmd", "a'b.dat", "a b.dat", "", "-x.dat",
                     "x" * 101):
            with self.subTest(name=name), self.assertRaises(ValueError):
                gp_datafile(os.path.join("/tmp/w", name))

    def test_terminal(self):
        self.assertTrue(terminal("png").startswith("set terminal pngcairo "
                                                   "noenhanced size 1000,600"))
        self.assertTrue(terminal("svg").startswith("set terminal svg"))

    def test_plot_lines_gives_each_series_its_dash_and_point_type(self):
        self.assertEqual(plot_lines([("a.dat", "1:2", "A"),
                                     ("b.dat", "1:3", "B")], "with lines"),
                         "plot 'a.dat' using 1:2 with lines lc rgb '#9400d3' dt 1 "
                         "title 'A', \\\n"
                         "     'b.dat' using 1:3 with lines lc rgb '#009e73' dt 2 "
                         "title 'B'\n")
        self.assertEqual(series_style(1, "with linespoints"),
                         "lc rgb '#009e73' dt 2 pt 5")
        self.assertEqual(series_style(0, "with points pt 7"), "lc rgb '#9400d3'")

    def test_n_series_have_n_colours(self):
        # a sweep suite's read histogram has 12 series, gnuplot's own
        # colours 8: the 9th was the 1st's colour again
        for n in (2, 8, 12, 13, 40, 200):
            script = plot_lines([(f"s{i}.dat", "1:2", f"S{i}") for i in range(n)],
                                "with steps lw 2")
            colours = re.findall(r"lc rgb '(#[0-9a-f]{6})'", script)
            self.assertEqual(len(colours), n)
            self.assertEqual(len(set(colours)), n, f"{n} series")
            # grey is kept for what was not judged
            self.assertNotIn(NOT_JUDGED_COLOUR, colours)

    def test_latency_ticks_in_time_units(self):
        self.assertEqual([fmt_latency_us(v) for v in (0.5, 20, 1500, 2e6)],
                         ["500 ns", "20 µs", "1.5 ms", "2 s"])
        self.assertEqual(log_steps(3, 60), [5, 10, 20, 50])
        self.assertEqual(log_steps(1, 1e6), [1, 10, 100, 1000, 10000,
                                             100000, 1000000])
        tics = latency_tics("y", 3, 60)
        self.assertIn("set ytics ('5 µs' 5, '10 µs' 10, '20 µs' 20, "
                      "'50 µs' 50)", tics)
        self.assertIn("set yrange [2.14286:84]", tics)
        self.assertIn("'4 KiB' 4, '1 MiB' 1024", size_tics("x", [4, 1024, 4]))

    def test_script_draws_each_chart_into_the_work_directory(self):
        """The script names no path of the user's: each image goes to a
        name of the work directory's own, chart-N.FMT."""
        script, images = gnuplot_script([CHART, CHART], "svg")
        self.assertEqual(images, ["chart-0.svg", "chart-1.svg"])
        self.assertEqual(script.splitlines()[:3],
                         ["reset", terminal("svg"), "set output 'chart-0.svg'"])
        self.assertIn("plot sin(x)\n\nunset output", script)

    def test_existing_outputs_need_force(self):
        self.write("diskio-x.svg", "old")
        with OutputDir.open(self.dir) as outdir:
            with self.assertRaises(InputError) as ctx:
                check_outputs([CHART], outdir, False)
            self.assertIn("would overwrite 1 existing file(s)", str(ctx.exception))
            check_outputs([CHART], outdir, True)


class CommitTest(TempDirTest):
    def commit(self, text, force):
        with OutputDir.open(self.dir) as outdir:
            staged = outdir.stage(text.encode(), hint="diskio-x.svg")
            try:
                commit(staged, "diskio-x.svg", force)
            finally:
                staged.close()

    def test_an_image_that_appeared_meanwhile_is_not_replaced(self):
        final = self.write("diskio-x.svg", "appeared")
        with self.assertRaises(InputError) as ctx:
            self.commit("new", force=False)
        self.assertIn("appeared while the charts were drawn", str(ctx.exception))
        with open(final) as f:
            self.assertEqual(f.read(), "appeared")
        self.assertEqual(os.listdir(self.dir), ["diskio-x.svg"])

    def test_force_replaces_and_no_force_links_into_place(self):
        final = os.path.join(self.dir, "diskio-x.svg")
        self.commit("one", force=False)
        self.commit("two", force=True)
        with open(final) as f:
            self.assertEqual(f.read(), "two")
        self.assertEqual(sorted(os.listdir(self.dir)), ["diskio-x.svg"])


class RunTest(TempDirTest):
    def render(self, gnuplot):
        with mock.patch.dict(os.environ, {"GNUPLOT": gnuplot}), \
                OutputDir.open(self.dir) as outdir:
            return render([CHART], "svg", outdir, self.dir)

    def test_missing_gnuplot_is_status_3(self):
        with self.assertRaises(GnuplotError) as ctx:
            self.render("/nonexistent/gnuplot")
        self.assertEqual(ctx.exception.exit_status, 3)
        self.assertIn("gnuplot not found", str(ctx.exception))

    def test_failing_gnuplot_is_status_4_and_leaves_nothing(self):
        fake = self.write("fake-gnuplot", "#!/bin/sh\necho 'bad line' >&2\n"
                          "exit 1\n")
        os.chmod(fake, 0o755)
        with self.assertRaises(GnuplotError) as ctx:
            self.render(fake)
        self.assertEqual(ctx.exception.exit_status, 4)
        self.assertIn("gnuplot failed (status 1): bad line", str(ctx.exception))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "diskio-x.svg")))

    def test_an_empty_or_cut_short_image_is_status_4_and_leaves_nothing(self):
        """gnuplot exits 0 when the disk under its images fills: an
        image is checked whole (an SVG's closing tag, a PNG's IEND chunk)
        before anything is put in the output directory."""
        outdir = os.path.join(self.dir, "out")
        os.mkdir(outdir)
        for written in ("", "<svg>cut"):
            fake = self.write("fake-gnuplot", "#!/bin/sh\n"
                              "for f in $(sed -n \"s/^set output '\\(.*\\)'$/"
                              "\\1/p\" \"$1\"); do printf '%s' "
                              f"'{written}' > \"$f\"; done\n")
            os.chmod(fake, 0o755)
            with self.subTest(written=written), \
                    mock.patch.dict(os.environ, {"GNUPLOT": fake}), \
                    OutputDir.open(outdir) as held, \
                    self.assertRaises(GnuplotError) as ctx:
                render([CHART], "svg", held, self.dir)
            self.assertEqual(ctx.exception.exit_status, 4)
            self.assertIn("gnuplot wrote a", str(ctx.exception))
            self.assertEqual(os.listdir(outdir), [])

    @unittest.skipIf(shutil.which("gnuplot") is None, "no gnuplot")
    def test_real_gnuplot_draws_the_image(self):
        self.assertEqual(self.render("gnuplot"),
                         [os.path.join(self.dir, "diskio-x.svg")])
        with open(os.path.join(self.dir, "diskio-x.svg"),
                  encoding="utf-8") as image:
            self.assertIn("<svg", image.read())
        self.assertEqual([n for n in os.listdir(self.dir) if ".tmp" in n], [])


if __name__ == "__main__":
    unittest.main()
