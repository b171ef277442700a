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


# The read group: diskio's read modes against fio's equivalent jobs, on
# the same file size, with no warmup (fio has none).  A random case reads
# at most a quarter of the file's blocks, so that neither tool reads a
# block twice often (a repeat is a cache hit in buffered mode for both); a
# sequential one at most the file once.  (name, bs, pattern, ops per
# --count)
READ_MODES = ("read", "direct-read")
READ_SHAPES = (("4 KiB rand", 4096, "rand", 4), ("1 MiB seq", MIB, "seq", 1))


def read_cases(args):
    n, smoke = args.count, args.smoke
    size = 16 * MIB if smoke else 256 * MIB
    cases = []
    for mode in READ_MODES:
        for shape, bs, pattern, per_n in READ_SHAPES:
            blocks = size // bs
            count = min(blocks // 4 if pattern == "rand" else blocks,
                        50 if smoke else n * per_n)
            c = {"group": "read", "name": "%s %s" % (mode, shape), "mode": mode,
                 "bs": bs, "pattern": pattern, "where": "dir", "size": size,
                 "count": count, "warmup": 0, "timeout": 300 + count * 0.01}
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
    if "read" in args.only:
        cases += read_cases(args)
    return cases
