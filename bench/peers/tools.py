# SPDX-License-Identifier: MIT
"""Finding, building and probing the tools: diskio (given, found or built
from this tree), the bare loop (compiled from bench/bare-loop.c), and the
installed peers, each with its version or the reason it is skipped."""

import glob
import os
import shutil
import subprocess

from diskio_analysis.errors import ToolError

from .common import HERE, SRCDIR, first_line, log, warn


def diskio_candidates(args):
    if args.diskio:
        return [args.diskio]
    cands = ["./diskio", os.path.join(SRCDIR, "diskio")]
    w = shutil.which("diskio")
    if w:
        cands.append(w)
    return cands


def libtool_real(c, env):
    """The real binary behind the libtool wrapper script c (so that the
    wrapper's shell is not in RSS and startup figures), with its library
    directory added to env; c itself when c is not such a wrapper."""
    d = os.path.dirname(c)
    with open(c, "rb") as f:
        head = f.read(4096)
    if not (head.startswith(b"#!") and b"libtool" in head):
        return c
    lt = os.path.join(d, ".libs", os.path.basename(c))
    if not os.path.isfile(lt):
        # the wrapper makes .libs/lt-diskio or relinks on first run
        subprocess.run([c, "--version"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        for name in (os.path.basename(c), "lt-" + os.path.basename(c)):
            if os.path.isfile(os.path.join(d, ".libs", name)):
                lt = os.path.join(d, ".libs", name)
                break
    if not os.path.isfile(lt):
        return c
    env["LD_LIBRARY_PATH"] = os.path.join(d, ".libs") + (
        ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    return lt


def find_diskio(args):
    """(binary to run, its env, its build dir or None, the path as given)
    of diskio, or four Nones."""
    for c in diskio_candidates(args):
        if not (os.path.isfile(c) and os.access(c, os.X_OK)):
            if args.diskio:
                raise ToolError("--diskio %s: not an executable file" % c)
            continue
        c = os.path.abspath(c)
        d = os.path.dirname(c)
        env = dict(os.environ)
        real = libtool_real(c, env)
        build = d if os.path.isfile(os.path.join(d, ".libs", "libdiskio.so")) else None
        return real, env, build, c
    return None, None, None, None


def build_diskio(env):
    """No diskio anywhere: build one from this source tree into the temp dir."""
    if not os.path.isfile(os.path.join(SRCDIR, "configure")):
        return None
    bdir = os.path.join(env.work, "build")
    os.mkdir(bdir)
    log("diskio not found: building it in %s (configure && make)" % bdir)
    r = env.runner.run(["sh", "-c", "%s -q && make -j%d >/dev/null"
                        % (os.path.join(SRCDIR, "configure"), os.cpu_count() or 1)],
                       cwd=bdir, timeout=1200)
    if r["rc"] != 0:
        warn("building diskio failed:\n" + r["stderr"][-2000:])
        return None
    return os.path.join(bdir, "diskio")


def probe_bare(t, work):
    """Compile bench/bare-loop.c with cc -O2: the timed, untimed and
    block-0 loops are the same binary."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    t["bare"] = {"path": None, "version": first_line([cc, "--version"]) if cc else "",
                 "available": False, "reason": "no C compiler (cc)"}
    if cc:
        exe = os.path.join(work, "bare-loop")
        p = subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "bare-loop.c")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode == 0:
            t["bare"].update(path=exe, available=True, reason=None)
        else:
            t["bare"]["reason"] = "cc -O2 bare-loop.c failed: " + p.stdout[-500:]
    t["bare+pool"] = dict(t["bare"])
    t["bare-untimed"] = dict(t["bare"])
    t["bare@0"] = dict(t["bare"])
    t["cc"] = cc


def probe_peer(t, name, exe, vcmd, pkg):
    path = exe if exe and os.path.isfile(exe) else shutil.which(exe or name)
    if not path:
        t[name] = {"path": None, "version": "", "available": False,
                   "reason": "not installed (Debian package %s)" % pkg}
        return
    t[name] = {"path": path, "version": first_line([path] + vcmd),
               "available": True, "reason": None}


def probe_tools(env, diskio_real):
    t = env.tools
    v = first_line([diskio_real, "--version"], env.diskio_env) if diskio_real else ""
    ok = v.startswith("diskio")
    t["diskio"] = {"path": diskio_real, "version": v, "available": ok,
                   "reason": None if ok else "does not run: " + v}
    probe_bare(t, env.work)
    probe_peer(t, "fio", None, ["--version"], "fio")
    probe_peer(t, "ioping", None, ["-v"], "ioping")
    probe_peer(t, "sysbench", None, ["--version"], "sysbench")
    pgs = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_test_fsync"),
                 key=lambda p: [int(x) if x.isdigit() else 0 for x in p.split("/")])
    probe_peer(t, "pg_test_fsync", pgs[-1] if pgs else None, ["--version"], "postgresql-15")
    probe_peer(t, "valgrind", None, ["--version"], "valgrind")
    for name in ("fio", "ioping", "sysbench", "pg_test_fsync", "valgrind"):
        if not t[name]["available"]:
            env.note("%s: skipped, %s" % (name, t[name]["reason"]))
    # io_uring: diskio may gain a mode later; fio and the kernel must allow it
    t["uring"] = False
    if t["diskio"]["available"]:
        d = env.rundir("dir")
        r = env.runner.run([diskio_real, "--mode", "uring", "--count", "1", "--size", "1m",
                            "--quiet", d], cwd=d, env=env.diskio_env, timeout=60)
        if r["rc"] == 0:
            t["uring"] = True
        shutil.rmtree(d, ignore_errors=True)
