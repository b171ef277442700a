#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every overwriting run measures overwrites, never allocations, whatever file it starts from.
#
# every overwriting run measures overwrites, never
# allocations: with --force on an existing fallocate()d file (unwritten
# extents) or a sparse one, and for every size of a --bs sweep, diskio
# fills the range first, so on a journaled ext4 (a loop device made here)
# the device sees the block's sectors and one flush per fdatasync, no
# journal commit per op (issue 10, item 4).  Needs root, losetup,
# mkfs.ext4 and fallocate; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}

for tool in fallocate "$PYTHON3"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
t_loop_fs mnt 160M
loop=$t_loop_dev
mnt="$t_scratch/mnt"

fallocate -l 8M "$mnt/fallocated"
truncate -s 8M "$mnt/sparse"
fallocate -l 8M "$mnt/swept"
sync

t_expect_status 0 "--force on a fallocated file" -- "$DISKIO" --force --mode fdatasync --bs 8k \
    --size 8M --count 300 --format json --output "$t_scratch/falloc.json" "$mnt/fallocated"
t_expect_status 0 "--force on a sparse file" -- "$DISKIO" --force --mode fdatasync --bs 8k \
    --size 8M --count 300 --format json --output "$t_scratch/sparse.json" "$mnt/sparse"
t_expect_status 0 "--force on a fallocated file, --bs 4k,64k" -- "$DISKIO" --force \
    --mode fdatasync --bs 4k,64k --size 8M --count 300 --format json \
    --output "$t_scratch/sweep.json" "$mnt/swept"

"$PYTHON3" - "$t_scratch/falloc.json" "$t_scratch/sparse.json" "$t_scratch/sweep.json" <<'PY' &&
import json, sys
bad = 0
for path in sys.argv[1:]:
    for r in json.load(open(path))["runs"]:
        dev, ops, bs = r["device"], r["ops"], r["parameters"]["block_size"]
        assert dev is not None, "no device figures"
        t = dev["total"]
        sectors = t["write_sectors"] / ops
        print("%s %d B: %.2f device writes/op, %.1f sectors/op (the block is %d), flushes/op %s"
              % (path.rsplit("/", 1)[-1], bs, t["writes_per_op"], sectors, bs // 512,
                 t["flushes_per_op"]))
        # an overwrite: the block itself and one flush per fdatasync; an
        # allocating write adds a journal commit (journal blocks and a
        # flush of their own) to every sync
        flushes = t["flushes_per_op"]
        if sectors > 1.25 * bs / 512 or (flushes is not None and flushes > 1.1):
            print("  -> allocating writes: the range was not filled before the run")
            bad += 1
sys.exit(1 if bad else 0)
PY
    t_ok "every run measured overwrites" || t_fail "timed writes allocated"

t_done
