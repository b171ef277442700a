#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the two-environment method runs end to end on PostgreSQL and writes consistent files.

bench/delay-model --no-judge measures environment A (this machine) and B
(the same with libdiskio-delay.so adding 2 ms to every sync) with diskio
and diskio-pgphases, and runs diskio-correlate on them.  Every step must
succeed and leave no server behind; each environment must hold a diskio
result with the three modes, and q_time.csv and wal.csv with the
commit-heavy phases and the checkpoint row; the report must name A as
the baseline, give every metric's ratio as B over A, and predict each
commit-heavy phase and the checkpoint row with a finite time, an error
that is prediction over measurement, and a dominant basis among the
model's own.  How close the predictions come is a timing judgement, made
by bench/delay-model on a quiet machine (bench/README.md), not here.

Needs $DISKIO, scripts/diskio-pgphases and scripts/diskio-correlate in
the build and PostgreSQL.  Exit 0 pass, 77 skip, anything else fail."""
import json
import math
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import (builddir, check_no_cluster_left, check_qtime, check_wal,  # noqa: E402
                   fail, find_pg_bindir, log, make_tmpdir, skip, srcdir)

COMMIT_PHASES = ["PERF.POWER.RF1", "PERF.POWER.RF2", "PERF.THRUPUT"]
CHECKPOINT_PHASE = "LOAD.CHECKPOINT"


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12)


def check_environment(envdir, label):
    with open(os.path.join(envdir, "diskio.json")) as f:
        result = json.load(f)
    modes = [r["mode"] for r in result["runs"]]
    if modes != ["fsync", "fdatasync", "async"] or result.get("label") != label:
        fail("%s/diskio.json: label %r, modes %s" % (envdir, result.get("label"), modes))
    if not all(r["complete"] and r["ops"] == 200 for r in result["runs"]):
        fail("%s/diskio.json: a run incomplete or not of 200 ops" % envdir)
    check_qtime(os.path.join(envdir, "q_time.csv"), COMMIT_PHASES + [CHECKPOINT_PHASE])
    check_wal(os.path.join(envdir, "wal.csv"), [])
    log("ok: environment %s: diskio.json, q_time.csv and wal.csv" % label)


def check_report(summary):
    report = summary["report"]
    if report.get("baseline") != "A":
        fail("baseline is %r, expected A" % report.get("baseline"))
    cmp_ = report["comparisons"][0]
    for name in ("fsync.mean_us", "fdatasync.mean_us", "async.mean_us"):
        row = cmp_["metrics"].get(name)
        if row is None or not (row["baseline"] > 0 and row["value"] > 0
                               and close(row["ratio"], row["value"] / row["baseline"])):
            fail("metric %s: %r is not B over A" % (name, row))
    log("ok: the report's metric ratios are B over A")
    bases = report["wal_model"]["bases"]
    for ph in COMMIT_PHASES + [CHECKPOINT_PHASE]:
        f = summary["figures"]["phases"].get(ph)
        if f is None:
            fail("no figures for %s" % ph)
        # (a prediction may be below zero: a sync measured faster in B
        # than in A on a busy machine makes its basis's delta negative)
        if not (f["baseline_s"] > 0 and f["actual_s"] > 0 and f["predicted_s"] is not None
                and math.isfinite(f["predicted_s"])):
            fail("%s: times %r" % (ph, f))
        if not close(f["error"], f["predicted_s"] / f["actual_s"] - 1):
            fail("%s: the error %r is not prediction over measurement" % (ph, f["error"]))
        if f["dominant_basis"] not in bases:
            fail("%s: dominant basis %r is not one of the model's %s"
                 % (ph, f["dominant_basis"], bases))
        log("ok: %s predicted %.3f s for %.3f s measured, mostly %s"
            % (ph, f["predicted_s"], f["actual_s"], f["dominant_basis"]))


def main():
    diskio = os.environ.get("DISKIO")
    if not diskio or not os.access(diskio, os.X_OK):
        fail("$DISKIO (path to the diskio binary) is not set or not executable, "
             "yet make check-slow sets it to the one make builds")
    bindir = find_pg_bindir()
    if bindir is None:
        skip("no PostgreSQL server binaries (initdb) found; install postgresql")
    tmp = make_tmpdir("diskio-pipeline.")
    try:
        lab = os.path.join(tmp, "lab")
        summary_path = os.path.join(tmp, "summary.json")
        cmd = [sys.executable, os.path.join(srcdir(), "bench", "delay-model"),
               "--builddir", builddir(), "--diskio", diskio, "--pg-bindir", bindir,
               "--no-judge", "--lab", lab, "--json", summary_path]
        if os.environ.get("DISKIO_DELAY_LIB"):
            cmd += ["--delay-lib", os.environ["DISKIO_DELAY_LIB"]]
        log("$ " + " ".join(cmd))
        status = subprocess.run(cmd, timeout=1800).returncode
        if status == 77:
            skip("bench/delay-model skipped (above)")
        if status != 0:
            fail("bench/delay-model --no-judge exited %d" % status)
        for name in ("A", "B"):
            check_no_cluster_left(os.path.join(lab, "store" + name), None)
            check_environment(os.path.join(lab, "env" + name), name)
        with open(summary_path) as f:
            summary = json.load(f)
        if summary["judged"]:
            fail("the summary says it was judged")
        check_report(summary)
        log("PASS: correlation-pipeline")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
