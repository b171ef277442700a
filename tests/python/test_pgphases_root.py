# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases as root never follows a link the server user planted.

run as root, diskio-pgphases never follows a link that
the server user planted in a directory it can write: the server's
settings never go into a file there, a server log replaced by a symlink
or a hard link to a root-only file is never copied, and the files it
reads there (postmaster.pid) are read only when they are the server
user's own regular files with one link, and psql, which connects to the
socket there, runs as the server user.  The cluster is made by stand-in initdb and postgres
scripts that run as nobody and plant the links, so no PostgreSQL is
needed; without root the tests skip."""

import argparse
import contextlib
import io
import os
import pwd
import shutil
import signal
import stat
import tempfile
import unittest
from unittest import mock

from diskio_analysis.outdir import OutputDir
from diskio_analysis.pgphases import RunError, results
from diskio_analysis.pgphases.cluster import Cluster
from diskio_analysis.pgphases.safefiles import NotOwned, open_owned, read_owned

SECRET = "root only\n"

# initdb -D DATA ...: makes DATA with postgresql.conf a symlink to the
# root-only file, as the server user can at any moment.
INITDB = """#!/bin/sh
# stand-in initdb: the data directory, its postgresql.conf planted as a link
mkdir -m 700 "$2" && ln -s '{victim}' "$2/postgresql.conf"
"""
# postgres -D DATA ...: records its arguments, plants a link at the
# server log's old place, says "ready" in postmaster.pid, waits for a
# signal.
POSTGRES = """#!/bin/sh
# stand-in postmaster
printf '%s\\n' "$@" > "$2/argv"
ln -sf '{victim}' "$(dirname "$2")/postgres.log"
echo "LOG:  stand-in server ready" >&2
printf '%s\\n' $$ "$2" 0 5432 /tmp '' '' 'ready   ' > "$2/postmaster.pid"
exec sleep 30
"""
# postgres whose postmaster.pid is a link to the root-only file
POSTGRES_PID_LINK = """#!/bin/sh
# stand-in postmaster that plants its pid file as a link
ln -s '{victim}' "$2/postmaster.pid"
exec sleep 30
"""
# pg_ctl, which the runner once started the server with: plants the link
# at the log it is given.
PG_CTL = """#!/bin/sh
# stand-in pg_ctl
for a; do case $a in */postgres.log) ln -sf '{victim}' "$a";; esac; done
"""


def options(bindir, directory):
    return argparse.Namespace(
        pg_bindir=bindir, run_as=None, preload=None, delay_us=None, streams=2,
        wal_sync_method="fdatasync", shared_buffers="128MB", directory=directory)


@unittest.skipUnless(os.geteuid() == 0, "needs root (the server runs as nobody)")
class AsRootTest(unittest.TestCase):
    def setUp(self):
        # the stand-in server is sleep(1): it must not inherit an ignored
        # SIGINT from whatever ran in this process before
        for sig, handler in ((signal.SIGINT, signal.default_int_handler),
                             (signal.SIGQUIT, signal.SIG_DFL)):
            self.addCleanup(signal.signal, sig, signal.signal(sig, handler))
        self.nobody = pwd.getpwnam("nobody")
        self.tmp = tempfile.mkdtemp(prefix="test-pgphases-root.")
        os.chmod(self.tmp, 0o755)
        self.addCleanup(shutil.rmtree, self.tmp, True)
        private = os.path.join(self.tmp, "root-only")
        os.mkdir(private, 0o700)
        self.victim = os.path.join(private, "secret")
        with open(self.victim, "w") as f:
            f.write(SECRET)
        os.chmod(self.victim, 0o600)
        self.out = os.path.join(self.tmp, "out")
        os.mkdir(self.out)
        self.outdir = OutputDir.open(self.out)
        self.addCleanup(self.outdir.close)
        # a directory of the server user's, as the cluster directory is
        self.theirs = os.path.join(self.tmp, "theirs")
        os.mkdir(self.theirs, 0o700)
        os.chown(self.theirs, self.nobody.pw_uid, self.nobody.pw_gid)

    def victim_untouched(self):
        with open(self.victim) as f:
            self.assertEqual(f.read(), SECRET)
        st = os.stat(self.victim)
        self.assertEqual((st.st_uid, stat.S_IMODE(st.st_mode)), (0, 0o600))

    def copied(self):
        """What copy_log put in the output, or None."""
        path = os.path.join(self.out, "postgres.log")
        if not os.path.lexists(path):
            return None
        self.assertFalse(os.path.islink(path))
        with open(path) as f:
            return f.read()

    def stand_in_cluster(self, postgres=POSTGRES, psql="#!/bin/sh\nexit 1\n"):
        """A Cluster over stand-in binaries that plant links as nobody."""
        bindir = os.path.join(self.tmp, "bin")
        os.mkdir(bindir, 0o755)
        for name, text in (("initdb", INITDB), ("postgres", postgres),
                           ("pg_ctl", PG_CTL), ("psql", psql)):
            with open(os.path.join(bindir, name), "w") as f:
                f.write(text.format(victim=self.victim))
            os.chmod(os.path.join(bindir, name), 0o755)
        store = os.path.join(self.tmp, "store")
        os.mkdir(store, 0o755)
        return Cluster(options(bindir, store))

    def run_stand_in(self):
        """setup() and cleanup() of the stand-in cluster, the log kept as
        the command keeps it; the server's arguments."""
        c = self.stand_in_cluster()
        argv = []
        with mock.patch.object(Cluster, "query_server"), \
                contextlib.redirect_stderr(io.StringIO()):
            try:
                c.setup()
                with open(os.path.join(c.data_dir, "argv")) as f:
                    argv = f.read().splitlines()
            except Exception:   # the runner before: its fake pg_ctl start
                pass
            finally:
                c.cleanup(failed=False,
                          save_log=lambda log: results.copy_log(log, self.outdir))
        return argv

    def test_the_settings_never_go_through_a_link_in_the_data_directory(self):
        argv = self.run_stand_in()
        self.victim_untouched()
        # they are the server's arguments instead
        self.assertIn("listen_addresses=", argv)
        self.assertIn("wal_sync_method=fdatasync", argv)
        self.assertEqual(argv[0], "-D")
        self.assertTrue(argv[1].endswith("/data"), argv[1])

    def test_a_server_log_replaced_by_a_link_is_never_copied(self):
        self.run_stand_in()
        self.assertEqual(self.copied(), "LOG:  stand-in server ready\n")
        self.assertEqual(stat.S_IMODE(os.stat(
            os.path.join(self.out, "postgres.log")).st_mode) & 0o077, 0)
        self.victim_untouched()

    def test_a_postmaster_pid_planted_as_a_link_is_not_read(self):
        c = self.stand_in_cluster(POSTGRES_PID_LINK)
        with mock.patch.object(Cluster, "query_server"), \
                contextlib.redirect_stderr(io.StringIO()):
            try:
                with self.assertRaises(RunError) as ctx:
                    c.setup()
            finally:
                c.cleanup(failed=True, save_log=lambda log: None)
        self.assertEqual(str(ctx.exception), "%s/postmaster.pid: a symlink: not "
                         "followed; refusing to go on" % c.data_dir)
        self.victim_untouched()

    def test_psql_runs_as_the_server_user_with_the_script_on_its_input(self):
        c = self.stand_in_cluster(psql="#!/bin/sh\n# stand-in psql\nid -u; cat\n")
        c.sock_dir = c.work_dir = self.theirs
        self.assertEqual(c.psql("SELECT 1;\n", "test", capture=True),
                         "%d\nSELECT 1;\n" % self.nobody.pw_uid)

    def test_a_log_that_is_a_symlink_to_a_root_only_file_is_not_copied(self):
        log = os.path.join(self.theirs, "postgres.log")
        os.symlink(self.victim, log)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            results.copy_log(log, self.outdir)
        self.assertIsNone(self.copied())
        self.assertIn("the server log was not kept: %s: a symlink" % log, err.getvalue())
        self.victim_untouched()

    def test_a_log_that_is_a_hard_link_to_a_root_only_file_is_not_copied(self):
        log = os.path.join(self.theirs, "postgres.log")
        os.link(self.victim, log)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            results.copy_log(log, self.outdir)
        self.assertIsNone(self.copied())
        self.assertIn("2 hard links", err.getvalue())

    def test_a_log_owned_by_another_user_is_not_copied(self):
        log = os.path.join(self.theirs, "postgres.log")
        with open(log, "w") as f:
            f.write("LOG:  theirs\n")
        os.chown(log, self.nobody.pw_uid, self.nobody.pw_gid)
        with contextlib.redirect_stderr(io.StringIO()):
            results.copy_log(log, self.outdir)
        self.assertIsNone(self.copied())


