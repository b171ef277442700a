# SPDX-License-Identifier: MIT
"""The throw-away cluster: its binaries, initdb and configuration, the
server started (as nobody when run as root) on a unix socket only, psql,
and the stop and removal that every path out of a run goes through."""

import glob
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

from ..errors import UsageError
from . import PROG, RunError, progress, sql

PORT = 5432
DBUSER = "diskio"
DBNAME = "postgres"


def find_bindir(explicit):
    def ok(d):
        return d and all(os.access(os.path.join(d, b), os.X_OK)
                         for b in ("initdb", "pg_ctl", "postgres", "psql"))
    if explicit:
        if not ok(explicit):
            raise UsageError("--pg-bindir %s: no initdb, pg_ctl, postgres and "
                             "psql there" % explicit)
        return explicit
    pgc = shutil.which("pg_config")
    if pgc:
        try:
            d = subprocess.run([pgc, "--bindir"], capture_output=True,
                               text=True, check=True).stdout.strip()
            if ok(d):
                return d
        except (OSError, subprocess.CalledProcessError):
            pass

    def verkey(d):
        m = re.search(r"/postgresql/(\d+)", d)
        return int(m.group(1)) if m else 0
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=verkey,
                    reverse=True) + ["/usr/local/pgsql/bin"]:
        if ok(d):
            return d
    raise UsageError("no PostgreSQL server binaries found (looked at "
                     "pg_config --bindir and /usr/lib/postgresql/*/bin); "
                     "install postgresql (e.g. apt-get install postgresql-15) "
                     "or give --pg-bindir")


def server_conf(sock_dir, args):
    """The settings appended to postgresql.conf: durable as shipped, no
    TCP, statistics and checkpoints logged, nothing in the background
    (autovacuum, JIT, timed checkpoints) that would blur a phase."""
    return {
        "listen_addresses": "''",
        "unix_socket_directories": "'%s'" % sock_dir,
        "unix_socket_permissions": "0700",
        "port": str(PORT),
        "fsync": "on",
        "synchronous_commit": "on",
        "full_page_writes": "on",
        "wal_sync_method": args.wal_sync_method,
        "track_wal_io_timing": "on",
        "track_io_timing": "on",
        "shared_buffers": "'%s'" % args.shared_buffers,
        "autovacuum": "off",
        "jit": "off",
        "max_connections": str(max(20, args.streams + 10)),
        "checkpoint_timeout": "'1h'",
        "max_wal_size": "'4GB'",
        "logging_collector": "off",
        "log_checkpoints": "on",
    }


