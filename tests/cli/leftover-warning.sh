#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a test file that cannot be removed at the end is named in a warning, with the status kept.
#
# a test file that cannot be removed at the end (its
# directory made immutable mid-run with chattr +i, which binds root too)
# is named in a warning that tells the user to remove it, at the end of a
# run and after an interrupt; the result itself is still written (exit 0,
# or 143 for SIGTERM).  A second signal while a sync is stuck (a test
# preload stalls it) exits at once and names the file it could not
# remove, and removes it when it can.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v chattr >/dev/null 2>&1 || { echo "SKIP: no chattr"; exit 77; }
probe="$t_scratch/probe"
mkdir "$probe"
chattr +i "$probe" 2>/dev/null || { echo "SKIP: chattr +i refused (not root, or no support)"; exit 77; }
chattr -i "$probe"
trap 'chattr -i "$t_scratch"/d-* 2>/dev/null; rm -rf "$t_scratch"' EXIT

# stuck SIGNAL WANT: run, make the directory immutable once the test file
# is there, end the run (by its runtime, or by SIGNAL)
stuck() {
    sig=$1; want=$2
    dir="$t_scratch/d-$sig"
    mkdir "$dir"
    t_spawn "$DISKIO" --mode fsync --runtime 1.5 --size 1m --quiet --output "$dir.json" "$dir" \
        >"$t_scratch/out" 2>"$t_scratch/err"
    pid=$t_pid
    t_wait_for_file "$dir"
    name=$(ls -A "$dir")
    chattr +i "$dir"
    [ "$sig" = none ] || { sleep 0.3; kill -s "$sig" $pid; }
    wait $pid
    status=$?
    chattr -i "$dir"
    [ "$status" -eq "$want" ] && t_ok "$sig: exit $status" ||
        t_fail "$sig: exit $status, expected $want: $(cat "$t_scratch/err")"
    grep -q "could not remove the test file $dir/$name" "$t_scratch/err" &&
        grep -q "remove it yourself" "$t_scratch/err" &&
        t_ok "$sig: the file left behind is named, with what to do" ||
        t_fail "$sig: no warning naming $dir/$name: $(cat "$t_scratch/err")"
    [ -s "$dir.json" ] && t_ok "$sig: result written" || t_fail "$sig: no result"
    rm -f "$dir/$name"
}
stuck none 0
stuck TERM 143

# second SIGTERM while the 20th fdatasync hangs for 10 s
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    for immutable in yes no; do
        dir="$t_scratch/d-second-$immutable"
        mkdir "$dir"
        t_spawn env DISKIO_TEST_STALL_AT=20 DISKIO_TEST_STALL_MS=10000 LD_PRELOAD="$preload" \
            "$DISKIO" --mode fdatasync --runtime 30 --size 1m --quiet "$dir" \
            >"$t_scratch/out" 2>"$t_scratch/err"
        pid=$t_pid
        t_wait_for_file "$dir"
        name=$(ls -A "$dir")
        sleep 0.5
        [ $immutable = yes ] && chattr +i "$dir"
        kill -s TERM $pid
        sleep 0.3
        kill -s TERM $pid
        wait $pid
        status=$?
        chattr -i "$dir"
        what="second SIGTERM, immutable directory: $immutable"
        [ "$status" -eq 143 ] && t_ok "$what: exit 143" ||
            t_fail "$what: exit $status: $(cat "$t_scratch/err")"
        if [ $immutable = yes ]; then
            grep -q "the test file $dir/$name was not removed; remove it yourself" \
                "$t_scratch/err" && t_ok "$what: the file left behind is named" ||
                t_fail "$what: no warning: $(cat "$t_scratch/err")"
            rm -f "$dir/$name"
        else
            t_expect_empty_dir "$dir" "$what: test file removed"
            [ -s "$t_scratch/err" ] && t_fail "$what: printed: $(cat "$t_scratch/err")"
        fi
    done
else
    t_unbuilt "$preload"
fi
t_done
