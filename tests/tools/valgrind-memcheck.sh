#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: valgrind memcheck finds no error or leak in complete runs of every mode.
#
# memcheck the diskio command on complete runs of every mode
# (text, JSON and CSV output, per-op trace, aio/uring at queue depth 4, a
# --rate run, --interval series with --repeat and at a fixed rate, the
# read modes with --verify and --cached, the create pattern, --steady,
# --target and --precondition, a --durability run and its --verify-durability against the listener
# diskio-durable, itself under valgrind), on an interrupted run (SIGINT)
# and on the usage and target error paths.  Any valgrind error (invalid access, uninitialised value,
# definite/indirect/possible leak) fails the test.
#
# Exit status: 0 pass, 1 fail, 77 skip (no valgrind).
# Environment: top_srcdir, top_builddir (default: ., the build directory),
# VALGRIND (default: valgrind), VALGRIND_SUPP (extra suppression file).
# shellcheck disable=SC2086 # $small and $supp are option lists, split on purpose
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
VALGRIND=${VALGRIND:-valgrind}

command -v "$VALGRIND" >/dev/null 2>&1 || { echo "SKIP: valgrind not found"; exit 77; }
[ -x "$top_builddir/diskio" ] || { echo "FAIL: $top_builddir/diskio is not built"; exit 1; }
# ASan/UBSan builds (./configure --enable-sanitizers) cannot run under valgrind.
if grep -q '^SAN_CFLAGS = .*-fsanitize' "$top_builddir/Makefile" 2>/dev/null; then
    echo "SKIP: built with sanitizers; valgrind needs a build without --enable-sanitizers"
    exit 77
fi

