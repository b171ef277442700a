#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every output and trace name is checked before anything is measured.
#
# everything about the output and trace names is checked
# before anything is measured: a mode or block size listed twice is a
# usage error (exit 2: its trace would replace the first run's); any two
# of the files diskio writes (--output, --interval-csv, each run's trace,
# the test file when the target is a file) that are one file, however
# spelled or through a hard link, are a usage error (--force too); a per-run trace name too long for its filesystem (with the
# .NAME.diskio-tmp.PID diskio writes it under) is refused with exit 3.  All are found
# within seconds, with nothing created, no test file made and existing files (with
# --force too) untouched.
. "${top_srcdir:-.}/tests/lib/cli.sh"

dir="$t_scratch/dir"
out="$t_scratch/out"
mkdir "$dir" "$out"
long_run="--runtime 300"

# Expect STATUS within 60 s of a 300 s run (nothing measured), nothing in $dir or $out
# but what was there.  Usage: refused_first STATUS WHAT -- diskio-args...
refused_first() {
    want=$1; what=$2; shift 3
    before=$(ls -A "$out" | tr '\n' ' ')
    start=$(date +%s)
    t_expect_status "$want" "$what" -- "$DISKIO" $long_run "$@"
    [ $(($(date +%s) - start)) -lt 60 ] || t_fail "$what: refused only after measuring"
    t_expect_empty_dir "$dir" "$what: no test file"
    [ "$(ls -A "$out" | tr '\n' ' ')" = "$before" ] || t_fail "$what: files changed in $out: $(ls -A "$out")"
}

refused_first 2 "a mode listed twice" -- --mode fsync,fdatasync,fsync "$dir"
grep -q "\-\-mode: fsync is listed twice" "$t_scratch/stderr" && t_ok "message names the mode" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
refused_first 2 "'all' and a mode" -- --mode all,osync "$dir"
refused_first 2 "a block size listed twice" -- --mode fsync --bs 8k,4k,8192 "$dir"
grep -q "\-\-bs: 8192 is listed twice" "$t_scratch/stderr" &&
    t_ok "message names the size" || t_fail "message: $(cat "$t_scratch/stderr")"

# with --force, existing traces stay: no second run replaces the first's
echo "first" >"$out/t.fsync-8192.csv"
refused_first 2 "a mode twice, with --force and existing traces" -- --force \
    --mode fsync,fsync --trace "$out/t.csv" "$dir"
[ "$(cat "$out/t.fsync-8192.csv")" = "first" ] && t_ok "existing trace untouched" ||
    t_fail "existing trace changed"
rm -f "$out/t.fsync-8192.csv"

# --output is one run's trace
refused_first 2 "--output is a run's trace" -- --mode fsync,fdatasync \
    --trace "$out/t.csv" --output "$out/t.fdatasync-8192.csv" "$dir"
grep -q "t.fdatasync-8192.csv" "$t_scratch/stderr" && grep -q -- "--output" "$t_scratch/stderr" &&
    t_ok "message names the file and both options" || t_fail "message: $(cat "$t_scratch/stderr")"
# the same file spelled two ways, one run
refused_first 2 "--output and --trace one file, spelled differently" -- --mode fsync \
    --trace "$out/r.csv" --output "$out/../out/./r.csv" "$dir"
ln -s "$out" "$t_scratch/link"
refused_first 2 "--output and --trace one file, through a symlinked directory" -- --mode fsync \
    --force --trace "$out/r.csv" --output "$t_scratch/link/r.csv" "$dir"

# the --interval-csv file is a trace, with --force too: the CSV would
# replace the trace
echo "a trace" >"$out/x.csv"
refused_first 2 "--trace and --interval-csv one file, with --force" -- --mode fsync --force \
    --interval 0.1 --trace "$out/x.csv" --interval-csv "$out/./x.csv" "$dir"
grep -q -- "--interval-csv" "$t_scratch/stderr" && grep -q -- "--trace" "$t_scratch/stderr" &&
    t_ok "message names both options" || t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$out/x.csv")" = "a trace" ] && t_ok "the existing trace untouched" || t_fail "changed"
rm -f "$out/x.csv"
refused_first 2 "--interval-csv is a run's trace" -- --mode fsync,fdatasync --interval 0.1 \
    --trace "$out/t.csv" --interval-csv "$out/t.fsync-8192.csv" "$dir"
grep -q "t.fsync-8192.csv" "$t_scratch/stderr" && t_ok "message names the run's trace" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
refused_first 2 "--interval-csv is --output" -- --mode fsync --interval 0.1 \
    --output "$out/r.csv" --interval-csv "$t_scratch/link/r.csv" "$dir"
# two names of one existing file (a hard link), with --force
echo "one file" >"$out/a.json"
ln "$out/a.json" "$out/b.csv"
refused_first 2 "--output and --interval-csv two names of one file, with --force" -- \
    --mode fsync --force --interval 0.1 --output "$out/a.json" --interval-csv "$out/b.csv" "$dir"
grep -q "a.json and .*b.csv are the same file" "$t_scratch/stderr" &&
    t_ok "message names both files" || t_fail "message: $(cat "$t_scratch/stderr")"
rm -f "$out/a.json" "$out/b.csv"
# the test file itself (an existing file, --force) as the output
echo "the user's file" >"$out/target"
before=$(ls -A "$out" | tr '\n' ' ')
start=$(date +%s)
t_expect_status 2 "--output is the target file, with --force" -- "$DISKIO" $long_run --force \
    --mode fsync --size 64k --output "$out/target" "$out/target"
[ "$(cat "$out/target")" = "the user's file" ] && t_ok "the target untouched" || t_fail "changed"
grep -q "the test file .*target (the target)" "$t_scratch/stderr" &&
    t_ok "message names the target" || t_fail "message: $(cat "$t_scratch/stderr")"
rm -f "$out/target"

# a per-run name too long (the plain name fits; with .fdatasync-8192 and
# the .diskio-tmp.PID of its temporary name it is over 255 bytes)
name=$(printf '%0230d' 0)
refused_first 3 "a per-run trace name too long" -- --mode fsync,fdatasync \
    --trace "$out/$name.csv" "$dir"
grep -q "$name\.f[a-z]*sync-8192\.csv" "$t_scratch/stderr" && grep -q "File name too long" \
    "$t_scratch/stderr" && grep -q "shorter" "$t_scratch/stderr" &&
    t_ok "message names the long name and what to do" || t_fail "message: $(cat "$t_scratch/stderr")"

# distinct names still run
t_expect_status 0 "distinct names run" -- "$DISKIO" -q --mode fsync,fdatasync --bs 4k,8k \
    --size 64k --count 5 --trace "$out/t.csv" --output "$out/r.json" "$dir"
[ "$(ls "$out" | wc -l)" -eq 5 ] && t_ok "four traces and the result" || t_fail "$(ls "$out")"
t_done
