# SPDX-License-Identifier: MIT
"""Description: each kind of sync a phase made comes from its own counter, or is said not measured.

each kind of sync a phase made comes from its own
counter, with the diskio mode whose latency it costs; what PostgreSQL
did not count or time is "not measured" with the reason, never 0 (a
zero time for flushes that happened, track_wal_io_timing off, a missing
column); segment switches are counted when wal.csv has them, estimated
from wal_bytes and the segment size otherwise."""

import unittest

from diskio_analysis.correlate.walbases import phase_bases
from diskio_analysis.inputs import PgSettings

ROW = {"wal_write": 1000.0, "wal_sync": 500.0, "wal_write_time_ms": 300.0,
       "wal_sync_time_ms": 800.0, "wal_bytes": 64 << 20}


def settings(**kw):
    return PgSettings("settings.json", "fdatasync", **kw)


class WalTest(unittest.TestCase):
    def test_all_flushes_on_the_commit_path_when_not_split(self):
        bases = phase_bases(ROW, "fdatasync", None)
        commit = bases["wal_commit"]
        self.assertEqual((commit["count"], commit["count_source"],
                          commit["mode"]), (500.0, "wal_sync", "fdatasync"))
        self.assertAlmostEqual(commit["pg_time_s"], 0.8)
        self.assertIn("counted on the commit path", commit["caveat"])
        background = bases["wal_background"]
        self.assertIsNone(background["count"])
        self.assertTrue(background["background"])
        self.assertIn("no wal_sync_commit", background["not_measured"])

    def test_split_by_wal_sync_commit(self):
        row = dict(ROW, wal_sync_commit=400.0, wal_sync_commit_time_ms=600.0)
        bases = phase_bases(row, "fdatasync", None)
        self.assertEqual(bases["wal_commit"]["count"], 400.0)
        self.assertAlmostEqual(bases["wal_commit"]["pg_time_s"], 0.6)
        self.assertEqual(bases["wal_background"]["count"], 100.0)
        self.assertAlmostEqual(bases["wal_background"]["pg_time_s"], 0.2)

    def test_open_methods_count_writes_with_their_mode(self):
        bases = phase_bases(ROW, "open_datasync", None)
        self.assertEqual((bases["wal_commit"]["count"],
                          bases["wal_commit"]["mode"]), (1000.0, "odsync"))
        self.assertAlmostEqual(bases["wal_commit"]["pg_time_s"], 0.3)
        self.assertEqual(phase_bases(ROW, "open_sync", None)["wal_commit"]
                         ["mode"], "osync")

    def test_untimed_wal_io_is_not_measured_not_zero(self):
        commit = phase_bases(dict(ROW, wal_sync_time_ms=0.0), "fdatasync",
                             None)["wal_commit"]
        self.assertIsNone(commit["pg_time_s"])
        self.assertIn("track_wal_io_timing off?", commit["pg_time_note"])
        commit = phase_bases(ROW, "fdatasync",
                             settings(track_wal_io_timing=False))["wal_commit"]
        self.assertIsNone(commit["pg_time_s"])
        self.assertEqual(commit["pg_time_note"],
                         "not measured: track_wal_io_timing was off")
        # recorded as timed: 0 ms is a measurement (tmpfs, rounded)
        commit = phase_bases(dict(ROW, wal_sync_time_ms=0.0), "fdatasync",
                             settings(track_wal_io_timing=True))["wal_commit"]
        self.assertEqual(commit["pg_time_s"], 0.0)
        # no flushes and no time: a measured 0
        commit = phase_bases(dict(ROW, wal_sync=0.0, wal_sync_time_ms=0.0),
                             "fdatasync", None)["wal_commit"]
        self.assertEqual(commit["pg_time_s"], 0.0)

    def test_segment_switches_counted_estimated_or_not_measured(self):
        seg = phase_bases(dict(ROW, wal_segment_switches=3.0), "fdatasync",
                          None)["segment_switch"]
        self.assertEqual((seg["count"], seg["estimated"], seg["mode"]),
                         (3.0, False, "fsync"))
        seg = phase_bases(ROW, "fdatasync",
                          settings(wal_segment_size=16 << 20))["segment_switch"]
        self.assertEqual((seg["count"], seg["estimated"]), (4.0, True))
        seg = phase_bases(ROW, "fdatasync", None)["segment_switch"]
        self.assertIsNone(seg["count"])
        self.assertIn("no wal_segment_switches", seg["not_measured"])
        self.assertEqual(seg["pg_time_note"], "not timed by PostgreSQL")

    def test_checkpoint_files_and_time(self):
        ckpt = phase_bases(dict(ROW, checkpoint_sync_files=12.0,
                                checkpoint_sync_time_ms=1500.0), "fdatasync",
                           None)["checkpoint"]
        self.assertEqual((ckpt["count"], ckpt["mode"], ckpt["background"]),
                         (12.0, "fsync", True))
        self.assertAlmostEqual(ckpt["pg_time_s"], 1.5)
        ckpt = phase_bases(ROW, "fdatasync", None)["checkpoint"]
        self.assertIsNone(ckpt["count"])
        self.assertIsNone(ckpt["pg_time_s"])
        self.assertIn("no checkpoint_sync_time_ms", ckpt["pg_time_note"])


if __name__ == "__main__":
    unittest.main()
