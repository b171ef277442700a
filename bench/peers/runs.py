# SPDX-License-Identifier: MIT
"""One runner per tool: the command line that makes each tool do the
case's op (one pwrite of the block size plus the mode's sync), run in its
own new directory; the figures come from parse.py.  run_one is the only
entry: it picks the runner and removes the directory afterwards."""

import os
import shutil
import subprocess
import time

from .common import Fail, case_reads, prefill
from .parse import (parse_bare, parse_fio, parse_ioping_brief, parse_ioping_requests,
                    parse_sysbench, pg_metrics, read_diskio_result, read_pg_one_write)
from .runner import alarm, checked

# diskio mode -> how each peer does the same thing (None: no equivalent)
FIO_FLAGS = {
    "async": [],
    "fsync": ["--fsync=1"],
    "fdatasync": ["--fdatasync=1"],
    "osync": ["--sync=sync"],
    "odsync": ["--sync=dsync"],
    "direct": ["--direct=1"],
    "direct-dsync": ["--direct=1", "--sync=dsync"],
    # buffered reads from a cold cache: fio drops the file's pages before
    # the job (invalidate=1, its default, said here) and, like diskio,
    # advises random or sequential access (fadvise_hint=1, its default);
    # O_DIRECT reads need none of it
    "read": ["--invalidate=1", "--fadvise_hint=1"],
    "direct-read": ["--direct=1"],
}
# fio's --rw for a case: the read modes read, sequentially or at random
# (with replacement, as diskio draws its offsets: norandommap)
READ_RW = {"seq": ["--rw=read"], "rand": ["--rw=randread", "--norandommap=1"]}
SYSBENCH_FLAGS = {
    "async": ["--file-fsync-freq=0"],
    "fsync": ["--file-fsync-freq=1", "--file-fsync-mode=fsync"],
    "fdatasync": ["--file-fsync-freq=1", "--file-fsync-mode=fdatasync"],
    "osync": ["--file-fsync-freq=0", "--file-extra-flags=sync"],
    "odsync": ["--file-fsync-freq=0", "--file-extra-flags=dsync"],
    "direct": ["--file-fsync-freq=0", "--file-extra-flags=direct"],
    # sysbench 1.0.20 refuses a combination ("Unknown extra flags value: 6")
    "direct-dsync": None,
}
# ioping -W without -C does pwrite+fdatasync (and an untimed fadvise DONTNEED
# before each write); -C turns both off, so the flag modes need -C.
IOPING_FLAGS: dict[str, list[str] | None] = {
    "async": ["-C"],
    "fsync": None,  # ioping has no fsync
    "fdatasync": [],
    "osync": ["-C", "-Y"],
    "odsync": ["-C", "-y"],
    "direct": ["-C", "-D"],
    "direct-dsync": ["-C", "-D", "-y"],
}


def run_diskio(env, case, d):
    out = os.path.join(d, "result.json")
    cmd = [env.tools["diskio"]["path"], "--mode", case["mode"], "--bs", str(case["bs"]),
           "--count", str(case["count"]), "--size", str(case["size"]),
           "--warmup", str(case.get("warmup", 10)), "--quiet", "--output", out]
    if case.get("iodepth", 1) > 1:
        cmd += ["--iodepth", str(case["iodepth"])]
    if case.get("pattern"):
        cmd += ["--pattern", case["pattern"]]
    cmd.append(d)
    r = checked(env.runner.run(cmd, cwd=d, env=env.diskio_env, timeout=case["timeout"]),
                "diskio")
    return read_diskio_result(out, case["count"]), r


# diskio's data pool (data_pool_blocks(), src/lib/pipeline.c): what
# bare-loop --pool writes from, so that the two write the same data
DISKIO_POOL_BYTES = 8 << 20


def run_bare(env, case, d, timed=True, same_offset=False, pool=False):
    cmd = [env.tools["bare"]["path"], "--file", os.path.join(d, "bare.dat"),
           "--mode", case["mode"], "--bs", str(case["bs"]), "--count", str(case["count"]),
           "--size", str(case["size"]), "--warmup", "10"]
    if pool:
        cmd += ["--pool", str(DISKIO_POOL_BYTES)]
    if same_offset:
        cmd.append("--same-offset")
    if not timed:
        cmd.append("--untimed")
    elif case.get("lat", case["group"] != "overhead"):
        cmd.append("--lat")  # per-op array for the median (the overhead rows skip it)
    r = checked(env.runner.run(cmd, cwd=d, timeout=case["timeout"]), "bare-loop")
    return parse_bare(r["stdout"]), r


def fio_cmd(env, case, d, path, extra):
    engine = case.get("engine", "psync")
    if case_reads(case):
        rw = READ_RW[case["pattern"]]
    else:
        rw = (["--rw=randwrite", "--norandommap=1"] if case.get("pattern") == "rand"
              else ["--rw=write"])
    cmd = [env.tools["fio"]["path"], "--name=w", "--filename=" + path,
           "--size=%d" % case["size"], "--io_size=%d" % (case["count"] * case["bs"]),
           "--bs=%d" % case["bs"]] + rw + [
               "--ioengine=" + engine, "--fallocate=none", "--lat_percentiles=1",
               "--output-format=json", "--output=" + os.path.join(d, "fio.json")]
    if engine in ("libaio", "io_uring"):
        cmd += ["--iodepth=%d" % case.get("iodepth", 1), "--direct=1"]
    else:
        cmd += FIO_FLAGS[case["mode"]]
    return cmd + extra


