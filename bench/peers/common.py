# SPDX-License-Identifier: MIT
"""What every part of the harness shares: where bench/ is, the groups,
sizes, the failure of one tool run, and the two ways of speaking (progress
on stdout, problems on stderr)."""

import os
import subprocess
import sys

from diskio_analysis.errors import ToolError

PROG = "compare-peers"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bench/
SRCDIR = os.path.dirname(HERE)
GROUPS = ("overhead", "accuracy", "bare", "qd", "read", "crystal", "memory", "record")
# a full run: every group but bare, whose cases the overhead and accuracy
# groups measure too (bare is the quick check of those figures alone)
DEFAULT_GROUPS = tuple(g for g in GROUPS if g != "bare")
# diskio's read modes: a case of one of them reads (fio --rw=read/randread)
READ_MODES_ALL = ("read", "direct-read", "aio-read", "uring-read")


def case_reads(case):
    """Whether a case's ops read (its mode is a read mode)."""
    return case["mode"] in READ_MODES_ALL


MIB = 1 << 20
KIB = 1 << 10


class Fail(ToolError):
    """A tool ran but failed or its output could not be parsed: the run is
    recorded as failed and the harness ends with status 1."""


class Interrupted(Exception):
    """SIGINT, SIGTERM or SIGHUP: clean up and leave with 130."""


def log(msg=""):
    print(msg, flush=True)


def warn(msg):
    print(PROG + ": " + msg, file=sys.stderr, flush=True)


def first_line(cmd, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30, env=env)
        out = p.stdout.strip().splitlines()
        return out[0].strip() if out else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def prefill(path, size, chunk=MIB):
    """Create path (O_EXCL) and write size bytes of non-zero data, then fsync:
    what diskio and the bare loop do before they overwrite."""
    block = (os.urandom(4096) * (chunk // 4096)).replace(b"\0", b"\x01")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        left = size
        while left > 0:
            n = min(left, len(block))
            os.write(fd, block[:n])
            left -= n
        os.fsync(fd)
    finally:
        os.close(fd)
