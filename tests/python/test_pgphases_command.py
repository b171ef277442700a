# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases checks its options and maps signals and failures to its statuses.

diskio-pgphases' options are checked with the messages and
statuses it always had (2 for a bad option, existing results never
overwritten), a signal ends a run with 128 + its number and incomplete
results, and an unforeseen error is one line with status 1.  None of
this needs PostgreSQL: the binaries are stand-ins and no run starts."""

import contextlib
import io
import json
import os
import shutil
import signal
import tempfile
import time
import unittest
from unittest import mock

from diskio_analysis import __version__
from diskio_analysis.pgphases import command


def call(argv):
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = command.main(argv)
    return status, out.getvalue(), err.getvalue()


class TempDirs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-pgphases-command.")
        os.chmod(self.tmp, 0o755)
        self.addCleanup(shutil.rmtree, self.tmp)
        self.store = os.path.join(self.tmp, "store")
        self.out = os.path.join(self.tmp, "out")
        os.mkdir(self.store)

    def fake_bindir(self):
        d = os.path.join(self.tmp, "bin")
        os.mkdir(d)
        for b in ("initdb", "pg_ctl", "postgres", "psql"):
            with open(os.path.join(d, b), "w") as f:
                f.write("#!/bin/sh\nexit 1\n")
            os.chmod(os.path.join(d, b), 0o755)
        return d


class OptionsTest(TempDirs):
    def bad(self, *opts):
        status, _, err = call(["-o", self.out, self.store] + list(opts))
        self.assertEqual(status, 2)
        self.assertTrue(err.startswith("usage: diskio-pgphases "), err)
        return err.splitlines()[-1]

    def test_bad_values_are_refused_with_argparse_messages(self):
        self.assertEqual(self.bad("--sf", "0.0005"),
                         "diskio-pgphases: error: --sf must be at least 0.001")
        for infinite in ("inf", "Infinity", "nan"):
            self.assertIn(self.bad("--sf", infinite),
                          ("diskio-pgphases: error: --sf must be a finite number "
                           "such as 0.01 or 1",
                           "diskio-pgphases: error: --sf must be at least 0.001"))
        self.assertEqual(self.bad("--streams", "0"),
                         "diskio-pgphases: error: --streams must be at least 1")
        self.assertEqual(self.bad("--refresh-size", "0"),
                         "diskio-pgphases: error: --refresh-size must be at least 1")
        self.assertEqual(self.bad("--commit-every", "0"),
                         "diskio-pgphases: error: --commit-every must be at least 1")
        self.assertEqual(self.bad("--delay-us", "-1"),
                         "diskio-pgphases: error: --delay-us must not be negative")
        self.assertEqual(self.bad("--shared-buffers", "1 XB"),
                         "diskio-pgphases: error: --shared-buffers: want a size "
                         "such as 128MB")
        self.assertIn("invalid choice: 'nope'", self.bad("--wal-sync-method", "nope"))

    def test_version_is_the_package_version(self):
        self.assertEqual(call(["--version"])[:2], (0, "diskio-pgphases %s\n" % __version__))

    def test_existing_results_are_never_overwritten(self):
        os.mkdir(self.out)
        for f in ("q_time.csv", "postgres.log"):
            open(os.path.join(self.out, f), "w").close()
        status, _, err = call(["-o", self.out, self.store])
        self.assertEqual((status, err), (2, "diskio-pgphases: refusing to overwrite "
                                            "q_time.csv, postgres.log in %s; choose "
                                            "another --output\n" % self.out))

    def test_an_output_that_is_a_file_is_refused(self):
        open(self.out, "w").close()
        status, _, err = call(["-o", self.out, self.store])
        self.assertEqual((status, err), (2, "diskio-pgphases: --output %s exists and "
                                            "is not a directory\n" % self.out))

    def test_the_output_directory_is_created_as_every_command_does(self):
        blocker = os.path.join(self.tmp, "file")
        open(blocker, "w").close()
        out = os.path.join(blocker, "sub")
        status, _, err = call(["-o", out, self.store])
        self.assertEqual((status, err), (2, "diskio-pgphases: %s: cannot create "
                                            "the directory: Not a directory; check "
                                            "--output and the permissions of its "
                                            "parent\n" % out))

    def test_a_refresh_size_too_large_stops_before_anything_is_created(self):
        status, _, err = call(["-o", self.out, "--refresh-size", "5001", self.store])
        self.assertEqual(status, 2)
        self.assertIn("--refresh-size 5001 x (streams 2 + 1) is more than the 15000 "
                      "orders loaded", err)
        self.assertFalse(os.path.exists(self.out))


class EndingsTest(TempDirs):
    def setUp(self):
        super().setUp()
        self.handlers = {s: signal.getsignal(s) for s in command.SIGNALS}

    def tearDown(self):
        for s, h in self.handlers.items():
            signal.signal(s, h)

    def test_signals_give_128_plus_their_number(self):
        self.assertEqual([command.SIGNAL_STATUS[s] for s in command.SIGNALS],
                         [130, 143, 129])

    def test_a_signal_during_the_run_leaves_incomplete_results(self):
        def killed(run):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        with mock.patch.object(command.Run, "run_all", killed):
            status, _, err = call(["-o", self.out, "--pg-bindir", self.fake_bindir(),
                                   self.store])
        self.assertEqual(status, 143)
        self.assertIn("diskio-pgphases: interrupted by SIGTERM: stopping the server "
                      "and removing the cluster\n", err)
        self.assertTrue(err.endswith("partial results (marked incomplete) in %s\n"
                                     % self.out))
        with open(os.path.join(self.out, "settings.json")) as f:
            record = json.load(f)
        self.assertEqual((record["complete"], record["interrupted_by_signal"],
                          record["error"]), (False, 15, "interrupted by SIGTERM"))

    def record(self):
        with open(os.path.join(self.out, "settings.json")) as f:
            return json.load(f)

    def test_an_error_escaping_the_run_never_leaves_it_complete(self):
        with mock.patch.object(command.Run, "run_all", side_effect=KeyError("x")):
            status, _, err = call(["-o", self.out, "--pg-bindir", self.fake_bindir(),
                                   self.store])
        self.assertEqual(status, 1)
        self.assertIn("internal error: KeyError", err)
        record = self.record()
        self.assertFalse(record["complete"])
        self.assertIn("unforeseen error", record["error"])

    def test_an_unwritable_stderr_neither_stops_nor_completes_a_failed_run(self):
        class Full(io.StringIO):
            def write(self, text):
                raise OSError(28, "No space left on device")

        def failing(run):
            raise command.RunError("initdb failed")
        with mock.patch.object(command.Run, "run_all", failing), \
                contextlib.redirect_stderr(Full()):
            status = command.main(["-o", self.out, "--pg-bindir", self.fake_bindir(),
                                   self.store])
        self.assertEqual(status, 1)
        self.assertEqual((self.record()["complete"], self.record()["error"]),
                         (False, "initdb failed"))

    def test_an_unforeseen_error_is_one_line_and_status_1(self):
        with mock.patch.object(command, "execute", side_effect=KeyError("x")):
            status, _, err = call(["-o", self.out, self.store])
        self.assertEqual((status, err.count("\n")), (1, 1))
        self.assertIn("internal error: KeyError", err)


if __name__ == "__main__":
    unittest.main()
