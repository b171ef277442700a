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


def builddir():
    """Where make put the generated commands (scripts/diskio-*)."""
    d = os.environ.get("top_builddir")
    return os.path.abspath(d) if d else srcdir()


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


def pgphases_cmd():
    return [sys.executable, os.path.join(builddir(), "scripts", "diskio-pgphases")]


def cluster_from_stderr(text):
    """The cluster directory diskio-pgphases announced on stderr."""
    import re
    m = re.search(r"cluster in (\S+) \(", text)
    return m.group(1) if m else None


def check_no_cluster_left(store, cluster):
    """Fail unless no server process of the cluster runs and the cluster
    directory is gone.  store is the directory under test."""
    procs = postgres_procs_for(store)
    if procs:
        fail("server processes of %s still running: %s" % (store, procs))
    log("ok: no postgres process with %s in its command line or cwd" % store)
    if cluster and os.path.exists(cluster):
        fail("cluster directory %s was not removed" % cluster)
    left = os.listdir(store)
    if left:
        fail("directory under test %s not left as found: %s" % (store, left))
    log("ok: cluster directory %s removed, %s is empty again" % (cluster, store))
    socks = [d for d in os.listdir("/tmp") if d.startswith("diskio-pgphases-sock.")
             and os.path.exists(os.path.join("/tmp", d, ".s.PGSQL.5432"))]
    if socks:
        log("note: sockets of other diskio-pgphases runs exist: %s" % socks)


def check_qtime(path, required, incomplete_ok=False):
    rows = read_csv(path)
    header = ["task_name", "s_time", "e_time", "diff_time", "seconds"]
    if not rows or rows[0] != header:
        fail("%s: header %r, expected %r" % (path, rows[:1], header))
    import re
    names = {}
    for r in rows[1:]:
        if len(r) != 5:
            fail("%s: bad row %r" % (path, r))
        ts = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"
        if not re.fullmatch(ts, r[1]) or not re.fullmatch(ts, r[2]):
            fail("%s: bad time stamps in %r" % (path, r))
        if not re.fullmatch(r"\d\d:\d\d:\d\d\.\d{3}", r[3]):
            fail("%s: bad diff_time in %r" % (path, r))
        sec = float(r[4])
        if sec < 0:
            fail("%s: negative seconds in %r" % (path, r))
        names[r[0]] = sec
    missing = [n for n in required if n not in names]
    if missing:
        fail("%s: rows missing: %s" % (path, missing))
    return names


def check_wal(path, required):
    rows = read_csv(path)
    header = ["phase", "wal_write", "wal_sync", "wal_write_time_ms",
              "wal_sync_time_ms", "wal_bytes", "checkpoint_write_time_ms",
              "checkpoint_sync_time_ms", "checkpoint_sync_files", "xact_commit"]
    if not rows or rows[0] != header:
        fail("%s: header %r, expected %r" % (path, rows[:1], header))
    out = {}
    for r in rows[1:]:
        if len(r) != len(header):
            fail("%s: bad row %r" % (path, r))
        out[r[0]] = {k: float(v) for k, v in zip(header[1:], r[1:])}
    missing = [n for n in required if n not in out]
    if missing:
        fail("%s: rows missing: %s" % (path, missing))
    return out
