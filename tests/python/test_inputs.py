# SPDX-License-Identifier: MIT
"""Description: each reader of the database side's files accepts its format and names what it rejects.

each reader of the database side accepts its format
(headers, comments, psql footers, DBT-3 task names, a UTF-8 byte order
mark) and rejects what it cannot use with FILE:LINE and what to do; with
--lenient a bad row is named with its FILE:LINE and the other rows are
kept; an empty optional wal.csv cell is "not measured"; settings.json
tells how the run ended and what PostgreSQL timed."""

import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.inputs import (WAL_SYNC_METHODS, csv_number,
                                    pg_setting_bytes,
                                    phase_name_from_task, read_metrics_csv,
                                    read_phases_csv, read_q_time_csv,
                                    read_settings, read_wal_csv,
                                    settings_wal_sync_method)
from filelib import TempDirTest

WAL_HEADER = "phase,wal_write,wal_sync,wal_write_time_ms,wal_sync_time_ms,wal_bytes"


class Reads(TempDirTest):
    def read(self, reader, text):
        return list(reader(self.write("f.csv", text)))

    def rejects(self, reader, text):
        with self.assertRaises(InputError) as ctx:
            self.read(reader, text)
        return str(ctx.exception)


class PhaseNameTest(unittest.TestCase):
    def test_dbt3_task_names(self):
        self.assertEqual(phase_name_from_task("LOAD"), "load")
        self.assertEqual(phase_name_from_task("PERF.POWER"), "power")
        self.assertEqual(phase_name_from_task("PERF.THRUPUT.QS1.ALL"),
                         "throughput.qs1.all")
        # the kit's refresh streams (dbt3-throughput-stream-wrapper)
        self.assertEqual(phase_name_from_task("PERF.THRUPUT.RFST2.RF1"),
                         "throughput.rfst2.rf1")
        self.assertEqual(phase_name_from_task("PERF.THRUPUT.QS3.Q14"),
                         "throughput.qs3.q14")
        # diskio-pgphases before it followed the kit: one refresh-stream row
        self.assertEqual(phase_name_from_task("PERF.THRUPUT.RFST"), "throughput.rfst")


class NumberTest(unittest.TestCase):
    def fails(self, *args, **kw):
        with self.assertRaises(InputError) as ctx:
            csv_number("f", 3, "seconds", *args, **kw)
        return str(ctx.exception)

    def test_bounds(self):
        self.assertEqual(csv_number("f", 1, "x", "0"), 0.0)
        self.assertIn("f:3: seconds 'x' is not a number", self.fails("x"))
        self.assertIn("is not finite", self.fails("1e999"))
        self.assertIn("'inf' is not a number", self.fails("inf"))
        self.assertIn("must be > 0", self.fails("0", positive=True))
        self.assertIn("must be >= 0", self.fails("-1"))
        self.assertIn("outside 0..1e+30", self.fails("1e31"))

    def test_only_plain_ascii_numbers(self):
        """What Python's float() takes but no program writes for a number
        (digit separators, full-width or other Unicode digits, words) is
        not a number; signs, points and exponents are."""
        for text in ("1_000", "\uff11\uff10\uff10\uff10", "\u0661\u0662",
                     "1\u00a0", "nan", "infinity", "0x10", "1,5", "1e",
                     "--1", "", " 1"):
            with self.subTest(text=text):
                self.assertIn("is not a number", self.fails(text))
        for text, value in (("1500", 1500.0), ("+2.5", 2.5), ("-0", 0.0),
                            ("5.", 5.0), (".5", 0.5), ("1e-3", 0.001),
                            ("2E+2", 200.0)):
            self.assertEqual(csv_number("f", 1, "x", text), value)
        self.assertIn("outside 1e-30..1e+30", self.fails("1e-31",
                                                         positive=True))


class QTimeTest(Reads):
    def test_rows_become_phases(self):
        text = ("task_name,s_time,e_time,diff_time,seconds\n"
                "LOAD,a,b,c,100.5\n# a comment\n\nPERF.POWER,a,b,c,50\n")
        self.assertEqual(self.read(read_q_time_csv, text),
                         [(2, "load", 100.5), (5, "power", 50.0)])

    def test_rejections(self):
        self.assertIn(":1: empty file", self.rejects(read_q_time_csv, ""))
        self.assertIn("header lacks column(s) seconds",
                      self.rejects(read_q_time_csv, "task_name,x\n"))
        self.assertIn(":2: 2 fields, header has 3",
                      self.rejects(read_q_time_csv,
                                   "task_name,x,seconds\nLOAD,1\n"))
        self.assertIn(":2: empty seconds",
                      self.rejects(read_q_time_csv,
                                   "task_name,seconds\nLOAD,\n"))

    def test_a_byte_order_mark_is_not_part_of_the_header(self):
        self.assertEqual(self.read(read_q_time_csv,
                                   "\ufefftask_name,seconds\nLOAD,5\n"),
                         [(2, "load", 5.0)])

    def test_lenient_names_the_bad_row_and_keeps_the_rest(self):
        text = ("task_name,seconds\nLOAD,5\nPERF.POWER,x\nPERF.THRUPUT,,\n"
                "PERF.POWER.Q1,2\n")
        self.assertIn(":3: seconds 'x' is not a number",
                      self.rejects(read_q_time_csv, text))
        skipped = []
        path = self.write("f.csv", text)
        self.assertEqual(list(read_q_time_csv(path, skipped)),
                         [(2, "load", 5.0), (5, "power.q1", 2.0)])
        self.assertEqual(skipped, [
            f"{path}:3: seconds 'x' is not a number; write a plain decimal "
            "number in ASCII digits (1500, 2.5, 1e-3); row skipped "
            "(--lenient)",
            f"{path}:4: 3 fields, header has 2; give every row the header's "
            "columns; row skipped (--lenient)"])


