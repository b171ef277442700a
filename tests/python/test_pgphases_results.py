# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases writes q_time.csv, wal.csv and the settings in their formats.

q_time.csv is in the DBT-3 kit's format (millisecond time
stamps, HH:MM:SS.mmm durations), wal.csv has integer counts and
millisecond times, settings.csv flattens settings.json, and no result
file that exists is ever overwritten."""

import argparse
import contextlib
import datetime
import io
import json
import os
import shutil
import stat
import tempfile
import unittest
from unittest import mock

from diskio_analysis import __version__, outdir
from diskio_analysis.pgphases import results

T0 = datetime.datetime(2026, 11, 23, 18, 48, 4, 123999)
T1 = datetime.datetime(2026, 11, 23, 18, 48, 6, 5000)
WAL = {"wal_write": 12.0, "wal_sync": 7.0, "wal_write_time_ms": 1.23456,
       "wal_sync_time_ms": 20.0, "wal_bytes": 4096.0, "checkpoint_write_time_ms": 0.0,
       "checkpoint_sync_time_ms": 2.5, "checkpoint_sync_files": 3.0, "wal_fpi": 1.0,
       "xact_commit": 9.0}


class FormatTest(unittest.TestCase):
    def test_time_stamps_keep_milliseconds_truncated(self):
        self.assertEqual(results.fmt_ts(T0), "2026-11-23 18:48:04.123")

    def test_durations_are_rounded_to_milliseconds(self):
        self.assertEqual(results.fmt_diff(1.2345), "00:00:01.234")
        self.assertEqual(results.fmt_diff(1.2346), "00:00:01.235")
        self.assertEqual(results.fmt_diff(3723.9996), "01:02:04.000")

    def test_a_qtime_row_has_both_duration_forms(self):
        self.assertEqual(results.qtime_row("LOAD", T0, T1, 1.881),
                         ["LOAD", "2026-11-23 18:48:04.123", "2026-11-23 18:48:06.005",
                          "00:00:01.881", "1.881000"])

    def test_a_wal_row_has_counts_and_millisecond_times(self):
        self.assertEqual(results.wal_row("LOAD", WAL),
                         ["LOAD", "12", "7", "1.235", "20.000", "4096", "0.000",
                          "2.500", "3", "9"])


class Fake:
    pass


def finished_run():
    run = Fake()
    run.args = argparse.Namespace(streams=2, wal_sync_method="fdatasync",
                                  shared_buffers="128MB", directory="/tmp", delay_us=5)
    run.error, run.interrupted_by, run.start_time = None, None, T0
    run.cluster = Fake()
    c = run.cluster
    c.pg_version, c.pg_version_num, c.bindir = "PostgreSQL 15", 150018, "/bin"
    c.data_dir, c.preload, c.preload_verified = "/tmp/x/data", None, None
    c.run_as = Fake()
    c.run_as.pw_name = "nobody"
    c.server_settings = {"wal_sync_method": "fdatasync", "fsync": "on"}
    run.workload = Fake()
    w = run.workload
    w.sf, w.norders, w.refresh = 0.01, 15000, 15
    w.commit_every, w.commits = None, 1
    w.committers, w.probe = {"LOAD": 1}, 0
    w.tasks = [("LOAD", T0, T1, 1.881)]
    w.walrows = [("LOAD", WAL)]
    return run


class WriteTest(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp(prefix="test-pgphases-results.")
        self.addCleanup(shutil.rmtree, self.out)
        self.dir = outdir.OutputDir.open(self.out)
        self.addCleanup(self.dir.close)

    def write(self):
        run = finished_run()
        results.write(self.dir, run.workload.tasks, run.workload.walrows,
                      results.settings(run, True))

    def read(self, name):
        with open(os.path.join(self.out, name)) as f:
            return f.read()

    def test_the_four_files_are_written_with_their_headers(self):
        self.write()
        self.assertTrue(self.read("q_time.csv").startswith(
            "task_name,s_time,e_time,diff_time,seconds\nLOAD,"))
        self.assertTrue(self.read("wal.csv").startswith(",".join(results.WAL_HEADER)))
        self.assertEqual(results.existing(self.dir), results.RESULT_FILES[:4])

    def test_settings_csv_flattens_server_settings_and_leaves_out_counters(self):
        self.write()
        lines = self.read("settings.csv").splitlines()
        self.assertEqual(lines[:3], ["name,value", "tool,diskio-pgphases",
                                     "tool_version,%s" % __version__])
        self.assertIn("preload,", lines)
        self.assertIn("delay_us,", lines)   # only with a preload library
        self.assertEqual([x for x in lines if x.startswith("server.")],
                         ["server.fsync,on", "server.wal_sync_method,fdatasync"])
        self.assertFalse(any(x.startswith("phase_counters") for x in lines))
        record = json.loads(self.read("settings.json"))
        self.assertEqual(record["phase_counters"]["LOAD"]["wal_sync"], 7.0)
        self.assertIs(record["complete"], True)

    def test_settings_record_how_the_refresh_functions_commit(self):
        self.write()
        record = json.loads(self.read("settings.json"))
        self.assertEqual((record["refresh_size"], record["commit_every"],
                          record["refresh_commits"]), (15, None, 1))
        lines = self.read("settings.csv").splitlines()
        self.assertIn("commit_every,", lines)
        self.assertIn("refresh_commits,1", lines)

    def test_an_existing_result_file_is_never_overwritten(self):
        with open(os.path.join(self.out, "wal.csv"), "w") as f:
            f.write("mine\n")
        with self.assertRaises(results.NotWritten) as ctx:
            self.write()
        self.assertEqual(ctx.exception.failed,
                         [("wal.csv", "appeared during the run; left as it is")])
        self.assertEqual(self.read("wal.csv"), "mine\n")
        self.assertEqual(results.existing(self.dir), results.RESULT_FILES[:4])

    def test_a_full_disk_leaves_whole_files_or_none_and_says_which(self):
        real_put = results.put

        def full_at_settings_json(out, name, text):
            if name == "settings.json":
                raise OSError(28, "No space left on device")
            real_put(out, name, text)
        with mock.patch.object(results, "put", full_at_settings_json):
            with self.assertRaises(results.NotWritten) as ctx:
                self.write()
        self.assertEqual(ctx.exception.written, ["q_time.csv", "wal.csv", "settings.csv"])
        self.assertEqual(str(ctx.exception), "settings.json: No space left on device")
        self.assertEqual(sorted(os.listdir(self.out)),
                         ["q_time.csv", "settings.csv", "wal.csv"])

    def test_a_file_that_cannot_be_finished_is_not_left_truncated(self):
        path = os.path.join(self.out, "wal.csv")
        for unnamed in (True, False):
            with mock.patch.object(outdir, "_unnamed_files", return_value=unnamed), \
                    mock.patch("os.fsync", side_effect=OSError(28, "No space left")):
                with self.assertRaises(OSError) as ctx:
                    results.put(self.dir, "wal.csv", "phase,wal_write\n")
            self.assertEqual(ctx.exception.filename, path)
            self.assertEqual(os.listdir(self.out), [])

    def test_without_unnamed_files_a_random_temporary_is_used_and_removed(self):
        planted = os.path.join(self.out, "wal.csv.tmp.%d" % os.getpid())
        os.symlink(os.path.join(self.out, "victim"), planted)
        with mock.patch.object(outdir, "_unnamed_files", return_value=False):
            results.put(self.dir, "wal.csv", "phase\n")
        self.assertEqual(self.read("wal.csv"), "phase\n")
        self.assertEqual(sorted(os.listdir(self.out)),
                         ["wal.csv", "wal.csv.tmp.%d" % os.getpid()])

    def test_a_planted_temporary_name_is_neither_used_nor_removed(self):
        planted = os.path.join(self.out, "q_time.csv.tmp.%d" % os.getpid())
        os.symlink(os.path.join(self.out, "victim"), planted)
        self.write()
        self.assertTrue(os.path.islink(planted))
        self.assertFalse(os.path.lexists(os.path.join(self.out, "victim")))
        self.assertEqual(results.existing(self.dir), results.RESULT_FILES[:4])

    def log(self):
        path = os.path.join(self.out, "server.log")
        with open(path, "w") as f:
            f.write("LOG:  checkpoint complete\n")
        return path

    def test_the_log_is_copied_beside_the_results(self):
        results.copy_log(self.log(), self.dir)
        self.assertEqual(self.read("postgres.log"), "LOG:  checkpoint complete\n")

    def test_the_log_copy_is_no_more_readable_than_the_log(self):
        log = self.log()
        os.chmod(log, 0o600)
        results.copy_log(log, self.dir)
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.out, "postgres.log"))
                                      .st_mode), 0o600)

    def test_the_log_is_never_copied_through_a_dangling_symlink(self):
        victim = os.path.join(self.out, "victim")
        os.symlink(victim, os.path.join(self.out, "postgres.log"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            results.copy_log(self.log(), self.dir)
        self.assertFalse(os.path.lexists(victim))
        self.assertIn("the server log was not kept", err.getvalue())
        self.assertEqual(results.existing(self.dir), ["postgres.log"])

    def test_another_runs_log_is_never_replaced(self):
        with open(os.path.join(self.out, "postgres.log"), "w") as f:
            f.write("the winner's log\n")
        with contextlib.redirect_stderr(io.StringIO()):
            results.copy_log(self.log(), self.dir)
        self.assertEqual(self.read("postgres.log"), "the winner's log\n")

    def test_a_log_that_cannot_be_copied_is_skipped_quietly(self):
        results.copy_log("/nonexistent/postgres.log", self.dir)
        self.assertEqual(os.listdir(self.out), [])


if __name__ == "__main__":
    unittest.main()
