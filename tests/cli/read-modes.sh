#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the read modes read what was written, and mode read is uncached unless --cached.
#
# Every read mode (read, direct-read, aio-read, uring-read), sequential
# and random, runs to the end with --verify (every block read is checked
# against the fill); a file corrupted on the storage after the fill (one
# byte, by tests/lib/fault-preload.c) fails the run with exit 1 and a
# message naming the check, in the buffered and the O_DIRECT read, and in
# a job's own file with --jobs 2; options that make no sense for reads are
# usage errors (exit 2).  Then, on an ext4 on a loop device made here (its
# image in memory, so that the device counts only this test's I/O), the
# device counters say what the reads did: random 4 KiB reads of mode read
# and direct-read are about one 4 KiB device read each, sequential ones
# read every byte from the device (readahead makes fewer, larger
# requests), --cached reads nothing from the device, and no read run is
# called "syncs did not reach the device" or "shared" (not even one
# shorter than what readahead fetches beyond it).  The loop part needs
# root, losetup and mkfs.ext4 (skipped otherwise).
. "${top_srcdir:-.}/tests/lib/cli.sh"

PYTHON3=${PYTHON3:-python3}
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
# the O_DIRECT modes read where the filesystem takes O_DIRECT
t_direct_dir
t_uring_probe
direct=" $(t_modes direct | paste -sd' ' -) "
where() {
    case $direct in *" $1 "*) echo "$t_direct" ;; *) echo "$t_scratch" ;; esac
}

# ---- every read mode, checked block by block ----
for mode in read direct-read aio-read uring-read; do
    if [ "$mode" = uring-read ] && [ -n "$t_uring_why" ]; then
        echo "note: uring-read: $t_uring_why"
        continue
    fi
    for pattern in seq rand; do
        target="$(where $mode)/$mode-$pattern"
        mkdir "$target"
        depth=1
        case $mode in aio-read | uring-read) depth=4 ;; esac
        "$DISKIO" --mode "$mode" --pattern "$pattern" --bs 4k --size 1m --count 600 --iodepth $depth \
            --verify --quiet --output "$t_scratch/$mode-$pattern.json" \
            "$target" 2>"$t_scratch/stderr"
        rc=$?
        [ $rc -eq 0 ] && t_ok "$mode $pattern: 600 reads, every block verified" ||
            t_fail "$mode $pattern --verify: exit $rc: $(cat "$t_scratch/stderr")"
        t_expect_empty_dir "$target" "$mode $pattern: the test file is removed"
    done
done
# the runs' own words: direction, ops, bytes read
"$PYTHON3" - "$t_scratch" <<'EOF' || t_fail "the read runs' JSON (above)"
import glob, json, os, sys
bad = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*-*.json"))):
    run = json.load(open(path))["runs"][0]
    p = run["parameters"]
    ok = (p["direction"] == "read" and p["verify"] is True and run["ops"] == 600
          and run["bytes"] == 600 * 4096 and run["complete"])
    print(("ok: " if ok else "FAIL: ") + f"{run['mode']} {p['pattern']}: direction "
          f"{p['direction']}, {run['ops']} ops, {run['bytes']} bytes")
    bad += not ok
sys.exit(1 if bad else 0)
EOF

# ---- a corrupted file fails the check ----
if [ -f "$preload" ]; then
    for mode in read direct-read; do
        mkdir "$(where $mode)/corrupt-$mode"
        # block 5 of 4 KiB, byte 100: the sixth read of a sequential run
        LD_PRELOAD="$preload" DISKIO_TEST_CORRUPT_AFTER_SYNC=1 \
            DISKIO_TEST_CORRUPT_OFFSET=$((5 * 4096 + 100)) \
            "$DISKIO" --mode "$mode" --bs 4k --size 256k --count 40 --warmup 0 --verify \
            --quiet --output "$t_scratch/corrupt-$mode.json" "$(where $mode)/corrupt-$mode" \
            >"$t_scratch/stdout" 2>"$t_scratch/stderr"
        rc=$?
        [ $rc -eq 1 ] && t_ok "$mode: a corrupted block fails the run (exit 1)" ||
            t_fail "$mode: corrupted file: exit $rc, expected 1: $(cat "$t_scratch/stderr")"
        grep -q "verify failed at op 5: The data read back differs from what was written (the block at byte 20480)" \
            "$t_scratch/stderr" && t_ok "$mode: the message names the check and the op" ||
            t_fail "$mode: message: $(cat "$t_scratch/stderr")"
        grep -q '"during": "verify"' "$t_scratch/corrupt-$mode.json" &&
            grep -q '"ops": 5,' "$t_scratch/corrupt-$mode.json" &&
            t_ok "$mode: the partial result keeps the 5 good reads" ||
            t_fail "$mode: partial result: $(cat "$t_scratch/corrupt-$mode.json")"
    done
    # several jobs (--jobs): each job's file is its own fill, checked too
    mkdir "$t_scratch/corrupt-jobs"
    LD_PRELOAD="$preload" DISKIO_TEST_CORRUPT_AFTER_SYNC=1 \
        DISKIO_TEST_CORRUPT_OFFSET=$((5 * 4096 + 100)) \
        "$DISKIO" --mode read --jobs 2 --bs 4k --size 256k --count 40 --warmup 0 --verify \
        --quiet "$t_scratch/corrupt-jobs" >"$t_scratch/stdout" 2>"$t_scratch/stderr"
    rc=$?
    [ $rc -eq 1 ] && grep -q "job 0 of 2: verify failed at its op 5" "$t_scratch/stderr" &&
        t_ok "--jobs 2: the corrupted block of job 0's file fails the run (exit 1)" ||
        t_fail "--jobs 2, corrupted file: exit $rc: $(cat "$t_scratch/stderr")"