class TwoColumnTest(Reads):
    def test_phases_with_and_without_header(self):
        self.assertEqual(self.read(read_phases_csv, "phase,seconds\nLoad,2\n"),
                         [(2, "load", 2.0)])
        self.assertEqual(self.read(read_phases_csv, "load,2\n(1 row)\n"),
                         [(1, "load", 2.0)])
        self.assertIn(":1: 3 fields, expected 2",
                      self.rejects(read_phases_csv, "load,2,3\n"))

    def test_metrics(self):
        self.assertEqual(self.read(read_metrics_csv,
                                   "metric,value\nfsync.mean_us,12\n"),
                         [(2, "fsync.mean_us", 12.0)])
        self.assertIn("bad metric name 'a b'",
                      self.rejects(read_metrics_csv, "a b,1\n"))
        self.assertIn("value is 0, must be > 0",
                      self.rejects(read_metrics_csv, "m_us,0\n"))

    def test_malformed_quoting(self):
        self.assertIn(":1: malformed CSV: field larger than field limit",
                      self.rejects(read_phases_csv,
                                   'a,"' + "1" * 200000 + '"\n'))


class WalTest(Reads):
    def test_counters_per_phase(self):
        wal = read_wal_csv(self.write("w.csv", WAL_HEADER + "\n"
                                      "LOAD,10,5,1.5,2.5,100\n"))
        self.assertEqual(wal, {"load": {"wal_write": 10.0, "wal_sync": 5.0,
                                        "wal_write_time_ms": 1.5,
                                        "wal_sync_time_ms": 2.5,
                                        "wal_bytes": 100.0, "_line": 2}})

    def test_optional_checkpoint_columns(self):
        wal = read_wal_csv(self.write("w.csv", WAL_HEADER +
                                      ",checkpoint_sync_files\n"
                                      "load,1,1,1,1,1,7\n"))
        self.assertEqual(wal["load"]["checkpoint_sync_files"], 7.0)

    def test_an_empty_optional_cell_is_not_measured(self):
        wal = read_wal_csv(self.write("w.csv", WAL_HEADER +
                                      ",wal_segment_switches\n"
                                      "load,1,1,1,1,1,\npower,1,1,1,1,1,3\n"))
        self.assertNotIn("wal_segment_switches", wal["load"])
        self.assertEqual(wal["power"]["wal_segment_switches"], 3.0)

    def test_lenient_wal_rows(self):
        skipped = []
        wal = read_wal_csv(self.write("w.csv", WAL_HEADER + "\nload,1,1,1,1,"
                                      "\npower,1,1,1,1,1\n"), skipped)
        self.assertEqual(list(wal), ["power"])
        self.assertIn(":2: empty wal_bytes", skipped[0])

    def test_rejections(self):
        def rejects(text):
            with self.assertRaises(InputError) as ctx:
                read_wal_csv(self.write("w.csv", text))
            return str(ctx.exception)
        self.assertIn("empty file; expected header phase,", rejects(""))
        self.assertIn("given twice", rejects(WAL_HEADER + "\nload,1,1,1,1,1"
                                             "\nLOAD,1,1,1,1,1\n"))
        self.assertIn("wal_sync is -1, must be >= 0",
                      rejects(WAL_HEADER + "\nload,1,-1,1,1,1\n"))


class SettingsTest(unittest.TestCase):
    def test_what_the_run_recorded(self):
        settings = read_settings("s.json", {
            "wal_sync_method": "fdatasync", "complete": False,
            "error": "interrupted by SIGINT",
            "server_settings": {"track_wal_io_timing": "off",
                                "wal_segment_size": "16777216 B"}})
        self.assertEqual((settings.complete, settings.error,
                          settings.track_wal_io_timing,
                          settings.wal_segment_size),
                         (False, "interrupted by SIGINT", False, 16 << 20))
        settings = read_settings("s.json", {"wal_sync_method": "fsync"})
        self.assertEqual((settings.complete, settings.track_wal_io_timing,
                          settings.wal_segment_size), (True, None, None))
        self.assertEqual(pg_setting_bytes("16 MB"), 16 << 20)
        self.assertIsNone(pg_setting_bytes("lots"))

    def test_wal_sync_method(self):
        self.assertEqual(settings_wal_sync_method(
            "s.json", {"wal_sync_method": "open_sync"}), "open_sync")
        with self.assertRaises(InputError) as ctx:
            settings_wal_sync_method("s.json", {"wal_sync_method": ["x"]})
        self.assertIn("wal_sync_method is a list, expected one of "
                      + ", ".join(WAL_SYNC_METHODS), str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
