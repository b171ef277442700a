#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the examples of the README and its guides run as written.

The examples of the README and of the guides it points to (DOCUMENTS)
run as written, so that they cannot go stale.  Every ```sh block of them
runs in order with bash -e, each in a directory of its own (HOME
shared, so ~/lab carries from one to the next), the commands the build tree's: diskio with its runs
made short (every count, duration, size and suite cut, appended after
the block's own options, which the last one wins), the analysis
commands as scripts/ has them.  The storage the examples name (/srv/X,
/mnt/X) is a directory of the test's, /path/to/dbt3/run/q_time.csv a
fixture's, /usr/local/lib/libdiskio-delay.so the build tree's.  A block
is left out only when marked <!-- not run: WHY --> (or is a quick start,
which .ci/run runs); <!-- run also with: SED --> runs it a second time so
changed; <!-- run in a network namespace --> runs it as root in a network
namespace and mount namespace of its own, with a private /run (the first
fleet run: an sshd on a loopback port), and is skipped where that cannot
be made.  Each block must exit 0."""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.path.abspath(os.environ.get("top_srcdir") or
                             os.path.dirname(os.path.dirname(HERE)))
TOP_BUILDDIR = os.path.abspath(os.environ.get("top_builddir") or TOP_SRCDIR)
DISKIO = os.path.abspath(os.environ.get("DISKIO") or
                         os.path.join(TOP_BUILDDIR, "diskio"))
DELAY_LIB = os.environ.get("DISKIO_DELAY_LIB") or os.path.join(
    TOP_BUILDDIR, ".libs", "libdiskio-delay.so")
FIXTURES = os.path.join(TOP_SRCDIR, "tests", "scripts", "fixtures")
COMMANDS = ("diskio-compare", "diskio-correlate", "diskio-plot",
            "diskio-pgphases", "diskio-fleet")
# appended to every diskio command of a block: short runs (the last of an
# option given twice is the one diskio takes)
SHORT = "--count 40 --warmup 1 --size 16m --runtime 0.3"
SHORT_INTERVAL = "--warmup 1 --size 16m --runtime 0.6 --interval 0.1"
# --steady: its own spec (a ramp of the example's would not fit), a window
# of 5 intervals, a run ending within a second
SHORT_STEADY = "--warmup 1 --size 16m --runtime 1 --interval 0.1 --steady"
# --target: a search of seconds (its own points; no --count or --runtime)
SHORT_TARGET = "--warmup 1 --size 16m --target p99=50ms,time=3s,point=0.2s"
SHORT_SUITE = ("--suite-runs 2 --suite-max-bs 1m --size 8m --runtime 0.05 "
               "--count 40 --warmup 1")

# the documents whose examples run, in this order (one HOME: ~/lab made
# by one carries to the next)
DOCUMENTS = ("README.md", "doc/install.md", "doc/guide.md", "doc/comparing.md",
             "doc/library.md")

failures = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        if detail:
            print("     " + str(detail).replace("\n", "\n     "))
        failures.append(what)


def blocks(text):
    """(line, marker or None, code) of every ```sh block, in order."""
    found, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            before = next((line.strip() for line in reversed(lines[:i])
                           if line.strip()), "")
            marker = before if before.startswith("<!--") else None
            end = lines.index("```", i + 1)
            found.append((i + 1, marker, "\n".join(lines[i + 1:end]) + "\n"))
            i = end
        i += 1
    return found


def write_wrappers(bindir):
    """diskio with short runs, the build tree's analysis commands and
    listener; every path written in (a remote shell has none of this
    environment)."""
    os.makedirs(bindir)
    with open(os.path.join(bindir, "diskio"), "w") as out:
        out.write(f"""#!/bin/sh
# the README's diskio, its runs made short
case " $* " in
*" --suite "*) exec {shlex.quote(DISKIO)} "$@" {SHORT_SUITE} ;;
*" --interval "*) exec {shlex.quote(DISKIO)} "$@" {SHORT_INTERVAL} ;;
*" --steady"*) exec {shlex.quote(DISKIO)} "$@" {SHORT_STEADY} ;;
*" --target "*) exec {shlex.quote(DISKIO)} "$@" {SHORT_TARGET} ;;
*) exec {shlex.quote(DISKIO)} "$@" {SHORT} ;;
esac
""")
    os.chmod(os.path.join(bindir, "diskio"), 0o755)
    for name in COMMANDS:
        os.symlink(os.path.join(TOP_BUILDDIR, "scripts", name),
                   os.path.join(bindir, name))
    os.symlink(os.path.join(TOP_BUILDDIR, "diskio-durable"),
               os.path.join(bindir, "diskio-durable"))


def local_code(code, storage):
    """The block with the paths it names made the test's."""
    for name in sorted(set(re.findall(r"(?<![\w/])/(?:srv|mnt)/(\w+)", code))):
        os.makedirs(os.path.join(storage, name), exist_ok=True)
    code = re.sub(r"(?<![\w/])/(?:srv|mnt)/(\w+)",
                  lambda m: os.path.join(storage, m.group(1)), code)
    return (code.replace("/path/to/dbt3/run/q_time.csv",
                         os.path.join(FIXTURES, "env-a", "q_time.csv"))
            .replace("/usr/local/lib/libdiskio-delay.so", DELAY_LIB))