else
    t_unbuilt "$preload"
fi
mkdir "$t_direct/jobs"
t_expect_status 0 "--jobs 2: every job's reads verified" -- "$DISKIO" --mode read,aio-read \
    --iodepth 2 --jobs 2 --pattern rand --bs 4k --size 1m --count 300 --verify "$t_direct/jobs"
t_expect_empty_dir "$t_direct/jobs" "--jobs 2: the jobs' files are removed"

# ---- what makes no sense for reads ----
mkdir "$t_scratch/usage"
t_expect_status 2 "--pattern append with mode read" -- "$DISKIO" --mode read --pattern append \
    --count 5 "$t_scratch/usage"
grep -q -- "--pattern append: the read modes read the filled file" "$t_scratch/stderr" ||
    t_fail "append with read: message: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--pattern create with mode aio-read" -- "$DISKIO" --mode aio-read \
    --pattern create --count 5 "$t_scratch/usage"
t_expect_status 2 "--cached without mode read" -- "$DISKIO" --mode direct-read --cached \
    --count 5 "$t_scratch/usage"
t_expect_status 2 "--verify without a read mode" -- "$DISKIO" --mode fsync --verify --count 5 \
    "$t_scratch/usage"
t_expect_status 2 "--iodepth with only synchronous reads" -- "$DISKIO" --mode read,direct-read \
    --iodepth 4 --count 5 "$t_scratch/usage"
t_expect_empty_dir "$t_scratch/usage" "usage errors create nothing"

# ---- uncached or not: the device counters on a loop-mounted ext4 ----
# The loop device's image is in memory: nothing but this test's runs does
# I/O on it, so a run called 'shared' is diskio's misjudgement of its own
# I/O, never a neighbour's.
t_loop_in_memory=1
t_loop_fs fs 160M
name=${t_loop_dev#/dev/}
run() { # OUT ARGS...: one run on the loop filesystem into $t_scratch/fs-OUT.json
    out=$1; shift
    t_expect_status 0 "$out" -- "$DISKIO" --bs 4k --size 64m --warmup 0 --format json \
        --output "$t_scratch/fs-$out.json" "$@" "$t_scratch/fs"
}
run read-rand --mode read --pattern rand --count 400
run read-seq --mode read --pattern seq --count 4000
# a few reads: what readahead fetched beyond them is still the run's
run read-short --mode read --pattern seq --count 20
run read-cached --mode read --pattern rand --count 400 --cached
run direct-rand --mode direct-read --pattern rand --count 400
run aio-rand --mode aio-read --pattern rand --count 400 --iodepth 4

"$PYTHON3" - "$t_scratch" "$name" <<'EOF' || t_fail "device reads per op (above)"
import json, os, sys
scratch, name = sys.argv[1:]
failures = 0
def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += not cond
def run(n):
    return json.load(open(os.path.join(scratch, "fs-" + n + ".json")))["runs"][0]
for n in ("read-rand", "read-seq", "read-short", "read-cached", "direct-rand", "aio-rand"):
    r = run(n)
    t = r["device"]["total"]
    codes = [v["code"] for v in r["verdicts"]]
    print(f"   {n}: {t['reads_per_op']:.3f} device reads/op, {t['kib_per_read']} KiB/read, "
          f"{t['read_merges_per_op']:.3f} merges/op, {t['writes_per_op']:.3f} writes/op, "
          f"verdicts {codes}")
    check([d["name"] for d in r["device"]["devices"]] == [name], f"{n}: counted on {name} alone")
    check("sync_not_flushed" not in codes and "shared" not in codes,
          f"{n}: neither 'sync_not_flushed' nor 'shared'")
# random 4 KiB reads of 16384 blocks: 400 draws repeat a block a few
# times at most (served from the cache by mode read), never 10%
for n in ("read-rand", "direct-rand", "aio-rand"):
    t = run(n)["device"]["total"]
    check(0.9 <= t["reads_per_op"] <= 1.1, f"{n}: about one device read per op")
    check(t["kib_per_read"] is not None and 3.9 <= t["kib_per_read"] <= 4.5,
          f"{n}: of about 4 KiB each")
seq = run("read-seq")
t = seq["device"]["total"]
check(t["read_sectors"] * 512 >= 0.95 * seq["bytes"],
      "read seq: every byte read came from the device (uncached)")
check(t["reads_per_op"] <= 1.0, "read seq: readahead makes fewer, larger device reads")
cached = run("read-cached")["device"]["total"]
check(cached["reads_per_op"] < 0.02, "read --cached: (almost) no device read")
sys.exit(1 if failures else 0)
EOF
t_done