class OpenOwnedTest(unittest.TestCase):
    """safefiles.open_owned(), as any user: only a regular file with one
    link of the expected owner is opened; nothing blocks."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-pgphases-owned.")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.file = os.path.join(self.tmp, "file")
        with open(self.file, "w") as f:
            f.write("1234\n")

    def refused(self, path, uid=None):
        with self.assertRaises(NotOwned) as ctx:
            open_owned(path, os.geteuid() if uid is None else uid)
        return ctx.exception.strerror

    def test_the_owners_regular_file_is_read(self):
        self.assertEqual(read_owned(self.file, os.geteuid(), 3), b"123")

    def test_a_symlink_a_fifo_a_hard_link_or_another_owner_is_refused(self):
        link = os.path.join(self.tmp, "link")
        os.symlink(self.file, link)
        self.assertEqual(self.refused(link), "a symlink: not followed")
        fifo = os.path.join(self.tmp, "fifo")
        os.mkfifo(fifo)
        self.assertEqual(self.refused(fifo), "not a regular file")
        self.assertEqual(self.refused(self.tmp), "not a regular file")
        os.link(self.file, os.path.join(self.tmp, "second"))
        self.assertEqual(self.refused(self.file), "a file with 2 hard links: not read")
        os.unlink(os.path.join(self.tmp, "second"))
        self.assertEqual(self.refused(self.file, os.geteuid() + 1),
                         "owned by uid %d, not %d: not read"
                         % (os.geteuid(), os.geteuid() + 1))

    def test_nothing_there_is_not_a_refusal(self):
        with self.assertRaises(FileNotFoundError):
            open_owned(os.path.join(self.tmp, "none"), os.geteuid())


if __name__ == "__main__":
    unittest.main()
