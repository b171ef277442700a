#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the listener and the check refuse what does not match, and the listener keeps to its directory.
#
# the listener and the check refuse what does not match, and
# the listener keeps to its directory and its bounds.  The listener
# refuses a run id it was not told to expect and one it already holds
# (diskio exits 5 and leaves no test file); the check refuses a run id
# the listener does not hold, a file holding another run's records, and
# a file holding no record (exit 5 each); a run id that could be a path
# is a usage error for diskio and the listener alike (exit 2).  The
# listener writes only RUNID.acks files it creates in its directory: a
# symlink planted at a run's name is refused, never followed; a line
# longer than the protocol's bound, bytes that are not text, another
# protocol version and a run id that is a path are each answered "NO"
# on that connection alone, and the listener goes on serving.  A run
# whose listener goes away stops (exit 1) and says so.  No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}

mkdir "$t_scratch/data" "$t_scratch/data2" "$t_scratch/outside"
d_listen good1 good2 victim
grep -q "^diskio-durable: listening on 127.0.0.1 port $d_port; recording in $d_acks" \
    "$t_scratch/listener.log" && t_ok "the listener listens on loopback by default" ||
    t_fail "listener: $(cat "$t_scratch/listener.log")"
run() {
    "$DISKIO" --durability "$d_listener" --mode fdatasync --count 20 --size 256k --bs 4k \
        --quiet "$@"
}

# ---- run ids ----
t_expect_status 2 "diskio refuses a run id that could be a path" -- run --run-id ../x \
    "$t_scratch/data"
t_expect_status 5 "the listener refuses a run id it does not expect" -- run --run-id stranger \
    "$t_scratch/data"
grep -q 'does not expect that run id' "$t_scratch/stderr" && t_ok "diskio says why" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$t_scratch/data" "a refused run leaves no test file" &&
    t_ok "a refused run leaves no test file"
t_expect_status 0 "an expected run id runs" -- run --run-id good1 "$t_scratch/data"
f1=$t_scratch/data/$(ls "$t_scratch/data")
t_expect_status 5 "the listener refuses a run id it already holds" -- run --run-id good1 \
    "$t_scratch/data2"
grep -q 'already holds a run of that id' "$t_scratch/stderr" && t_ok "diskio says why" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$t_scratch/data2" "the second run of an id" &&
    t_ok "the second run of an id leaves no test file"

# ---- the check ----
t_expect_status 0 "the run's own file checks durable" -- \
    "$DISKIO" --verify-durability "$d_listener" "$f1"
t_expect_status 5 "the check refuses a run id the listener does not hold" -- \
    "$DISKIO" --verify-durability "$d_listener" --run-id good2 "$f1"
grep -q 'holds no run of that id' "$t_scratch/stderr" && t_ok "it says the listener has no such run" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 0 "a second run" -- run --run-id good2 "$t_scratch/data2"
t_expect_status 5 "the check refuses a file holding another run's records" -- \
    "$DISKIO" --verify-durability "$d_listener" --run-id good2 "$f1"
grep -q 'holds records of another run' "$t_scratch/stderr" && t_ok "it says whose records they are" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
head -c 262144 /dev/urandom >"$t_scratch/plain"
t_expect_status 5 "the check refuses a file without records" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_scratch/plain"
t_expect_status 5 "the check refuses a file without records even with a run id" -- \
    "$DISKIO" --verify-durability "$d_listener" --run-id good1 "$t_scratch/plain"
grep -q 'which wrote a file named diskio-test\.' "$t_scratch/stderr" &&
    t_ok "it names the file the run wrote" || t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 2 "the check takes no workload options" -- \
    "$DISKIO" --verify-durability "$d_listener" --mode fsync "$f1"

# ---- the listener's directory ----
ln -s "$t_scratch/outside/victim.acks" "$d_acks/victim.acks"
t_expect_status 5 "a symlink planted at a run's file is refused" -- run --run-id victim \
    "$t_scratch/data2"
[ ! -e "$t_scratch/outside/victim.acks" ] && t_ok "the listener did not write through it" ||
    t_fail "the listener wrote $t_scratch/outside/victim.acks"
rm "$d_acks/victim.acks"

