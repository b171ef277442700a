# SPDX-License-Identifier: MIT
"""Description: diskio-plot reads a diskio-correlate report and refuses an unknown one.

diskio-plot's reader of a diskio-correlate report takes
the ratios (null as NaN) and the WAL model's shares, and refuses an
unknown version or a wrong type naming the JSON path."""

import json
import math
import unittest

from diskio_analysis.correlate.report import build_report
from diskio_analysis.errors import InputError
from diskio_analysis.plot.reportfile import is_report, load_report
from envlib import make_env

WAL = {"wal_write": 10.0, "wal_sync": 10.0, "wal_write_time_ms": 1.0,
       "wal_sync_time_ms": 2.0, "wal_bytes": 100.0}


def report_doc():
    envs = [make_env("A", {"load": 10.0}, {"fsync.mean_us": 100.0,
                                           "x_us": 1.0}, {"load": WAL}),
            make_env("B", {"load": 20.0}, {"fsync.mean_us": 400.0})]
    return json.loads(json.dumps(build_report(envs, envs[0], "fsync")))


def load(doc):
    return load_report("r.json", json.dumps(doc, indent=1), doc)


class ReportTest(unittest.TestCase):
    def test_ratios_and_shares(self):
        report = load(report_doc())
        self.assertTrue(is_report(report_doc()))
        self.assertEqual(report.baseline, "A")
        self.assertEqual(report.phases, ["load"])
        env, phases, metrics = report.comparisons[0]
        self.assertEqual((env, phases["load"], metrics["fsync.mean_us"]),
                         ("B", 2.0, 4.0))
        self.assertTrue(math.isnan(metrics["x_us"]))   # only in A
        self.assertEqual(report.sync_method, "fsync")
        self.assertEqual(report.sync_shares[0][:2], ("A", "load"))
        self.assertAlmostEqual(report.sync_shares[0][2], 0.0001)

    def test_unknown_version(self):
        doc = dict(report_doc(), schema_version=7)
        with self.assertRaises(InputError) as ctx:
            load(doc)
        self.assertIn("unknown diskio-correlate report schema_version 7",
                      str(ctx.exception))

    def test_wrong_types_name_the_path(self):
        doc = report_doc()
        doc["comparisons"][0]["phases"] = []
        with self.assertRaises(InputError) as ctx:
            load(doc)
        self.assertIn("r.json: comparisons[0].phases: a list, expected an "
                      "object", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
