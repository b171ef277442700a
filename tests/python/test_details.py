# SPDX-License-Identifier: MIT
"""Description: the details hold every metric, candidate and basis the summary leaves out.

the details hold what the summary leaves out: every
shown metric with its interval, n and verdict; each phase's candidates
with their share (implausible ones marked), the other way, within noise
and not in both; the correlations and fits or why they are withheld; the
WAL model basis by basis, each reason it was not measured said once;
the notes."""

import unittest

from diskio_analysis.correlate.details import details_blocks
from diskio_analysis.correlate.report import build_report
from diskio_analysis.document import draw_text
from envlib import make_env

WAL = {"wal_write": 10.0, "wal_sync": 1000.0, "wal_write_time_ms": 1.0,
       "wal_sync_time_ms": 90.0, "wal_bytes": 100.0}


def text(n=2):
    specs = (("A", 10.0, [100.0, 101.0], 5.0), ("B", 15.0, [200.0, 202.0],
                                                 5.1),
             ("C", 12.0, [150.0, 150.0], 5.0))[:n]
    envs = [make_env(name, {"load": s, "load.q1": s / 10},
                     {"fsync.mean_us": m, "fdatasync.mean_us": m,
                      "async.mean_us": a}, {"load": WAL})
            for name, s, m, a in specs]
    envs[0].notes.append("a note")
    return draw_text(details_blocks(build_report(envs, envs[0], "fsync")))


class DetailsTest(unittest.TestCase):
    def test_comparison_table_and_phase_lists(self):
        out = text()
        self.assertIn("== details: B vs A (baseline) ==", out)
        lines = out.splitlines()
        row = next(line for line in lines if "  fsync.mean_us " in line)
        self.assertEqual(row.split(), ["metric", "fsync.mean_us", "100.5",
                                       "us", "201.0", "us", "2.00×",
                                       "1.94-2.06×", "2/2", "slower"])
        self.assertIn("-- phase load", lines)
        self.assertNotIn("-- phase load.q1", lines)
        self.assertIn("inconclusive or disturbed (1): async.mean_us", out)
        self.assertIn("consistent with, if this share of the phase (2): "
                      "fsync.mean_us 2.00× (50.0%)", out)

    def test_withheld_statistics_say_why(self):
        out = text()
        self.assertIn("Correlations withheld: n = 2 < 4: so few points give "
                      "±1 by chance.", out)
        self.assertIn("Fits withheld: n = 2 < 3: a line through two points "
                      "always fits.", out)
        out = text(3)
        self.assertIn("Least-squares lines", out)
        self.assertIn("residuals", out)

    def test_wal_model_reasons_once(self):
        out = text()
        self.assertIn("== WAL model (wal_sync_method fsync) ==", out)
        self.assertEqual(out.count("segment_switch not measured: wal.csv has "
                                   "no wal_segment_switches"), 1)
        self.assertIn("-- how much to trust each prediction", out)
        self.assertIn("B load: the model's syncs are 1.0% of the baseline's "
                      "phase, 1.3% of B's", out)
        self.assertIn("== notes ==\n  a note", out)


if __name__ == "__main__":
    unittest.main()
