# SPDX-License-Identifier: MIT
"""The cases of one round (group x mode x block size, with sizes, counts
and timeouts) and which tools run each; the memory and record groups run
apart from the rounds."""

import os
import shlex

from .common import MIB, SRCDIR
from .runs import IOPING_FLAGS, SYSBENCH_FLAGS

ACC_MODES = ("fsync", "fdatasync", "osync", "odsync", "direct", "direct-dsync")
TOOL_ORDER = ("diskio", "bare", "bare+pool", "bare-untimed", "bare@0", "fio", "sysbench", "ioping",
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
        # bare+pool writes diskio's data (its 8 MiB pool, stamped): the
        # reference for diskio's own per-op overhead; bare, one hot buffer
        # as fio does: what that data costs on top
        cases.append((c, ["diskio", "bare", "bare+pool", "bare-untimed", "fio", "sysbench",
                          "ioping"]))
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


# diskio against the bare loop alone: the durable modes' median and the
# buffered ops/s, the figures diskio promises to match (bench/README.md,
# "The bare-loop group")
BARE_SYNC_MODES = ("fsync", "fdatasync", "odsync", "direct")
BARE_TOOLS = ["diskio", "bare", "bare+pool"]


def bare_cases(args, env):
    """The bare group's cases: each of BARE_SYNC_MODES at 8 KiB on --dir,
    count/20*3 ops (1500 by default, as many as the bare loop's latency
    array keeps), and async 512 B and 8 KiB on the private tmpfs; diskio,
    the bare loop writing one buffer, and the bare loop writing diskio's
    data (the data's own cost)."""
    n, smoke = args.count, args.smoke
    cases = []
    for mode in BARE_SYNC_MODES:
        c = {"group": "bare", "name": "bare " + mode, "mode": mode, "bs": 8192, "where": "dir",
             "size": MIB if smoke else 16 * MIB, "count": 100 if smoke else max(100, n * 3 // 20),
             "timeout": 300 + n * 0.01}
        cases.append((c, BARE_TOOLS))
    if not env.tmpfs:
        env.note("bare group's buffered rows skipped: a private tmpfs needs root")
        return cases
    for bs in (512, 8192):
        c = {"group": "bare", "name": "bare async %s" % ("512 B" if bs == 512 else "8 KiB"),
             "mode": "async", "bs": bs, "where": "tmpfs", "lat": False,
             "size": 8 * MIB if smoke else 64 * MIB,
             "count": 2000 if smoke else n * (100 if bs == 512 else 30),
             "timeout": 120 + max(30, n * 100 * 20e-6)}
        cases.append((c, BARE_TOOLS))
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


# The crystal group: the rows of suites/crystal.suite (the suite file
# itself, so the bench measures what diskio --suite crystal runs), each
# diskio row against fio's libaio job with the same direction, pattern,
# block size and queue depth (direct=1), as CrystalDiskMark's own jobs
# are.  The file is 64 MiB (16 with --smoke) instead of the suite's 1 GiB,
# and a count of ops instead of its 5 s, so a round stays short.
CRYSTAL_SUITE = os.path.join(SRCDIR, "suites", "crystal.suite")
FIO_ENGINE = {"aio": "libaio", "aio-read": "libaio", "uring": "io_uring",
              "uring-read": "io_uring"}


def crystal_rows(path=CRYSTAL_SUITE):
    """(label, column, {option: value}) of every row of the suite file."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = shlex.split(line, comments=True)
            if len(words) < 3 or words[0] != "row":
                continue
            opts, i = {}, 3
            while i < len(words):
                if words[i].startswith("--") and i + 1 < len(words):
                    opts[words[i][2:]] = words[i + 1]
                    i += 2
                else:
                    i += 1
            rows.append((words[1], words[2], opts))
    return rows


def size_bytes(text):
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    text = text.lower()
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def crystal_cases(args):
    n, smoke = args.count, args.smoke
    size = 16 * MIB if smoke else 64 * MIB
    cases = []
    for label, column, opts in crystal_rows():
        bs = size_bytes(opts.get("bs", "4k"))
        mode = opts["mode"]
        # 1 MiB rows: about the file twice over; 4 KiB rows: n ops (qd32: 4n)
        count = (2 * size // bs) if bs >= MIB else n * (4 if int(opts.get("iodepth", 1)) > 1 else 1)
        if smoke:
            count = min(count, 64)
        c = {"group": "crystal", "name": "%s %s" % (label, column), "mode": mode,
             "engine": FIO_ENGINE[mode], "iodepth": int(opts.get("iodepth", 1)), "bs": bs,
             "pattern": opts.get("pattern", "seq"), "where": "dir", "size": size,
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
    if "bare" in args.only:
        cases += bare_cases(args, env)
    if "qd" in args.only:
        cases += qd_cases(args, env)
    if "read" in args.only:
        cases += read_cases(args)
    if "crystal" in args.only:
        cases += crystal_cases(args)
    return cases