scratch=$(mktemp -d "${PWD}/t-valgrind.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM HUP

supp=
[ -f "$top_srcdir/tests/valgrind.supp" ] && supp="--suppressions=$top_srcdir/tests/valgrind.supp"
[ -n "${VALGRIND_SUPP:-}" ] && supp="$supp --suppressions=$VALGRIND_SUPP"

failures=0
n=0

# sh starts background jobs with SIGINT ignored, and diskio keeps an
# inherited ignore (as nohup users expect): the run to be interrupted gets
# SIGINT back at its default action.
if env --default-signal=INT true 2>/dev/null; then
    default_int() { exec env --default-signal=INT "$@"; }
elif command -v "${PYTHON3:-python3}" >/dev/null 2>&1; then
    default_int() {
        exec "${PYTHON3:-python3}" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
    }
else
    default_int() { exec "$@"; }   # the interrupted run will fail, saying why
fi

# vg WANT-STATUS NAME -- diskio arguments...
vg() {
    want=$1; name=$2; shift 3
    n=$((n + 1))
    log="$scratch/$n-$name.vg"
    # shellcheck disable=SC2086 # $supp is a list of options
    default_int "$top_builddir/libtool" --mode=execute "$VALGRIND" --quiet --tool=memcheck \
        --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
        --track-fds=no --track-origins=yes --num-callers=30 $supp --log-file="$log" \
        "$top_builddir/diskio" "$@" >"$scratch/$n.out" 2>"$scratch/$n.err" &
    pid=$!
    if [ -n "${vg_signal_after:-}" ]; then
        # wait until the run is measuring (its test file exists), then signal
        i=0
        while [ -z "$(ls -A "$d")" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
        sleep "$vg_signal_after"
        kill -s INT "$pid"
    fi
    wait "$pid"
    check "$want" "$name" $?
}

check() {
    want=$1 name=$2 got=$3
    if [ "$got" -eq 99 ] || [ -s "$log" ]; then
        echo "FAIL: $name: valgrind reported errors (exit $got):"
        sed 's/^/    /' "$log"
        failures=$((failures + 1))
    elif [ "$got" -ne "$want" ]; then
        echo "FAIL: $name: exit $got, expected $want; stderr:"
        sed 's/^/    /' "$scratch/$n.err"
        failures=$((failures + 1))
    else
        echo "ok: $name (exit $got, no valgrind errors)"
    fi
}

d="$scratch/target"
mkdir "$d"
small="--count 30 --bs 4k --size 1m"

vg 0 all-modes-text -- $small "$d"
vg 0 all-modes-json -- $small --output "$scratch/all.json" --trace "$scratch/all-trace.csv" "$d"
vg 0 all-modes-csv-stdout -- $small --format csv --quiet "$d"
vg 0 aio-uring-iodepth4 -- $small --mode aio,uring --iodepth 4 --pattern rand \
    --format json --output "$scratch/aio.json" "$d"
vg 0 rate-fdatasync -- --count 30 --rate 5000 -m fdatasync --trace "$scratch/rate.csv" "$d"
vg 0 bs-sweep-append -- --count 30 --bs 4k,64k --size 1m --mode fsync,direct-dsync \
    --pattern append "$d"
vg 0 sync-every -- --count 30 --bs 4k --size 1m --mode fdatasync --sync-every 4 "$d"
vg 0 interval-series -- --runtime 0.3 --interval 0.05 --repeat 2 --bs 4k --size 1m \
    --mode fdatasync,aio --output "$scratch/iv.json" --interval-csv "$scratch/iv.csv" "$d"
vg 0 interval-rate -- --runtime 0.3 --interval 0.1 --rate 2000 -m fdatasync --format json \
    --quiet "$d"
vg 0 read-modes-verify -- $small --mode all-reads --iodepth 4 --pattern rand --verify \
    --format json --output "$scratch/reads.json" "$d"
vg 0 read-cached -- $small --mode read --cached "$d"
vg 0 create-aio -- --count 30 --bs 4k --size 64k --mode fsync,aio --iodepth 4 --pattern create "$d"
# the answers over time and under load: a steady-state watch (its own
# thread for one job, the caller's rounds for several) over repetitions,
# a capacity search of committers sharing a rate, a precondition
vg 0 steady -- --runtime 0.5 --interval 0.05 --steady=window=3,range=1000,slope=1000 \
    --repeat 2 --jobs 1,2 --bs 4k --size 1m --mode fdatasync --output "$scratch/steady.json" "$d"
vg 0 capacity -- --target p99=50ms,time=2s,point=0.2s --pattern wal --jobs 1,2 --bs 4k \
    --wal-segment-size 64k --mode fdatasync --output "$scratch/capacity.json" "$d"
vg 0 precondition -- $small --mode fdatasync --precondition "$d"
# the durability check: the listener under valgrind too, on loopback
mkdir "$scratch/acks" "$scratch/durable"
"$top_builddir/libtool" --mode=execute "$VALGRIND" --quiet --tool=memcheck --leak-check=full \
    --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
    --error-exitcode=99 --track-origins=yes $supp --log-file="$scratch/listener.vg" \
    "$top_builddir/diskio-durable" listen --dir "$scratch/acks" --port 0 --expect vg1 \
    >"$scratch/listener.out" 2>&1 &
lpid=$!
port=""
i=0
while [ -z "$port" ] && [ $i -lt 200 ]; do
    port=$(sed -n 's/^diskio-durable: listening on 127\.0\.0\.1 port \([0-9]*\);.*/\1/p' \
        "$scratch/listener.out")
    [ -z "$port" ] && sleep 0.05
    i=$((i + 1))
done
vg 0 durability-run -- $small --mode fdatasync --durability "127.0.0.1:$port" --run-id vg1 \
    --output "$scratch/durable.json" "$scratch/durable"
vg 0 durability-verify -- --verify-durability "127.0.0.1:$port" "$scratch/durable"/diskio-test.*
vg 5 durability-verify-unknown-run -- --verify-durability "127.0.0.1:$port" --run-id nosuch \
    "$scratch/durable"/diskio-test.*
kill -TERM "$lpid"
wait "$lpid"
got=$?
n=$((n + 1))
log="$scratch/listener.vg"
check 0 durability-listener "$got"
vg 0 help -- --help
vg 2 usage-error -- --bs 3 "$d"
vg 3 target-error -- $small --mode fsync "$scratch/no/such/dir/file"
vg 3 output-exists -- $small --mode fsync --output "$scratch/all.json" "$d"

vg_signal_after=${VALGRIND_INTERRUPT_AFTER:-1}
vg 130 interrupted-fsync -- --runtime 30 -m fsync --output "$scratch/int.json" "$d"
vg_signal_after=
# exit 130 is also what a process killed by SIGINT reports: make sure the
# handler ran and the partial result was written.
if ! grep -q '"complete": *false' "$scratch/int.json" 2>/dev/null; then
    echo "FAIL: interrupted-fsync: no partial result marked incomplete in int.json"
    failures=$((failures + 1))
fi

if [ -n "$(ls -A "$d")" ]; then
    echo "FAIL: test files left in $d: $(ls -A "$d")"
    failures=$((failures + 1))
fi
if [ "$failures" -ne 0 ]; then
    echo "$failures of $n valgrind run(s) failed"
    exit 1
fi
echo "all $n valgrind runs clean"
exit 0
