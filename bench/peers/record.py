# SPDX-License-Identifier: MIT
"""The record-path group: diskio_hist_record's instructions per call under
callgrind (bench/record-cost.c linked against the build's libdiskio), the
functions it calls, and the call/jump targets in its machine code."""

import os
import re
import shutil
import subprocess

from .common import HERE, Fail, log

FN = "diskio_hist_record"
FORBIDDEN = re.compile(r"malloc|calloc|realloc|free|mutex|lock|futex")


def parse_callgrind(lines, fname):
    """(inclusive Ir, calls, sorted names it calls, self Ir) of fname in a
    callgrind output file's lines (name compression resolved)."""
    names = {}
    cur_fn = None
    cfn = None
    pending_call = None
    self_ir = 0
    callee_ir = 0
    calls = 0
    callees = set()
    events = ["Ir"]
    npos = 1

    def resolve(spec):
        m = re.match(r"\((\d+)\)(?:\s+(.*))?$", spec.strip())
        if not m:
            return spec.strip()
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), "?")

    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("events:"):
            events = line.split()[1:]
            continue
        if line.startswith("positions:"):
            npos = len(line.split()[1:])
            continue
        if line.startswith("fn="):
            cur_fn = resolve(line[3:])
            continue
        if line.startswith("cfn="):
            cfn = resolve(line[4:])
            continue
        if line.startswith("calls="):
            pending_call = int(line.split()[0][6:])
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        parts = line.split()
        idx = npos + events.index("Ir")
        ir = int(parts[idx]) if len(parts) > idx else 0
        if pending_call is not None:
            if cfn == fname:
                calls += pending_call
            if cur_fn == fname:
                callee_ir += ir
                callees.add(cfn)
            pending_call = None
        elif cur_fn == fname:
            self_ir += ir
    return self_ir + callee_ir, calls, sorted(callees), self_ir


def libdiskio_flags(env):
    """(compiler flags, path of libdiskio.so or None) to link record-cost
    against: the build dir next to diskio, else pkg-config; (None, None)."""
    build = env.diskio_build
    if build and os.path.isfile(os.path.join(build, "include", "diskio.h")):
        libdir = os.path.join(build, ".libs")
        return (["-I" + os.path.join(build, "include"), "-L" + libdir, "-ldiskio",
                 "-Wl,-rpath," + libdir], os.path.join(libdir, "libdiskio.so"))
    p = subprocess.run(["pkg-config", "--cflags", "--libs", "libdiskio"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) \
        if shutil.which("pkg-config") else None
    if not (p and p.returncode == 0):
        return None, None
    flags = p.stdout.split()
    lp = [x[2:] for x in flags if x.startswith("-L")]
    if lp:
        flags.append("-Wl,-rpath," + lp[0])
    return flags, (os.path.join(lp[0], "libdiskio.so") if lp else None)


def jump_targets(objdump_text):
    """The call/jump targets in objdump -d's disassembly of FN, but itself."""
    body = objdump_text.split("<%s>:" % FN, 1)[-1]
    return sorted(set(re.findall(r"\s(?:call|jmp)\s+\S+\s+<([^>+]+)", body)) - {FN})


def static_targets(lib):
    """jump_targets of FN in lib, or None without objdump or lib."""
    od = shutil.which("objdump")
    if not (od and lib and os.path.exists(lib)):
        return None
    a = subprocess.run([od, "-d", "--no-show-raw-insn", "--disassemble=" + FN,
                        os.path.realpath(lib)], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return jump_targets(a.stdout)


def callgrind(env, exe, run_env, calls_wanted, tag):
    """(output file, parse_callgrind's figures) of exe making calls_wanted calls."""
    out = os.path.join(env.work, "callgrind.%s.out" % tag)
    r = env.runner.run([env.tools["valgrind"]["path"], "--tool=callgrind",
                        "--callgrind-out-file=" + out, exe, str(calls_wanted)],
                       cwd=env.work, env=run_env, timeout=600)
    if r["rc"] != 0:
        raise Fail("callgrind run failed: " + r["stderr"][-600:])
    with open(out) as f:
        found = parse_callgrind(f, FN)
    if found[1] == 0:
        raise Fail("callgrind saw no call of " + FN)
    return out, found


def run_record(env, args):
    log("record")
    res = {"available": False}
    cc = env.tools.get("cc")
    if not env.have("valgrind"):
        res["reason"] = "valgrind not installed"
        return res
    if not cc:
        res["reason"] = "no C compiler"
        return res
    flags, lib = libdiskio_flags(env)
    if not flags:
        res["reason"] = "no libdiskio: neither a build dir next to diskio nor pkg-config libdiskio"
        env.note("record: skipped, " + res["reason"])
        return res
    exe = os.path.join(env.work, "record-cost")
    p = subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "record-cost.c")] + flags,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise Fail("record-cost.c does not build: " + p.stdout[-600:])
    n = 20000 if args.smoke else 1000000
    run_env = dict(os.environ)
    run_env["LD_BIND_NOW"] = "1"  # no lazy PLT resolution inside the measured calls
    out, (incl, calls, callees, self_ir) = callgrind(env, exe, run_env, n, "n")
    # The average includes the few calls that set a new minimum or maximum
    # (one store more each, all within the first pass over the value
    # table).  The marginal cost of a call, from a second run with twice
    # the calls, is what every further record costs: the target's figure.
    _, (incl2, calls2, _, _) = callgrind(env, exe, run_env, 2 * n, "2n")
    marginal = (incl2 - incl) / (calls2 - calls)
    res.update(available=True, calls=calls, inclusive_ir=incl, self_ir=self_ir,
               ir_per_call_average=incl / calls, ir_per_call=marginal, callees=callees)
    # callgrind_annotate's inclusive figure, for the record
    ca = shutil.which("callgrind_annotate")
    if ca:
        a = subprocess.run([ca, "--inclusive=yes", out], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        res["annotate"] = [ln.strip() for ln in a.stdout.splitlines()
                           if FN in ln and "(" in ln][:4]
    # and statically: no call instruction in its machine code but the
    # overflow path's tail jump
    static_calls = static_targets(lib)
    res["static_targets"] = static_calls
    res["forbidden_calls"] = sorted({c for c in callees + (static_calls or [])
                                     if FORBIDDEN.search(c or "")})
    log("  %s: %.2f instructions per further call (%.5f on average over %d "
        "calls, inclusive %d Ir); calls %s; branch targets in its code: %s"
        % (FN, res["ir_per_call"], res["ir_per_call_average"], calls, incl, callees or "none",
           static_calls))
    return res
