# SPDX-License-Identifier: MIT
"""The parsers of each tool's output: text in, one run's figures out, Fail
when the text is not what the tool prints.  No process is started here,
so every parser is tested on captured output.

Figures are a dict: ops_s, mean_ns, p50_ns (None where the tool gives no
median), ops, and per tool a few more for the record."""

import json
import re

from diskio_analysis.errors import InputError
from diskio_analysis.result import load_result

from .common import Fail, case_reads


def read_diskio_result(path, count):
    """The figures of diskio's one run in its result JSON at path, read by
    diskio_analysis.result, the one reader of that file: its InputError
    (file, JSON path, what is wrong) is this run's Fail."""
    try:
        result = load_result(path)
        if not result.runs:
            raise InputError(path, None, "no runs", "diskio wrote no run")
        run = result.runs[0]
        total = run.need_part("total")
        if not run.complete or run.ops != count:
            raise Fail("diskio run incomplete: %s" % (run.error.message if run.error
                                                      else "%s ops" % run.ops))
        m = {"ops_s": run.need("ops_per_s"), "mean_ns": total.need("mean"),
             "p50_ns": total.need("p50"), "ops": run.ops}
        if run.mb_per_s is not None:
            m["mb_s"] = run.mb_per_s
        if run.parts.get("sync"):
            m["write_mean_ns"] = run.need_part("write").need("mean")
            m["sync_mean_ns"] = run.parts["sync"].need("mean")
        return m
    except InputError as e:
        raise Fail("diskio result unreadable: %s" % e)


def parse_bare(stdout):
    """bench/bare-loop.c's one line of JSON."""
    try:
        j = json.loads(stdout)
        return {"ops_s": j["ops_per_s"], "mean_ns": j.get("mean_ns"),
                "p50_ns": j.get("p50_ns"), "ops": j["ops"]}
    except (ValueError, KeyError) as e:
        raise Fail("bare-loop output unreadable: %r" % e)


def parse_fio(text, case):
    """fio --output-format=json.  With --fsync=1/--fdatasync=1 (psync) the
    write latency covers the pwrite only and the sync has its own section:
    the op's mean is their sum, and it has no median."""
    try:
        # fio may print notes before the JSON object
        j = json.loads(text[text.index("{"):])
        job = j["jobs"][0]
        if job.get("error"):
            raise Fail("fio job error %s" % job["error"])
        w = job["read" if case_reads(case) else "write"]
        m = {"ops_s": w["iops"], "ops": w["total_ios"], "mean_ns": w["lat_ns"]["mean"],
             "p50_ns": (w["lat_ns"].get("percentile") or {}).get("50.000000")}
        if w.get("bw_bytes") is not None:
            m["mb_s"] = w["bw_bytes"] / 1e6
        if case["mode"] in ("fsync", "fdatasync") and case.get("engine", "psync") == "psync":
            s = job.get("sync") or {}
            sl = s.get("lat_ns") or {}
            if not sl.get("N"):
                raise Fail("fio reported no sync latencies")
            # fio's write latency covers the pwrite only; the sync is apart.
            m["write_mean_ns"] = m["mean_ns"]
            m["sync_mean_ns"] = sl["mean"]
            m["sync_total_ios"] = s.get("total_ios")
            m["sync_N"] = sl.get("N")
            m["mean_ns"] = m["write_mean_ns"] + sl["mean"]
            m["p50_ns"] = None  # a median of the sum cannot be had from two histograms
        if m["ops"] != case["count"]:
            raise Fail("fio did %s ops, expected %d" % (m["ops"], case["count"]))
        return m
    except (ValueError, KeyError, IndexError) as e:
        raise Fail("fio output unreadable: %r" % e)


def parse_sysbench(out):
    """sysbench fileio run: one op is one write (plus its fsync, which
    sysbench counts as an event of its own), so ops/s is writes/s and the
    mean is its inverse; no median."""
    try:
        wps = float(re.search(r"writes/s:\s+([\d.]+)", out).group(1))
        fps = float(re.search(r"fsyncs/s:\s+([\d.]+)", out).group(1))
        total = float(re.search(r"total time:\s+([\d.]+)s", out).group(1))
        events = int(re.search(r"total number of events:\s+(\d+)", out).group(1))
    except AttributeError:
        raise Fail("sysbench output unreadable")
    if wps <= 0:
        raise Fail("sysbench did no writes")
    return {"ops_s": wps, "mean_ns": 1e9 / wps, "p50_ns": None,
            "ops": round(wps * total), "fsyncs_s": fps, "events": events}


def parse_ioping_requests(stdout, count):
    """ioping -J: mean and median of the requests not ignored (warmup);
    ops/s from requests over wall time ("load"), not its I/O-time iops."""
    try:
        arr = json.loads(stdout)
        times = sorted(o["io"]["time"] for o in arr if "io" in o and not o["io"]["ignored"])
        st = [o for o in arr if "stat" in o][-1]
        n = len(times)
        if n != count:
            raise Fail("ioping did %d valid requests, expected %d" % (n, count))
        load = st["load"]
        return {"ops_s": load["count"] * 1e9 / load["time"], "mean_ns": sum(times) / n,
                "p50_ns": times[(n * 50 + 99) // 100 - 1], "ops": n,
                "io_iops": st["stat"]["iops"]}
    except (ValueError, KeyError, IndexError) as e:
        raise Fail("ioping output unreadable: %r" % e)


def parse_ioping_brief(stdout):
    """ioping -B (raw summary, for runs too long for -J): no median."""
    try:
        f = stdout.split()
        valid, iops = int(f[0]), float(f[2])
        avg, count, load_time = float(f[5]), int(f[8]), float(f[9])
        return {"ops_s": count * 1e9 / load_time, "mean_ns": avg, "p50_ns": None,
                "ops": valid, "io_iops": iops}
    except (ValueError, IndexError) as e:
        raise Fail("ioping output unreadable: %r" % e)


# pg_test_fsync "one 8kB write" method -> diskio mode it corresponds to
PG_METHODS = {
    "fdatasync": "fdatasync",
    "fsync": "fsync",
    "open_datasync": "direct-dsync",  # O_DSYNC|O_DIRECT
    "open_sync": "osync+direct",      # O_SYNC|O_DIRECT: no diskio mode
}
PG_LINE = re.compile(r"^\s+(open_datasync|fdatasync|fsync|fsync_writethrough|open_sync)\s+"
                     r"(?:([\d.]+) ops/sec\s+(\d+) usecs/op|(n/a\S*))")


def read_pg_one_write(lines, res, echo):
    """Fill res {method: (ops/s, usecs/op printed) or None} from
    pg_test_fsync's "one 8kB write" section, reading lines only up to its
    last method (open_sync), so that a live pipe can be stopped there.
    Every line read is appended to echo."""
    in_first = False
    for line in lines:
        echo.append(line)
        if "one 8kB write" in line:
            in_first = True
            continue
        if in_first:
            m = PG_LINE.match(line)
            if m:
                meth = m.group(1)
                res[meth] = (float(m.group(2)), int(m.group(3))) if m.group(2) else None
                if meth == "open_sync":
                    break
    return res


def pg_metrics(res):
    """{diskio mode: figures} from read_pg_one_write's methods: the mean is
    1 / ops/sec (it prints whole microseconds only); no median."""
    out = {}
    for meth, mode in PG_METHODS.items():
        v = res.get(meth)
        if v:
            ops_s, usecs = v
            out[mode] = {"ops_s": ops_s, "mean_ns": 1e9 / ops_s, "p50_ns": None,
                         "usecs_printed": usecs, "method": meth}
    return out
