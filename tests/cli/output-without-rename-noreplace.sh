#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: outputs are published without RENAME_NOREPLACE too, never replacing a file.
#
# output files on a filesystem without O_TMPFILE and
# RENAME_NOREPLACE (sshfs and other FUSE filesystems answer EINVAL;
# simulated here by a test preload, as no such filesystem can be mounted
# in a test): the result and the traces, written under a hidden temporary
# name, are published by their descriptor (linkat), whole, with no
# temporary left; a file or symlink swapped in for the temporary name
# during the run is never published (the result under its name is
# diskio's own) and is left alone; a SIGKILL between the link and the
# removal of the temporary name leaves no second name that looks like a
# result, and the next run names the leftover; a file that appears under
# the output name during the run is never replaced (exit 1, the complete
# result kept under its temporary name, which the message gives); where
# hard links are not supported either, the message says so and names the
# kept file.  No message blames the run for it.  A run a file is planted or
# swapped in during is stopped (SIGSTOP) while the test does it and
# continued then: the run lasts as long as that takes, however busy the
# machine.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }
preload="${top_builddir:-.}/tests/.libs/norename-preload.so"
t_built "$preload"

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
grep -q "norename-preload: [1-9][0-9]* unnamed files refused" "$t_scratch/stderr" &&
    t_ok "the preload refused the unnamed files" || t_fail "preload: $(cat "$t_scratch/stderr")"
whole_result "$t_scratch/r.json" 2 && t_ok "the result is whole" || t_fail "result"
for run in fsync-8192 fdatasync-8192; do
    [ "$(wc -l <"$t_scratch/ops.$run.csv")" -eq 21 ] && t_ok "trace $run is whole" ||
        t_fail "trace $run"
done
ls -A "$t_scratch" | grep -q "diskio-tmp" && t_fail "temporary files left" ||
    t_ok "no temporary left"

# a file planted under the output name during the run is left alone
env LD_PRELOAD="$preload" "$DISKIO" -m fsync --size 64k --runtime 1 \
    --output "$t_scratch/planted.json" "$dir" >"$t_scratch/stdout" 2>"$t_scratch/stderr" &
pid=$!
t_wait_for_file "$dir"
kill -STOP $pid
echo "not diskio's" >"$t_scratch/planted.json"
kill -CONT $pid
wait $pid
status=$?
[ "$status" -eq 1 ] && t_ok "planted output: exit 1" || t_fail "planted output: exit $status"
[ "$(cat "$t_scratch/planted.json")" = "not diskio's" ] && t_ok "planted file not replaced" ||
    t_fail "planted file replaced"
kept=$(ls -d "$t_scratch"/.planted.json.diskio-tmp.* 2>/dev/null)
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
kept=$(ls -d "$t_scratch"/.nolink.json.diskio-tmp.* 2>/dev/null)
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
rm -f "$t_scratch"/nolink.* "$t_scratch"/.nolink.*

# --force replaces with a plain rename, which such filesystems support
echo old >"$t_scratch/forced.json"
t_expect_status 0 "--force without RENAME_NOREPLACE" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_NO_LINK=1 "$DISKIO" -q $quick --force --output "$t_scratch/forced.json" "$dir"
whole_result "$t_scratch/forced.json" 1 && t_ok "--force replaced the file" || t_fail "forced"
t_expect_empty_dir "$dir" "test files removed"

# diskio keeps its pid across exec: the temporary's name is known in advance
echo precious >"$t_scratch/victim"
t_expect_status 3 "symlink planted at the temporary name" -- env LD_PRELOAD="$preload" sh -c \
    'ln -s "$0/victim" "$0/.tmpplanted.json.diskio-tmp.$$" && exec "$@"' "$t_scratch" "$DISKIO" \
    --count 5 --output "$t_scratch/tmpplanted.json" "$dir"
[ "$(cat "$t_scratch/victim")" = "precious" ] && t_ok "not written through the planted symlink" ||
    t_fail "written through the planted symlink"
