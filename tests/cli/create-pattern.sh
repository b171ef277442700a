#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --pattern create writes a new file from its first byte and ends when it reaches --size.
#
# --pattern create writes a new file from its first byte, as
# copying a file does: every run ends, complete (exit 0), when the file
# reaches --size (64 ops of 4 KiB in 256 KiB, though --count asks for
# 1000), in a synchronous mode and with aio at queue depth 4, and in
# every job's own file with --jobs 2 (one shared file is refused); it runs
# only on a file diskio creates (an existing file is a usage error, exit
# 2, even with --force).  On a journaled ext4 on a loop device made here,
# its fdatasync runs allocate: the device writes more sectors per op than
# an overwrite of the filled file does (the metadata of every new block),
# which an unfilled, really new file is the only way to get.  The loop
# part needs root, losetup and mkfs.ext4 (skipped otherwise).
. "${top_srcdir:-.}/tests/lib/cli.sh"

PYTHON3=${PYTHON3:-python3}

mkdir "$t_scratch/d"
t_expect_status 0 "create with fsync and aio at queue depth 4" -- "$DISKIO" --mode fsync,aio \
    --iodepth 4 --pattern create --bs 4k --size 256k --count 1000 --format json \
    --output "$t_scratch/create.json" "$t_scratch/d"
"$PYTHON3" - "$t_scratch/create.json" <<'PY' || t_fail "the create runs' JSON (above)"
import json, sys
bad = 0
for run in json.load(open(sys.argv[1]))["runs"]:
    ok = run["complete"] and run["ops"] == 64 and run["parameters"]["pattern"] == "create"
    print(("ok: " if ok else "FAIL: ") + f"{run['mode']}: {run['ops']} ops, complete "
          f"{run['complete']} (the file's 64 blocks, then the run ends)")
    bad += not ok
sys.exit(1 if bad else 0)
PY
t_expect_empty_dir "$t_scratch/d" "the test file is removed"
# several jobs: each creates its own file; on one shared file they would
# truncate it under each other
t_expect_status 0 "create with --jobs 2" -- "$DISKIO" --mode fdatasync --jobs 2 --pattern create \
    --bs 4k --size 256k --count 1000 --format json --output "$t_scratch/jobs.json" "$t_scratch/d"
grep -q '"ops": 128,' "$t_scratch/jobs.json" && t_ok "--jobs 2: each job wrote its 64 blocks" ||
    t_fail "--jobs 2: $(grep '"ops"' "$t_scratch/jobs.json" | head -3)"
t_expect_status 2 "create with --jobs 2 --shared-file" -- "$DISKIO" --mode fdatasync --jobs 2 \
    --shared-file --pattern create --count 5 "$t_scratch/d"
t_expect_empty_dir "$t_scratch/d" "the jobs' files are removed"

printf 'mine\n' >"$t_scratch/existing"
t_expect_status 2 "create on an existing file, even with --force" -- "$DISKIO" --force \
    --mode fsync --pattern create --count 5 "$t_scratch/existing"
grep -q -- "--pattern create truncates its file" "$t_scratch/stderr" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$t_scratch/existing")" = mine ] && t_ok "the existing file is untouched" ||
    t_fail "the existing file changed"

t_loop_fs fs 160M
for pattern in seq create; do
    t_expect_status 0 "fdatasync --pattern $pattern on a journaled ext4" -- "$DISKIO" \
        --mode fdatasync --pattern $pattern --bs 8k --size 4m --count 400 --warmup 0 \
        --format json --output "$t_scratch/fs-$pattern.json" "$t_scratch/fs"
done
"$PYTHON3" - "$t_scratch" <<'PY' || t_fail "create allocates (above)"
import json, os, sys
def sectors(p):
    run = json.load(open(os.path.join(sys.argv[1], f"fs-{p}.json")))["runs"][0]
    t = run["device"]["total"]
    return run["ops"], t["write_sectors"] / run["ops"], t["writes_per_op"]
seq, create = sectors("seq"), sectors("create")
print(f"   overwrite: {seq[1]:.1f} sectors/op, {seq[2]:.2f} writes/op; "
      f"create: {create[1]:.1f} sectors/op, {create[2]:.2f} writes/op ({create[0]} ops)")
ok = create[0] == 400 and create[1] > 1.5 * seq[1]
print(("ok: " if ok else "FAIL: ") + "create writes more per op than an overwrite (allocation)")
sys.exit(0 if ok else 1)
PY
t_done
