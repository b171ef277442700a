#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: pwritev2-dsync's RWF_DSYNC reaches the device as odsync's O_DSYNC does: a flush per write.
#
# pwritev2-dsync writes with pwritev2(2) and RWF_DSYNC on a file opened
# O_WRONLY alone: the flag on each write must make it durable as O_DSYNC
# on the file does.  On a journaled ext4 on a loop device made here,
# odsync and pwritev2-dsync overwrite 200 blocks each: both send at least
# one device write per op and, where the loop device's cache is volatile,
# about one flush per op (the same count, give or take a tenth), with no
# "syncs did not reach the device" verdict, while async (the same
# pwrite without a flag) sends almost none; the result shows the file
# opened O_WRONLY.  Needs root, losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
t_loop_fs journaled 160M "" rw

t_expect_status 0 "odsync, pwritev2-dsync and async on the journaled ext4" -- "$DISKIO" \
    --mode odsync,pwritev2-dsync,async --count 200 --bs 8k --size 8M \
    --output "$t_scratch/r.json" "$t_scratch/journaled" || t_done

"${PYTHON3:-python3}" - "$t_scratch/r.json" "$t_loop_dev" <<'EOF2' || t_fail "the device figures (above)"
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
check(runs["pwritev2-dsync"]["parameters"]["open_flags"] == "O_WRONLY",
      "pwritev2-dsync: the file is opened O_WRONLY (the flag is on each write)")
for mode in ("odsync", "pwritev2-dsync"):
    t = totals[mode]
    check(t["writes_per_op"] >= 1.0, f"{mode}: at least one device write per op")
    check("sync_not_flushed" not in [v["code"] for v in runs[mode]["verdicts"]],
          f"{mode}: no 'syncs did not reach the device' verdict")
if volatile and totals["odsync"]["flushes"] is not None:
    od, pw = totals["odsync"]["flushes_per_op"], totals["pwritev2-dsync"]["flushes_per_op"]
    check(od >= 0.95, f"odsync: a device flush per op ({od:.2f})")
    check(abs(pw - od) <= 0.1 * od,
          f"pwritev2-dsync: as many device flushes per op as odsync ({pw:.2f}, {od:.2f})")
    check(totals["async"]["flushes_per_op"] < 0.1,
          f"async: the same write without the flag flushes nothing "
          f"({totals['async']['flushes_per_op']:.2f})")
else:
    print("note: the loop device's cache is not volatile here: flushes are not counted")
sys.exit(1 if failures else 0)
EOF2
t_done
