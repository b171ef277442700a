# SPDX-License-Identifier: MIT
"""The memory group: peak RSS of diskio at growing op counts (it must stay
flat) and of fio with and without its per-op latency log beside it, read
with GNU time."""

import os
import shutil

from .common import MIB, Fail, log, warn
from .runner import checked
from .runs import fio_cmd


def measured(env, cmd, d, run_env=None, timeout=900):
    """Peak RSS in KiB of cmd, from GNU time: a child forked by this
    Python process would carry Python's own RSS in ru_maxrss (the
    kernel keeps the high-water mark across exec), so the wait4 must be
    done by a small parent."""
    out = os.path.join(d, ".maxrss")
    checked(env.runner.run([env.gnu_time, "-f", "%M", "-o", out] + cmd, cwd=d,
                           env=run_env, timeout=timeout),
            os.path.basename(cmd[0]), tail=300)
    with open(out) as f:
        return int(f.read().split()[-1])


def in_rundir(env, where, body):
    """body(d) in a new run directory, removed afterwards."""
    d = env.rundir(where)
    try:
        return body(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def diskio_rss(env, where, small, large, bs, got):
    """Fill got with diskio's peak RSS: --version, 1 op, small and large
    op counts (what was measured stays when a later run fails)."""
    def rss(count, extra=()):
        def body(d):
            cmd = [env.tools["diskio"]["path"]] + list(extra)
            if not extra:
                cmd += ["--mode", "async", "--bs", str(bs), "--count", str(count),
                        "--size", "64m", "--quiet", d]
            return measured(env, cmd, d, env.diskio_env)
        return in_rundir(env, where, body)
    got["version_only"] = rss(0, ["--version"])
    got["1"] = rss(1)
    got[str(small)] = rss(small)
    got[str(large)] = rss(large)
    log("  diskio peak RSS KiB: --version %d, 1 op %d, %d ops %d, %d ops %d" % (
        got["version_only"], got["1"], small, got[str(small)], large, got[str(large)]))


def fio_runs(args, small, large):
    """(count, with write_lat_log) of each fio run."""
    if args.smoke:
        return [(small, True)]
    runs = [(1, False), (small, False), (small, True)]
    if not args.quick:
        runs += [(large, False), (large, True)]
    return runs


def fio_rss(env, where, count, lat_log, bs):
    # the latency log goes to --dir's file system (it can be large)
    logdir = env.rundir("dir")
    try:
        def body(d):
            path = os.path.join(d, "fio.dat")
            case = {"mode": "async", "size": 64 * MIB, "count": count, "bs": bs}
            extra = ["--write_lat_log=" + os.path.join(logdir, "lat"),
                     "--log_avg_msec=0"] if lat_log else []
            return measured(env, fio_cmd(env, case, d, path, extra), d)
        return in_rundir(env, where, body)
    finally:
        shutil.rmtree(logdir, ignore_errors=True)


def run_memory(env, args):
    log("memory")
    where = "tmpfs" if env.tmpfs else "dir"
    if not env.tmpfs:
        env.note("memory: no tmpfs, the async runs go to --dir's file system")
    small, large = (1000, 10000) if args.smoke else (1000000, 10000000)
    bs = 512
    res = {"where": where, "bs": bs, "counts": [small, large], "diskio": {}, "fio": {}}
    env.gnu_time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
    if not env.gnu_time:
        env.note("memory: skipped, /usr/bin/time (Debian package time) is needed to read "
                 "a child's peak RSS without this script's own")
        res["errors"] = []
        return res

    errors = []
    if env.have("diskio"):
        try:
            diskio_rss(env, where, small, large, bs, res["diskio"])
        except Fail as e:
            errors.append(str(e))
            warn("memory / diskio: %s" % e)
    if env.have("fio"):
        for count, lat_log in fio_runs(args, small, large):
            try:
                rss = fio_rss(env, where, count, lat_log, bs)
                res["fio"]["%d%s" % (count, "+lat_log" if lat_log else "")] = rss
                log("  fio peak RSS KiB, %s ops%s: %d" % (
                    count, " with write_lat_log" if lat_log else "", rss))
            except Fail as e:
                errors.append(str(e))
                warn("memory / fio: %s" % e)
    res["errors"] = errors
    return res
