#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: outputs are published without RENAME_NOREPLACE too, never replacing a file.
#
# output files on a filesystem without RENAME_NOREPLACE
# (sshfs and other FUSE filesystems answer EINVAL; simulated here by a
# test preload, as no such filesystem can be mounted in a test): the
# result and the traces are put in place with link() and unlink(), whole,
# with no temporary left; a file that appears under the output name
# during the run is never replaced (exit 1, the complete result kept under
# its temporary name, which the message gives); where hard links are not
# supported either, the message says so and names the kept file.  No
# message blames the run for it.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }
preload="${top_builddir:-.}/tests/.libs/norename-preload.so"
[ -f "$preload" ] || { echo "SKIP: $preload not built"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
quick="-m fsync --size 64k --count 20"

whole_result() { # file nruns [complete: True (default) or False]
    "$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert str(d["complete"]) == sys.argv[3] and len(d["runs"]) == int(sys.argv[2]), d
assert all(r["ops"] > 0 for r in d["runs"])' "$1" "$2" "${3:-True}"
}

t_expect_status 0 "result and traces put in place without RENAME_NOREPLACE" -- \
    env LD_PRELOAD="$preload" "$DISKIO" -q -m fsync,fdatasync --size 64k --count 20 \
    --output "$t_scratch/r.json" --trace "$t_scratch/ops.csv" "$dir"
grep -q "norename-preload: 3 renames without replacing refused" "$t_scratch/stderr" &&
    t_ok "the preload refused the three renames" || t_fail "preload: $(cat "$t_scratch/stderr")"
whole_result "$t_scratch/r.json" 2 && t_ok "the result is whole" || t_fail "result"
for run in fsync-8192 fdatasync-8192; do
    [ "$(wc -l <"$t_scratch/ops.$run.csv")" -eq 21 ] && t_ok "trace $run is whole" ||
        t_fail "trace $run"
done
ls "$t_scratch"/*.tmp.* >/dev/null 2>&1 && t_fail "temporary files left" ||
    t_ok "no temporary left"

# a file planted under the output name during the run is left alone
env LD_PRELOAD="$preload" "$DISKIO" -m fsync --size 64k --runtime 2 \
    --output "$t_scratch/planted.json" "$dir" >"$t_scratch/stdout" 2>"$t_scratch/stderr" &
pid=$!
t_wait_for_file "$dir"
echo "not diskio's" >"$t_scratch/planted.json"
wait $pid
status=$?
[ "$status" -eq 1 ] && t_ok "planted output: exit 1" || t_fail "planted output: exit $status"
[ "$(cat "$t_scratch/planted.json")" = "not diskio's" ] && t_ok "planted file not replaced" ||
    t_fail "planted file replaced"
kept=$(ls "$t_scratch"/planted.json.tmp.* 2>/dev/null)
[ -n "$kept" ] && whole_result "$kept" 1 && t_ok "the complete result kept under $kept" ||
    t_fail "no complete result kept: $(ls "$t_scratch")"
grep -q "$t_scratch/planted.json appeared during the run.*left alone" "$t_scratch/stderr" &&
    grep -q "the complete file is $kept" "$t_scratch/stderr" &&
    t_ok "message names the planted file and the kept one" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q "failed at op" "$t_scratch/stderr" && t_fail "message blames the run"
rm -f "$kept"

# neither RENAME_NOREPLACE nor hard links: said so, the complete result kept
# (marked incomplete: a trace that could not be saved ends diskio as a
# failed run does)
t_expect_status 1 "no RENAME_NOREPLACE, no hard links" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_NO_LINK=1 "$DISKIO" -q $quick --output "$t_scratch/nolink.json" \
    --trace "$t_scratch/nolink.csv" "$dir"
[ -e "$t_scratch/nolink.json" ] && t_fail "an output appeared under its name"
kept=$(ls "$t_scratch"/nolink.json.tmp.* 2>/dev/null)
[ -n "$kept" ] && whole_result "$kept" 1 False && t_ok "the complete result kept under $kept" ||
    t_fail "no complete result kept: $(ls "$t_scratch")"
grep -q "cannot put $t_scratch/nolink.json in place: its filesystem supports neither" \
    "$t_scratch/stderr" && grep -q "the complete file is $kept" "$t_scratch/stderr" &&
    grep -q -- "--force" "$t_scratch/stderr" &&
    t_ok "message says why, names the kept file and what to do" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q "cannot put $t_scratch/nolink.csv in place" "$t_scratch/stderr" &&
    t_ok "the trace's message names the trace" || t_fail "message: $(cat "$t_scratch/stderr")"
grep -q "failed at op" "$t_scratch/stderr" && t_fail "message blames the run"
rm -f "$t_scratch"/nolink.*

# --force replaces with a plain rename, which such filesystems support
echo old >"$t_scratch/forced.json"
t_expect_status 0 "--force without RENAME_NOREPLACE" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_NO_LINK=1 "$DISKIO" -q $quick --force --output "$t_scratch/forced.json" "$dir"
whole_result "$t_scratch/forced.json" 1 && t_ok "--force replaced the file" || t_fail "forced"
t_expect_empty_dir "$dir" "test files removed"

# diskio keeps its pid across exec: the temporary's name is known in advance
echo precious >"$t_scratch/victim"
t_expect_status 3 "symlink planted at FILE.tmp.PID" -- env LD_PRELOAD="$preload" sh -c \
    'ln -s "$0/victim" "$0/tmpplanted.json.tmp.$$" && exec "$@"' "$t_scratch" "$DISKIO" \
    --count 5 --output "$t_scratch/tmpplanted.json" "$dir"
[ "$(cat "$t_scratch/victim")" = "precious" ] && t_ok "not written through the planted symlink" ||
    t_fail "written through the planted symlink"
[ -e "$t_scratch/tmpplanted.json" ] && t_fail "an output appeared"
grep -q "temporary name $t_scratch/tmpplanted.json.tmp.[0-9]* is taken" "$t_scratch/stderr" &&
    t_ok "message names the planted temporary" || t_fail "message: $(cat "$t_scratch/stderr")"
rm -f "$t_scratch"/tmpplanted.json.tmp.*
t_expect_empty_dir "$dir" "nothing measured after a planted temporary"
t_done
