#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases writes its result files and leaves no server or cluster behind.

diskio-pgphases at a tiny scale writes q_time.csv, wal.csv and the
settings files with the right headers and rows, and leaves no server and no
cluster directory behind.  The rows follow the DBT-3 kit: the power test
runs RF1, the queries in stream 0's order (Q14 first), then RF2; the
refresh stream's tasks are PERF.THRUPUT.RFST<n>, .RF1, .RF2; RF1 and RF2
are one transaction each (one WAL flush, give or take the WAL writer's).
Also: it refuses to overwrite results (exit 2).

Exit 0 pass, 77 skip, anything else fail."""
import json
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import (log, fail, skip, make_tmpdir, find_pg_bindir,  # noqa: E402
                    pgphases_cmd, cluster_from_stderr, check_no_cluster_left,
                    check_qtime, check_wal, read_csv)


POWER_ORDER = (14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19,
               5, 7, 12)


def check_q_time(out):
    """q_time.csv: every row the kit has, the power test in its order."""
    req = (["LOAD", "LOAD.CHECKPOINT", "PERF.POWER", "PERF.POWER.RF1",
            "PERF.POWER.RF2", "PERF.THRUPUT", "PERF.THRUPUT.QS1.ALL",
            "PERF.THRUPUT.QS2.ALL"]
           + ["PERF.THRUPUT.RFST%d%s" % (n, part) for n in (1, 2)
              for part in ("", ".RF1", ".RF2")]
           + ["PERF.POWER.Q%d" % n for n in range(1, 23)]
           + ["PERF.THRUPUT.QS%d.Q%d" % (s, n) for s in (1, 2)
              for n in range(1, 23)])
    qt = check_qtime(os.path.join(out, "q_time.csv"), req)
    if "PERF.THRUPUT.RFST" in qt:
        fail("q_time.csv has the one PERF.THRUPUT.RFST row, not the kit's "
             "PERF.THRUPUT.RFST<n>")
    log("ok: q_time.csv header and %d rows (LOAD %.3f s, RF1 %.3f s, "
        "RF2 %.3f s, THRUPUT %.3f s)" % (len(qt), qt["LOAD"], qt["PERF.POWER.RF1"],
                                        qt["PERF.POWER.RF2"], qt["PERF.THRUPUT"]))
    # the power test's parts in the kit's order, by their start times
    starts = {r[0]: r[1] for r in read_csv(os.path.join(out, "q_time.csv"))[1:]}
    power = (["PERF.POWER.RF1"] + ["PERF.POWER.Q%d" % n for n in POWER_ORDER]
             + ["PERF.POWER.RF2"])
    ran = sorted(power, key=lambda n: starts[n])
    if ran != power:
        fail("the power test ran %s, expected the kit's order %s"
             % (", ".join(ran), ", ".join(power)))
    log("ok: power test ran RF1, Q14, Q2, Q9 ... Q7, Q12, RF2")
    return qt


def check_wal_rows(out, qt, st):
    """wal.csv: a row per phase q_time.csv has, one WAL flush per refresh
    commit, the load's checkpoint syncing every table."""
    wal = check_wal(os.path.join(out, "wal.csv"),
                    ["LOAD", "LOAD.CHECKPOINT", "PERF.POWER", "PERF.POWER.RF1",
                     "PERF.POWER.RF2", "PERF.THRUPUT"])
    for ph in wal:
        if ph not in qt:
            fail("wal.csv phase %s has no q_time.csv row" % ph)
    refresh, commits = st["refresh_size"], st["refresh_commits"]
    if (refresh, commits, st["commit_every"]) != (7, 1, None):
        fail("settings.json: refresh_size %r, refresh_commits %r, commit_every %r;"
             " expected SF x 1500 = 7 orders in one transaction"
             % (refresh, commits, st["commit_every"]))
    for ph in ("PERF.POWER.RF1", "PERF.POWER.RF2"):
        n = wal[ph]["wal_sync"]
        # one WAL flush per commit; a few more from the WAL writer
        if not commits <= n <= commits * 1.2 + 5:
            fail("%s: wal_sync %d, expected about %d (one per commit)"
                 % (ph, n, commits))
    # the load's closing CHECKPOINT syncs every data file it wrote
    if wal["LOAD.CHECKPOINT"]["checkpoint_sync_files"] < 8:
        fail("LOAD.CHECKPOINT: %d files synced, expected one per table at least"
             % wal["LOAD.CHECKPOINT"]["checkpoint_sync_files"])
    log("ok: wal.csv: RF1 wal_sync %d, RF2 wal_sync %d for %d commit(s) of %d "
        "orders each; LOAD checkpoint_sync_time %.0f ms over %d files"
        % (wal["PERF.POWER.RF1"]["wal_sync"], wal["PERF.POWER.RF2"]["wal_sync"],
           commits, refresh, wal["LOAD"]["checkpoint_sync_time_ms"],
           wal["LOAD"]["checkpoint_sync_files"]))


def check_settings(out, st):
    """settings.json: the server settings the method needs, complete, with
    what a run records; and a settings.csv beside it."""
    ss = st["server_settings"]
    expect = {"wal_sync_method": "fdatasync", "synchronous_commit": "on",
              "fsync": "on", "track_wal_io_timing": "on", "autovacuum": "off",
              "listen_addresses": ""}
    for k, v in expect.items():
        if ss.get(k) != v:
            fail("settings.json server setting %s = %r, expected %r"
                 % (k, ss.get(k), v))
    if st["complete"] is not True or not st.get("postgresql_version"):
        fail("settings.json not marked complete or no version")
    for k in ("scale_factor", "streams", "refresh_size", "shared_buffers",
              "data_dir", "start_time"):
        if k not in st:
            fail("settings.json lacks %s" % k)
    if not os.path.isfile(os.path.join(out, "settings.csv")):
        fail("no settings.csv")
    log("ok: settings.json/settings.csv record %s" % ", ".join(
        "%s=%s" % (k, v) for k, v in sorted(expect.items())))


def check_refusals(cmd, out, store):
    """Refuse to overwrite existing result files: exit 2, nothing created;
    a usage error exits 2."""
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != 2 or "refusing to overwrite" not in p.stderr:
        fail("second run into the same --output: exit %d, stderr %r"
             % (p.returncode, p.stderr))
    if os.listdir(store):
        fail("refused run created %s" % os.listdir(store))
    log("ok: a second run into the same --output is refused with exit 2")
    p = subprocess.run(pgphases_cmd() + ["--streams", "0", "--output", out, store],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 2:
        fail("usage error exited %d" % p.returncode)
    log("ok: usage error exits 2")


def main():
    bindir = find_pg_bindir()
    if bindir is None:
        skip("no PostgreSQL server binaries (initdb) found; install postgresql")
    tmp = make_tmpdir("diskio-pgphases-test.")
    try:
        store = os.path.join(tmp, "store")
        out = os.path.join(tmp, "out")
        os.mkdir(store)
        os.chmod(store, 0o755)
        cmd = pgphases_cmd() + ["--sf", "0.005", "--streams", "2",
                                "--pg-bindir", bindir, "--output", out, store]
        log("running: " + " ".join(cmd))
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        sys.stdout.write(p.stderr)
        if p.returncode != 0:
            fail("diskio-pgphases exited %d" % p.returncode)
        cluster = cluster_from_stderr(p.stderr)
        if not cluster or not cluster.startswith(store + "/"):
            fail("no cluster directory inside %s announced" % store)
        check_no_cluster_left(store, cluster)

        qt = check_q_time(out)
        with open(os.path.join(out, "settings.json")) as f:
            st = json.load(f)
        check_wal_rows(out, qt, st)
        check_settings(out, st)
        check_refusals(cmd, out, store)
        log("PASS: pgphases-clean-exit")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
