#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a check that reads its answer slowly delays no other run or check of the listener.
#
# a query whose reader takes its answer a few bytes at a time
# (a 4096-byte receive buffer, 64 bytes every half second) of a run of
# 300,000 acknowledgements, about 10 MB of answer: while it is connected,
# a real diskio --durability run starts, runs and is confirmed (exit 0),
# its check gets its whole answer (exit 0), and another query of the big
# run gets all 300,000 acknowledgements and DONE.  Nothing here judges a
# duration: the slow reader is still connected, its answer unfinished,
# when all of that is done.  No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}
client="${top_srcdir:-.}/tests/lib/listenerlib.py"
t_memory_dir

d_listen big real
"$PYTHON" "$client" flood "$d_port" big 300000 end >"$t_scratch/big.out" 2>&1
grep -qx 'DONE 300000' "$t_scratch/big.out" && t_ok "a run of 300,000 acknowledgements is recorded" ||
    { t_fail "the big run: $(cat "$t_scratch/big.out")"; t_done; }

# the slow reader, until the test says stop (or exits)
stop=$t_scratch/stop
status=$t_scratch/slow.status
"$PYTHON" "$client" slow-query "$d_port" big "$status" "$stop" 2>"$t_scratch/slow.err" &
slow=$!
d_extra_cleanup="touch '$stop'; wait $slow"
for _ in $(seq 600); do
    grep -q '^bytes [1-9]' "$status" 2>/dev/null && break
    sleep 0.05
done
grep -q '^bytes [1-9]' "$status" 2>/dev/null && t_ok "the slow reader gets the first bytes" ||
    t_fail "the slow reader got nothing: $(cat "$status" "$t_scratch/slow.err" 2>&1)"

t_expect_status 0 "a real run while the slow reader reads" -- \
    "$DISKIO" --durability "$d_listener" --run-id real --mode fdatasync --count 200 --size 256k \
    --bs 4k --quiet "$t_memory"
grep -q 'writes acknowledged, all recorded by the listener' "$t_scratch/stderr" &&
    t_ok "the listener confirmed the run" || t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 0 "its check while the slow reader reads" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_memory"/diskio-test.*
grep -q '^acknowledged writes: 200 ' "$t_scratch/stdout" && t_ok "the check got all 200" ||
    t_fail "check: $(cat "$t_scratch/stdout")"
"$PYTHON" "$client" query "$d_port" big >"$t_scratch/query.out" 2>&1 &&
    grep -qx 'acks 300000' "$t_scratch/query.out" && grep -qx 'DONE 300000 1' "$t_scratch/query.out" &&
    t_ok "another query of the big run gets its whole answer" ||
    t_fail "another query: $(cat "$t_scratch/query.out")"

# all that while the slow reader was still there, its answer unfinished
kill -0 "$slow" 2>/dev/null && grep -q 'done 0$' "$status" &&
    t_ok "the slow reader is still connected, its answer unfinished: $(cat "$status")" ||
    t_fail "the slow reader is gone: $(cat "$status" "$t_scratch/slow.err" 2>&1)"
kill -0 "$d_lpid" 2>/dev/null && t_ok "the listener is running" ||
    t_fail "the listener died: $(cat "$d_log")"
touch "$stop"
wait "$slow"
d_extra_cleanup=""
t_done
