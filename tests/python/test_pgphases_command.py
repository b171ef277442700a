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
from diskio_analysis.textsafe import shown


def call(argv):
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = command.main(argv)
    return status, out.getvalue(), err.getvalue()


class TempDirs(unittest.TestCase):
    def setUp(self):
        # a run ignores its signals while it cleans up: restored for the
        # next test (and the processes it starts)
        handlers = {s: signal.getsignal(s) for s in command.SIGNALS}
        self.addCleanup(lambda: [signal.signal(s, h) for s, h in handlers.items()])
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
        self.assertEqual((status, err), (2, "diskio-pgphases: %s: exists and is not "
                                            "a directory; give --output a "
                                            "directory\n" % self.out))

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


class UpFrontTest(TempDirs):
    """Everything an option can be wrong about is refused, with status 2,
    before anything is created."""

    def refused(self, *argv):
        status, _, err = call(["-o", self.out] + list(argv))
        self.assertEqual(status, 2, err)
        self.assertFalse(os.path.lexists(self.out), "output directory created")
        self.assertEqual(os.listdir(self.store), [])
        return err

    def test_a_target_that_is_not_a_directory_creates_nothing(self):
        target = os.path.join(self.tmp, "file")
        open(target, "w").close()
        err = self.refused("--pg-bindir", self.fake_bindir(), target)
        self.assertEqual(err, "diskio-pgphases: %s: not a directory; name the "
                              "directory under test\n" % target)

    def test_a_missing_target_creates_nothing(self):
        target = os.path.join(self.tmp, "nonexistent")
        err = self.refused("--pg-bindir", self.fake_bindir(), target)
        self.assertEqual(err, "diskio-pgphases: %s: no such directory; name the "
                              "directory under test\n" % target)

    def test_a_scale_factor_beyond_the_generators_keys_is_refused_up_front(self):
        err = self.refused("--pg-bindir", self.fake_bindir(), "--sf", "1e9", self.store)
        self.assertEqual(err.splitlines()[-1], "diskio-pgphases: error: --sf must be "
                         "at most 10000: the generator's part and customer keys "
                         "are 32-bit integers")
        # the largest is taken (the run stops at the next check)
        err = self.refused("--pg-bindir", os.path.join(self.tmp, "none"), "--sf",
                           "10000", self.store)
        self.assertIn("--pg-bindir %s/none: no initdb" % self.tmp, err)

    def test_a_bindir_that_initdb_would_hand_to_a_shell_is_refused(self):
        bindir = os.path.join(self.tmp, "bin $(touch PWNED)")
        os.rename(self.fake_bindir(), bindir)
        err = self.refused("--pg-bindir", bindir, self.store)
        self.assertEqual(err, "diskio-pgphases: --pg-bindir %s: initdb passes this "
                         "directory to a shell in double quotes, where a dollar "
                         "sign, backquote, double quote, backslash or control "
                         "character would run a command or break it; give "
                         "--pg-bindir a directory without them\n" % bindir)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "PWNED")))

    @unittest.skipUnless(os.geteuid() == 0, "the server user is nobody as root only")
    def test_a_target_the_server_user_cannot_reach_creates_nothing(self):
        os.chmod(self.tmp, 0o700)
        err = self.refused("--pg-bindir", self.fake_bindir(), self.store)
        self.assertEqual(err, "diskio-pgphases: user nobody cannot reach %s: the "
                         "directory under test and all its parents must be "
                         "searchable by that user (chmod o+x), or name another "
                         "user with --run-as\n" % self.store)


class MessagesTest(TempDirs):
    """What a message quotes (a path, an option, a server's line) is
    shown by the one escape rule, and names what the user gave."""

    def test_a_path_in_a_message_follows_the_escape_rule(self):
        target = os.path.join(self.tmp, "st\x1b]0;title\x07ore\\x1b")
        status, _, err = call(["-o", self.out, "--pg-bindir", self.fake_bindir(),
                               target])
        self.assertEqual(status, 2)
        self.assertEqual(err, "diskio-pgphases: %s/st\\x1b]0;title\\x07ore\\\\x1b: "
                              "no such directory; name the directory under test\n"
                              % self.tmp)

    def test_an_unknown_option_follows_the_escape_rule(self):
        status, _, err = call(["-o", self.out, self.store, "--\x1b[2J"])
        self.assertEqual(status, 2)
        self.assertEqual(err.splitlines()[-1], "diskio-pgphases: error: "
                         "unrecognized arguments: --\\x1b[2J")

    def test_relayed_server_lines_follow_the_escape_rule(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            command.progress("run failed: initdb failed\nserver log:\n"
                             "LOG:  \x1b[31mred\u202e")
        self.assertEqual(err.getvalue(), "diskio-pgphases: run failed: initdb failed\n"
                         "server log:\nLOG:  \\x1b[31mred\\xe2\\x80\\xae\n")

    def test_a_result_planted_during_the_run_costs_that_file_only(self):
        victim = os.path.join(self.tmp, "victim")

        def planted(run):
            os.symlink(victim, os.path.join(self.out, "wal.csv"))
            os.symlink(victim, os.path.join(self.out, "q_time.csv.tmp.%d" % os.getpid()))
        with mock.patch.object(command.Run, "run_all", planted):
            status, _, err = call(["-o", self.out, "--pg-bindir", self.fake_bindir(),
                                   self.store])
        self.assertEqual(status, 1)
        self.assertIn("diskio-pgphases: cannot write results to %s: wal.csv: "
                      "appeared during the run; left as it is; written: q_time.csv, "
                      "settings.json, settings.csv, interference.csv\n" % self.out, err)
        self.assertNotIn(".tmp", err)
        self.assertFalse(os.path.lexists(victim))
        self.assertEqual(sorted(os.listdir(self.out)),
                         ["interference.csv", "q_time.csv",
                          "q_time.csv.tmp.%d" % os.getpid(),
                          "settings.csv", "settings.json", "wal.csv"])


class ShownTest(unittest.TestCase):
    """textsafe.shown(), the one escape rule every message follows."""

    def test_printable_utf8_is_kept_and_a_backslash_doubled(self):
        self.assertEqual(shown("café € 名前 a,b"), "café € 名前 a,b")
        self.assertEqual(shown("a\\x1b"), "a\\\\x1b")
        self.assertNotEqual(shown("\\x1b"), shown("\x1b"))

    def test_controls_line_separators_and_bidi_are_shown_as_bytes(self):
        self.assertEqual(shown("\x00\t\n\x1b\x7f"), "\\x00\\x09\\x0a\\x1b\\x7f")
        self.assertEqual(shown("\x85\x9b"), "\\xc2\\x85\\xc2\\x9b")
        self.assertEqual(shown("\u2028\u2029"), "\\xe2\\x80\\xa8\\xe2\\x80\\xa9")
        for ch in "\u061c\u200e\u200f\u202a\u202e\u2066\u2069":
            self.assertEqual(shown(ch), "".join("\\x%02x" % b for b in ch.encode()))
        self.assertEqual(shown("\u2065\u202f\u200d"), "\u2065\u202f\u200d")

    def test_raw_bytes_of_a_file_name_are_shown_as_those_bytes(self):
        self.assertEqual(shown(os.fsdecode(b"a\xffb\xc3")), "a\\xffb\\xc3")
        self.assertEqual(shown("\ud800"), "\\xed\\xa0\\x80")


class EndingsTest(TempDirs):
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