class Cluster:
    """One throw-away cluster in a new subdirectory of the directory
    under test.  The constructor only checks the options; setup() creates
    and starts it; cleanup() stops and removes it, whatever happened."""

    def __init__(self, args):
        self.args = args
        self.procs = set()
        self.procs_lock = threading.Lock()
        self.cluster_dir = None
        self.data_dir = None
        self.sock_dir = None
        self.work_dir = None
        self.server_started = False
        self.cleaned = False
        self.pg_version_num = None
        self.pg_version = None
        self.server_settings = {}
        self.preload_verified = None
        self.bindir = find_bindir(args.pg_bindir)

        self.is_root = os.geteuid() == 0
        if self.is_root:
            user = args.run_as or "nobody"
            try:
                pw = pwd.getpwnam(user)
            except KeyError:
                raise UsageError("--run-as %s: no such user" % user)
            if pw.pw_uid == 0:
                raise UsageError("--run-as %s: PostgreSQL refuses to run as "
                                 "root; name an unprivileged user" % user)
            self.run_as = pw
        else:
            me = pwd.getpwuid(os.geteuid())
            if args.run_as and args.run_as != me.pw_name:
                raise UsageError("--run-as needs root (running as %s)" % me.pw_name)
            self.run_as = me

        self.preload = None
        if args.preload:
            self.preload = os.path.realpath(args.preload)
            if not os.path.isfile(self.preload):
                raise UsageError("--preload %s: no such file" % args.preload)
        elif args.delay_us is not None:
            raise UsageError("--delay-us needs --preload LIB")

    # -- processes --------------------------------------------------------

    def as_user(self, cmd):
        """Prefix cmd to run it as the unprivileged server user."""
        if not self.is_root:
            return cmd
        if shutil.which("setpriv"):
            # setpriv execs in place (no extra parent process to orphan the
            # command if we are killed).
            return ["setpriv", "--reuid=%d" % self.run_as.pw_uid,
                    "--regid=%d" % self.run_as.pw_gid, "--clear-groups", "--"] + cmd
        if shutil.which("runuser"):
            return ["runuser", "-u", self.run_as.pw_name, "--"] + cmd
        raise RunError("running as root, but neither setpriv nor runuser is "
                       "available to drop privileges")

    def base_env(self):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "LANG": "C", "LC_ALL": "C", "TZ": os.environ.get("TZ", "UTC")}
        if not self.is_root:
            env["HOME"] = os.environ.get("HOME", "/")
        else:
            env["HOME"] = self.run_as.pw_dir or "/"
        return env

    def run(self, cmd, env=None, timeout=None, what=None):
        """Run a command to completion, registered for cleanup."""
        p = subprocess.Popen(cmd, env=env or self.base_env(), stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
        with self.procs_lock:
            self.procs.add(p)
        try:
            out, err = p.communicate(timeout=timeout)
        except BaseException:
            self._kill(p)
            raise
        finally:
            with self.procs_lock:
                self.procs.discard(p)
        if p.returncode != 0:
            raise RunError("%s failed (exit %s): %s" % (
                what or cmd[0], p.returncode, (err or out or "").strip()[-2000:]))
        return out

    def _kill(self, p):
        if p.poll() is None:
            try:
                p.kill()
            except OSError:
                pass
        try:
            p.wait(timeout=5)
        except Exception:
            pass

    def psql(self, script, what, capture=False):
        """Run a psql script (sql.script()) in one session, stopping at
        the first error; its output when capture is set."""
        fd, path = tempfile.mkstemp(prefix="sql.", suffix=".sql", dir=self.work_dir)
        with os.fdopen(fd, "w") as f:
            f.write(script)
        cmd = [os.path.join(self.bindir, "psql"), "-X", "-q", "-A", "-t",
               "-v", "ON_ERROR_STOP=1", "-h", self.sock_dir, "-p", str(PORT),
               "-U", DBUSER, "-d", DBNAME, "-f", path]
        env = dict(self.base_env(), PGAPPNAME=PROG, PGCONNECT_TIMEOUT="30")
        env["HOME"] = self.work_dir    # no ~/.psqlrc, no ~/.pgpass
        try:
            out = self.run(cmd, env=env, what="psql (%s)" % what)
        finally:
            os.unlink(path)
        return out if capture else None

    # -- lifecycle ----------------------------------------------------------

    def setup(self):
        a = self.args
        target = os.path.realpath(a.directory)
        if not os.path.isdir(target):
            raise UsageError("%s: not a directory" % a.directory)
        self.work_dir = tempfile.mkdtemp(prefix="diskio-pgphases-work.")
        # The cluster lives in a new directory of its own; only that one is
        # ever removed.
        self.cluster_dir = tempfile.mkdtemp(prefix="diskio-pgphases.", dir=target)
        self.sock_dir = tempfile.mkdtemp(prefix="diskio-pgphases-sock.")
        if self.is_root:
            for d in (self.cluster_dir, self.sock_dir):
                os.chown(d, self.run_as.pw_uid, self.run_as.pw_gid)
        os.chmod(self.cluster_dir, 0o700)
        os.chmod(self.sock_dir, 0o700)
        self.data_dir = os.path.join(self.cluster_dir, "data")
        self.log_file = os.path.join(self.cluster_dir, "postgres.log")
        if self.is_root:
            self.check_access()

        progress("cluster in %s (server user %s, socket %s, no TCP)"
                 % (self.cluster_dir, self.run_as.pw_name, self.sock_dir))
        # initdb: never with the delay library; --no-sync since the cluster
        # is thrown away anyway.
        self.run(self.as_user([os.path.join(self.bindir, "initdb"), "-D", self.data_dir,
                               "--no-sync", "-U", DBUSER, "--auth=trust",
                               "-E", "UTF8", "--locale=C", "--no-instructions"]),
                 what="initdb", timeout=300)
        with open(os.path.join(self.data_dir, "postgresql.conf"), "a") as f:
            f.write("\n# written by %s\n" % PROG)
            for k, v in server_conf(self.sock_dir, a).items():
                f.write("%s = %s\n" % (k, v))
        self.start_server()
        self.query_server()

    def check_access(self):
        """Run as root: can the server user write the cluster directory and
        read the preload library?"""
        try:
            self.run(self.as_user(["test", "-w", self.cluster_dir]),
                     what="access check")
        except RunError:
            raise RunError(
                "user %s cannot write %s: the directory under test and all "
                "its parents must be searchable by that user (chmod o+x), "
                "or name another user with --run-as"
                % (self.run_as.pw_name, self.cluster_dir))
        if self.preload:
            try:
                self.run(self.as_user(["test", "-r", self.preload]),
                         what="access check")
            except RunError:
                raise RunError("user %s cannot read the preload library %s; "
                               "put it where that user can read it"
                               % (self.run_as.pw_name, self.preload))

    def start_server(self):
        env = self.base_env()
        if self.preload:
            env["LD_PRELOAD"] = self.preload
            env["DISKIO_DELAY_US"] = str(self.args.delay_us or 0)
        cmd = self.as_user([os.path.join(self.bindir, "pg_ctl"), "-D", self.data_dir,
                            "-l", self.log_file, "-w", "-t", "120", "-s", "start"])
        self.server_started = True   # from here on, always try to stop it
        try:
            self.run(cmd, env=env, what="pg_ctl start", timeout=180)
        except RunError as e:
            raise RunError("%s\n%s" % (e, self.log_tail()))
        pid = self.postmaster_pid()
        if self.preload:
            maps = ""
            try:
                with open("/proc/%d/maps" % pid) as f:
                    maps = f.read()
            except OSError:
                pass
            self.preload_verified = self.preload in maps
            if not self.preload_verified:
                raise RunError("the server (pid %s) did not load %s: check that "
                               "it is a shared library for this machine\n%s"
                               % (pid, self.preload, self.log_tail()))

    def log_tail(self):
        try:
            with open(self.log_file) as f:
                return "server log:\n" + "".join(f.readlines()[-20:])
        except OSError:
            return ""

    def postmaster_pid(self):
        try:
            with open(os.path.join(self.data_dir, "postmaster.pid")) as f:
                return int(f.readline().strip())
        except (OSError, ValueError):
            return None

    def query_server(self):
        out = self.psql(sql.script(sql.load("server_version_num"), sql.load("version")),
                        "version", capture=True).splitlines()
        self.pg_version_num = int(out[0])
        self.pg_version = out[1]
        out = self.psql(sql.script(sql.load("settings")), "settings", capture=True)
        for line in out.splitlines():
            n, s, u = line.split("|")
            self.server_settings[n] = s + (" " + u if u else "")
        if self.server_settings.get("listen_addresses", "") != "":
            raise RunError("server listens on TCP (%r); refusing to go on"
                           % self.server_settings["listen_addresses"])

    def stop_server(self, failed):
        """Stop the server whatever state it is in: fast after a good run,
        immediate after a failed or interrupted one.  Returns True when no
        server process of this cluster is left."""
        if not self.server_started or not self.data_dir:
            return True
        pg_ctl = os.path.join(self.bindir, "pg_ctl")
        mode = "immediate" if failed else "fast"
        pid = self.postmaster_pid()
        if os.path.exists(os.path.join(self.data_dir, "postmaster.pid")):
            for m in (mode, "immediate"):
                try:
                    subprocess.run(self.as_user([pg_ctl, "-D", self.data_dir, "-m", m,
                                                 "-w", "-t", "60", "-s", "stop"]),
                                   env=self.base_env(), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   timeout=90, start_new_session=True)
                except (subprocess.TimeoutExpired, OSError):
                    pass
                if not server_processes(self.data_dir):
                    break
        # Last resort: a postmaster that is still starting up, or one pg_ctl
        # could not stop.
        left = server_processes(self.data_dir, pid)
        for sig in (signal.SIGQUIT, signal.SIGKILL):
            if not left:
                break
            for p in left:
                try:
                    os.kill(p, sig)
                except OSError:
                    pass
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                left = server_processes(self.data_dir, pid)
                if not left:
                    break
                time.sleep(0.1)
        if left:
            progress("warning: server processes %s of %s are still running"
                     % (left, self.data_dir))
            return False
        self.server_started = False
        return True

    def cleanup(self, failed, save_log):
        """Kill our psql sessions, stop the server, call save_log(path of
        the server log) and remove the cluster, the socket and the work
        directories.  Once only."""
        if self.cleaned:
            return
        self.cleaned = True
        with self.procs_lock:
            procs = list(self.procs)
        for p in procs:
            self._kill(p)
        stopped = self.stop_server(failed)
        if self.cluster_dir and os.path.exists(self.log_file):
            save_log(self.log_file)
        if stopped and self.cluster_dir:
            shutil.rmtree(self.cluster_dir, ignore_errors=True)
            if os.path.exists(self.cluster_dir):
                progress("warning: could not remove %s" % self.cluster_dir)
        elif self.cluster_dir:
            progress("warning: left %s in place because a server process is "
                     "still running" % self.cluster_dir)
        for d in (self.sock_dir, self.work_dir):
            if d:
                shutil.rmtree(d, ignore_errors=True)


def server_processes(data_dir, known_pid=None):
    """PIDs of the postmaster of data_dir and its children."""
    pids = set()
    post = set()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmd = f.read().split(b"\0")
        except OSError:
            continue
        args = [c.decode("utf-8", "replace") for c in cmd]
        if args and os.path.basename(args[0]) in ("postgres", "postmaster") \
                and data_dir in args:
            post.add(int(d))
    if known_pid:
        try:
            os.kill(known_pid, 0)
            with open("/proc/%d/cmdline" % known_pid, "rb") as f:
                if data_dir.encode() in f.read():
                    post.add(known_pid)
        except OSError:
            pass
    pids |= post
    if post:
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % d) as f:
                    st = f.read()
                ppid = int(st[st.rindex(")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid in post:
                pids.add(int(d))
    return sorted(pids)
