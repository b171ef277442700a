#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the WAL model holds on real environments, not only on the
delay preload that adds exactly the delay it assumes.  bench/real-envs
makes loop-mounted filesystems of different kinds and mount options
(ext4, ext4 without cache flushes, ext4 journalling data, XFS, btrfs),
measures each with diskio (--pattern wal at 1 and 4 committers,
--pattern checkpoint, the plain modes) and diskio-pgphases (commit-heavy
refreshes and the commit probe), and checks every pair: each phase the
model speaks for whose change is beyond the spread of its three rounds,
and for which the model predicts a change beyond its own range, is
predicted in the right direction, and each commit-heavy phase whose
rounds agree within the bound (here 40%) is predicted within it (the
others are inconclusive); doc/real-environments.md has the measured
figures against the aim of 10%.

Root only (skips with 77 otherwise, or without mkfs.xfs, losetup, or
PostgreSQL).  Timing-sensitive: run by make check last, alone, with three
attempts; DISKIO_SKIP_SLOW=1 skips it (.ci/run sets it for the passes
under distcheck and the sanitizers, where the machine is shared)."""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import builddir, find_pg_bindir, log, skip, srcdir  # noqa: E402

ATTEMPTS = 3
BOUND = 0.40


def main():
    if os.environ.get("DISKIO_SKIP_SLOW") == "1":
        skip("DISKIO_SKIP_SLOW=1: the real-environment check runs in the "
             "plain make check only")
    if os.geteuid() != 0:
        skip("needs root (loop devices, mkfs, mount)")
    if find_pg_bindir() is None:
        skip("no PostgreSQL server binaries (initdb) found")
    diskio = os.environ.get("DISKIO") or os.path.join(builddir(), "diskio")
    harness = os.path.join(srcdir(), "bench", "real-envs")
    cmd = [sys.executable, harness, "--builddir", builddir(), "--diskio", diskio,
           "--count", "500", "--repeat", "3", "--pg-repeat", "3", "--sf", "0.01",
           "--bound", str(BOUND)]
    if shutil.which("mkfs.btrfs") is None:
        cmd += ["--pairs", "ext4:ext4-nobarrier,ext4:ext4-journal,ext4:xfs"]
    status = 1
    for attempt in range(1, ATTEMPTS + 1):
        log(f"==== attempt {attempt} of {ATTEMPTS}: {' '.join(cmd)}")
        status = subprocess.run(cmd).returncode
        if status in (0, 77):
            return status
        log("a check failed; timing on a shared machine is noisy: "
            "measuring every environment once more")
    return status


if __name__ == "__main__":
    sys.exit(main())
