# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases reads the server's counters with the views of its version.

the counters are read with the statistics views of the
server's version, parsed from psql's last output line in a fixed column
order, the checkpoints' synced files are summed from the server log, and
a phase's counters are the difference of two snapshots."""

import os
import tempfile
import unittest

from diskio_analysis.pgphases import stats

LOG = """\
2026-11-23 18:48:06.116 UTC [1] LOG:  checkpoint starting: immediate force wait
2026-11-23 18:48:06.360 UTC [1] LOG:  checkpoint complete: wrote 3 buffers (0.0%); \
0 WAL file(s) added, 0 removed, 0 recycled; write=0.004 s, sync=0.244 s, \
total=0.244 s; sync files=14, longest=0.034 s, average=0.018 s
2026-11-23 18:48:07.000 UTC [1] LOG:  restartpoint complete: sync files=99, longest=0.1 s
2026-11-23 18:48:09.000 UTC [1] LOG:  checkpoint complete: wrote 1 buffers; sync files=3, longest=0.001 s
"""


class CheckpointSyncFilesTest(unittest.TestCase):
    def test_sync_files_of_completed_checkpoints_are_summed(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(LOG)
        try:
            self.assertEqual(stats.checkpoint_sync_files(f.name), 17)
        finally:
            os.unlink(f.name)

    def test_a_missing_log_counts_nothing(self):
        self.assertEqual(stats.checkpoint_sync_files("/nonexistent/postgres.log"), 0)


class SnapshotScriptTest(unittest.TestCase):
    def test_postgresql_14_reads_pg_stat_wal_and_bgwriter_without_flush(self):
        text = stats.snapshot_script(140011)
        self.assertTrue(text.startswith("SELECT w.wal_write, w.wal_sync"))
        self.assertIn("FROM pg_stat_wal w, pg_stat_bgwriter b;", text)
        self.assertNotIn("pg_stat_force_next_flush", text)

    def test_postgresql_15_flushes_its_own_statistics_first(self):
        lines = stats.snapshot_script(150018).splitlines()
        self.assertEqual(lines[0], "SELECT pg_stat_force_next_flush();")
        self.assertIn("pg_stat_bgwriter", lines[1])

    def test_postgresql_17_reads_the_checkpointer_view(self):
        self.assertIn("pg_stat_checkpointer c;", stats.snapshot_script(170000))

    def test_postgresql_18_counts_wal_io_in_pg_stat_io(self):
        text = stats.snapshot_script(180001)
        self.assertIn("FROM pg_stat_io WHERE object = 'wal'", text)
        self.assertNotIn("w.wal_sync,", text)

    def test_every_variant_selects_one_column_per_counter(self):
        for v in (140000, 170000, 180000):
            select = stats.snapshot_script(v).splitlines()[-1]
            select = select.split(" FROM pg_stat_wal")[0]
            depth, cols = 0, 1
            for ch in select:
                depth += {"(": 1, ")": -1}.get(ch, 0)
                cols += ch == "," and depth == 0
            self.assertEqual(cols, len(stats.COUNTERS), v)


class CountersTest(unittest.TestCase):
    def test_the_last_output_line_is_parsed_in_column_order(self):
        out = "\nearlier|output\n" + "|".join(str(i) for i in range(14)) + "\n"
        snap = stats.parse_counters(out)
        self.assertEqual(list(snap), stats.COUNTERS)
        self.assertEqual((snap["wal_write"], snap["buffers_checkpoint"]), (0.0, 12.0))
        self.assertEqual(snap["xact_commit"], 13.0)

    def test_a_phase_is_the_difference_of_two_snapshots(self):
        self.assertEqual(stats.delta({"a": 1.0, "b": 5.0}, {"a": 4.0, "b": 5.0}),
                         {"a": 3.0, "b": 0.0})


if __name__ == "__main__":
    unittest.main()
