#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: bench/real-envs runs end to end on loop-mounted filesystems and writes a consistent summary.

bench/real-envs --no-judge, at a small scale (one pair, ext4 against ext4
journalling data; 100 diskio ops per mode, two repetitions, one
diskio-pgphases round): every step must succeed; its filesystems must be
unmounted and its loop devices detached afterwards; the summary must hold
the pair with a row for each commit-heavy refresh, each row's measured
ratio the measured time over the baseline's, its error the prediction
over the measurement, its range of rounds around the ratio, and both
environments' fdatasync means.  Whether the predictions come within 40%
is a timing judgement, made by bench/real-envs on a quiet machine
(bench/README.md, "real environments"), not here.

Root only (skips with 77 otherwise, or without mkfs.ext4, losetup or
PostgreSQL)."""
import json
import math
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import builddir, fail, find_pg_bindir, log, make_tmpdir, skip, srcdir  # noqa: E402

COMMIT_HEAVY = ("power.rf1", "power.rf2")


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12)


def leftovers(under):
    """Mounts and loop devices of bench/real-envs under the directory
    given to it (another user's run elsewhere is not this test's)."""
    with open("/proc/mounts") as f:
        mounts = [line.split()[1] for line in f if under in line]
    loops = subprocess.run(["losetup", "--all"], capture_output=True, text=True).stdout
    return mounts + [line for line in loops.splitlines() if under in line]


def check_summary(summary):
    if summary.get("judged") is not False:
        fail("the summary does not say it was not judged")
    # how busy the machine was, the harness's own processes left out
    others = summary.get("others_max")
    if others is None or not 0 <= summary["others_median"] <= others <= 1:
        fail("others' CPU share: %r, %r" % (summary.get("others_median"), others))
    pairs = summary["pairs"]
    if [(p["baseline"], p["other"]) for p in pairs] != [("ext4", "ext4-journal")]:
        fail("pairs: %s" % [(p["baseline"], p["other"]) for p in pairs])
    pair = pairs[0]
    # PostgreSQL's time per WAL sync beside diskio's, per environment
    per_sync = {row["environment"]: row for row in summary.get("per_sync") or []}
    if sorted(per_sync) != ["ext4", "ext4-journal"]:
        fail("per-sync rows: %s" % sorted(per_sync))
    # both programs' syncs flush the loop device: its own time per flush
    # under the 4-committer probe and under diskio's run, both recorded
    for name, row in per_sync.items():
        flush = ((row.get("c4") or {}).get("device_us") or {}).get("flush") or {}
        if not all(isinstance(flush.get(k), float) and flush[k] > 0 for k in ("pg", "diskio")):
            fail("%s: no device time per flush under both: %r" % (name, flush))
    rows = {r["phase"]: r for r in pair["rows"]}
    missing = [p for p in COMMIT_HEAVY if p not in rows]
    if missing:
        fail("no rows for %s (rows: %s)" % (missing, sorted(rows)))
    for r in pair["rows"]:
        what = "%s: %r" % (r["phase"], r)
        if not (r["baseline_s"] > 0 and r["actual_s"] > 0 and math.isfinite(r["predicted_s"])):
            fail("times of " + what)
        if not close(r["measured_ratio"], r["actual_s"] / r["baseline_s"]):
            fail("the measured ratio is not measured over baseline, " + what)
        if not close(r["error"], r["predicted_s"] / r["actual_s"] - 1):
            fail("the error is not prediction over measurement, " + what)
        lo, hi = r["measured_range"]
        if not lo <= hi:
            fail("the range of rounds is upside down, " + what)
        # PostgreSQL timed its WAL flushes on both sides: the phase's
        # change splits into theirs and the rest's
        if r["phase"] in COMMIT_HEAVY and r["syncs_postgres_delta_s"] is None:
            fail("no sync check where PostgreSQL timed the syncs, " + what)
        if r["syncs_postgres_delta_s"] is not None and not close(
                r["syncs_postgres_delta_s"] + r["rest_delta_s"],
                r["actual_s"] - r["baseline_s"]):
            fail("the syncs' change and the rest's do not add up, " + what)
        # the rounds' interference rows reach the model: each phase's CPU
        # time on both sides, so its change is there beside the rest's
        if r["phase"] in COMMIT_HEAVY and r.get("cpu_delta_s") is None:
            fail("no change of the CPU time, " + what)
    log("ok: %d rows, the commit-heavy refreshes among them, each consistent" % len(rows))
    for r in (rows[p] for p in COMMIT_HEAVY):
        log("   %s: measured %.2fx, predicted %.2fx (error %+.1f%%, mostly %s)"
            % (r["phase"], r["measured_ratio"], r["predicted_ratio"], 100 * r["error"],
               r["dominant_basis"]))
    if not isinstance(pair["failures"], list):
        fail("the pair's failures are not a list")
    # the side-by-side rounds: PostgreSQL's time per WAL sync and diskio
    # --pattern wal's at 1 and 4 committers, judged apart
    duel = {row["environment"]: row for row in summary.get("duel") or []}
    if sorted(duel) != ["ext4", "ext4-journal"]:
        fail("side-by-side rows: %s" % sorted(duel))
    for name, row in duel.items():
        for n in ("c1", "c4"):
            cell = row.get(n)
            if not cell or not (cell["pg_us"] > 0 and cell["diskio_us"] > 0):
                fail("side by side, %s %s: %r" % (name, n, cell))
            lo, hi = cell["ratio_range"]
            if not lo <= cell["ratio"] <= hi:
                fail("side by side, %s %s: the ratio outside its range" % (name, n))
            # one round says nothing about where the median lies
            if "ratio_interval" not in cell or cell["ratio_interval"] is not None:
                fail("side by side, %s %s: an interval from one round: %r"
                     % (name, n, cell.get("ratio_interval")))
    if not isinstance(summary.get("duel_failures"), list):
        fail("the side-by-side judgement is not a list")
    log("ok: side-by-side rows for both environments at 1 and 4 committers")


def main():
    if os.geteuid() != 0:
        skip("needs root (loop devices, mkfs, mount)")
    if find_pg_bindir() is None:
        skip("no PostgreSQL server binaries (initdb) found")
    diskio = os.environ.get("DISKIO") or os.path.join(builddir(), "diskio")
    tmp = make_tmpdir("diskio-real-envs-test.")
    summary_path = os.path.join(tmp, "summary.json")
    cmd = [sys.executable, os.path.join(srcdir(), "bench", "real-envs"),
           "--builddir", builddir(), "--diskio", diskio, "--pairs", "ext4:ext4-journal",
           "--count", "100", "--repeat", "2", "--pg-repeat", "1", "--sf", "0.01",
           # a probe of 300 commits a session: its flushes add up to the
           # 20 ms the device's time per flush needs (about 90 here at 4)
           "--refresh-size", "50", "--probe", "300", "--runtime", "0.3",
           "--duel-rounds", "1", "--no-judge", "--json", summary_path, "--dir", tmp]
    try:
        log("$ " + " ".join(cmd))
        status = subprocess.run(cmd, timeout=1800).returncode
        if status == 77:
            skip("bench/real-envs skipped (above)")
        if status != 0:
            fail("bench/real-envs --no-judge exited %d" % status)
        left = leftovers(tmp)
        if left:
            fail("left mounted or attached: %s" % left)
        log("ok: every filesystem unmounted, every loop device detached")
        with open(summary_path) as f:
            check_summary(json.load(f))
        log("PASS: real-envs-pipeline")
        return 0
    finally:
        if os.path.exists(summary_path):
            os.unlink(summary_path)
        if not leftovers(tmp):
            os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