[ -e "$t_scratch/tmpplanted.json" ] && t_fail "an output appeared"
grep -q "temporary name $t_scratch/.tmpplanted.json.diskio-tmp.[0-9]* is taken" \
    "$t_scratch/stderr" &&
    t_ok "message names the planted temporary" || t_fail "message: $(cat "$t_scratch/stderr")"
rm -f "$t_scratch"/.tmpplanted.json.diskio-tmp.*
t_expect_empty_dir "$dir" "nothing measured after a planted temporary"

# The temporary name swapped during the run: diskio's file moved away and
# a symlink to another file put in its place.  The result is published by
# its descriptor: the name gets diskio's own file, never the symlink, and
# the symlink is left alone.  (Whatever the temporary is called, it is the
# new name holding diskio's pid.)
echo "not a result" >"$t_scratch/other"
env LD_PRELOAD="$preload" "$DISKIO" -m fsync --size 64k --runtime 1 \
    --output "$t_scratch/swapped.json" "$dir" >"$t_scratch/stdout" 2>"$t_scratch/stderr" &
pid=$!
tmp=
waited=0
while [ -z "$tmp" ] && [ $waited -lt 100 ]; do
    tmp=$(ls -A "$t_scratch" | grep "^\.\{0,1\}swapped\.json.*$pid\$")
    [ -z "$tmp" ] && sleep 0.05
    waited=$((waited + 1))
done
if [ -n "$tmp" ]; then
    kill -STOP $pid
    mv "$t_scratch/$tmp" "$t_scratch/moved-away"
    ln -s "$t_scratch/other" "$t_scratch/$tmp"
    kill -CONT $pid
fi
wait $pid
status=$?
[ -n "$tmp" ] && t_ok "the temporary $tmp swapped for a symlink" || t_fail "no temporary seen"
[ "$status" -eq 0 ] && t_ok "swapped temporary: exit 0" || t_fail "swapped temporary: exit $status"
[ ! -L "$t_scratch/swapped.json" ] && whole_result "$t_scratch/swapped.json" 1 &&
    t_ok "the published result is diskio's own file, not the symlink" ||
    t_fail "published: $(ls -l "$t_scratch/swapped.json"; head -c 100 "$t_scratch/swapped.json")"
[ "$(cat "$t_scratch/other")" = "not a result" ] && [ -L "$t_scratch/$tmp" ] &&
    t_ok "the symlink and its target left alone" || t_fail "the symlink or its target changed"
grep -q "temporary name beside it was replaced by another program" "$t_scratch/stderr" &&
    t_ok "a warning says the temporary name was replaced" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
rm -f "$t_scratch/other" "$t_scratch/moved-away" "$t_scratch/$tmp" "$t_scratch/swapped.json"

# SIGKILL right after the link, before the temporary name is removed: the
# result is whole under its name, and the other name left is hidden and
# does not end like a result; the next run writing that name names it.
t_expect_status 137 "SIGKILL between the link and the removal" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_KILL_AFTER_LINK=1 "$DISKIO" -q $quick --output "$t_scratch/killed.json" "$dir"
whole_result "$t_scratch/killed.json" 1 && t_ok "the result is whole under its name" ||
    t_fail "no whole result under its name"
left=$(ls -A "$t_scratch" | grep "killed" | grep -v "^killed.json\$")
case "$left" in
.killed.json.diskio-tmp.[0-9]*) t_ok "the name left ($left) is hidden, marked and not *.json" ;;
*) t_fail "left beside the result: '$left'" ;;
esac
t_expect_status 0 "the next run replacing the result" -- "$DISKIO" $quick --force \
    --output "$t_scratch/killed.json" "$dir"
grep -q "warning: $t_scratch/$left is a second name of $t_scratch/killed.json, left by a diskio" \
    "$t_scratch/stderr" && t_ok "it names the leftover" ||
    t_fail "leftover not named: $(cat "$t_scratch/stderr")"
rm -f "$t_scratch/killed.json" "$t_scratch/$left"
t_expect_empty_dir "$dir" "no test file left"
t_done
