# SPDX-License-Identifier: MIT
"""The cases of one round (group x mode x block size, with sizes, counts
and timeouts) and which tools run each; the memory and record groups run
apart from the rounds."""

from .common import MIB
from .runs import IOPING_FLAGS, SYSBENCH_FLAGS

ACC_MODES = ("fsync", "fdatasync", "osync", "odsync", "direct", "direct-dsync")
TOOL_ORDER = ("diskio", "bare", "bare-untimed", "bare@0", "fio", "sysbench", "ioping",
              "pg_test_fsync")


def overhead_cases(args, env):
    if not env.tmpfs:
        env.note("overhead rows skipped: a private tmpfs needs root (mount -t tmpfs)")
        return []
    n, smoke = args.count, args.smoke
    t_over = max(30, n * 100 * 20e-6)
    cases = []
    for bs in (512, 8192):
        c = {"group": "overhead", "name": "async %s" % ("512 B" if bs == 512 else "8 KiB"),
             "mode": "async", "bs": bs, "where": "tmpfs",
             "size": 8 * MIB if smoke else 64 * MIB,
             "count": 2000 if smoke else n * (100 if bs == 512 else 30),
             "timeout": 120 + t_over}
        cases.append((c, ["diskio", "bare", "bare-untimed", "fio", "sysbench", "ioping"]))
    return cases


def accuracy_cases(args):
    n, smoke = args.count, args.smoke
    cases = []
    for mode in ACC_MODES:
        c = {"group": "accuracy", "name": mode, "mode": mode, "bs": 8192, "where": "dir",
             "size": MIB if smoke else 16 * MIB, "count": 100 if smoke else n,
             "timeout": 300 + n * 0.01}
        tools = ["diskio", "bare", "fio"]
        if mode in ("fsync", "fdatasync", "direct-dsync"):
            tools.append("bare@0")  # pg_test_fsync's pattern: rewrite block 0
        if SYSBENCH_FLAGS[mode] is not None:
            tools.append("sysbench")
        if IOPING_FLAGS[mode] is not None:
            tools.append("ioping")
        cases.append((c, tools))
    cases.append(({"group": "accuracy", "name": "pg_test_fsync", "mode": "pg",
                   "bs": 8192, "where": "dir", "size": 16 * MIB, "count": 0,
                   "secs": max(1, n // 10000) if not smoke else 1,
                   "timeout": 120}, ["pg_test_fsync"]))
    return cases


def qd_cases(args, env):
    n, smoke = args.count, args.smoke
    engines = [("aio", "libaio")]
    if env.tools.get("uring"):
        engines.append(("uring", "io_uring"))
    elif not smoke:
        env.note("io_uring rows skipped: diskio does not accept --mode uring (yet)")
    cases = []
    for mode, engine in engines:
        for depth in (1, 32):
            c = {"group": "qd", "name": "%s qd%d" % (mode, depth), "mode": mode,
                 "engine": engine, "iodepth": depth, "bs": 8192, "where": "dir",
                 "size": 4 * MIB if smoke else 64 * MIB,
                 "count": (200 if smoke else n * (2 if depth == 1 else 10)),
                 "timeout": 300 + n * 0.02}
            cases.append((c, ["diskio", "fio"]))
    return cases


def plan(args, env):
    """The cases of one round: list of (case, [tools])."""
    cases = []
    if "overhead" in args.only:
        cases += overhead_cases(args, env)
    if "accuracy" in args.only:
        cases += accuracy_cases(args)
    if "qd" in args.only:
        cases += qd_cases(args, env)
    return cases
