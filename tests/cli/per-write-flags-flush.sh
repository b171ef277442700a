#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: pwritev2's RWF_DSYNC and RWF_SYNC reach the device as O_DSYNC and O_SYNC do: a flush per write.
#
# pwritev2-dsync and pwritev2-sync write with pwritev2(2) and RWF_DSYNC
# or RWF_SYNC on a file opened O_WRONLY alone: the flag on each write
# must make it durable as O_DSYNC (odsync) or O_SYNC (osync) on the file
# does.  On a journaled ext4 on a loop device made here, each of them
# overwrites 200 blocks: each sends at least one device write per op and,
# where the loop device's cache is volatile, at least one flush per op
# as its open-flag twin does, with no "syncs did not reach the device"
# verdict, while async (the same pwrite
# without a flag) sends almost none; the result shows the file opened
# O_WRONLY.  Needs root, losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
t_loop_fs journaled 160M "" rw

t_expect_status 0 "the per-write flags, their open-flag twins and async on the journaled ext4" \
    -- "$DISKIO" --mode odsync,pwritev2-dsync,osync,pwritev2-sync,async --count 200 --bs 8k \
    --size 8M --output "$t_scratch/r.json" "$t_scratch/journaled" || t_done

"${PYTHON3:-python3}" - "$t_scratch/r.json" "$t_loop_dev" <<'PY' || t_fail "the device figures (above)"
import json, os, sys
path, dev = sys.argv[1:]
failures = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)

with open(f"/sys/block/{os.path.basename(dev)}/queue/write_cache") as f:
    volatile = f.read().strip() == "write back"
runs = {r["mode"]: r for r in json.load(open(path))["runs"]}
totals = {mode: r["device"]["total"] for mode, r in runs.items()}
for mode, t in totals.items():
    print(f"   {mode}: {t['writes_per_op']:.2f} writes/op, flushes/op {t['flushes_per_op']}")
for twin, mode in (("odsync", "pwritev2-dsync"), ("osync", "pwritev2-sync")):
    check(runs[mode]["parameters"]["open_flags"] == "O_WRONLY",
          f"{mode}: the file is opened O_WRONLY (the flag is on each write)")
    for m in (twin, mode):
        check(totals[m]["writes_per_op"] >= 1.0, f"{m}: at least one device write per op")
        check("sync_not_flushed" not in [v["code"] for v in runs[m]["verdicts"]],
              f"{m}: no 'syncs did not reach the device' verdict")
    # at least one flush per op each: O_SYNC's (and RWF_SYNC's) journal
    # commits for the modification time come as often as it changes, so
    # only the dsync pair flushes exactly once per op
    for m in (twin, mode):
        if volatile and totals[m]["flushes"] is not None:
            check(totals[m]["flushes_per_op"] >= 0.95,
                  f"{m}: a device flush per op ({totals[m]['flushes_per_op']:.2f})")
if volatile and totals["async"]["flushes"] is not None:
    check(totals["async"]["flushes_per_op"] < 0.1,
          f"async: the same write without a flag flushes nothing "
          f"({totals['async']['flushes_per_op']:.2f})")
else:
    print("note: the loop device's cache is not volatile here: flushes are not counted")
sys.exit(1 if failures else 0)
PY
t_done
