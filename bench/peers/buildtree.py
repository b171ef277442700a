# SPDX-License-Identifier: MIT
"""buildtree: run a benchmark against a build tree that was not installed.

The benchmarks that read results (bench/real-envs, bench/delay-model,
bench/verdict-calibration) import the analysis package and run its
commands with their own interpreter; the package needs what configure
checked for (scipy among them), which the first python3 on PATH may not
have.  use_build_tree() runs the benchmark again under the Python
configure chose (the one the build's scripts name in their first line)
and puts the package of this source tree and the build's _version.py on
sys.path and PYTHONPATH."""

import os
import sys

REEXEC = "DISKIO_BENCH_PYTHON"


def configured_python(builddir):
    """The interpreter the build's scripts/diskio-compare names, or None."""
    try:
        with open(os.path.join(builddir, "scripts", "diskio-compare")) as f:
            first = f.readline()
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    return words[0] if len(words) == 1 and os.access(words[0], os.X_OK) else None


def use_build_tree(builddir):
    """Re-execute under the configured Python if this is another one (once:
    REEXEC in the environment stops a loop), then set the paths."""
    python = configured_python(builddir)
    if python and os.environ.get(REEXEC) != python and \
            os.path.realpath(python) != os.path.realpath(sys.executable):
        os.environ[REEXEC] = python
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(python, [python, os.path.abspath(sys.argv[0])] + sys.argv[1:])
    source = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "python")
    paths = [os.path.join(builddir, "python"), source]
    old = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths + [old] if p)
    sys.path[:0] = paths
