#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: each terminating signal stops a run with 128+signal and writes the partial result.
#
# SIGINT, SIGTERM and SIGHUP mid-run (fsync, and aio and uring
# with 16 requests in flight) stop the run, write the partial result marked
# incomplete, remove the test file and exit 130 / 143 / 129; so do SIGQUIT,
# SIGUSR1, SIGUSR2, SIGALRM and SIGXCPU (128 + their number); a SIGHUP that
# was ignored when diskio started (nohup) stays ignored.  A SIGTERM that
# arrives right after the output temporary is created (before any run)
# leaves neither it nor a test file: exit 143, a result with no runs.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}

# The runs are in memory with a 1 MiB file: the test file's fill and the
# warmup are done in milliseconds, so a signal 0.3 s after the file
# appears lands in the measured run however busy the disk is.  The queued
# modes need O_DIRECT: in memory where the kernel's tmpfs has it.
t_memory_dir
direct_dir=$t_memory
"$DISKIO" --quiet --mode aio --count 1 --size 1m "$t_memory" >/dev/null 2>&1 || direct_dir=$t_scratch

check_interrupted() { # signal expected-status mode args...
    sig=$1; want=$2; mode=$3; shift 3
    case $mode in aio | uring) dir="$direct_dir/$mode-$sig" ;; *) dir="$t_memory/$mode-$sig" ;; esac
    mkdir "$dir"
    t_spawn "$DISKIO" --mode "$mode" --runtime 60 --size 1m --output "$dir.json" "$@" "$dir" \
        >"$t_scratch/out" 2>"$t_scratch/err"
    pid=$t_pid
    # wait until the run is measuring (its test file exists), then signal
    t_wait_for_file "$dir"
    sleep 0.3
    kill -s "$sig" $pid
    wait $pid
    status=$?
    [ "$status" -eq "$want" ] && t_ok "$mode $sig: exit $status" ||
        t_fail "$mode $sig: exit $status, expected $want ($(cat "$t_scratch/err"))"
    t_expect_empty_dir "$dir" "$mode $sig: test file removed"
    ls -A "$(dirname "$dir")" | grep -q "diskio-tmp" && t_fail "$mode $sig: temporary output left"
    if command -v "$PYTHON3" >/dev/null 2>&1; then
        "$PYTHON3" - "$dir.json" <<'PY' && t_ok "$mode $sig: partial result written" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
r = d["runs"][-1]
assert r["complete"] is False and r["error"]["during"] == "interrupted", r["error"]
assert r["ops"] > 0 and r["latency"]["total"]["count"] == r["ops"]
PY
            t_fail "$mode $sig: partial result"
    else
        [ -s "$dir.json" ] || t_fail "$mode $sig: no result file"
    fi
    grep -q "incomplete" "$t_scratch/out" || t_fail "$mode $sig: table does not say incomplete"
}

check_interrupted HUP 129 fdatasync
check_interrupted INT 130 fsync
check_interrupted TERM 143 fsync
check_interrupted INT 130 aio --iodepth 16
check_interrupted TERM 143 uring --iodepth 16
check_interrupted TERM 143 async
check_interrupted QUIT 131 fsync
check_interrupted USR1 138 fdatasync
check_interrupted USR2 140 fsync
check_interrupted ALRM 142 fsync
check_interrupted XCPU 152 fsync
# started as nohup(1) would, with SIGHUP ignored: a hangup does not stop it
dir="$t_scratch/nohup"
mkdir "$dir"
(trap '' HUP; exec "$DISKIO" --mode fsync --runtime 1.5 --quiet --output "$dir.json" "$dir") &
pid=$!
t_wait_for_file "$dir"
kill -s HUP $pid
wait $pid
status=$?
[ "$status" -eq 0 ] && grep -q '"complete": true' "$dir.json" &&
    t_ok "an inherited SIGHUP ignore is kept (nohup): run completed" ||
    t_fail "nohup: exit $status"

# a signal before the first run, right after the output file is created
# (unnamed, O_TMPFILE)
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    dir="$t_scratch/early"
    mkdir "$dir"
    t_expect_status 143 "SIGTERM right after the output file is created" -- \
        env LD_PRELOAD="$preload" DISKIO_TEST_SIGNAL_AFTER_OPEN=O_TMPFILE \
        "$DISKIO" --mode fsync --count 100 --quiet --output "$dir.json" "$dir"
    ls -A "$(dirname "$dir")" | grep -q "diskio-tmp" && t_fail "early SIGTERM: temporary output left"
    t_expect_empty_dir "$dir" "early SIGTERM: no test file left"
    grep -q '"complete": false' "$dir.json" 2>/dev/null &&
        t_ok "early SIGTERM: a result with no runs, marked incomplete" ||
        t_fail "early SIGTERM: no result marked incomplete"
else
    t_unbuilt "$preload"
fi
t_done
