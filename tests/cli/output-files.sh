#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: output and trace files: an existing output is never
# overwritten without --force; an unwritable output directory is found
# before measuring (exit 3, no test file made, the message naming the path
# given, never its temporary); results appear whole under
# their name (no temporary left); the trace has one CSV row per op.
. "${top_srcdir:-.}/tests/cli/lib.sh"

dir="$t_scratch/dir"
mkdir "$dir"
echo "old result" > "$t_scratch/r.json"
t_expect_status 3 "existing output refused" -- "$DISKIO" --count 5 --output "$t_scratch/r.json" "$dir"
grep -q "already exists" "$t_scratch/stderr" || t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$t_scratch/r.json")" = "old result" ] && t_ok "existing output untouched" ||
    t_fail "existing output changed"
t_expect_empty_dir "$dir" "nothing created when the output is refused"

t_expect_status 0 "--force replaces output" -- "$DISKIO" --count 5 -m fsync --quiet --force \
    --output "$t_scratch/r.json" "$dir"
grep -q '"schema": "diskio-result"' "$t_scratch/r.json" && t_ok "replaced with a result" ||
    t_fail "output not replaced"

start=$(date +%s)
t_expect_status 3 "missing output directory found before the run" -- "$DISKIO" --runtime 30 \
    --output "$t_scratch/no-such-dir/r.json" "$dir"
[ $(( $(date +%s) - start )) -lt 10 ] && t_ok "refused before measuring" || t_fail "measured first"
grep -q "no-such-dir" "$t_scratch/stderr" || t_fail "message does not name the path"
grep -q "cannot create $t_scratch/no-such-dir/r.json: " "$t_scratch/stderr" &&
    ! grep -q "\.tmp\." "$t_scratch/stderr" && t_ok "message names the path given, not a temporary" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$dir" "no test file after output refusal"

t_expect_status 0 "trace, one run" -- "$DISKIO" --mode fsync --count 300 --quiet \
    --trace "$t_scratch/trace.csv" "$dir"
rows=$(($(wc -l < "$t_scratch/trace.csv") - 1))
[ "$rows" -eq 300 ] && t_ok "trace has 300 rows for 300 ops" || t_fail "trace rows: $rows"
[ "$(head -n 1 "$t_scratch/trace.csv")" = "op,start_ns,latency_ns,write_ns,sync_ns" ] &&
    t_ok "trace header" || t_fail "trace header: $(head -n 1 "$t_scratch/trace.csv")"
t_expect_status 3 "existing trace refused" -- "$DISKIO" --mode fsync --count 3 \
    --trace "$t_scratch/trace.csv" "$dir"
[ "$(wc -l < "$t_scratch/trace.csv")" -eq 301 ] && t_ok "existing trace untouched" ||
    t_fail "existing trace changed"

t_expect_status 0 "trace, two runs" -- "$DISKIO" --mode fsync,aio --iodepth 4 --count 300 \
    --quiet --trace "$t_scratch/ops.csv" --output "$t_scratch/t.csv" "$dir"
for run in fsync-8192 aio-8192; do
    f="$t_scratch/ops.$run.csv"
    rows=$(($(wc -l < "$f") - 1))
    [ "$rows" -eq 300 ] && t_ok "trace $run has 300 rows" || t_fail "trace $run rows: $rows"
done
[ -e "$t_scratch/ops.csv" ] && t_fail "a trace under the plain name with several runs"
head -n 1 "$t_scratch/t.csv" | grep -q '^label,mode,block_size' && t_ok ".csv output is CSV" ||
    t_fail ".csv output format"
ls "$t_scratch"/*.tmp.* >/dev/null 2>&1 && t_fail "temporary files left"
t_expect_empty_dir "$dir" "test file removed"
t_done
