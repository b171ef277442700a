# SPDX-License-Identifier: MIT
"""The throw-away cluster: its binaries, initdb, the server started
directly (as nobody when run as root) with its settings on its command
line, on a unix socket only, psql, and the stop and removal that every
path out of a run goes through.

Run as root, nothing here opens a name by following a link in a
directory the server user can write, and no path reaches a shell: the
settings are arguments, not a file appended to; the server log is a file
of the runner's own private directory, which the server writes through
the descriptor it inherits; psql, which connects to the socket in the
server user's directory, runs as that user; the server is started
without pg_ctl, whose start goes through sh -c."""

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
from .safefiles import NotOwned, read_owned

PORT = 5432
DBUSER = "diskio"
DBNAME = "postgres"
BINARIES = ("initdb", "postgres", "psql")
START_TIMEOUT_S = 120
# What initdb cannot take in its binaries' directory: it runs the server
# binary with popen("\"DIR/postgres\" ..."), where $ ` " \ inside the
# double quotes are the shell's (a control character is refused too, as
# no sensible path has one).
SHELL_UNSAFE = re.compile(r'["$`\\\x00-\x1f\x7f]')


def find_bindir(explicit):
    def ok(d):
        return d and all(os.access(os.path.join(d, b), os.X_OK) for b in BINARIES)
    if explicit:
        if not ok(explicit):
            raise UsageError("--pg-bindir %s: no initdb, postgres and psql "
                             "there" % explicit)
        return shell_safe_bindir(explicit, "--pg-bindir %s" % explicit)
    pgc = shutil.which("pg_config")
    if pgc:
        try:
            d = subprocess.run([pgc, "--bindir"], capture_output=True,
                               text=True, check=True).stdout.strip()
            if ok(d):
                return shell_safe_bindir(d, "the PostgreSQL binaries in %s" % d)
        except (OSError, subprocess.CalledProcessError):
            pass

    def verkey(d):
        m = re.search(r"/postgresql/(\d+)", d)
        return int(m.group(1)) if m else 0
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=verkey,
                    reverse=True) + ["/usr/local/pgsql/bin"]:
        if ok(d):
            return shell_safe_bindir(d, "the PostgreSQL binaries in %s" % d)
    raise UsageError("no PostgreSQL server binaries found (looked at "
                     "pg_config --bindir and /usr/lib/postgresql/*/bin); "
                     "install postgresql (e.g. apt-get install postgresql-15) "
                     "or give --pg-bindir")


def shell_safe_bindir(bindir, what):
    """bindir, unless initdb would hand its real path to a shell that
    runs or breaks on it (initdb resolves its own path)."""
    if SHELL_UNSAFE.search(os.path.realpath(bindir)):
        raise UsageError("%s: initdb passes this directory to a shell in "
                         "double quotes, where a dollar sign, backquote, double "
                         "quote, backslash or control character would run a "
                         "command or break it; give --pg-bindir a directory "
                         "without them" % what)
    return bindir


def list_element(path):
    """path as one element of a list setting (unix_socket_directories
    splits at commas and trims blanks; double quotes keep it whole)."""
    return '"%s"' % path.replace('"', '""')


def server_conf(sock_dir, args):
    """The server's settings, given as -c options on its command line:
    durable as shipped, no TCP, statistics and checkpoints logged,
    nothing in the background (autovacuum, JIT, timed checkpoints) that
    would blur a phase."""
    return {
        "listen_addresses": "",
        "unix_socket_directories": list_element(sock_dir),
        "unix_socket_permissions": "0700",
        "port": str(PORT),
        "fsync": "on",
        "synchronous_commit": "on",
        "full_page_writes": "on",
        "wal_sync_method": args.wal_sync_method,
        "track_wal_io_timing": "on",
        "track_io_timing": "on",
        "shared_buffers": args.shared_buffers,
        "autovacuum": "off",
        "jit": "off",
        "max_connections": str(max(20, args.streams + 10)),
        "checkpoint_timeout": "1h",
        "max_wal_size": "4GB",
        "logging_collector": "off",
        "log_destination": "stderr",
        "log_checkpoints": "on",
    }


