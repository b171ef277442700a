# SPDX-License-Identifier: MIT
"""Description: the commands' main() map their failures to the documented
exit statuses (diskio-correlate 0/1/2/3, diskio-plot 0/1/2/3/4/5) and
write their output only when everything was computed."""

import contextlib
import io
import json
import os
import unittest
from unittest import mock

from diskio_analysis.commands import correlate, plot
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


class PlotTest(TempDirTest):
    def test_statuses(self):
        result = os.path.join(A, "result.json")
        self.assertEqual(call(plot.main, "--metrics", "(", result)[0], 2)
        with mock.patch.dict(os.environ, {"GNUPLOT": "/nonexistent/gp"}):
            status, out, err = call(plot.main, "--outdir", self.dir, result)
        self.assertEqual((status, out), (3, ""))
        self.assertIn("diskio-plot: gnuplot not found", err)
        self.assertEqual(call(plot.main, "--outdir",
                              os.path.join(self.dir, "none"), result)[0], 1)
        with mock.patch.object(plot, "build_charts",
                               side_effect=KeyError("x")):
            self.assertEqual(call(plot.main, result)[0], 5)
        with mock.patch.object(plot, "load_inputs",
                               side_effect=PermissionError(13, "denied", "f")):
            status, _, err = call(plot.main, result)
        self.assertEqual(status, 1)
        self.assertIn("f: denied; check the paths and permissions", err)


if __name__ == "__main__":
    unittest.main()
