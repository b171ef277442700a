# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases' throw-away cluster is configured, started and removed safely.

the throw-away cluster is configured for a unix socket
only and durable writes, by arguments on the server's command line that
no shell reads, its options are checked before anything is created, the
server runs as an unprivileged user when started as root, and cleaning
up saves the server log before it removes the cluster, the socket and
the work directories, once."""

import argparse
import os
import pwd
import shutil
import tempfile
import unittest

from diskio_analysis.errors import UsageError
from diskio_analysis.pgphases import cluster
from diskio_analysis.pgphases.cluster import Cluster


def options(bindir, **kw):
    a = dict(pg_bindir=bindir, run_as=None, preload=None, delay_us=None,
             streams=2, wal_sync_method="fdatasync", shared_buffers="128MB",
             directory="/nonexistent")
    a.update(kw)
    return argparse.Namespace(**a)


class ConfTest(unittest.TestCase):
    def test_the_server_listens_on_its_socket_only(self):
        conf = cluster.server_conf("/tmp/sock", options(None))
        self.assertEqual(conf["listen_addresses"], "")
        self.assertEqual(conf["unix_socket_directories"], '"/tmp/sock"')
        self.assertEqual(conf["unix_socket_permissions"], "0700")

    def test_a_socket_directory_is_one_element_of_the_list_setting(self):
        self.assertEqual(cluster.list_element('/t m,p/"s"'), '"/t m,p/""s"""')

    def test_durability_is_as_shipped_and_counters_are_on(self):
        conf = cluster.server_conf("/s", options(None, wal_sync_method="open_sync"))
        for k in ("fsync", "synchronous_commit", "full_page_writes",
                  "track_wal_io_timing", "log_checkpoints"):
            self.assertEqual(conf[k], "on", k)
        self.assertEqual(conf["wal_sync_method"], "open_sync")
        self.assertEqual(conf["autovacuum"], "off")

    def test_connections_grow_with_the_streams(self):
        self.assertEqual(cluster.server_conf("/s", options(None))["max_connections"], "20")
        self.assertEqual(cluster.server_conf("/s", options(None, streams=16))
                         ["max_connections"], "26")


class OptionsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-pgphases-cluster.")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.bindir = os.path.join(self.tmp, "bin")
        os.mkdir(self.bindir)
        for b in ("initdb", "postgres", "psql"):
            with open(os.path.join(self.bindir, b), "w") as f:
                f.write("#!/bin/sh\nexit 1\n")
            os.chmod(os.path.join(self.bindir, b), 0o755)

    def refused(self, **kw):
        with self.assertRaises(UsageError) as ctx:
            Cluster(options(self.bindir, **kw))
        return str(ctx.exception)

    def test_a_bindir_without_the_binaries_is_refused(self):
        os.unlink(os.path.join(self.bindir, "psql"))
        self.assertEqual(self.refused(), "--pg-bindir %s: no initdb, postgres "
                                         "and psql there" % self.bindir)

    def test_the_server_is_started_with_its_settings_as_arguments(self):
        c = Cluster(options(self.bindir, wal_sync_method="open_sync"))
        c.data_dir, c.sock_dir = "/d $(x)/data", "/tmp/s"
        cmd = c.server_command()
        self.assertEqual(cmd[:3], [os.path.join(self.bindir, "postgres"), "-D",
                                   "/d $(x)/data"])
        self.assertEqual(cmd[3:9], ["-c", "listen_addresses=", "-c",
                                    'unix_socket_directories="/tmp/s"', "-c",
                                    "unix_socket_permissions=0700"])
        self.assertIn("wal_sync_method=open_sync", cmd)
        self.assertEqual(set(cmd[3::2]), {"-c"})
        self.assertEqual(len(cmd[3::2]), len(cmd[4::2]))

    def test_a_delay_needs_a_preload_library_that_exists(self):
        self.assertEqual(self.refused(delay_us=5), "--delay-us needs --preload LIB")
        self.assertEqual(self.refused(preload="/nonexistent.so"),
                         "--preload /nonexistent.so: no such file")

    def test_the_server_user_is_never_root(self):
        if os.geteuid() == 0:
            self.assertEqual(Cluster(options(self.bindir)).run_as.pw_name, "nobody")
            self.assertEqual(self.refused(run_as="root"), "--run-as root: PostgreSQL "
                             "refuses to run as root; name an unprivileged user")
            self.assertEqual(self.refused(run_as="no-such-user-x"),
                             "--run-as no-such-user-x: no such user")
        else:
            me = pwd.getpwuid(os.geteuid()).pw_name
            self.assertEqual(Cluster(options(self.bindir)).run_as.pw_name, me)
            self.assertEqual(self.refused(run_as="nobody"),
                             "--run-as needs root (running as %s)" % me)

    def test_commands_drop_privileges_when_root(self):
        c = Cluster(options(self.bindir))
        cmd = c.as_user(["initdb"])
        if os.geteuid() != 0:
            self.assertEqual(cmd, ["initdb"])
        else:
            self.assertEqual(cmd[-2:], ["--", "initdb"])
            self.assertTrue(cmd[0] in ("setpriv", "runuser"))
            self.assertIn("--reuid=%d" % c.run_as.pw_uid if cmd[0] == "setpriv"
                          else c.run_as.pw_name, cmd)

    def test_the_environment_is_minimal_and_in_the_c_locale(self):
        env = Cluster(options(self.bindir)).base_env()
        self.assertEqual(sorted(env), ["HOME", "LANG", "LC_ALL", "PATH", "TZ"])
        self.assertEqual((env["LANG"], env["LC_ALL"]), ("C", "C"))

    def test_cleaning_up_a_cluster_never_set_up_does_nothing(self):
        c = Cluster(options(self.bindir))
        saved = []
        c.cleanup(failed=True, save_log=saved.append)
        self.assertTrue(c.cleaned)
        self.assertEqual(saved, [])

    def fake_setup(self, c):
        c.cluster_dir = os.path.join(self.tmp, "cluster")
        c.sock_dir = os.path.join(self.tmp, "sock")
        c.work_dir = os.path.join(self.tmp, "work")
        for d in (c.cluster_dir, c.sock_dir, c.work_dir):
            os.mkdir(d)
        c.data_dir = os.path.join(c.cluster_dir, "data")
        c.log_file = os.path.join(c.cluster_dir, "postgres.log")
        with open(c.log_file, "w") as f:
            f.write("LOG:  database system is shut down\n")

    def test_the_log_is_saved_before_the_cluster_is_removed_once(self):
        c = Cluster(options(self.bindir))
        self.fake_setup(c)
        saved = []
        c.cleanup(failed=False, save_log=lambda p: saved.append(open(p).read()))
        self.assertEqual(saved, ["LOG:  database system is shut down\n"])
        self.assertEqual(os.listdir(self.tmp), ["bin"])
        self.fake_setup(c)
        c.cleanup(failed=False, save_log=saved.append)
        self.assertEqual(len(saved), 1)
        self.assertTrue(os.path.exists(c.cluster_dir))

    def test_no_server_processes_for_a_data_directory_nobody_uses(self):
        self.assertEqual(cluster.server_processes(os.path.join(self.tmp, "data")), [])


if __name__ == "__main__":
    unittest.main()
