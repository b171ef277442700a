# SPDX-License-Identifier: MIT
"""Running children: one at a time, with their rusage, a timeout, and a
kill by pid on every exit path; and Env, where a run's files go and which
tools it has."""

import contextlib
import os
import signal
import subprocess
import time

from .common import Fail, warn


@contextlib.contextmanager
def alarm(seconds):
    """Raise TimeoutError inside the body after seconds (SIGALRM)."""
    def on_alarm(signum, frame):
        raise TimeoutError()
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def checked(r, what, tail=400, output=None):
    """r (a Runner.run result) if the child exited 0, else Fail with the
    tail of its stderr (or of output)."""
    if r["rc"] != 0:
        text = r["stderr"] if output is None else output
        raise Fail("%s exit %d: %s" % (what, r["rc"], text.strip()[-tail:]))
    return r


class Runner:
    """Runs one child at a time, with rusage, a timeout, and kill on exit."""

    def __init__(self):
        self.child = None

    def run(self, cmd, cwd=None, env=None, timeout=600, stdout_path=None):
        out_path = stdout_path or os.path.join(cwd or ".", ".stdout")
        err_path = os.path.join(os.path.dirname(out_path), ".stderr")
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            t0 = time.monotonic()
            p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err,
                                 stdin=subprocess.DEVNULL)
            self.child = p
            status, ru = self._wait(p, timeout)
            wall = time.monotonic() - t0
        self.child = None
        with open(out_path, "rb") as f:
            stdout = f.read().decode("utf-8", "replace")
        with open(err_path, "rb") as f:
            stderr = f.read().decode("utf-8", "replace")
        if not stdout_path:
            os.unlink(out_path)
        os.unlink(err_path)
        return {
            "rc": status, "stdout": stdout, "stderr": stderr, "wall_s": wall,
            "cpu_s": ru.ru_utime + ru.ru_stime, "maxrss_kib": ru.ru_maxrss,
        }

    def _wait(self, p, timeout):
        try:
            with alarm(timeout):
                _, status, ru = os.wait4(p.pid, 0)
        except TimeoutError:
            self.kill()
            raise Fail("timed out after %d s: %s" % (timeout, " ".join(p.args)))
        p.returncode = os.waitstatus_to_exitcode(status)
        return p.returncode, ru

    def kill(self):
        p = self.child
        if p is None or p.returncode is not None:
            self.child = None
            return
        try:
            os.kill(p.pid, signal.SIGTERM)
            for _ in range(50):
                pid, status = os.waitpid(p.pid, os.WNOHANG)
                if pid:
                    p.returncode = os.waitstatus_to_exitcode(status)
                    break
                time.sleep(0.1)
            else:
                os.kill(p.pid, signal.SIGKILL)
                os.waitpid(p.pid, 0)
                p.returncode = -9
        except (ProcessLookupError, ChildProcessError):
            p.returncode = -1
        self.child = None


class Env:
    """Where things are and what is available."""

    def __init__(self, args, work):
        self.args = args
        self.work = work  # the temp dir on the --dir file system
        self.tmpfs = None  # mounted tmpfs dir, or None
        self.runner = Runner()
        self.notes = []
        self.tools = {}  # name -> {"path", "version", "available", "reason"}
        self.seq = 0
        self.diskio_env = None    # the environment diskio runs in
        self.diskio_build = None  # its build dir (with .libs/libdiskio.so), or None
        self.gnu_time = None      # /usr/bin/time, for the memory group

    def rundir(self, where):
        base = self.tmpfs if where == "tmpfs" else self.work
        self.seq += 1
        d = os.path.join(base, "r%05d" % self.seq)
        os.mkdir(d)
        return d

    def have(self, tool):
        return self.tools.get(tool, {}).get("available", False)

    def note(self, msg):
        if msg not in self.notes:
            self.notes.append(msg)
            warn(msg)
