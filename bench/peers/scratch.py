# SPDX-License-Identifier: MIT
"""What the small A/B benchmarks (bench/interval-cost, bench/rate-lag)
share: the diskio binary to time (the real one behind a libtool
wrapper), the load average, and a scratch directory that is a private
tmpfs when run as root, removed on every exit path (SIGINT and SIGTERM
included).  bench/compare-peers has its own, larger harness."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import types

from .tools import find_diskio


def diskio_binary(given, prog):
    """(binary, environment) of the diskio to time: --diskio, else ./diskio
    or the build beside bench/, else PATH; exits naming prog when none."""
    real, env, _build, _shown = find_diskio(types.SimpleNamespace(diskio=given))
    if not real:
        sys.exit("%s: no diskio binary (give --diskio PATH)" % prog)
    return real, env


def loadavg():
    with open("/proc/loadavg", encoding="ascii") as f:
        return " ".join(f.read().split()[:3])


class Scratch:
    """with Scratch("rate-lag", "."): a new mktemp -d directory under
    parent, a private tmpfs mounted on it when root (.tmpfs says which;
    .where describes it), unmounted and removed on leaving, on SIGINT and
    on SIGTERM (exit 128 + signal)."""

    def __init__(self, prog, parent, tmpfs_size="256m"):
        self.prog, self.parent, self.size = prog, parent, tmpfs_size
        self.path = self.where = None
        self.tmpfs = False
        self._old = {}

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix=self.prog + ".", dir=self.parent)
        for s in (signal.SIGINT, signal.SIGTERM):
            self._old[s] = signal.signal(s, self._on_signal)
        if os.geteuid() == 0 and subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % self.size, "tmpfs",
                 self.path], check=False).returncode == 0:
            self.tmpfs = True
            self.where = "%s (a private tmpfs)" % self.path
        else:
            self.where = "%s (not root or no tmpfs: the file system of --dir)" % self.path
        return self

    def _on_signal(self, signum, _frame):
        self.cleanup()
        sys.exit(128 + signum)

    def cleanup(self):
        if self.tmpfs:
            subprocess.run(["umount", self.path], check=False)
            self.tmpfs = False
        if self.path:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None

    def __exit__(self, *exc):
        self.cleanup()
        for s, h in self._old.items():
            signal.signal(s, h)
        return False
