#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A hostile durability listener for the tests of diskio --verify-durability.

Usage: fake-listener.py PORTFILE ANSWER RUNID

Listens on 127.0.0.1 (a port of its own choosing, written to PORTFILE
once it listens), and answers every query, one connection after the
other, with ANSWER, each a reply no honest diskio-durable would give:

  empty    RUN RUNID 512 5120 -, then DONE 0 1: a run that acknowledged
           nothing
  endless  RUN RUNID 512 512 -, then acknowledgements of its one block,
           as fast as the socket takes them, never DONE
  huge     RUN RUNID 512 34359738368 - (32 GiB), then 1000
           acknowledgements spread over those 32 GiB, then DONE 1000 0
  trickle  RUN RUNID 512 512 -, then an acknowledgement every 50 ms,
           never DONE

It runs until it is killed; a client that goes away ends its connection
only.
"""
import os
import socket
import sys
import time

SECTOR = 512
HUGE = 32 << 30


def ack(seq: int, offset: int) -> bytes:
    return b"A %d %d 00000000\n" % (seq, offset)


def answer(conn: socket.socket, kind: str, run_id: bytes) -> None:
    if kind == "empty":
        conn.sendall(b"RUN " + run_id + b" 512 5120 -\nDONE 0 1\n")
        return
    if kind == "huge":
        step = HUGE // 1000 // SECTOR * SECTOR
        lines = [ack(i + 1, i * step) for i in range(1000)]
        conn.sendall(b"RUN " + run_id + b" 512 %d -\n" % HUGE + b"".join(lines) +
                     b"DONE 1000 0\n")
        return
    conn.sendall(b"RUN " + run_id + b" 512 512 -\n")
    seq = 1
    while True:
        if kind == "endless":
            conn.sendall(b"".join(ack(seq + i, 0) for i in range(4096)))
            seq += 4096
        else:
            conn.sendall(ack(seq, 0))
            seq += 1
            time.sleep(0.05)


def main() -> None:
    portfile, kind, run_id = sys.argv[1], sys.argv[2], sys.argv[3].encode("ascii")
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    with open(portfile + ".tmp", "w") as out:
        out.write("%d\n" % server.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    while True:
        conn, _ = server.accept()
        try:
            query = b""
            while not query.endswith(b"\n"):
                part = conn.recv(256)
                if not part:
                    break
                query += part
            answer(conn, kind, run_id)
        except OSError:
            pass  # the check stopped reading: its own business
        finally:
            conn.close()


if __name__ == "__main__":
    main()
