# SPDX-License-Identifier: MIT
"""A client of diskio-durable's protocol (diskio-durable(1), PROTOCOL) for
the tests: imported by tests/fuzz/listener-protocol.py, run by the shell
tests of tests/durable as

    python3 listenerlib.py query PORT RUNID
    python3 listenerlib.py flood PORT RUNID COUNT [long] [end]
    python3 listenerlib.py slow-query PORT RUNID STATUS STOP

query prints the answer's first line, "acks N" and its last line, and
exits 0 only for a whole answer (RUN, the run's BOOT if it sent one, A
lines rising, DONE N ENDED with N the A lines sent).  flood starts a run of 4096-byte records in a 1 GiB
file and sends COUNT acknowledgements (long: with 20-digit sequence
numbers, the longest lines; end: then END COUNT), then prints every
line the listener sent back and "sent N": how many lines went before the
listener closed.  slow-query asks for RUNID's answer on a socket with a
4096-byte receive buffer and reads 64 bytes every half second, writing
"bytes N done D" to STATUS after each read, until the file STOP exists.
"""

import os
import socket
import sys
import time

PROTOCOL = b"DISKIO-DURABLE 1 "
RECORD = 4096
FILE_BYTES = 1 << 30
TIMEOUT = 60  # a listener that does not answer at all: not a speed


def connect(port, rcvbuf=0, timeout=TIMEOUT):
    """A connection to the listener on 127.0.0.1:port (rcvbuf: its size)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def read_all(s):
    """Everything the peer sends until it closes (a reset ends it too)."""
    got = []
    while True:
        try:
            part = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not part:
            break
        got.append(part)
    return b"".join(got)


def ack_line(seq, long_lines=False):
    """An acknowledgement: rising seq, an offset inside FILE_BYTES."""
    if long_lines:
        seq += 10 ** 19
    offset = (seq % (FILE_BYTES // RECORD)) * RECORD
    return b"A %d %d %08x\n" % (seq, offset, seq & 0xffffffff)


def check_answer(data, run_id):
    """(first line, acks, last line, problem or None) of a query's answer."""
    lines = data.split(b"\n")
    if not data.endswith(b"\n"):
        return (lines[0], 0, lines[-1], "the answer ends without a whole line")
    lines = lines[:-1]
    first, last = lines[0], lines[-1]
    if not first.startswith(b"RUN " + run_id.encode() + b" "):
        return (first, 0, last, "the first line is not RUN " + run_id)
    body = lines[1:-1]
    # the run's boot id, when it sent one, comes before its acknowledgements
    if body and body[0].startswith(b"BOOT "):
        body = body[1:]
    last_seq = 0
    for line in body:
        w = line.split(b" ")
        if len(w) != 4 or w[0] != b"A" or int(w[1]) <= last_seq:
            return (first, 0, last, "not a rising acknowledgement: %r" % line)
        last_seq = int(w[1])
    n = len(body)
    if last not in (b"DONE %d 0" % n, b"DONE %d 1" % n):
        return (first, n, last, "the last line is not DONE %d ENDED" % n)
    return (first, n, last, None)


def query(port, run_id, rcvbuf=0):
    """The listener's whole answer to a query of run_id, as bytes."""
    s = connect(port, rcvbuf)
    s.sendall(PROTOCOL + b"QUERY " + run_id.encode() + b"\n")
    data = read_all(s)
    s.close()
    return data


def flood(port, run_id, count, long_lines=False, end=False):
    """(lines the listener sent back, acknowledgements sent before it closed)."""
    s = connect(port)
    s.sendall(PROTOCOL + b"RUN %s %d %d -\n" % (run_id.encode(), RECORD, FILE_BYTES))
    sent = 0
    chunk = 2000
    try:
        while sent < count:
            n = min(chunk, count - sent)
            s.sendall(b"".join(ack_line(sent + 1 + i, long_lines) for i in range(n)))
            sent += n
        if end:
            s.sendall(b"END %d\n" % count)
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    replies = read_all(s).decode("ascii", "replace").splitlines()
    s.close()
    return replies, sent


def slow_query(port, run_id, status, stop):
    """Read run_id's answer a few bytes at a time until stop exists."""
    s = connect(port, rcvbuf=4096)
    s.sendall(PROTOCOL + b"QUERY " + run_id.encode() + b"\n")
    s.settimeout(0.5)
    total, done = 0, False
    while not os.path.exists(stop):
        try:
            part = s.recv(64)
            if not part:
                done = True
            total += len(part)
        except socket.timeout:
            pass
        with open(status + ".tmp", "w") as f:
            f.write("bytes %d done %d\n" % (total, done))
        os.replace(status + ".tmp", status)
        if done:
            break
        time.sleep(0.5)
    s.close()


def main(argv):
    cmd, port, run_id = argv[1], int(argv[2]), argv[3]
    if cmd == "query":
        first, acks, last, problem = check_answer(query(port, run_id), run_id)
        print(first.decode("ascii", "replace"))
        print("acks %d" % acks)
        print(last.decode("ascii", "replace"))
        if problem:
            print("problem: " + problem)
        return 1 if problem else 0
    if cmd == "flood":
        replies, sent = flood(port, run_id, int(argv[4]), "long" in argv[5:], "end" in argv[5:])
        for line in replies:
            print(line)
        print("sent %d" % sent)
        return 0
    if cmd == "slow-query":
        slow_query(port, run_id, argv[4], argv[5])
        return 0
    print("unknown command " + cmd, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