def namespace_missing():
    if os.geteuid() != 0:
        return "needs root for a network namespace of its own"
    for tool in ("unshare", "ip", "ssh", "ssh-keygen"):
        if not shutil.which(tool):
            return f"{tool} is not installed"
    if not (shutil.which("sshd") or os.path.exists("/usr/sbin/sshd")):
        return "sshd (openssh-server) is not installed"
    return None


def stop_sshd(home):
    """An sshd a failed block left running (its pid file in the block's
    directory under HOME) is stopped: only a process named sshd."""
    for root, _, files in os.walk(home):
        if "sshd.pid" not in files:
            continue
        try:
            with open(os.path.join(root, "sshd.pid")) as f:
                pid = int(f.read().strip())
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip().startswith("sshd"):
                    os.kill(pid, signal.SIGTERM)
        except (OSError, ValueError):
            pass


def main():
    found = []
    for name in DOCUMENTS:
        with open(os.path.join(TOP_SRCDIR, name), encoding="utf-8") as f:
            found += [(f"{name}:{line}", marker, code) for line, marker, code in blocks(f.read())]
    check(len(found) >= 10, f"README.md and its guides have their ```sh blocks ({len(found)})")
    work = tempfile.mkdtemp(prefix="diskio-readme.", dir=os.environ.get("TMPDIR"))
    home, storage, bindir = (os.path.join(work, d) for d in
                             ("home", "storage", "bin"))
    os.makedirs(home)
    write_wrappers(bindir)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "DISKIO_SUITE_PATH", "DISKIO_SUITEDIR")}
    env.update(HOME=home, PATH=bindir + os.pathsep + env.get("PATH", ""),
               PYTHONDONTWRITEBYTECODE="1")
    gnuplot = shutil.which(os.environ.get("GNUPLOT", "gnuplot"))
    ran = 0
    try:
        for number, (line, marker, code) in enumerate(found):
            where = line
            if marker and (marker.startswith("<!-- quickstart:")
                           or marker.startswith("<!-- not run:")):
                print(f"skip {where}: {marker}")
                continue
            if "diskio-plot" in code and not gnuplot:
                print(f"skip {where}: gnuplot is not installed")
                continue
            runs = [code]
            also = re.match(r"<!-- run also with: (.*) -->", marker or "")
            if also:
                runs.append(subprocess.run(["sed", also.group(1)], input=code,
                                           capture_output=True, text=True,
                                           check=True).stdout)
            for k, text in enumerate(runs):
                cwd = os.path.join(work, f"block-{number}-{k}")
                os.makedirs(cwd)
                script = os.path.join(cwd, "block.sh")
                with open(script, "w") as out:
                    out.write(local_code(text, storage))
                argv = ["bash", "-e", script]
                if marker == "<!-- run in a network namespace -->":
                    why = namespace_missing()
                    if why:
                        print(f"skip {where}: {why}")
                        continue
                    argv = ["unshare", "--net", "--mount", "--propagation",
                            "private", "sh", "-c",
                            "ip link set lo up && mount -t tmpfs -o mode=755 "
                            "tmpfs /run && mkdir -m 755 /run/sshd && "
                            'exec bash -e "$0"', script]
                proc = subprocess.run(argv, cwd=cwd, env=env,
                                      stdin=subprocess.DEVNULL,
                                      capture_output=True, text=True,
                                      timeout=600)
                stop_sshd(home)
                ran += 1
                check(proc.returncode == 0,
                      f"{where} runs ({'as changed by ' + also.group(1) if k else 'as written'})",
                      f"exit {proc.returncode}\n--- the block:\n{text}--- stdout:\n"
                      f"{proc.stdout[-3000:]}--- stderr:\n{proc.stderr[-3000:]}")
                for said in proc.stdout.strip().splitlines()[-2:]:
                    print(f"     | {said[:150]}")
    finally:
        stop_sshd(home)
        shutil.rmtree(work, ignore_errors=True)
    check(ran >= 8, f"{ran} blocks ran")
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