def server_options(conf):
    """conf as the server's -c NAME=VALUE arguments (no shell, no
    quoting: each value is one argument as it is)."""
    opts = []
    for k, v in conf.items():
        opts += ["-c", "%s=%s" % (k, v)]
    return opts


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
        self.log_file = None
        self.log_fd = None
        self.server = None          # the postmaster, our child
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

    def server_user(self):
        """Popen arguments that run a program as the server user when we
        are root: dropped in the child before exec (setgroups, setgid,
        setuid), so that the process is the program itself and costs no
        extra exec."""
        if not self.is_root:
            return {}
        return dict(user=self.run_as.pw_uid, group=self.run_as.pw_gid,
                    extra_groups=[])

    def run(self, cmd, env=None, timeout=None, what=None, input=None,
            as_server_user=False):
        """Run a command to completion, registered for cleanup; input, if
        any, on its standard input."""
        p = subprocess.Popen(cmd, env=env or self.base_env(),
                             stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True,
                             **(self.server_user() if as_server_user else {}))
        with self.procs_lock:
            self.procs.add(p)
        try:
            out, err = p.communicate(input=input, timeout=timeout)
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
        the first error; its output when capture is set.  psql runs as
        the server user (the socket is in that user's directory, where
        root would follow whatever is planted at its name) and reads the
        script on its standard input."""
        cmd = [os.path.join(self.bindir, "psql"), "-X", "-q", "-A", "-t",
               "-v", "ON_ERROR_STOP=1", "-h", self.sock_dir, "-p", str(PORT),
               "-U", DBUSER, "-d", DBNAME, "-f", "-"]
        env = dict(self.base_env(), PGAPPNAME=PROG, PGCONNECT_TIMEOUT="30")
        env["HOME"] = self.work_dir    # no ~/.psqlrc, no ~/.pgpass
        out = self.run(cmd, env=env, what="psql (%s)" % what, input=script,
                       as_server_user=True)
        return out if capture else None

    # -- lifecycle ----------------------------------------------------------

    def check_target(self):
        """Before anything is created: the directory under test is a
        directory and, run as root, the server user can reach it and read
        the preload library.  Its real path."""
        a = self.args
        target = os.path.realpath(a.directory)
        if not os.path.isdir(target):
            raise UsageError("%s: %s; name the directory under test" % (
                a.directory, "not a directory" if os.path.exists(target)
                else "no such directory"))
        if self.is_root:
            if not self.user_can("-x", target):
                raise UsageError(
                    "user %s cannot reach %s: the directory under test and "
                    "all its parents must be searchable by that user (chmod "
                    "o+x), or name another user with --run-as"
                    % (self.run_as.pw_name, target))
            if self.preload and not self.user_can("-r", self.preload):
                raise UsageError("user %s cannot read the preload library %s; "
                                 "put it where that user can read it"
                                 % (self.run_as.pw_name, self.preload))
        return target

    def user_can(self, test, path):
        """test(1) TEST PATH as the server user."""
        try:
            self.run(self.as_user(["test", test, path]), what="access check")
        except RunError:
            return False
        return True

    def setup(self):
        a = self.args
        target = os.path.realpath(a.directory)
        if not os.path.isdir(target):
            raise UsageError("%s: not a directory" % a.directory)
        # The runner's own directory (mode 0700): the server log, which the
        # server only ever writes through the descriptor it inherits.
        self.work_dir = tempfile.mkdtemp(prefix="diskio-pgphases-work.")
        self.log_file = os.path.join(self.work_dir, "postgres.log")
        self.log_fd = os.open(self.log_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                              | os.O_NOFOLLOW | os.O_APPEND | os.O_CLOEXEC, 0o600)
        # The cluster lives in a new directory of its own; only that one is
        # ever removed.
        self.cluster_dir = self.give_to_server_user(
            tempfile.mkdtemp(prefix="diskio-pgphases.", dir=target))
        self.sock_dir = self.give_to_server_user(
            tempfile.mkdtemp(prefix="diskio-pgphases-sock."))
        self.data_dir = os.path.join(self.cluster_dir, "data")
        if self.is_root:
            self.check_access()

        progress("cluster in %s (server user %s, socket %s, no TCP)"
                 % (self.cluster_dir, self.run_as.pw_name, self.sock_dir))
        # initdb: never with the delay library; --no-sync since the cluster
        # is thrown away anyway.  Its postgresql.conf is left as it wrote
        # it: the settings are the server's arguments.
        self.run(self.as_user([os.path.join(self.bindir, "initdb"), "-D", self.data_dir,
                               "--no-sync", "-U", DBUSER, "--auth=trust",
                               "-E", "UTF8", "--locale=C", "--no-instructions"]),
                 what="initdb", timeout=300)
        self.start_server()
        self.query_server()

    def give_to_server_user(self, path):
        """path, a directory mkdtemp() just made, given to the server user
        with mode 0700 through a descriptor: whatever another user who can
        write its parent puts at the name meanwhile (a symlink) is never
        followed, and a directory that is not the one just made is refused."""
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            if os.fstat(fd).st_uid != os.geteuid():
                raise RunError("%s was replaced as soon as it was made; not "
                               "going on there" % path)
            os.fchmod(fd, 0o700)
            if self.is_root:
                os.fchown(fd, self.run_as.pw_uid, self.run_as.pw_gid)
        finally:
            os.close(fd)
        return path

    def check_access(self):
        """Run as root: can the server user write the cluster directory?"""
        if not self.user_can("-w", self.cluster_dir):
            raise RunError(
                "user %s cannot write %s: the directory under test and all "
                "its parents must be searchable by that user (chmod o+x), "
                "or name another user with --run-as"
                % (self.run_as.pw_name, self.cluster_dir))

    def server_command(self):
        """The postmaster's command line: the data directory and every
        setting as arguments, run without a shell."""
        return ([os.path.join(self.bindir, "postgres"), "-D", self.data_dir]
                + server_options(server_conf(self.sock_dir, self.args)))

    def start_server(self):
        """Start the postmaster as our child in a session of its own (as
        pg_ctl does, so that a Ctrl-C reaches the runner alone), its
        output appended to the log, and wait until it accepts
        connections."""
        env = self.base_env()
        if self.preload:
            env["LD_PRELOAD"] = self.preload
            env["DISKIO_DELAY_US"] = str(self.args.delay_us or 0)
        self.server_started = True   # from here on, always try to stop it
        # as the server user, dropped in the child: the postmaster is this
        # very process, its pid the one signalled
        self.server = subprocess.Popen(
            self.server_command(), env=env, stdin=subprocess.DEVNULL,
            stdout=self.log_fd, stderr=self.log_fd, start_new_session=True,
            **self.server_user())
        self.wait_ready()
        pid = self.server.pid
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

    def wait_ready(self):
        """Wait until the postmaster says "ready" in its postmaster.pid,
        as pg_ctl -w does; the file is read only if it is the server
        user's own regular file."""
        pid_file = os.path.join(self.data_dir, "postmaster.pid")
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            status = self.server.poll()
            if status is not None:
                raise RunError("the server exited with status %d while starting "
                               "up\n%s" % (status, self.log_tail()))
            try:
                lines = read_owned(pid_file, self.run_as.pw_uid, 4096).split(b"\n")
            except NotOwned as err:
                raise RunError("%s: %s; refusing to go on" % (pid_file, err.strerror))
            except OSError:
                lines = []
            # line 1 the postmaster's pid, line 8 its status
            if (len(lines) > 7 and lines[0].strip() == b"%d" % self.server.pid
                    and lines[7].strip() == b"ready"):
                return
            if time.monotonic() > deadline:
                raise RunError("the server did not accept connections within "
                               "%d s\n%s" % (START_TIMEOUT_S, self.log_tail()))
            time.sleep(0.1)

    def log_tail(self, count=20):
        """The server log's last lines, for a message."""
        try:
            with open(self.log_file, "rb") as f:
                f.seek(max(0, os.fstat(f.fileno()).st_size - 65536))
                text = f.read().decode("utf-8", "replace")
        except (OSError, TypeError):
            return ""
        return "server log:\n" + "\n".join(text.splitlines()[-count:])

    def postmaster_pid(self):
        """The postmaster's PID: our own child, never read from a file in
        the server user's directory."""
        return self.server.pid if self.server is not None else None

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
        """Stop the server whatever state it is in: a fast shutdown
        (SIGINT) after a good run, immediate (SIGQUIT) after a failed or
        interrupted one.  Returns True when no server process of this
        cluster is left."""
        if not self.server_started or not self.data_dir:
            return True
        server = self.server
        pid = None
        if server is not None and server.poll() is None:
            pid = server.pid
            first = signal.SIGQUIT if failed else signal.SIGINT
            for sig, wait in ((first, 60), (signal.SIGQUIT, 30)):
                try:
                    server.send_signal(sig)
                    server.wait(timeout=wait)
                    pid = None
                    break
                except subprocess.TimeoutExpired:
                    pass
                except OSError:
                    break
        # Last resort: a server process that survived its postmaster, or a
        # postmaster not started by this object.
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
        if server is not None and server.poll() is None:
            try:
                server.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
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
        if self.log_file and os.path.exists(self.log_file):
            save_log(self.log_file)
        if self.log_fd is not None:
            os.close(self.log_fd)
            self.log_fd = None
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
