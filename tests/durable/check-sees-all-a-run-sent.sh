#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a check asked for right after a run stopped is answered with everything the run sent.
#
# a client sends a run of 200,000 acknowledgements as fast
# as the socket takes them (about 6 MB, a hundred of the listener's
# 64 KiB batches), half-closes its connection as a run that stops does,
# and at once asks for the run's check on a second connection: the
# answer holds all 200,000 (DONE 200000 0), not the batches recorded so
# far.  A second round does the same while the run's connection stays
# open.  No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}
d_listen r1 r2

for run in r1 r2; do
    "$PYTHON" - "$d_port" "$run" >"$t_scratch/$run" 2>&1 <<'PY'
import socket, sys
import listenerlib
port, run = int(sys.argv[1]), sys.argv[2]
n = 200000
s = listenerlib.connect(port)
s.sendall(b"DISKIO-DURABLE 1 RUN %s 4096 1073741824 -\n" % run.encode())
assert s.recv(64).startswith(b"OK "), "the run was not taken"
s.sendall(b"".join(listenerlib.ack_line(seq) for seq in range(1, n + 1)))
if run == "r1":
    s.shutdown(socket.SHUT_WR)
first, acks, last, problem = listenerlib.check_answer(listenerlib.query(port, run), run)
print(last.decode("ascii", "replace"), problem or "")
s.close()
PY
    grep -qx 'DONE 200000 0 ' "$t_scratch/$run" &&
        t_ok "$run: the check right after the run holds all 200000 acknowledgements" ||
        t_fail "$run: $(cat "$t_scratch/$run")"
done
kill -0 "$d_lpid" 2>/dev/null && t_ok "the listener is running" ||
    t_fail "the listener died: $(cat "$d_log")"
t_done
