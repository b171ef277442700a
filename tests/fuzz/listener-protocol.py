#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: a storm of hostile clients never stops the listener serving real runs and checks.

A protocol fuzz of diskio-durable.  One listener (bounds: --max-run-acks
250000, --max-run-bytes 8m) holds a recorded run of 200,000
acknowledgements, an answer of about 5 MB, more than the kernel's socket
buffers take at once; then, for LISTENER_FUZZ_SECONDS (default 40), twelve
hostile workers connect over and over, many connections at once: random
bytes, valid lines mutated (bytes dropped, inserted, doubled, numbers
huge or negative, words swapped, lines too long), slow readers of the
big run's answer (a 4096-byte receive buffer, a few bytes now and then,
at most eight at once: the listener answers 16 checks at a time),
floods of acknowledgements (short lines to the acknowledgement bound,
long ones to the byte bound), absurd size claims, connections that say
nothing, half-closed sockets, runs that never read their replies and
vanish.  Throughout, the main thread makes real diskio --durability runs
and checks them with diskio --verify-durability (both exit 0, every
acknowledgement recorded) and queries the big run (its whole answer).

Fails (exit 1) when a real run or check or query fails, when the
listener exits or answers a line that is not the protocol's, or when,
at the end, its directory holds a file that is not an expected run's,
a run's file is past --max-run-bytes, its peak memory is past 64 MiB or
its descriptors do not come back to what they were before the storm.
The seed (LISTENER_FUZZ_SEED, default 20261127) is printed; each worker's
actions come from it (their interleaving is the machine's).  Runs from
the top build directory (DISKIO, DISKIO_DURABLE, top_srcdir set by make
check-slow).  Exit 0 pass, 1 fail, 77 skip.
"""

import collections
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import listenerlib  # noqa: E402

SEED = int(os.environ.get("LISTENER_FUZZ_SEED", "20261127"))
SECONDS = float(os.environ.get("LISTENER_FUZZ_SECONDS", "40"))
DISKIO = os.environ.get("DISKIO", "./diskio")
LISTENER = os.environ.get("DISKIO_DURABLE", "./diskio-durable")
WORKERS = 12
SLOW_READERS_MAX = 8
MAX_ACKS = 250000
MAX_BYTES = 8 << 20
BIG_ACKS = 200000
LEGIT_IDS = ["legit%d" % i for i in range(30)]
FLOOD_IDS = ["fl%d" % i for i in range(16)]
RSS_MAX_KB = 64 * 1024
# what the listener may say: its replies and its answer's lines
REPLY = re.compile(rb"^(OK [\w.-]+|NO [a-z-]+ [ -~]*|DONE \d+( [01])?|RUN [ -~]+|"
                   rb"A \d+ \d+ [0-9a-f]{8})$")

failures = []
refusals = collections.Counter()  # NO WORD the listener said, by WORD
lock = threading.Lock()
stop = threading.Event()
slow_readers = threading.Semaphore(SLOW_READERS_MAX)
flood_ids = list(FLOOD_IDS)


def fail(text):
    with lock:
        failures.append(text)
    print("FAIL: " + text, flush=True)


def check_replies(data, what):
    """Every whole line the listener sent is one of the protocol's."""
    for line in data.split(b"\n")[:-1]:
        if not REPLY.match(line):
            fail("%s: the listener said %r" % (what, line[:200]))
            return
        if line.startswith(b"NO "):
            with lock:
                refusals[line.split(b" ")[1].decode()] += 1


VALID = [b"DISKIO-DURABLE 1 QUERY big", b"DISKIO-DURABLE 1 RUN fl0 4096 1073741824 x",
         b"DISKIO-DURABLE 1 QUERY legit0", b"A 1 4096 0badc0de", b"END 1",
         b"DISKIO-DURABLE 1 RUN big 512 1048576 -"]
NUMBERS = [b"0", b"-1", b"18446744073709551615", b"18446744073709551616",
           b"99999999999999999999999", b"", b"0x10", b"1e9", b"007", b" "]


def mutate(rng, line):
    """line with one to four random changes."""
    b = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(7)
        at = rng.randrange(len(b) + 1)
        if k == 0 and b:
            del b[min(at, len(b) - 1)]
        elif k == 1:
            b[at:at] = bytes([rng.randrange(256)])
        elif k == 2:
            b[at:at] = b" "
        elif k == 3:
            words = bytes(b).split(b" ")
            words[rng.randrange(len(words))] = rng.choice(NUMBERS)
            b = bytearray(b" ".join(words))
        elif k == 4:
            words = bytes(b).split(b" ")
            rng.shuffle(words)
            b = bytearray(b" ".join(words))
        elif k == 5:
            b[at:at] = b"A" * rng.choice((100, 159, 160, 300))
        else:
            b = b[:at]
    return bytes(b)


def exchange(port, data, half_close, what, read=True):
    """Send data, maybe shut the writing half, read what comes back."""
    s = listenerlib.connect(port, timeout=15)
    try:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        if read:
            check_replies(listenerlib.read_all(s), what)
    except OSError:
        pass
    finally:
        s.close()


def act_garbage(rng, port):
    n = rng.choice((1, 10, 159, 160, 161, 1000, 5000))
    exchange(port, bytes(rng.randrange(256) for _ in range(n)), rng.random() < 0.5, "garbage")


def act_mutated(rng, port):
    lines = [mutate(rng, rng.choice(VALID)) for _ in range(rng.randint(1, 3))]
    exchange(port, b"\n".join(lines) + b"\n", rng.random() < 0.5, "mutated")


def act_absurd(rng, port):
    record = rng.choice((b"512", b"4096", b"67108864", b"67108865", b"0", b"511"))
    size = rng.choice((b"18446744073709551615", b"1099511627776000", b"34359738368",
                       b"512", b"1"))
    run_id = rng.choice(FLOOD_IDS + ["nobody", "big"]).encode()
    exchange(port, b"DISKIO-DURABLE 1 RUN %s %s %s -\n" % (run_id, record, size),
             rng.random() < 0.5, "absurd")


def act_flood(rng, port):
    with lock:
        run_id = flood_ids.pop(0) if flood_ids else "nobody"
    long_lines = rng.random() < 0.5
    s = listenerlib.connect(port, timeout=15)
    try:
        s.sendall(listenerlib.PROTOCOL + b"RUN %s 4096 %d -\n"
                  % (run_id.encode(), listenerlib.FILE_BYTES))
        seq = 0
        while not stop.is_set() and seq < 2 * MAX_ACKS:
            s.sendall(b"".join(listenerlib.ack_line(seq + i + 1, long_lines) for i in range(500)))
            seq += 500
    except OSError:
        pass  # refused and closed: its reply is read below
    check_replies(listenerlib.read_all(s), "flood")
    s.close()


def act_slow_reader(rng, port):
    if not slow_readers.acquire(blocking=False):
        return
    try:
        s = listenerlib.connect(port, rcvbuf=4096, timeout=15)
        s.sendall(listenerlib.PROTOCOL + b"QUERY big\n")
        until = time.monotonic() + rng.choice((2, 5, SECONDS))
        while time.monotonic() < until and not stop.is_set():
            s.recv(rng.choice((1, 16, 64, 2048)))
            time.sleep(rng.uniform(0.1, 2.0))
        if rng.random() < 0.5:
            s.shutdown(socket.SHUT_RDWR)
        s.close()
    except OSError:
        pass
    finally:
        slow_readers.release()


def act_silent(rng, port):
    """Say nothing (past the first-line deadline, sometimes), or half a line."""
    s = listenerlib.connect(port, timeout=15)
    try:
        if rng.random() < 0.5:
            s.sendall(b"DISKIO-DUR")
        if rng.random() < 0.3:
            s.shutdown(socket.SHUT_WR)
        end = time.monotonic() + rng.choice((0.1, 2, 12))
        while time.monotonic() < end and not stop.is_set():
            time.sleep(0.2)
    except OSError:
        pass
    finally:
        s.close()


def act_vanishing_run(rng, port):
    """A run that never reads its replies, sends a little, and is gone."""
    with lock:
        run_id = flood_ids.pop(0) if flood_ids else "nobody"
    s = listenerlib.connect(port, rcvbuf=4096, timeout=15)
    try:
        s.sendall(listenerlib.PROTOCOL + b"RUN %s 4096 1048576 -\n" % run_id.encode())
        for seq in range(1, rng.randint(2, 200)):
            s.sendall(b"A %d %d %08x\n" % (seq, (seq % 256) * 4096, seq))
        if rng.random() < 0.5:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    except OSError:
        pass
    finally:
        s.close()


ACTIONS = [act_garbage, act_garbage, act_mutated, act_mutated, act_mutated, act_absurd,
           act_flood, act_slow_reader, act_slow_reader, act_silent, act_vanishing_run]


def worker(index, port):
    rng = random.Random(SEED * 1000 + index)
    while not stop.is_set():
        try:
            rng.choice(ACTIONS)(rng, port)
        except (ConnectionError, socket.timeout):
            pass  # a reset or a wait is the listener's answer to some of these
        except OSError as e:
            fail("worker %d: %s" % (index, e))
        time.sleep(rng.uniform(0, 0.05))


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def legit_round(port, run_id, data):
    """A real run and its check, and a query of the big run: all whole."""
    listener = "127.0.0.1:%d" % port
    work = os.path.join(data, run_id)
    os.mkdir(work)
    r = run([DISKIO, "--durability", listener, "--run-id", run_id, "--mode", "fdatasync",
             "--count", "300", "--size", "256k", "--bs", "4k", "--quiet", work])
    if r.returncode != 0:
        fail("the real run %s: exit %d: %s" % (run_id, r.returncode, r.stderr.decode()))
        return
    files = os.listdir(work)
    r = run([DISKIO, "--verify-durability", listener, os.path.join(work, files[0])])
    if r.returncode != 0 or b"acknowledged writes: 300 " not in r.stdout:
        fail("the check of %s: exit %d: %s%s"
             % (run_id, r.returncode, r.stdout.decode(), r.stderr.decode()))
    first, acks, last, problem = listenerlib.check_answer(listenerlib.query(port, "big"), "big")
    if problem or last != b"DONE %d 1" % BIG_ACKS:
        fail("the query of the big run: %s (%r ... %r)" % (problem, first, last))


def start_listener(acks_dir, log):
    expect = []
    for run_id in ["big"] + LEGIT_IDS + FLOOD_IDS:
        expect += ["--expect", run_id]
    bounds = ["--max-run-acks", str(MAX_ACKS), "--max-run-bytes", str(MAX_BYTES)]
    proc = subprocess.Popen([LISTENER, "listen", "--dir", acks_dir, "--port", "0", "--quiet"]
                            + bounds + expect,
                            stdout=subprocess.PIPE, stderr=log)
    line = proc.stdout.readline().decode()
    m = re.search(r"port (\d+);", line)
    if not m:
        proc.kill()
        print("FAIL: the listener did not start: " + line)
        sys.exit(1)
    return proc, int(m.group(1))


def proc_status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def check_directory(acks_dir):
    expected = {run_id + ".acks" for run_id in ["big"] + LEGIT_IDS + FLOOD_IDS}
    total = 0
    for name in sorted(os.listdir(acks_dir)):
        size = os.path.getsize(os.path.join(acks_dir, name))
        total += size
        if name not in expected:
            fail("the listener's directory holds %s" % name)
        if size > MAX_BYTES:
            fail("%s is %d bytes, past --max-run-bytes %d" % (name, size, MAX_BYTES))
    print("the listener's directory: %d files, %d bytes" % (len(os.listdir(acks_dir)), total))


def storm(proc, port, data):
    """The workers against the listener, and the real runs beside them."""
    threads = [threading.Thread(target=worker, args=(i, port), daemon=True)
               for i in range(WORKERS)]
    for t in threads:
        t.start()
    end = time.monotonic() + SECONDS
    rounds = 0
    for run_id in LEGIT_IDS:
        if time.monotonic() >= end or proc.poll() is not None:
            break
        legit_round(port, run_id, data)
        rounds += 1
        time.sleep(SECONDS / len(LEGIT_IDS))  # spread over the storm
    while time.monotonic() < end and proc.poll() is None:
        time.sleep(0.2)
    stop.set()
    for t in threads:
        t.join(30)
    print("%d real runs, checks and queries made during the storm" % rounds)
    print("the listener's refusals: " + ", ".join("%s %d" % kv for kv in sorted(refusals.items())))
    if rounds == 0:
        fail("no real run was made")


def settle(pid, baseline):
    """The listener's descriptors back to what they were (20 s at most)."""
    for _ in range(100):
        if fds(pid) <= baseline:
            return
        time.sleep(0.2)
    fail("the listener holds %d descriptors, %d before the storm" % (fds(pid), baseline))


def main():
    if not (os.access(LISTENER, os.X_OK) and os.access(DISKIO, os.X_OK)):
        print("FAIL: no diskio at %s or no diskio-durable at %s ($DISKIO, $DISKIO_DURABLE), "
              "yet make check-slow sets them to the ones make builds" % (DISKIO, LISTENER))
        return 1
    print("seed %d (LISTENER_FUZZ_SEED), %g s (LISTENER_FUZZ_SECONDS)" % (SEED, SECONDS))
    scratch = tempfile.mkdtemp(prefix="listener-fuzz.", dir=os.getcwd())
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else scratch
    data = tempfile.mkdtemp(prefix="listener-fuzz.", dir=shm)
    acks_dir = os.path.join(scratch, "acks")
    os.mkdir(acks_dir)
    log_path = os.path.join(scratch, "listener.err")
    with open(log_path, "w") as log:
        proc, port = start_listener(acks_dir, log)
    try:
        replies, _ = listenerlib.flood(port, "big", BIG_ACKS, end=True)
        if "DONE %d" % BIG_ACKS not in replies:
            fail("the big run was not recorded: %s" % replies)
        baseline = fds(proc.pid)
        storm(proc, port, data)
        if proc.poll() is not None:
            fail("the listener exited (status %d) during the storm" % proc.returncode)
        else:
            settle(proc.pid, baseline)
            peak = proc_status(proc.pid, "VmHWM")
            print("the listener's peak memory: %d KiB" % peak)
            if peak > RSS_MAX_KB:
                fail("the listener's peak memory is %d KiB, past %d" % (peak, RSS_MAX_KB))
        check_directory(acks_dir)
    finally:
        finish(proc, scratch, data, log_path)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


def finish(proc, scratch, data, log_path):
    """The listener stopped (status 0), its messages shown on a failure."""
    try:
        if proc.poll() is None:
            proc.terminate()
            if proc.wait(30) != 0:
                fail("the listener stopped with status %d" % proc.returncode)
        if failures:
            with open(log_path) as f:
                print("the listener's messages (the last 20):\n" + "".join(f.readlines()[-20:]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
