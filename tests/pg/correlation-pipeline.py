#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end test of the method on one machine.

Environment A is the machine as it is; environment B is the same machine
with libdiskio-delay.so adding DELAY_US to every fsync/fdatasync and
O_SYNC/O_DSYNC write.  In both, diskio measures fsync, fdatasync and async
write latency and diskio-pgphases runs the DBT-3-style workload; then
diskio-correlate must find

  * the fsync-family latency ratio B/A well above 1,
  * the commit-heavy phases (PERF.POWER.RF1, PERF.POWER.RF2, PERF.THRUPUT,
    run with --commit-every 1, the commit-heavy variant) slower in B,
  * its prediction of those phases' time in B (from A's time and, for each
    kind of sync, A's count times the latency difference diskio measured)
    within 25% of the measured time, the WAL flushes on the commit path
    weighing most,
  * the checkpoint row (LOAD.CHECKPOINT) weighed mostly by the checkpoints'
    syncs, not by wal_sync.

Needs $DISKIO (the diskio binary), scripts/diskio-correlate (or
$DISKIO_CORRELATE) and PostgreSQL; the delay library is $DISKIO_DELAY_LIB
or built from src/preload/diskio-delay.c.
Exit 0 pass, 77 skip, anything else fail.  About a minute on 2 cores."""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import (log, fail, skip, make_tmpdir, find_pg_bindir,  # noqa: E402
                    pgphases_cmd, delay_lib, builddir, check_no_cluster_left,
                    cluster_from_stderr)

DELAY_US = 2000
TOLERANCE = 0.25
ATTEMPTS = 3
COMMIT_PHASES = ["PERF.POWER.RF1", "PERF.POWER.RF2", "PERF.THRUPUT"]


def dbt3_name(task):
    """diskio-correlate's phase name for a q_time task name (it may keep
    the name, lowercase it, or map PERF.POWER.RF1 -> power.rf1)."""
    parts = task.split(".")
    if len(parts) > 1 and parts[0] == "PERF":
        parts = parts[1:]
    parts[0] = {"POWER": "power", "THRUPUT": "throughput"}.get(parts[0], parts[0])
    return ".".join(x.lower() for x in parts)


def lookup(d, task):
    for k in (task, task.lower(), dbt3_name(task)):
        if k in d:
            return d[k]
    fail("no entry for %s (nor %s, %s) in the report; keys: %s"
         % (task, task.lower(), dbt3_name(task), ", ".join(d)))


def run(cmd, env=None, timeout=600):
    log("$ " + " ".join(cmd))
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.stderr:
        sys.stdout.write(p.stderr)
    if p.returncode != 0:
        sys.stdout.write(p.stdout)
        fail("%s exited %d" % (os.path.basename(cmd[1] if cmd[0] == sys.executable
                                                else cmd[0]), p.returncode))
    return p


def attempt(top, diskio, correlate, bindir, lib, plain_env, delay_env):
    """One A/B measurement and check; returns True when every check held."""
    os.mkdir(top)
    os.chmod(top, 0o755)
    for name, env, extra in (("A", plain_env, []),
                             ("B", delay_env, ["--preload", lib,
                                               "--delay-us", str(DELAY_US)])):
        envdir = os.path.join(top, "env" + name)
        testdir = os.path.join(top, "disk" + name)
        store = os.path.join(top, "store" + name)
        for d in (envdir, testdir, store):
            os.mkdir(d)
            os.chmod(d, 0o755)
        run([diskio, "--mode", "fsync,fdatasync,async", "--count", "200",
             "--format", "json", "--output", os.path.join(envdir, "diskio.json"),
             "--label", name, testdir], env=env)
        # The commit-heavy variant: a commit per order, 150 orders per
        # refresh function (1% of SF 0.01), so that the refresh stream's
        # 600 commits outlast the query streams.  The kit's default (one
        # transaction of SF x 1500 orders) commits too rarely to test the
        # WAL model's commit path.
        p = run(pgphases_cmd() + ["--sf", "0.01", "--streams", "2",
                                  "--refresh-size", "150", "--commit-every", "1",
                                  "--pg-bindir", bindir, "--output", envdir]
                + extra + [store], env=plain_env)
        check_no_cluster_left(store, cluster_from_stderr(p.stderr))

    envA, envB = os.path.join(top, "envA"), os.path.join(top, "envB")
    text = run([sys.executable, correlate, "--wal-sync-method", "fdatasync",
                "--details", "--phases", "all", envA, envB]).stdout
    # The full text report has a row per query; show its WAL model part.
    i = text.find("== WAL model")
    log("---- diskio-correlate report (text, from the WAL model on) ----")
    sys.stdout.write(text[i:] if i >= 0 else text)
    log("----")
    rep = json.loads(run([sys.executable, correlate, "--format", "json",
                          "--wal-sync-method", "fdatasync", envA, envB]).stdout)
    if rep.get("baseline") != "A":
        fail("baseline is %r, expected A" % rep.get("baseline"))
    cmp_ = rep["comparisons"][0]
    ok = True

    # 1. fsync-family latency ratio well above 1, async not.
    for m in ("fsync.mean_us", "fdatasync.mean_us"):
        r = cmp_["metrics"][m]["ratio"]
        log("%-22s A %10.1f us  B %10.1f us  ratio %6.2f  (want >= 2)"
            % (m, cmp_["metrics"][m]["baseline"], cmp_["metrics"][m]["value"], r))
        if not r >= 2.0:
            ok = False
            log("FAIL: %s ratio %.2f is not well above 1" % (m, r))
    if "async.mean_us" in cmp_["metrics"]:
        r = cmp_["metrics"]["async.mean_us"]["ratio"]
        log("%-22s ratio %.2f (not delayed; informative)" % ("async.mean_us", r))

    # 2./3. commit-heavy phases slower in B, predicted within 25%.
    preds = rep["wal_model"]["predictions"][0]["phases"]
    for ph in COMMIT_PHASES:
        pr = lookup(cmp_["phases"], ph)
        p = lookup(preds, ph)
        err = (p["predicted_s"] - p["actual_s"]) / p["actual_s"]
        log("%-16s A %.3f s  B %.3f s  ratio %.2f  predicted B %.3f s (mostly %s) "
            "error %+.1f%%" % (ph, pr["baseline_s"], pr["value_s"], pr["ratio"],
                               p["predicted_s"], p["dominant_basis"], 100 * err))
        if not pr["ratio"] > 1.2:
            ok = False
            log("FAIL: %s is not slower in B (ratio %.2f)" % (ph, pr["ratio"]))
        if p["dominant_basis"] != "wal_commit":
            ok = False
            log("FAIL: %s predicted mostly from %s, expected wal_commit"
                % (ph, p["dominant_basis"]))
        if abs(err) > TOLERANCE:
            ok = False
            log("FAIL: %s prediction off by %.1f%% (limit %.0f%%)"
                % (ph, 100 * err, 100 * TOLERANCE))

    # 4. checkpoint row predicted from checkpoint sync time.
    p = lookup(preds, "LOAD.CHECKPOINT")
    log("%-16s A %.3f s  B %.3f s  predicted B %s (mostly %s)"
        % ("LOAD.CHECKPOINT", p["baseline_s"], p["actual_s"],
           "%.3f s" % p["predicted_s"] if p["predicted_s"] is not None else "n/a",
           p["dominant_basis"]))
    if p["dominant_basis"] != "checkpoint":
        ok = False
        log("FAIL: LOAD.CHECKPOINT predicted mostly from %s, expected the "
            "checkpoints' syncs" % p["dominant_basis"])
    return ok


def main():
    diskio = os.environ.get("DISKIO")
    if not diskio or not os.access(diskio, os.X_OK):
        skip("$DISKIO (path to the diskio binary) is not set or not executable")
    correlate = os.environ.get("DISKIO_CORRELATE") or \
        os.path.join(builddir(), "scripts", "diskio-correlate")
    if not os.path.isfile(correlate):
        skip("%s is missing" % correlate)
    bindir = find_pg_bindir()
    if bindir is None:
        skip("no PostgreSQL server binaries (initdb) found; install postgresql")

    tmp = make_tmpdir("diskio-e2e.")
    try:
        # The server user (nobody when run as root) must be able to read
        # the library: keep a copy in the 0755 temp directory.
        lib = delay_lib(tmp)
        if os.path.dirname(lib) != tmp:
            shutil.copy(lib, os.path.join(tmp, "libdiskio-delay.so"))
            lib = os.path.join(tmp, "libdiskio-delay.so")
        os.chmod(lib, 0o755)
        plain_env = dict(os.environ)
        plain_env.pop("LD_PRELOAD", None)
        plain_env.pop("DISKIO_DELAY_US", None)
        delay_env = dict(plain_env, LD_PRELOAD=lib, DISKIO_DELAY_US=str(DELAY_US))

        ok = False
        for n in range(1, ATTEMPTS + 1):
            log("==== attempt %d of %d ====" % (n, ATTEMPTS))
            ok = attempt(os.path.join(tmp, "attempt%d" % n), diskio, correlate,
                         bindir, lib, plain_env, delay_env)
            if ok:
                break
            if n < ATTEMPTS:
                log("a timing check failed; timing on a shared machine is noisy: "
                    "measuring both environments once more")
        if not ok:
            fail("e2e-correlation: see above")
        log("PASS: e2e-correlation")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
