#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the block layer sees every --pattern wal commit reach the device and one flush per sync.
#
# what the block layer saw of --pattern wal, on an ext4
# without a journal on a loop device made here: every commit's page
# reaches the device (at least one 8 KiB page of writes per flush: the
# page filling is written again, not merged away), each fdatasync flushes
# the device's volatile cache, a created segment writes its zeros (16
# sectors per 8 KiB page of it) where a recycled one writes none, and
# direct-dsync (open_datasync with O_DIRECT) sends one device write per
# commit.  Needs root, losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
t_loop_fs wal 200M "-O ^has_journal" rw

t_expect_status 0 "fdatasync, segments created" -- "$DISKIO" --pattern wal --mode fdatasync \
    --count 400 --wal-bytes 8000 --wal-segment-size 1m --output "$t_scratch/created.json" \
    "$t_scratch/wal"
t_expect_status 0 "fdatasync, segments recycled" -- "$DISKIO" --pattern wal --mode fdatasync \
    --count 400 --wal-bytes 8000 --wal-segment-size 1m --wal-recycle \
    --output "$t_scratch/recycled.json" "$t_scratch/wal"
t_expect_status 0 "direct-dsync" -- "$DISKIO" --pattern wal --mode direct-dsync --count 400 \
    --wal-bytes 8000 --wal-segment-size 1m --wal-recycle --output "$t_scratch/direct.json" \
    "$t_scratch/wal"
t_expect_empty_dir "$t_scratch/wal/lost+found" "lost+found"
[ "$(ls -A "$t_scratch/wal" | grep -v lost+found)" = "" ] && t_ok "no segment left behind" ||
    t_fail "left behind: $(ls -A "$t_scratch/wal")"

"${PYTHON3:-python3}" - "$t_scratch" "$t_loop_dev" <<'EOF' || t_fail "the device figures (above)"
import json, os, sys
scratch, dev = sys.argv[1:]
failures = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)

with open(f"/sys/block/{os.path.basename(dev)}/queue/write_cache") as f:
    volatile = f.read().strip() == "write back"
runs = {name: json.load(open(os.path.join(scratch, name + ".json")))["runs"][0]
        for name in ("created", "recycled", "direct")}
for name, run in runs.items():
    wal, total = run["wal"], run["device"]["total"]
    sectors = total["write_sectors"]
    print(f"   {name}: {wal['commits']} commits, {wal['pages']} pages, "
          f"{wal['segment_switches']} switches; device: {total['writes']} writes, "
          f"{sectors} sectors, {total['flushes']} flushes")
    check(wal["segment_switches"] >= 2, f"{name}: segments switched")
    # every page a flush wrote reached the device
    check(sectors >= wal["pages"] * 16, f"{name}: {sectors} sectors written for "
          f"{wal['pages']} pages of 8 KiB")
    if volatile and name != "direct":
        check(total["flushes"] >= wal["syncs"], f"{name}: {total['flushes']} device flushes "
              f"for {wal['syncs']} syncs")
zeros = runs["created"]["wal"]["segment_switches"] * 1048576 // 512
extra = runs["created"]["device"]["total"]["write_sectors"] - runs["created"]["wal"]["pages"] * 16
check(extra >= zeros, f"created: {extra} sectors beyond the pages, {zeros} of them a new "
      "segment's zeros")
extra = runs["recycled"]["device"]["total"]["write_sectors"] - \
    runs["recycled"]["wal"]["pages"] * 16
check(extra < zeros / 2, f"recycled: {extra} sectors beyond the pages, no zeros")
d = runs["direct"]
check(d["parameters"]["open_flags"] == "O_WRONLY|O_DIRECT|O_DSYNC", "direct-dsync: O_DIRECT")
check(d["device"]["total"]["writes"] >= d["wal"]["writes"],
      f"direct-dsync: {d['device']['total']['writes']} device writes for "
      f"{d['wal']['writes']} WAL writes")
sys.exit(1 if failures else 0)
EOF
t_done
