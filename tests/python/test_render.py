# SPDX-License-Identifier: MIT
"""Description: the renderers draw the same report as text, Markdown, CSV and JSON.

the renderers' shapes: text and markdown are the summary
(and the details with --details) drawn from one list of blocks; CSV is
long format with one value per row and holds every metric, the
candidates, the withheld statistics and the WAL model; JSON is the
report itself and refuses NaN."""

import csv
import io
import json
import unittest

from diskio_analysis.correlate.render import (CSV_HEADER, render_csv, render_json,
                                              render_markdown, render_text)
from diskio_analysis.correlate.report import build_report
from envlib import make_env

WAL = {"wal_write": 10.0, "wal_sync": 10.0, "wal_write_time_ms": 1.0,
       "wal_sync_time_ms": 2.0, "wal_bytes": 100.0}


def report():
    envs = [make_env("A", {"load": 10.0}, {"fdatasync.mean_us": 100.0,
                                           "pg.tps": 50.0}, {"load": WAL}),
            make_env("B", {"load": 20.0}, {"fdatasync.mean_us": 400.0,
                                           "pg.tps": 25.0}, {"load": WAL})]
    return build_report(envs, envs[0], "fdatasync")


class DocumentTest(unittest.TestCase):
    def test_text_is_the_summary_unless_details_are_asked_for(self):
        text = render_text(report())
        lines = text.splitlines()
        self.assertEqual(lines[0], "diskio-correlate: B vs A (baseline)")
        self.assertEqual(lines[2], "== B vs A (baseline): the WAL model's "
                         "prediction of each phase ==")
        self.assertEqual(lines[4].split(), ["load", "off", "-50%", "10.00",
                                            "s", "1.00×", "n/a", "20.00", "s",
                                            "2.00×", "0.01%→0.02%"])
        self.assertNotIn("== WAL model", text)
        self.assertTrue(text.endswith("\n") and not text.endswith("\n\n"))
        details = render_text(report(), details=True)
        legend = lines.index(next(line for line in lines
                                  if line.startswith("predicted (")))
        self.assertEqual(details.splitlines()[:legend], lines[:legend])
        self.assertIn("load: 2.00× (slower); consistent with "
                      "fdatasync.mean_us 4.00× (needs 33%). WAL model 1.00× "
                      "(commit path 1.00×; syncs 0.01%→0.02%; vs PostgreSQL "
                      "A 0.50×, B 2.00×).", " ".join(details.split()))
        self.assertIn("== WAL model (wal_sync_method fdatasync) ==", details)
        self.assertIn("  metric  fdatasync.mean_us  100.0 us  400.0 us      "
                      "4.00×           n/a  1/1   slower", details)

    def test_markdown_layout(self):
        text = render_markdown(report(), details=True)
        self.assertTrue(text.startswith("# diskio-correlate: B vs A "
                                        "(baseline)\n\n"))
        self.assertIn("\n## B vs A (baseline): the WAL model's prediction "
                      "of each phase\n", text)
        self.assertIn("\n## B vs A (baseline): each phase against the disks"
                      "\n", text)
        self.assertIn("\n- load: 2.00× (slower); consistent with", text)
        self.assertIn("| kind | name | baseline | other | ratio B/A "
                      "| 95% interval | n | verdict |", text)

    def test_csv_is_long_format(self):
        rows = list(csv.reader(io.StringIO(render_csv(report()))))
        self.assertEqual(tuple(rows[0]), CSV_HEADER)
        self.assertTrue(all(len(row) == len(CSV_HEADER) for row in rows))
        self.assertIn(["phase", "B", "A", "load", "", "ratio", "2.0", ""],
                      rows)
        # every metric, not only those the summary shows
        self.assertIn(["metric", "B", "A", "", "pg.tps", "normalized_ratio",
                       "2.0", ""], rows)
        self.assertIn(["candidate", "B", "A", "load", "fdatasync.mean_us",
                       "plausible", "True", ""], rows)
        self.assertIn(["correlation", "", "", "", "", "withheld",
                       "n = 2 < 4: so few points give ±1 by chance", ""], rows)
        sections = {row[0] for row in rows[1:]}
        self.assertEqual(sections, {"phase", "metric", "candidate",
                                    "verdict", "correlation",
                                    "fit", "wal", "wal_basis", "prediction",
                                    "trust"})

    def test_json_is_the_report(self):
        the_report = report()
        self.assertEqual(json.loads(render_json(the_report)), the_report)

    def test_json_refuses_nan(self):
        the_report = report()
        the_report["notes"].append(float("nan"))
        with self.assertRaises(ValueError):
            render_json(the_report)


if __name__ == "__main__":
    unittest.main()
