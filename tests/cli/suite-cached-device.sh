#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a suite marks what a memory-backed device answered, writes as reads; pg gives its WAL in us/op.
#
# On ext4 on a loop device over a file in tmpfs (every byte it reads or
# writes is memory), a suite of O_DIRECT writes, queued random writes
# and uncached reads runs in a smoke form: every run is backing_cached in
# the JSON, the writes as the reads (one rule for both), each cell of the
# view is marked '!', and one line under the view names every row and
# says what the device counters showed.  The pg suite, in a smoke form
# on the same filesystem, shows its WAL rows in us/op (their
# repetitions' mean latency, as the JSON gives it: one op is what a
# commit waits for) and its data rows in MB/s.  Needs root, losetup,
# mkfs.ext4 and a tmpfs (skipped otherwise).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
DISKIO_SUITE_PATH="${top_srcdir:-.}/suites"
export DISKIO_SUITE_PATH

t_loop_in_memory=1
t_loop_fs fs 96M
smoke="--suite-runs 2 --size 16m --runtime 0.1 --count 200 --warmup 1"

cat > "$t_scratch/cached.suite" <<'EOF'
suite cached
row "SEQ 256K" write --mode direct      --bs 256k
row "SEQ 256K" read  --mode direct-read --bs 256k
row "RND 4K"   write --mode aio         --bs 4k --pattern rand --iodepth 8
row "RND 4K"   read  --mode read        --bs 4k --pattern rand
EOF
# shellcheck disable=SC2086
t_expect_status 0 "a suite on a loop device over tmpfs" -- "$DISKIO" --suite "$t_scratch/cached.suite" \
    $smoke -o "$t_scratch/cached.json" "$t_scratch/fs"
sed -n '/^suite cached/,$p' "$t_scratch/stdout" > "$t_scratch/cached.view"
codes=$("$PYTHON3" -c 'import json, sys
doc = json.load(open(sys.argv[1]))
print(" ".join(sorted({r["mode"] for r in doc["runs"]
                       if any(v["code"] == "backing_cached" for v in r["verdicts"])})))' \
    "$t_scratch/cached.json")
[ "$codes" = "aio direct direct-read read" ] &&
    t_ok "every run, writes and reads, is backing_cached in the JSON" ||
    t_fail "backing_cached runs: '$codes'"
for label in "SEQ 256K" "RND 4K"; do
    marks=$(grep "^$label " "$t_scratch/cached.view" | grep -o "MB/s !" | wc -l)
    [ "$marks" -eq 2 ] && t_ok "$label: its write and its read are marked '!'" ||
        t_fail "$label: $marks marks: $(cat "$t_scratch/cached.view")"
done
note=$(grep "^  ! .*(backing_cached: " "$t_scratch/cached.view")
case $note in
"  ! SEQ 256K write, SEQ 256K read, RND 4K write, RND 4K read: uncached reads came from memory, or writes did not reach the disk in the run's time (backing_cached: "*)
    t_ok "one line under the view names every row and what the counters showed" ;;
*) t_fail "the note under the view: $(cat "$t_scratch/cached.view")" ;;
esac

# ---- the pg suite: commits in us/op ----
# shellcheck disable=SC2086
t_expect_status 0 "suite pg, smoke form" -- "$DISKIO" --suite pg $smoke -o "$t_scratch/pg.json" \
    "$t_scratch/fs"
sed -n '/^suite pg/,$p' "$t_scratch/stdout" > "$t_scratch/pg.view"
"$PYTHON3" - "$t_scratch/pg.json" "$t_scratch/pg.view" <<'PY' &&
import json, re, statistics, sys

doc = json.load(open(sys.argv[1]))
view = open(sys.argv[2], encoding="utf-8").read().splitlines()
rows = {(r["label"], r["column"]): doc["runs"][r["run"]] for r in doc["suite"]["rows"]}
for label in ("WAL 8K fdatasync", "WAL 8K open_datasync"):
    run = rows[(label, "write")]
    line = next(line for line in view if line.startswith(label + "  "))
    cell = re.search(r"([0-9.]+) ± ([0-9.]+) us/op", line)
    assert cell, (label, line)
    means = [rep["latency"]["total"]["mean"] / 1000.0 for rep in run["repetitions"]
             if rep["complete"]]
    assert abs(float(cell.group(1)) - statistics.mean(means)) <= 0.006, (label, line, means)
    assert "MB/s" not in line, (label, line)
for label in ("data 8K random", "SEQ 1M"):
    line = next(line for line in view if line.startswith(label + "  "))
    assert len(re.findall(r"[0-9.]+ ± [0-9.]+ MB/s", line)) == 2, (label, line)
print("ok: WAL rows in us/op as the JSON's repetitions give, data rows in MB/s")
PY
    t_ok "the pg suite's commits are in us/op" ||
    t_fail "the pg view: $(cat "$t_scratch/pg.view")"
t_done
