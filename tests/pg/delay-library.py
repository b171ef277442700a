#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: libdiskio-delay.so delays every sync and O_SYNC/O_DSYNC write, and nothing else.

Each kind of durable write (fsync, fdatasync, O_DSYNC write, pwrite,
writev, pwritev, O_SYNC pwrite, sync_file_range with WAIT_AFTER, and on
x86-64 fdatasync through syscall(2) as diskio makes it), done N
times with DISKIO_DELAY_US set, takes at least N delays (a sleep is never
shorter than asked); buffered writes, sync_file_range(WRITE) alone (unless
DISKIO_DELAY_SYNC_FILE_RANGE=all), DISKIO_DELAY_US=0 and an invalid value
(one message on stderr) take less than half of that.  The delay is 0.3 s,
the file in memory where possible: no bound is near what a busy machine
adds to a few writes.

Exit 0 pass, 77 skip, anything else fail."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import log, fail, delay_lib, make_tmpdir  # noqa: E402

N = 3
DELAY_US = 300000

# The child does N operations of one kind and prints the elapsed seconds
# of the loop alone (interpreter start-up is not timed).
CHILD = r'''
import os, sys, time
kind, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
flags = os.O_WRONLY | os.O_CREAT
if kind.startswith("dsync-"):
    flags |= os.O_DSYNC
if kind.startswith("sync-"):
    flags |= os.O_SYNC
fd = os.open(path, flags, 0o600)
buf = b"x" * 4096
libc = None
if kind.startswith("sfr-") or kind.startswith("syscall-"):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    # SYNC_FILE_RANGE_WRITE = 2; WAIT_BEFORE|WRITE|WAIT_AFTER = 7
    sfr_flags = 2 if kind == "sfr-write" else 7
t0 = time.monotonic()
for i in range(n):
    if kind == "fsync":
        os.pwrite(fd, buf, 0); os.fsync(fd)
    elif kind == "fdatasync":
        os.pwrite(fd, buf, 0); os.fdatasync(fd)
    elif kind == "syscall-fdatasync":
        # as diskio times them: through syscall(2), SYS_pwrite64 then
        # SYS_fdatasync (x86-64 numbers 18 and 75)
        libc.syscall(ctypes.c_long(18), fd, buf, ctypes.c_size_t(len(buf)), ctypes.c_long(0))
        if libc.syscall(ctypes.c_long(75), fd) != 0:
            raise SystemExit("syscall(SYS_fdatasync) failed")
    elif kind.startswith("sfr-"):
        os.pwrite(fd, buf, 0)
        if libc.sync_file_range(fd, ctypes.c_int64(0), ctypes.c_int64(4096),
                                ctypes.c_uint(sfr_flags)) != 0:
            raise SystemExit("sync_file_range failed")
    elif kind.endswith("-write") or kind == "buffered":
        os.lseek(fd, 0, 0); os.write(fd, buf)
    elif kind.endswith("-pwrite"):
        os.pwrite(fd, buf, 0)
    elif kind.endswith("-writev"):
        os.lseek(fd, 0, 0); os.writev(fd, [buf])
    elif kind.endswith("-pwritev"):
        os.pwritev(fd, [buf], 0)
    else:
        raise SystemExit("unknown kind " + kind)
t1 = time.monotonic()
os.close(fd)
print("%.6f" % (t1 - t0))
'''


def run(kind, path, lib=None, delay=None, n=N, env_extra=None):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.pop("DISKIO_DELAY_US", None)
    env.pop("DISKIO_DELAY_SYNC_FILE_RANGE", None)
    env.update(env_extra or {})
    if lib:
        env["LD_PRELOAD"] = lib
    if delay is not None:
        env["DISKIO_DELAY_US"] = str(delay)
    p = subprocess.run([sys.executable, "-c", CHILD, kind, path, str(n)],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        fail("child %s failed: %s" % (kind, p.stderr))
    return float(p.stdout.strip()), p.stderr


def main():
    tmp = make_tmpdir("diskio-delay-test.")
    memory = None
    try:
        lib = delay_lib(tmp)
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            memory = tempfile.mkdtemp(prefix="diskio-delay-test.", dir="/dev/shm")
        path = os.path.join(memory or tmp, "testfile")
        need = N * DELAY_US / 1e6
        log("library: %s; %d ops per run, delay %d us -> at least %.3f s added"
            % (lib, N, DELAY_US, need))
        kinds = ["fsync", "fdatasync", "dsync-write", "dsync-pwrite",
                 "dsync-writev", "dsync-pwritev", "sync-pwrite", "sfr-wait"]
        if os.uname().machine == "x86_64":
            kinds.append("syscall-fdatasync")
        for kind in kinds:
            delayed, _ = run(kind, path, lib, DELAY_US)
            log("%-14s delayed %.4f s (at least %.3f s)" % (kind, delayed, need))
            if delayed < need:
                fail("%s: %d ops took %.4f s with the delay, less than %d delays"
                     % (kind, N, delayed, N))
        # Not delayed: less than half of what N delays would add.
        for kind, delay, extra, what in (
                ("buffered", DELAY_US, {}, "buffered writes"),
                ("sfr-write", DELAY_US, {}, "sync_file_range(SYNC_FILE_RANGE_WRITE)"),
                ("fdatasync", 0, {}, "DISKIO_DELAY_US=0"),
                ("fdatasync", "%dx" % DELAY_US, {}, "an invalid DISKIO_DELAY_US")):
            took, err = run(kind, path, lib, delay, env_extra=extra)
            log("%-14s %.4f s (%s: not delayed), stderr %r" % (kind, took, what, err.strip()))
            if took >= need / 2:
                fail("%s: %d ops took %.4f s: delayed" % (what, N, took))
            if what.startswith("an invalid") and (
                    "DISKIO_DELAY_US" not in err or err.count("libdiskio-delay") != 1):
                fail("invalid DISKIO_DELAY_US did not give exactly one message: %r" % err)
        # sync_file_range(SYNC_FILE_RANGE_WRITE) with DISKIO_DELAY_SYNC_FILE_RANGE=all
        delayed, _ = run("sfr-write", path, lib, DELAY_US,
                         env_extra={"DISKIO_DELAY_SYNC_FILE_RANGE": "all"})
        log("%-14s delayed %.4f s (DISKIO_DELAY_SYNC_FILE_RANGE=all)" % ("sfr-write", delayed))
        if delayed < need:
            fail("DISKIO_DELAY_SYNC_FILE_RANGE=all did not delay SYNC_FILE_RANGE_WRITE")
        log("PASS: delay-library")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if memory:
            shutil.rmtree(memory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
