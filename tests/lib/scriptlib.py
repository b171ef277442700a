"""Shared helpers for the script tests (not a test itself)."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.dirname(
    os.path.dirname(HERE))
# The commands are generated into the build tree (scripts/*.in + make).
TOP_BUILDDIR = os.environ.get("top_builddir") or TOP_SRCDIR
FIXTURES = os.path.join(TOP_SRCDIR, "tests", "scripts", "fixtures")
CORRELATE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-correlate")
PLOT = os.path.join(TOP_BUILDDIR, "scripts", "diskio-plot")
EXIT_SKIP = 77

_failures = []


def run(script, *args, env=None):
    """Run a script with this Python; returns (status, stdout, stderr)."""
    proc = subprocess.run([sys.executable, script, *args], capture_output=True,
                          text=True, timeout=60,
                          env=None if env is None else {**os.environ, **env})
    return proc.returncode, proc.stdout, proc.stderr


def check(condition, what, detail=""):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        if detail:
            print("     " + str(detail).replace("\n", "\n     "))
        _failures.append(what)


def close(actual, expected, rel=1e-9):
    return actual is not None and abs(actual - expected) <= rel * max(
        1.0, abs(expected))


def finish():
    if _failures:
        print(f"{len(_failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)
