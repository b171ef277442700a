#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --pattern checkpoint writes its pages in file and block order, then one fsync per file.
#
# --pattern checkpoint writes a checkpoint as PostgreSQL
# does, read back from the per-op trace and the result: each checkpoint
# writes its pages, distinct, in file and block order, over the files,
# hands them to writeback every --checkpoint-flush-after pages (one
# sync_file_range per run of adjacent blocks), then syncs every file it
# wrote exactly once (the sync part: one latency per file sync); a run's
# count is rounded up to whole checkpoints.  On a loop device (root
# only) the files' pages reach the device and every file sync flushes
# it.  No relation file is left behind.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
mkdir "$t_scratch/dir"

t_expect_status 0 "five checkpoints of 96 pages over 6 files" -- "$DISKIO" --pattern checkpoint \
    --count 400 --warmup 0 --size 256k --checkpoint-files 6 --checkpoint-pages 96 \
    --checkpoint-flush-after 8 --trace "$t_scratch/ck.csv" --output "$t_scratch/ck.json" \
    "$t_scratch/dir"
t_expect_empty_dir "$t_scratch/dir" "after the run"

"${PYTHON3:-python3}" - "$t_scratch" <<'EOF' || t_fail "the checkpoints (above)"
import csv, json, os, sys
scratch = sys.argv[1]
failures = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)

with open(os.path.join(scratch, "ck.csv"), newline="") as f:
    rows = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(f)]
run = json.load(open(os.path.join(scratch, "ck.json")))["runs"][0]
ck = run["checkpoint"]
check(len(rows) == run["ops"] == ck["pages"] == 480,
      f"400 pages asked, 5 whole checkpoints of 96 written ({len(rows)})")
check(ck["checkpoints"] == 5, f"{ck['checkpoints']} checkpoints")
file_syncs = writebacks = 0
for n in range(5):
    pages = [(r["file"], r["offset"]) for r in rows if r["checkpoint"] == n]
    check(len(pages) == 96 and len(set(pages)) == 96 and pages == sorted(pages),
          f"checkpoint {n}: 96 distinct pages in file and block order")
    check(all(f < 6 and o % 8192 == 0 and o < 262144 for f, o in pages),
          f"checkpoint {n}: within 6 files of 256 KiB")
    file_syncs += len({f for f, _ in pages})
    # a hint after every 8 pages and after the last: one call per run of
    # adjacent blocks of one file among them
    for i in range(0, 96, 8):
        batch = pages[i:i + 8]
        writebacks += 1 + sum(1 for a, b in zip(batch, batch[1:])
                              if b[0] != a[0] or b[1] != a[1] + 8192)
    hinted = [r for r in rows if r["checkpoint"] == n][7::8]
    check(all(r["writeback_ns"] > 0 for r in hinted),
          f"checkpoint {n}: every 8th page op pays a writeback hint")
check(ck["file_syncs"] == file_syncs == run["latency"]["sync"]["count"],
      f"one sync per file written: {file_syncs} due, {ck['file_syncs']} counted, "
      f"{run['latency']['sync']['count']} timed")
check(ck["writebacks"] == writebacks, f"{writebacks} writeback calls due, "
      f"{ck['writebacks']} counted")
check(run["latency"]["write"]["count"] == 480 and run["parameters"]["pattern"] == "checkpoint",
      "one write latency per page")
sys.exit(1 if failures else 0)
EOF

t_expect_status 2 "--pattern checkpoint refuses mode osync" -- "$DISKIO" --pattern checkpoint \
    --mode osync "$t_scratch/dir"
t_expect_status 2 "more pages than half the files' blocks" -- "$DISKIO" --pattern checkpoint \
    --size 64k --checkpoint-files 2 --checkpoint-pages 9 "$t_scratch/dir"
grep -q "checkpoint-pages" "$t_scratch/stderr" && t_ok "the message names --checkpoint-pages" ||
    t_fail "message: $(cat "$t_scratch/stderr")"

# the block layer: the pages reach the device and each file sync flushes
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
    command -v mkfs.ext4 >/dev/null 2>&1; then
    t_loop_fs ck 200M "-O ^has_journal" rw
    t_expect_status 0 "on a loop device" -- "$DISKIO" --pattern checkpoint --count 1024 \
        --size 4m --checkpoint-files 4 --checkpoint-pages 256 --output "$t_scratch/dev.json" \
        "$t_scratch/ck"
    "${PYTHON3:-python3}" - "$t_scratch/dev.json" "$t_loop_dev" <<'EOF' ||
import json, os, sys
run = json.load(open(sys.argv[1]))["runs"][0]
total, ck = run["device"]["total"], run["checkpoint"]
with open(f"/sys/block/{os.path.basename(sys.argv[2])}/queue/write_cache") as f:
    volatile = f.read().strip() == "write back"
print(f"   {ck['pages']} pages, {ck['file_syncs']} file syncs; device: {total['writes']} "
      f"writes, {total['write_sectors']} sectors, {total['flushes']} flushes")
ok = total["write_sectors"] >= ck["pages"] * 16 and \
    (not volatile or total["flushes"] >= ck["file_syncs"])
print(("ok: " if ok else "FAIL: ") + "every page reached the device, every file sync flushed it")
sys.exit(0 if ok else 1)
EOF
        t_fail "the device figures (above)"
else
    echo "note: not root (or no losetup, mkfs.ext4): the device part is skipped"
fi
t_done
