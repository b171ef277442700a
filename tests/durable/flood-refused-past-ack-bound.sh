#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a run past the acknowledgement bound, or claiming an absurd file, is refused; others go on.
#
# a listener started with --max-run-acks 5000: a client that
# starts a run and floods it with rising acknowledgements is told "NO
# limit-acks" and closed; its file keeps the first 5000, whole, and a
# query answers them (DONE 5000 0).  A run claiming a file of 2^64-1
# bytes, more records than any check holds, is told "NO limit-blocks"
# before anything is written.  A run claiming a one-record file is
# refused past 65536 acknowledgements (a real run stops there, the check
# reads no more).  A real diskio --durability run past the
# bound stops (exit 1), the 5000 recorded are checked; the listener
# still takes and confirms a real run and its check.  No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}
client="${top_srcdir:-.}/tests/lib/listenerlib.py"
t_memory_dir
mkdir "$t_memory/real" "$t_memory/late"

# ---- the bound per block: a one-record file, 65536 writes of it ----
# (a listener with the default bounds of its own, stopped after)
d_listen oneblock
"$PYTHON" - "$d_port" >"$t_scratch/oneblock" 2>&1 <<'PY'
import sys
import listenerlib
s = listenerlib.connect(int(sys.argv[1]))
s.sendall(b"DISKIO-DURABLE 1 RUN oneblock 512 512 -\n")
lines = b"".join(b"A %d 0 0000abcd\n" % seq for seq in range(1, 65538))
try:
    s.sendall(lines)
except OSError:
    pass
print(listenerlib.read_all(s).decode("ascii", "replace"), end="")
PY
grep -q '^NO limit-acks a run sends at most 65536 acknowledgements per block' \
    "$t_scratch/oneblock" && t_ok "a one-record run is refused past 65536 acknowledgements" ||
    t_fail "the one-record run: $(cat "$t_scratch/oneblock")"
acks=$(grep -c '^A ' "$d_acks/oneblock.acks")
[ "$acks" -eq 65536 ] && t_ok "its file keeps the first 65536" ||
    t_fail "oneblock.acks holds $acks acknowledgements"

kill -TERM "$d_lpid" && wait "$d_lpid"

d_listen_opts="--max-run-acks 5000"
d_listen flood absurd late real

# ---- an absurd claim ----
"$PYTHON" - "$d_port" >"$t_scratch/absurd" 2>&1 <<'PY'
import sys
import listenerlib
s = listenerlib.connect(int(sys.argv[1]))
s.sendall(b"DISKIO-DURABLE 1 RUN absurd 512 18446744073709551615 -\n")
print(listenerlib.read_all(s).decode("ascii", "replace"), end="")
PY
grep -q '^NO limit-blocks a run.s file holds at most 67108864 records' "$t_scratch/absurd" &&
    t_ok "a run claiming 2^64-1 bytes of 512-byte records is refused: $(cat "$t_scratch/absurd")" ||
    t_fail "the absurd claim: $(cat "$t_scratch/absurd")"
[ ! -e "$d_acks/absurd.acks" ] && t_ok "nothing was written for it" ||
    t_fail "absurd.acks: $(cat "$d_acks/absurd.acks")"

# ---- a flood ----
"$PYTHON" "$client" flood "$d_port" flood 20000 >"$t_scratch/flood" 2>&1
grep -qx 'OK flood' "$t_scratch/flood" &&
    grep -q '^NO limit-acks a run sends at most 5000 acknowledgements' "$t_scratch/flood" &&
    t_ok "the flood is refused past 5000 acknowledgements" ||
    t_fail "the flood: $(cat "$t_scratch/flood")"
acks=$(grep -c '^A ' "$d_acks/flood.acks")
[ "$acks" -eq 5000 ] && ! grep -q '^END' "$d_acks/flood.acks" &&
    [ "$(tail -c 1 "$d_acks/flood.acks" | od -An -c | tr -d ' ')" = '\n' ] &&
    t_ok "its file keeps the first 5000, whole lines" ||
    t_fail "flood.acks holds $acks acknowledgements: $(tail -n 2 "$d_acks/flood.acks")"
"$PYTHON" "$client" query "$d_port" flood >"$t_scratch/query" 2>&1 &&
    grep -qx 'DONE 5000 0' "$t_scratch/query" && t_ok "a query answers them: DONE 5000 0" ||
    t_fail "query: $(cat "$t_scratch/query")"
grep -q 'run flood: refused (limit-acks: ' "$d_log" && t_ok "the listener logs the refusal" ||
    t_fail "log: $(cat "$d_log")"

# ---- a real run past the bound ----
t_expect_status 1 "a real run past the bound stops" -- \
    "$DISKIO" --durability "$d_listener" --run-id late --mode fdatasync --count 6000 --size 256k \
    --bs 4k --quiet "$t_memory/late"
# (seen when a send fails, or at the run's end when every send fit in
# the socket's buffer: either way the listener's reason, no count)
grep -Eq '(refused the run after [0-9]* acknowledgements were sent: |did not confirm the run.s [0-9]* acknowledgements: NO )limit-acks a run sends at most 5000' \
    "$t_scratch/stderr" && ! grep -q 'sent before are recorded' "$t_scratch/stderr" &&
    t_ok "the run says the listener refused it, and why" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 0 "what it recorded checks durable" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_memory/late"/diskio-test.*
grep -q '^acknowledged writes: 5000 ' "$t_scratch/stdout" && t_ok "5000 acknowledgements checked" ||
    t_fail "check: $(cat "$t_scratch/stdout")"

# ---- the listener goes on ----
t_expect_status 0 "a real run after the flood" -- \
    "$DISKIO" --durability "$d_listener" --run-id real --mode fdatasync --count 200 --size 256k \
    --bs 4k --quiet "$t_memory/real"
t_expect_status 0 "its check" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_memory/real"/diskio-test.*
kill -0 "$d_lpid" 2>/dev/null && t_ok "the listener is running" ||
    t_fail "the listener died: $(cat "$d_log")"
t_done