# ---- a hostile client: each line answered on its own connection ----
"$PYTHON" - "$d_port" >"$t_scratch/hostile" 2>&1 <<'PY'
import socket, sys
port = int(sys.argv[1])
def ask(data):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    got = b""
    while True:
        part = s.recv(4096)
        if not part:
            break
        got += part
    s.close()
    return got.decode("ascii", "replace").splitlines()[0]
print("long:", ask(b"DISKIO-DURABLE 1 QUERY " + b"A" * 10000 + b"\n"))
print("binary:", ask(b"DISKIO-DURABLE 1 QUERY good1\x00\x1b[2J\n"))
print("version:", ask(b"DISKIO-DURABLE 2 RUN good2 4096 262144 x\n"))
print("path:", ask(b"DISKIO-DURABLE 1 RUN ../../outside/escape 4096 262144 x\n"))
print("alive:", ask(b"DISKIO-DURABLE 1 QUERY good1\n"))
PY
grep -q '^long: NO protocol lines are at most' "$t_scratch/hostile" &&
    grep -q '^binary: NO protocol' "$t_scratch/hostile" &&
    grep -q '^version: NO version' "$t_scratch/hostile" &&
    grep -q '^path: NO unexpected-run' "$t_scratch/hostile" &&
    t_ok "a long line, bytes that are not text, another version and a path are refused" ||
    t_fail "hostile client: $(cat "$t_scratch/hostile")"
grep -q '^alive: RUN good1 4096 262144 diskio-test\.' "$t_scratch/hostile" &&
    t_ok "the listener goes on serving" || t_fail "hostile client: $(cat "$t_scratch/hostile")"
kill -0 "$d_lpid" 2>/dev/null && t_ok "the listener is still running" ||
    t_fail "the listener died: $(cat "$t_scratch/listener.log")"
t_expect_empty_dir "$t_scratch/outside" "nothing outside" &&
    t_ok "nothing was written outside the listener's directory"
names=$(ls -A "$d_acks" | tr '\n' ' ')
[ "$names" = "good1.acks good2.acks " ] && t_ok "the listener's directory holds its two runs" ||
    t_fail "the listener's directory holds: $names"

# ---- the listener's own options ----
t_expect_status 2 "the listener refuses a run id that could be a path" -- \
    "$DISKIO_DURABLE" listen --dir "$d_acks" --port 0 --expect ../x
t_expect_status 2 "the listener needs a run id to expect" -- \
    "$DISKIO_DURABLE" listen --dir "$d_acks" --port 0
t_expect_status 2 "the listener binds numeric addresses only" -- \
    "$DISKIO_DURABLE" listen --dir "$d_acks" --port 0 --expect a --bind localhost
t_expect_status 3 "the listener needs its directory" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch/nowhere" --port 0 --expect a

# ---- the listener goes away during a run ----
kill -TERM "$d_lpid"
"$DISKIO" --durability "$d_listener" --run-id good1 --mode fdatasync --count 5 --bs 4k \
    --size 256k --quiet "$t_scratch/data2" >/dev/null 2>"$t_scratch/gone.err"
gone=$?
wait "$d_lpid"
d_lpid=""
[ "$gone" -eq 3 ] && t_ok "a run without its listener does not start (exit 3)" ||
    t_fail "exit $gone: $(cat "$t_scratch/gone.err")"
rm -f "$t_scratch/data2"/*
d_listen late
"$DISKIO" --durability "$d_listener" --run-id late --mode fdatasync --runtime 60 --bs 4k \
    --size 256k --quiet "$t_scratch/data2" >/dev/null 2>"$t_scratch/late.err" &
dpid=$!
for _ in $(seq 400); do
    [ "$(grep -c '^A ' "$d_acks/late.acks" 2>/dev/null)" -ge 10 ] 2>/dev/null && break
    sleep 0.05
done
kill -TERM "$d_lpid"
wait "$d_lpid"
d_lpid=""
wait $dpid
late=$?
[ "$late" -eq 1 ] && grep -q 'an acknowledgement to the listener at .* failed' "$t_scratch/late.err" &&
    t_ok "a run whose listener goes away stops (exit 1) and says so" ||
    t_fail "exit $late: $(cat "$t_scratch/late.err")"
t_done
