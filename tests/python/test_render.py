# SPDX-License-Identifier: MIT
"""Description: the renderers' shapes: text and markdown share one layout
(headings, tables, verdicts, WAL model, notes), CSV is long format with
one value per row, JSON is the report itself; numbers are shown with the
precision their size needs."""

import csv
import io
import json
import unittest

from diskio_analysis.correlate import build_report
from diskio_analysis.render import (CSV_HEADER, fmt_share, fmt_value,
                                    markdown_table, render_csv, render_json,
                                    render_markdown, render_text, text_table)
from envlib import make_env

WAL = {"wal_write": 10.0, "wal_sync": 10.0, "wal_write_time_ms": 1.0,
       "wal_sync_time_ms": 2.0, "wal_bytes": 100.0}


def report():
    envs = [make_env("A", {"load": 10.0}, {"fdatasync.mean_us": 100.0,
                                           "pg.tps": 50.0}, {"load": WAL}),
            make_env("B", {"load": 20.0}, {"fdatasync.mean_us": 400.0,
                                           "pg.tps": 25.0}, {"load": WAL})]
    return build_report(envs, envs[0], "fdatasync")


class FormatTest(unittest.TestCase):
    def test_value_precision_follows_magnitude(self):
        self.assertEqual(fmt_value(1234.5, "us"), "1234 us")
        self.assertEqual(fmt_value(123.45, "s"), "123.5 s")
        self.assertEqual(fmt_value(1.234, ""), "1.23")
        self.assertEqual(fmt_value(0.1234, "s"), "0.123 s")
        self.assertEqual(fmt_value(None, "s"), "n/a")
        self.assertEqual(fmt_share(0.0123), "1.23%")

    def test_text_table_aligns_names_left_and_numbers_right(self):
        self.assertEqual(text_table(("k", "name", "v"),
                                    [("a", "b", "1"), ("a", "bb", "100")]),
                         ["  k  name    v", "  a  b       1",
                          "  a  bb    100"])

    def test_markdown_table(self):
        self.assertEqual(markdown_table(("a", "b"), [(1, 2)]),
                         ["| a | b |", "| --- | --- |", "| 1 | 2 |"])


class DocumentTest(unittest.TestCase):
    def test_text_layout(self):
        text = render_text(report())
        lines = text.splitlines()
        self.assertEqual(lines[0], "diskio-correlate: 2 environments, "
                                   "baseline A")
        self.assertIn("== B vs A (baseline) ==", lines)
        self.assertIn("-- verdicts", lines)
        self.assertIn("  load: 2.00× slower; closest: pg.tps 2.00× (same "
                      "direction); no metric moved the other way", lines)
        self.assertIn("  metric  pg.tps                50.00     25.00   "
                      "0.50        2.00", lines)
        self.assertTrue(any(line.startswith("== WAL model (wal_sync_method "
                                            "fdatasync") for line in lines))
        self.assertTrue(text.endswith("\n") and not text.endswith("\n\n"))

    def test_markdown_layout(self):
        text = render_markdown(report())
        self.assertTrue(text.startswith("# diskio-correlate: 2 environments"))
        self.assertIn("\n## B vs A (baseline)\n", text)
        self.assertIn("| kind | name | baseline | other | ratio | "
                      "normalized |", text)
        self.assertIn("- same direction (2): fdatasync.mean_us, pg.tps", text)

    def test_csv_is_long_format(self):
        rows = list(csv.reader(io.StringIO(render_csv(report()))))
        self.assertEqual(tuple(rows[0]), CSV_HEADER)
        self.assertTrue(all(len(row) == len(CSV_HEADER) for row in rows))
        self.assertIn(["phase", "B", "A", "load", "", "ratio", "2.0", ""],
                      rows)
        self.assertIn(["metric", "B", "A", "", "pg.tps", "normalized_ratio",
                       "2.0", ""], rows)
        sections = {row[0] for row in rows[1:]}
        self.assertEqual(sections, {"phase", "metric", "direction", "closest",
                                    "verdict", "wal", "prediction"})

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
