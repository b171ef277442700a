# SPDX-License-Identifier: MIT
"""Helpers shared by the tests in tests/pg (standard library only)."""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def log(msg):
    print(msg, flush=True)


def skip(msg):
    log("SKIP: " + msg)
    sys.exit(SKIP)


def fail(msg):
    log("FAIL: " + msg)
    sys.exit(1)


def srcdir():
    d = os.environ.get("top_srcdir")
    if d:
        return os.path.abspath(d)
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def delay_lib(tmpdir):
    """Path to libdiskio-delay.so: $DISKIO_DELAY_LIB, or build it."""
    lib = os.environ.get("DISKIO_DELAY_LIB")
    if lib:
        if not os.path.isfile(lib):
            fail("DISKIO_DELAY_LIB=%s does not exist" % lib)
        return os.path.abspath(lib)
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc.split()[0]) is None:
        skip("DISKIO_DELAY_LIB is not set and no C compiler (%s) to build it" % cc)
    out = os.path.join(tmpdir, "libdiskio-delay.so")
    src = os.path.join(srcdir(), "src", "preload", "diskio-delay.c")
    cmd = cc.split() + ["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror",
                        "-o", out, src, "-ldl"]
    log("building " + " ".join(cmd))
    subprocess.run(cmd, check=True)
    return out


def make_tmpdir(prefix):
    """A mktemp -d directory under /tmp that an unprivileged server user can
    traverse (mode 0755), for tests run as root."""
    d = tempfile.mkdtemp(prefix=prefix, dir="/tmp")
    os.chmod(d, 0o755)
    return d


def find_pg_bindir():
    for cand in [os.environ.get("PG_BINDIR")]:
        if cand and os.path.isfile(os.path.join(cand, "initdb")):
            return cand
    pgc = shutil.which("pg_config")
    if pgc:
        try:
            d = subprocess.run([pgc, "--bindir"], capture_output=True, text=True,
                               check=True).stdout.strip()
            if os.path.isfile(os.path.join(d, "initdb")):
                return d
        except (OSError, subprocess.CalledProcessError):
            pass
    import glob
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.isfile(os.path.join(d, "initdb")):
            return d
    return None


def postgres_procs_for(path):
    """PIDs of processes whose command line or cwd mentions path."""
    pids = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % p, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        cwd = ""
        try:
            cwd = os.readlink("/proc/%s/cwd" % p)
        except OSError:
            pass
        if path in cmd and ("postgres" in cmd or "postmaster" in cmd):
            pids.append((int(p), cmd))
        elif cwd.startswith(path) and ("postgres" in cmd):
            pids.append((int(p), cmd))
    return pids


def read_csv(path):
    import csv
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows
