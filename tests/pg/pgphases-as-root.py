#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases as root passes no path through a shell and follows no planted link.

diskio-pgphases run as root on a real cluster passes no path
through a shell and follows no link the server user plants: a directory
under test named with $(...) and backquotes runs nothing (pg_ctl's start
ran such a name through sh -c as the server user), and a postgres.log
and postgresql.conf that the server user replaces by symlinks to a
root-only file during the run leave that file unread and unchanged.
The run completes, the server log is kept with no wider permissions
than 0600, and no server or cluster directory is left.  Tiny scale
factor, one stream.

Exit 0 pass, 77 skip, anything else fail."""
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import threading

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pglib import (log, fail, skip, make_tmpdir, find_pg_bindir,  # noqa: E402
                    pgphases_cmd, check_no_cluster_left)

SECRET = "root only\n"


def as_nobody(cmd):
    nobody = pwd.getpwnam("nobody")
    subprocess.run(cmd, check=True, user=nobody.pw_uid, group=nobody.pw_gid,
                   extra_groups=[])


def main():
    if os.geteuid() != 0:
        skip("needs root (the server then runs as nobody)")
    bindir = find_pg_bindir()
    if bindir is None:
        skip("no PostgreSQL server binaries (initdb) found; install postgresql")
    tmp = make_tmpdir("diskio-pgphases-root.")
    try:
        # where the command substitutions would leave their marks: the
        # runner's working directory, writable by the server user
        cwd = os.path.join(tmp, "cwd")
        os.mkdir(cwd)
        os.chmod(cwd, 0o777)
        private = os.path.join(tmp, "root-only")
        os.mkdir(private, 0o700)
        victim = os.path.join(private, "secret")
        with open(victim, "w") as f:
            f.write(SECRET)
        os.chmod(victim, 0o600)
        store = os.path.join(tmp, "store $(touch PWNED1) `touch PWNED2`")
        os.mkdir(store)
        os.chmod(store, 0o755)
        out = os.path.join(tmp, "out")
        cmd = pgphases_cmd() + ["--sf", "0.001", "--streams", "1",
                                "--pg-bindir", bindir, "--output", out, store]
        log("running in %s: %s" % (cwd, cmd))
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        lines = []
        planted = []

        def reader():
            cluster = None
            for line in p.stderr:
                lines.append(line)
                sys.stdout.write(line)
                m = re.search(r"cluster in (.+) \(server user", line)
                if m:
                    cluster = m.group(1)
                if line.startswith("diskio-pgphases: LOAD:") and cluster:
                    # the server user replaces what root once opened there
                    for name in ("postgres.log", "data/postgresql.conf"):
                        path = os.path.join(cluster, name)
                        as_nobody(["ln", "-sfn", victim, path])
                        planted.append(path)
        t = threading.Thread(target=reader, daemon=True)
        t.start()
        try:
            rc = p.wait(600)
        except subprocess.TimeoutExpired:
            p.kill()
            fail("diskio-pgphases did not finish within 600 s")
        t.join(10)
        if rc != 0:
            fail("diskio-pgphases exited %d" % rc)
        # two links in each round's cluster (--rounds: one cluster a round)
        if not planted or len(planted) % 2:
            fail("the links were not planted (no LOAD line after the cluster's)")
        log("ok: exit 0 with links planted at %s" % ", ".join(planted))
        marks = [f for f in os.listdir(cwd)] + [
            f for f in os.listdir(tmp) if f.startswith("PWNED")]
        if marks:
            fail("a command in the directory's name ran: %s" % marks)
        log("ok: nothing in the name of %r ran" % os.path.basename(store))
        with open(victim) as f:
            if f.read() != SECRET:
                fail("the root-only file was written through a link")
        log("ok: the root-only file is unchanged")
        copy = os.path.join(out, "postgres.log")
        with open(copy) as f:
            text = f.read()
        if "root only" in text or "database system is ready" not in text:
            fail("postgres.log is not the server's log: %r" % text[:200])
        mode = stat.S_IMODE(os.lstat(copy).st_mode)
        if mode & 0o077:
            fail("postgres.log has mode %o: wider than the server's own 0600" % mode)
        log("ok: postgres.log is the server's own, mode %o" % mode)
        if not os.path.isfile(os.path.join(out, "q_time.csv")):
            fail("no q_time.csv")
        check_no_cluster_left(store, None)
        log("PASS: pgphases-as-root")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
