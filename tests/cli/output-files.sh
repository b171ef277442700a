#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: output and trace files are never overwritten without --force, and checked before a run.
#
# output and trace files: an existing output is never
# overwritten without --force; an output directory that cannot be made is
# found before measuring (exit 3, no test file made, the message naming the path
# given, never its temporary); results appear whole under
# their name (no temporary left); the trace has one CSV row per op.
# Against whoever else can write to the output directory: a symlink at
# the output name is refused even with --force, one planted at the
# predictable temporary name DIR/.FILE.diskio-tmp.PID is not written
# through (with --force the message names that file, not the output), and
# a file that appears under the output name during the run is never
# replaced (the complete result stays under its temporary name, which the
# message gives).
. "${top_srcdir:-.}/tests/lib/cli.sh"

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

# (a run of 300 s: refused within a minute, it was refused before it)
start=$(date +%s)
echo "a file" > "$t_scratch/not-a-dir"
t_expect_status 3 "an output directory that is a file found before the run" -- "$DISKIO" \
    --runtime 300 --output "$t_scratch/not-a-dir/r.json" "$dir"
[ $(( $(date +%s) - start )) -lt 60 ] && t_ok "refused before measuring" || t_fail "measured first"
grep -q "not-a-dir" "$t_scratch/stderr" || t_fail "message does not name the path"
grep -q "cannot create $t_scratch/not-a-dir/r.json: " "$t_scratch/stderr" &&
    ! grep -q "diskio-tmp" "$t_scratch/stderr" && t_ok "message names the path given, not a temporary" ||
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
ls -A "$t_scratch" | grep -q "diskio-tmp" && t_fail "temporary files left"
t_expect_empty_dir "$dir" "test file removed"

# ---- others who can write to the output directory ----
echo "precious" >"$t_scratch/victim"
ln -s victim "$t_scratch/link.json"
t_expect_status 3 "symlink at the output name refused, even with --force" -- "$DISKIO" \
    --force --count 5 --output "$t_scratch/link.json" "$dir"
[ "$(cat "$t_scratch/victim")" = "precious" ] && [ -L "$t_scratch/link.json" ] &&
    t_ok "symlink and its target untouched" || t_fail "symlink or its target changed"
t_expect_empty_dir "$dir" "nothing measured after a refused symlink"

# diskio keeps its pid across exec, so its temporary name
# DIR/.FILE.diskio-tmp.PID is known in advance: a symlink planted there is
# left alone, as the output is written unnamed (O_TMPFILE) and named only
# when whole (the filesystems without O_TMPFILE:
# tests/cli/output-without-rename-noreplace.sh)
t_expect_status 0 "symlink planted at the temporary name" -- sh -c \
    'ln -s "$0/victim" "$0/.planted.json.diskio-tmp.$$" && exec "$@"' "$t_scratch" "$DISKIO" \
    --count 5 --output "$t_scratch/planted.json" "$dir"
[ "$(cat "$t_scratch/victim")" = "precious" ] && t_ok "not written through the planted symlink" ||
    t_fail "written through the planted symlink"
[ "$(ls -d "$t_scratch"/.planted.json.diskio-tmp.* | wc -l)" -eq 1 ] &&
    [ -L "$t_scratch"/.planted.json.diskio-tmp.* ] &&
    t_ok "the planted symlink left as it was" || t_fail "the planted symlink changed"
grep -q '"complete": true' "$t_scratch/planted.json" && [ ! -L "$t_scratch/planted.json" ] &&
    t_ok "the result written under its own name" || t_fail "no result under its name"
rm -f "$t_scratch"/.planted.json.diskio-tmp.* "$t_scratch/planted.json"

# --force replaces the output by renaming the whole file over it from its
# temporary name: a file planted there is left alone, and the message
# names it, not the output (exit 1, the result on standard output instead)
echo "old result" >"$t_scratch/forced.json"
t_expect_status 1 "--force with a file planted at the temporary name" -- sh -c \
    'echo planted >"$0/.forced.json.diskio-tmp.$$" && exec "$@"' "$t_scratch" "$DISKIO" \
    -q -m fsync --count 5 --force --output "$t_scratch/forced.json" "$dir"
grep -q "could not replace $t_scratch/forced.json: its temporary name $t_scratch/.forced.json.diskio-tmp.[0-9]* is taken by a file diskio did not make" \
    "$t_scratch/stderr" && t_ok "the message names the planted temporary" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$t_scratch/forced.json")" = "old result" ] &&
    [ "$(cat "$t_scratch"/.forced.json.diskio-tmp.*)" = "planted" ] &&
    t_ok "the output and the planted file left as they were" || t_fail "changed"
grep -q '"schema": "diskio-result"' "$t_scratch/stdout" &&
    t_ok "the result written to standard output instead" || t_fail "result lost"
rm -f "$t_scratch"/.forced.json.diskio-tmp.* "$t_scratch/forced.json"
t_expect_empty_dir "$dir" "nothing left in the target after a planted temporary"

# SIGKILL mid-run: no process survives to clean up, and none is needed
# for the output: it has no name until it is whole
mkdir "$t_scratch/killed"
"$DISKIO" -q -m fsync --size 64k --runtime 20 --output "$t_scratch/killed.json" \
    "$t_scratch/killed" >/dev/null 2>&1 &
pid=$!
t_wait_for_file "$t_scratch/killed"
kill -KILL $pid
wait $pid 2>/dev/null
left=$(ls -d "$t_scratch"/killed.json* "$t_scratch"/.killed.json* 2>/dev/null)
[ -z "$left" ] && t_ok "SIGKILL mid-run leaves no output file, named or temporary" ||
    t_fail "SIGKILL left $left"
rm -rf "$t_scratch/killed" "$t_scratch"/killed.json*

"$DISKIO" -m fsync --size 64k --runtime 2 --output "$t_scratch/race.json" "$dir" \
    >"$t_scratch/stdout" 2>"$t_scratch/stderr" &
pid=$!
t_wait_for_file "$dir"
echo "theirs" >"$t_scratch/race.json"
wait $pid
status=$?
[ "$status" -eq 1 ] && [ "$(cat "$t_scratch/race.json")" = "theirs" ] &&
    t_ok "a file appearing under the output name during the run is not replaced (exit 1)" ||
    t_fail "appeared during the run: exit $status, $(cat "$t_scratch/race.json")"
kept=$(ls -d "$t_scratch"/.race.json.diskio-tmp.* 2>/dev/null)
[ -n "$kept" ] && grep -q '"schema": "diskio-result"' "$kept" &&
    grep -q "race.json appeared during the run.*the complete file is $kept" "$t_scratch/stderr" &&
    t_ok "the complete result kept under the temporary name the message gives" ||
    t_fail "kept: '$kept'; $(cat "$t_scratch/stderr")"
rm -f "$t_scratch"/.race.json.diskio-tmp.*
t_expect_empty_dir "$dir" "test file removed after the race"
t_done
