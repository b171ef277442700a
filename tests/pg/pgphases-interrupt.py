#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases interrupted mid-phase exits 128+signal and cleans everything up.

diskio-pgphases interrupted mid-phase (SIGINT to its process group,
as Ctrl-C does, during PERF.POWER; SIGTERM to the runner alone during
PERF.THRUPUT; SIGINT to the runner alone during LOAD) exits with 130 / 143,
leaves no server process and removes the cluster directory; results written
so far are marked incomplete.

Exit 0 pass, 77 skip, anything else fail."""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import (log, fail, skip, make_tmpdir, find_pg_bindir,  # noqa: E402
                    pgphases_cmd, cluster_from_stderr, check_no_cluster_left,
                    postgres_procs_for)


def case(tmp, bindir, tag, trigger, sig, group, expect_rc):
    store = os.path.join(tmp, "store-" + tag)
    out = os.path.join(tmp, "out-" + tag)
    os.mkdir(store)
    os.chmod(store, 0o755)
    cmd = pgphases_cmd() + ["--sf", "0.01", "--pg-bindir", bindir,
                            "--output", out, store]
    log("[%s] running: %s" % (tag, " ".join(cmd)))
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    lines = []
    seen = threading.Event()

    def reader():
        for line in p.stderr:
            lines.append(line)
            sys.stdout.write("[%s] %s" % (tag, line))
            if trigger in line:
                seen.set()
        seen.set()
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    if not seen.wait(300):
        p.kill()
        fail("[%s] %r never appeared" % (tag, trigger))
    if p.poll() is not None:
        fail("[%s] runner ended (exit %d) before %r" % (tag, p.returncode, trigger))
    time.sleep(0.3)   # well inside the phase
    running = postgres_procs_for(store)
    if not running:
        fail("[%s] no server process found for %s while running: the check "
             "itself does not work" % (tag, store))
    log("[%s] server running before the signal: %d process(es) of %s"
        % (tag, len(running), store))
    if group:
        os.killpg(p.pid, sig)
        log("[%s] sent %s to the process group" % (tag, signal.Signals(sig).name))
    else:
        os.kill(p.pid, sig)
        log("[%s] sent %s to the runner" % (tag, signal.Signals(sig).name))
    try:
        rc = p.wait(120)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("[%s] runner did not exit within 120 s of the signal" % tag)
    t.join(5)
    if rc != expect_rc:
        fail("[%s] exit status %d, expected %d" % (tag, rc, expect_rc))
    log("[%s] ok: exit status %d" % (tag, rc))
    cluster = cluster_from_stderr("".join(lines))
    time.sleep(0.5)
    check_no_cluster_left(store, cluster)
    sj = os.path.join(out, "settings.json")
    if os.path.exists(sj):
        with open(sj) as f:
            st = json.load(f)
        if st.get("complete") is not False:
            fail("[%s] interrupted run's settings.json not marked incomplete" % tag)
        log("[%s] ok: partial results marked incomplete (%s)" % (tag, st.get("error")))
    else:
        fail("[%s] no settings.json written for the interrupted run" % tag)


def main():
    bindir = find_pg_bindir()
    if bindir is None:
        skip("no PostgreSQL server binaries (initdb) found; install postgresql")
    tmp = make_tmpdir("diskio-pgphases-int.")
    try:
        case(tmp, bindir, "int-power", "PERF.POWER:", signal.SIGINT, True, 130)
        case(tmp, bindir, "term-thruput", "PERF.THRUPUT:", signal.SIGTERM, False, 143)
        case(tmp, bindir, "int-load", "LOAD:", signal.SIGINT, False, 130)
        log("PASS: pgphases-interrupt")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
