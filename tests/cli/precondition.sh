#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --precondition writes the whole test file twice in 1 MiB writes before the runs, and says so.
#
# Counted by a preload (tests/lib/timed-store-preload.c, DISKIO_STORE_COUNT):
# with --precondition, a 16 MiB test file is written by 32 writes of
# 1 MiB (two passes) and the run's own writes only (its count and
# warmup: the file is not filled again); without it, the run's fill
# writes it in writes of the run's block size, and nothing of 1 MiB is
# written.  The result says it was done (JSON "precondition": passes,
# range, bytes written, complete, its time; the table's header line)
# and stderr says it; stopped by a signal midway (each write slowed by
# the fault preload), it is marked incomplete, no run follows, and the
# test file is removed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the JSON"; exit 77; }
store="${top_builddir:-.}/tests/.libs/timed-store-preload.so"
fault="${top_builddir:-.}/tests/.libs/fault-preload.so"
t_built "$store"
t_built "$fault"
t_memory_dir
dir="$t_memory"
run="--mode fdatasync --bs 8k --count 100 --warmup 5 --size 16m"

t_expect_status 0 "preconditioned" -- env LD_PRELOAD="$store" DISKIO_STORE_COUNT=1 \
    "$DISKIO" $run --precondition --output "$t_scratch/pre.json" "$dir" || t_done
grep -q "^timed-store: 32 writes of 1 MiB, 105 others$" "$t_scratch/stderr" &&
    t_ok "two passes of 1 MiB writes, then the run's 105 writes, no fill" ||
    t_fail "what was written: $(grep timed-store "$t_scratch/stderr")"
grep -q "^diskio: --precondition: .* written twice, sequentially in 1 MiB writes" \
    "$t_scratch/stderr" && t_ok "stderr says so" || t_fail "stderr: $(cat "$t_scratch/stderr")"
grep -q "^preconditioned: 16 MiB written twice sequentially in 1 MiB writes" \
    "$t_scratch/stdout" && t_ok "the table's header says so" ||
    t_fail "the header: $(head -8 "$t_scratch/stdout")"
t_expect_status 0 "not preconditioned" -- env LD_PRELOAD="$store" DISKIO_STORE_COUNT=1 \
    "$DISKIO" $run --output "$t_scratch/plain.json" "$dir" || t_done
grep -q "^timed-store: 0 writes of 1 MiB, 2153 others$" "$t_scratch/stderr" &&
    t_ok "without it: the fill's 2048 writes of 8 KiB and the run's 105" ||
    t_fail "what was written: $(grep timed-store "$t_scratch/stderr")"

# stopped midway: 32 writes of 100 ms each, a signal once it started
t_spawn env LD_PRELOAD="$fault" DISKIO_TEST_SLOW_WRITE_US=100000 "$DISKIO" $run \
    --precondition --quiet --output "$t_scratch/stopped.json" "$dir"
t_wait_for_file "$dir"
sleep 0.5
kill -TERM "$t_pid"
wait "$t_pid"
status=$?
[ "$status" -eq 143 ] && t_ok "stopped: exit 143" || t_fail "stopped: exit $status"

"$PYTHON3" - "$t_scratch" <<'PY' || t_fail "the results"
import json, os, sys
def doc(name):
    return json.load(open(os.path.join(sys.argv[1], name + ".json")))
pre = doc("pre")
p = pre["precondition"]
assert p["passes"] == 2 and p["block_size"] == 1 << 20, p
assert p["bytes"] == 16 << 20 and p["written"] == 2 * (16 << 20), p
assert p["complete"] and p["duration_ns"] > 0, p
assert pre["complete"] and pre["runs"][0]["ops"] == 100
assert doc("plain")["precondition"] is None
stopped = doc("stopped")
p = stopped["precondition"]
assert not p["complete"] and p["written"] < 2 * (16 << 20), p
assert not stopped["complete"] and stopped["runs"] == [], stopped["runs"]
print("ok: preconditioned 32 MiB in %.3g s; stopped after %d bytes"
      % (pre["precondition"]["duration_ns"] / 1e9, p["written"]))
PY
t_expect_empty_dir "$dir" "the test file"
t_done
