#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Test: libdiskio-delay.so delays fsync/fdatasync and O_SYNC/O_DSYNC writes
by DISKIO_DELAY_US, and leaves buffered writes alone.

Exit 0 pass, 77 skip, anything else fail."""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import log, fail, delay_lib, make_tmpdir  # noqa: E402

N = 50
DELAY_US = 2000

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
if kind.startswith("sfr-"):
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


def run(kind, path, lib=None, delay=None, n=N):
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.pop("DISKIO_DELAY_US", None)
    if "DISKIO_DELAY_SYNC_FILE_RANGE" not in os.environ:
        env.pop("DISKIO_DELAY_SYNC_FILE_RANGE", None)
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
    try:
        lib = delay_lib(tmp)
        path = os.path.join(tmp, "testfile")
        need = N * DELAY_US / 1e6
        log("library: %s; %d ops per run, delay %d us -> at least %.3f s added"
            % (lib, N, DELAY_US, need))
        for kind in ["fsync", "fdatasync", "dsync-write", "dsync-pwrite",
                     "dsync-writev", "dsync-pwritev", "sync-pwrite", "sfr-wait"]:
            # The real sync latency varies on a shared machine: compare with
            # the fastest of three plain runs and retry a short pair twice.
            for tries in range(3):
                plain = min(run(kind, path)[0] for _ in range(3))
                delayed, _ = run(kind, path, lib, DELAY_US)
                log("%-14s plain %.4f s  delayed %.4f s  added %.4f s"
                    % (kind, plain, delayed, delayed - plain))
                if delayed - plain >= need * 0.98:
                    break
            else:
                fail("%s: delayed run only %.4f s slower, expected >= %.4f s"
                     % (kind, delayed - plain, need))
        # Buffered writes must not be delayed: N writes with the library and
        # the delay set must take far less than one delay per write.
        plain, _ = run("buffered", path)
        delayed, _ = run("buffered", path, lib, DELAY_US)
        log("%-14s plain %.4f s  delayed %.4f s" % ("buffered", plain, delayed))
        if delayed > need / 4:
            fail("buffered writes were delayed (%.4f s for %d writes)" % (delayed, N))
        # sync_file_range(SYNC_FILE_RANGE_WRITE) only starts write-back: not
        # delayed unless DISKIO_DELAY_SYNC_FILE_RANGE=all.
        plain, _ = run("sfr-write", path)
        delayed, _ = run("sfr-write", path, lib, DELAY_US)
        log("%-14s plain %.4f s  delayed %.4f s (not delayed by default)"
            % ("sfr-write", plain, delayed))
        if delayed - plain > need / 2:
            fail("sync_file_range(SYNC_FILE_RANGE_WRITE) was delayed")
        os.environ["DISKIO_DELAY_SYNC_FILE_RANGE"] = "all"
        delayed, _ = run("sfr-write", path, lib, DELAY_US)
        del os.environ["DISKIO_DELAY_SYNC_FILE_RANGE"]
        log("%-14s plain %.4f s  delayed %.4f s (DISKIO_DELAY_SYNC_FILE_RANGE=all)"
            % ("sfr-write", plain, delayed))
        if delayed - plain < need * 0.98:
            fail("DISKIO_DELAY_SYNC_FILE_RANGE=all did not delay SYNC_FILE_RANGE_WRITE")
        # DISKIO_DELAY_US unset or 0: pass-through.
        for tries in range(3):
            zero = min(run("fdatasync", path, lib, 0)[0] for _ in range(2))
            plain = min(run("fdatasync", path)[0] for _ in range(2))
            log("fdatasync with DISKIO_DELAY_US=0: %.4f s (plain %.4f s)" % (zero, plain))
            if zero - plain <= need / 2:
                break
        else:
            fail("DISKIO_DELAY_US=0 still delayed (%.4f s vs %.4f s)" % (zero, plain))
        # Invalid value: one message on stderr, no delay.
        for tries in range(3):
            bad, err = run("fdatasync", path, lib, "2ms")
            log("fdatasync with DISKIO_DELAY_US=2ms: %.4f s, stderr %r"
                % (bad, err.strip()))
            if "DISKIO_DELAY_US" not in err or err.count("libdiskio-delay") != 1:
                fail("invalid DISKIO_DELAY_US did not give exactly one message: %r"
                     % err)
            if bad - plain <= need / 2:
                break
        else:
            fail("invalid DISKIO_DELAY_US still delayed")
        log("PASS: delay-preload")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
