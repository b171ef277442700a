# SPDX-License-Identifier: MIT
"""Description: each command's main() maps failures to its documented statuses and writes only whole output.

the commands' main() map their failures to the documented
exit statuses (diskio-correlate 0/1/2/3, diskio-plot 0/1/2/3/4/5) and
write their output only when everything was computed; --output and
--outdir create a missing directory, and a failure names the user's
path."""

import contextlib
import io
import json
import os
import unittest
from unittest import mock

from diskio_analysis.compare import command as compare
from diskio_analysis.correlate import command as correlate
from diskio_analysis.plot import command as plot
from filelib import FIXTURES, TempDirTest

A, B = (os.path.join(FIXTURES, d) for d in ("env-a", "env-b"))


def call(main, *argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


class CorrelateTest(unittest.TestCase):
    def test_report(self):
        status, out, err = call(correlate.main, "--format", "json", A, B)
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(json.loads(out)["baseline"], "A")

    def test_statuses(self):
        status, out, err = call(correlate.main, A)
        self.assertEqual((status, out), (2, ""))
        self.assertIn("need at least two ENVDIRs, got 1", err)
        self.assertEqual(call(correlate.main, A, "/nonexistent")[0], 1)
        self.assertEqual(call(correlate.main, "--format", "x", A, B)[0], 2)
        with mock.patch.object(correlate, "build_report",
                               side_effect=ZeroDivisionError("x")):
            status, out, err = call(correlate.main, A, B)
        self.assertEqual((status, out), (3, ""))
        self.assertIn("diskio-correlate: internal error: ZeroDivisionError",
                      err)
        self.assertEqual(call(correlate.main, "--phases", "(", A, B)[0], 2)
        status, out, err = call(correlate.main, "--phases", "nomatch", A, B)
        self.assertEqual((status, out), (2, ""))
        self.assertIn("--phases matches none of the phases", err)


class CorrelateOutputTest(TempDirTest):
    def test_output_into_a_missing_directory(self):
        path = os.path.join(self.dir, "new", "report.md")
        status, out, err = call(correlate.main, "--format", "markdown",
                                "--output", path, A, B)
        self.assertEqual((status, out, err), (0, "", ""))
        with open(path, encoding="utf-8") as report:
            self.assertTrue(report.read().startswith("# diskio-correlate"))
        status, out, err = call(correlate.main, "--output", path, A, B)
        self.assertEqual(status, 1)
        self.assertEqual(err, f"diskio-correlate: {path}: exists; remove it, "
                         "choose another --output or pass --force\n")
        self.assertEqual(call(correlate.main, "--force", "--output", path,
                              A, B)[0], 0)

    def test_output_under_a_file_names_the_users_path(self):
        blocker = self.write("file", "x")
        path = os.path.join(blocker, "report.txt")
        status, out, err = call(correlate.main, "--output", path, A, B)
        self.assertEqual(status, 1)
        self.assertEqual(err, f"diskio-correlate: {blocker}: exists and is "
                         "not a directory; give --output a file name in a "
                         "directory\n")

    def test_lenient_keeps_the_other_rows(self):
        for name, fixture in (("a", A), ("b", B)):
            for entry in ("result.json", "q_time.csv"):
                with open(os.path.join(fixture, entry)) as src:
                    text = src.read()
                if name == "b" and entry == "q_time.csv":
                    text = text.replace(",142.00", ",oops")
                self.write(f"{name}/{entry}", text)
        dirs = [os.path.join(self.dir, n) for n in ("a", "b")]
        status, out, err = call(correlate.main, *dirs)
        self.assertEqual((status, out), (1, ""))
        self.assertIn("q_time.csv:6: seconds 'oops' is not a number", err)
        status, out, err = call(correlate.main, "--lenient", "--format",
                                "json", *dirs)
        self.assertEqual(status, 1)     # b now lacks power: phases differ
        self.assertIn("missing power", err)


class CorrelateWithoutPhasesTest(TempDirTest):
    """Directories holding diskio results and no phase timings: the disks
    are compared alone, one environment per directory."""

    def envdirs(self, with_phases=False):
        dirs = []
        for name, fixture in (("a", A), ("b", B)):
            with open(os.path.join(fixture, "result.json")) as src:
                self.write(f"{name}/result.json", src.read())
            dirs.append(os.path.join(self.dir, name))
        if with_phases:
            with open(os.path.join(A, "q_time.csv")) as src:
                self.write("a/q_time.csv", src.read())
        return dirs

    def test_results_alone_give_the_disk_comparison(self):
        status, out, err = call(correlate.main, *self.envdirs())
        self.assertEqual((status, err), (0, ""))
        lines = out.splitlines()
        self.assertIn("no phase timings in any ENVDIR", lines[0])
        self.assertTrue(lines[2].startswith("B vs A (mean): slower in fsync 8 KiB"))

    def test_json_is_the_compare_document(self):
        status, out, _ = call(correlate.main, "--format", "json", *self.envdirs())
        self.assertEqual(status, 0)
        self.assertEqual(json.loads(out)["schema"], "diskio-compare")

    def test_timings_on_one_side_only_is_still_an_error(self):
        status, out, err = call(correlate.main, *self.envdirs(with_phases=True))
        self.assertEqual((status, out), (1, ""))
        self.assertIn("b: no phase timings", err)


class CompareOutputTest(TempDirTest):
    def test_output_into_a_missing_directory_and_no_overwrite(self):
        results = [os.path.join(d, "result.json") for d in (A, B)]
        path = os.path.join(self.dir, "a", "b", "cmp.csv")
        self.assertEqual(call(compare.main, "--format", "csv", "--output",
                              path, *results), (0, "", ""))
        with open(path, encoding="utf-8") as out:
            self.assertTrue(out.read().startswith("environment,baseline,"))
        status, out, err = call(compare.main, "--output", path, *results)
        self.assertEqual((status, out), (1, ""))
        self.assertIn(f"{path}: exists; remove it", err)


class PlotTest(TempDirTest):
    def test_statuses(self):
        result = os.path.join(A, "result.json")
        self.assertEqual(call(plot.main, "--metrics", "(", result)[0], 2)
        with mock.patch.dict(os.environ, {"GNUPLOT": "/nonexistent/gp"}):
            status, out, err = call(plot.main, "--outdir", self.dir, result)
        self.assertEqual((status, out), (3, ""))
        self.assertIn("diskio-plot: gnuplot not found", err)
        with mock.patch.object(plot, "run_charts",
                               side_effect=KeyError("x")):
            self.assertEqual(call(plot.main, result)[0], 5)
        with mock.patch.object(plot, "load_inputs",
                               side_effect=PermissionError(13, "denied", "f")):
            status, _, err = call(plot.main, result)
        self.assertEqual(status, 1)
        self.assertIn("f: denied; check the paths and permissions", err)

    def test_a_missing_outdir_is_created(self):
        result = os.path.join(A, "result.json")
        outdir = os.path.join(self.dir, "new", "charts")
        with mock.patch.object(plot, "render", return_value=[]):
            status, out, err = call(plot.main, "--outdir", outdir, result)
        self.assertEqual((status, err), (0, ""))
        self.assertTrue(os.path.isdir(outdir))
        blocker = self.write("file", "x")
        status, out, err = call(plot.main, "--outdir",
                                os.path.join(blocker, "x"), result)
        self.assertEqual(status, 1)
        self.assertIn(f"diskio-plot: {blocker}/x: cannot create the "
                      "directory", err)


if __name__ == "__main__":
    unittest.main()