def run_fio(env, case, d):
    path = os.path.join(d, "fio.dat")
    prefill(path, case["size"])  # fio would fallocate (unwritten extents) instead
    r = checked(env.runner.run(fio_cmd(env, case, d, path, []), cwd=d,
                               timeout=case["timeout"]), "fio")
    try:
        with open(os.path.join(d, "fio.json")) as f:
            text = f.read()
    except OSError as e:
        raise Fail("fio output unreadable: %r" % e)
    return parse_fio(text, case), r


def run_sysbench(env, case, d):
    base = [env.tools["sysbench"]["path"], "fileio", "--file-num=1",
            "--file-total-size=%d" % case["size"], "--file-block-size=%d" % case["bs"],
            "--threads=1"]
    checked(env.runner.run(base + ["prepare"], cwd=d, timeout=case["timeout"]),
            "sysbench prepare", tail=300)
    flags = SYSBENCH_FLAGS[case["mode"]]
    per_op_events = 2 if case["mode"] in ("fsync", "fdatasync") else 1
    cmd = base + ["--file-test-mode=seqrewr", "--file-io-mode=sync", "--file-fsync-end=off",
                  "--events=%d" % (case["count"] * per_op_events), "--time=0"] + flags + ["run"]
    r = env.runner.run(cmd, cwd=d, timeout=case["timeout"])
    checked(r, "sysbench", output=r["stderr"] + r["stdout"])
    return parse_sysbench(r["stdout"]), r


def run_ioping(env, case, d):
    flags = IOPING_FLAGS[case["mode"]]
    warm = 10
    cmd = [env.tools["ioping"]["path"], "-W", "-L", "-i", "0", "-s", str(case["bs"]),
           "-S", str(case["size"]), "-a", str(warm), "-c", str(case["count"] + warm)] + flags
    per_request = case["count"] <= 200000
    cmd += ["-J"] if per_request else ["-B"]
    cmd.append(d)
    r = checked(env.runner.run(cmd, cwd=d, timeout=case["timeout"]), "ioping")
    if per_request:
        return parse_ioping_requests(r["stdout"], case["count"]), r
    return parse_ioping_brief(r["stdout"]), r


def run_pg(env, case, d):
    """pg_test_fsync, stopped once its "one 8kB write" section is printed."""
    cmd = [env.tools["pg_test_fsync"]["path"], "-f", os.path.join(d, "pg.dat"),
           "-s", str(case["secs"])]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, text=True)
    env.runner.child = p
    res, lines = {}, []
    try:
        with alarm(case["timeout"]):
            read_pg_one_write(p.stdout, res, lines)
    except TimeoutError:
        pass
    finally:
        env.runner.kill()  # by pid; the rest of its sections are not needed
        p.stdout.close()
        err = p.stderr.read()
        p.stderr.close()
    wall = time.monotonic() - t0
    out = pg_metrics(res)
    if not out:
        raise Fail("pg_test_fsync printed no results: %s"
                   % (err.strip()[-300:] or "".join(lines)[-300:]))
    return out, {"wall_s": wall}


def device_stat(d):
    """(reads, read sectors, write requests, write merges) completed so
    far by the block device holding directory d (/sys/dev/block/MAJ:MIN/
    stat, fields 1, 3, 5 and 6; a partition's own), or None where there is
    none (tmpfs) or no /sys."""
    st = os.stat(d).st_dev
    try:
        with open("/sys/dev/block/%d:%d/stat" % (os.major(st), os.minor(st))) as f:
            fields = f.read().split()
        return int(fields[0]), int(fields[2]), int(fields[4]), int(fields[5])
    except (OSError, IndexError, ValueError):
        return None


def with_device_io(d, figures_run):
    """Run figures_run() and add the device's requests per op over the
    whole tool run to its figures: write requests and merges (its fill or
    layout included, a few hundred requests against tens of thousands of
    ops), read requests and KiB per read (the fills read nothing)."""
    before = device_stat(d)
    m, r = figures_run()
    after = device_stat(d)
    if before and after and m and m.get("ops"):
        reads, sectors, writes, merges = (a - b for a, b in zip(after, before))
        m["dev_writes_per_op"] = writes / m["ops"]
        m["dev_merges_per_op"] = merges / m["ops"]
        m["dev_reads_per_op"] = reads / m["ops"]
        m["dev_kib_per_read"] = sectors / 2.0 / reads if reads else None
    return m, r


def run_one(env, case, tool):
    """(figures, run record) of one tool on one case, in a new directory."""
    d = env.rundir(case["where"])
    try:
        if case["group"] in ("qd", "read", "crystal") and tool in ("diskio", "fio"):
            return with_device_io(d, lambda: run_diskio(env, case, d) if tool == "diskio"
                                  else run_fio(env, case, d))
        if tool == "diskio":
            return run_diskio(env, case, d)
        if tool == "bare":
            return run_bare(env, case, d, True)
        if tool == "bare+pool":
            return run_bare(env, case, d, True, pool=True)
        if tool == "bare-untimed":
            return run_bare(env, case, d, False)
        if tool == "bare@0":
            return run_bare(env, dict(case, count=max(50, case["count"] // 2)), d, True,
                            same_offset=True)
        if tool == "fio":
            return run_fio(env, case, d)
        if tool == "sysbench":
            return run_sysbench(env, case, d)
        if tool == "ioping":
            return run_ioping(env, case, d)
        if tool == "pg_test_fsync":
            return run_pg(env, case, d)
        raise Fail("unknown tool %s" % tool)
    finally:
        shutil.rmtree(d, ignore_errors=True)
