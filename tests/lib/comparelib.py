# SPDX-License-Identifier: MIT
"""The results diskio-compare's tests compare (tests/python/test_compare*.py):
a HIST, a run, a result, and results of repeated runs and invocations as
diskio writes them."""

import datetime
import json

from diskio_analysis.compare import analysis as compare
from diskio_analysis.result import result_from_json


def hist(mean):
    return {"count": 100, "min": mean / 2, "mean": mean, "stddev": mean / 10,
            "max": mean * 3, "p50": mean, "p90": mean * 1.2, "p99": mean * 2,
            "p99_9": mean * 2.5, "p99_99": mean * 3, "overflow": 0,
            "max_trackable_ns": 17592186044415, "sub_buckets": 128,
            "buckets": []}


def run(mode, mean, bs=8192, complete=True, sync=None):
    return {"mode": mode,
            "parameters": {"block_size": bs, "pattern": "seq", "iodepth": 1,
                           "sync_every": 1},
            "complete": complete, "ops": 100, "ops_per_s": 1e9 / mean,
            "mb_per_s": bs / mean * 1e3,
            "latency": {"total": hist(mean),
                        "write": None if sync is None else hist(mean - sync),
                        "sync": None if sync is None else hist(sync),
                        "service": None}}


def result(label, runs, path=None, cpu=None, identity=None):
    environment = dict(identity or {}, **({"cpu": cpu} if cpu else {}))
    doc = {"schema": "diskio-result", "schema_version": 1, "label": label,
           "complete": True, "environment": environment, "runs": runs}
    return result_from_json(path or f"/lab/{label}/result.json",
                            json.dumps(doc), doc)


def repeated(label, means, path, disturbed=(), start="2026-11-27T11:00:00.000Z",
             every_s=1, other_cpus=None):
    """A result of one invocation whose run's repetitions have these
    means, start every_s apart from start, and the disturbed ones (their
    indexes) say so as diskio writes it."""
    r = run("fsync", sum(means) / len(means))
    base = compare.noise.parse_start(start)
    reps = []
    for i, m in enumerate(means):
        when = base + i * every_s
        stamp = f"{datetime.datetime.fromtimestamp(when, datetime.timezone.utc):%Y-%m-%dT%H:%M:%S}.000Z"
        why = [{"reason": "device_io", "figure": 0.58, "threshold": 0.5,
                "unit": "share", "device": "vda",
                "message": "58% of vda's I/O was not diskio's (threshold 50%)"}] \
            if i in disturbed else []
        reps.append({"complete": True, "ops": 50, "ops_per_s": 1e9 / m,
                     "start_time": stamp, "disturbed": bool(why),
                     "disturbances": why, "latency": {"total": hist(m)}})
        if other_cpus is not None:
            # what diskio measured beside it: others' busy CPUs of 2
            reps[-1]["interference"] = {"start_time": stamp, "cpus": 2,
                                        "cpu": {"other_cpus": other_cpus}}
    r["repetitions"] = reps
    r["disturbed"] = bool(disturbed)
    r["disturbances"] = [dict(d, repetition=i + 1) for i, x in enumerate(reps)
                         for d in x["disturbances"]]
    return result(label, [r], path)


def measured(label, means, path, start=0):
    """A result as diskio writes one: a run of repetitions with their
    start times and durations, and the run's own."""
    r = run("fsync", sum(means) / len(means))
    r.update(duration_ns=7000000, interference={"start_time": "2026-12-01T10:00:00.000Z"})
    r["repetitions"] = [
        {"complete": True, "ops": 50, "ops_per_s": 1e9 / m, "duration_ns": 5000000 + i,
         "start_offset_ns": 6000000 * i,
         "start_time": f"2026-12-01T10:00:{start + i:02d}.000Z",
         "latency": {"total": hist(m)}} for i, m in enumerate(means)]
    return result(label, [r], path)


def invocation(label, runs, path, other_cpus=None, start=0):
    """A result of one invocation as diskio writes it: runs given as
    (mode, pattern, means of its repetitions, how long each ran in ns),
    the repetitions interleaved a second apart, each with the other CPUs
    busy (of 2) diskio measured beside it, or without interference (as
    the wal pattern writes them) where other_cpus is None; a run's
    other_cpus may be its own."""
    out = []
    for n, (mode, pattern, means, duration_ns, *own) in enumerate(runs):
        r = run(mode, sum(means) / len(means))
        r["parameters"]["pattern"] = pattern
        r["repetitions"] = []
        busy = own[0] if own else other_cpus
        for i, m in enumerate(means):
            stamp = f"2026-12-01T10:{start + i:02d}:{n:02d}.000Z"
            rep = {"complete": True, "ops": 50, "ops_per_s": 1e9 / m,
                   "duration_ns": duration_ns + i, "start_offset_ns": None,
                   "start_time": stamp, "latency": {"total": hist(m)}}
            if busy is not None:
                rep["interference"] = {"start_time": stamp, "cpus": 2,
                                       "wall_s": duration_ns / 1e9,
                                       "cpu": {"other_cpus": busy}}
            r["repetitions"].append(rep)
        out.append(r)
    return result(label, out, path)
