#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: a result at the JSON input limit, or JSON as dense as is read, is compared within 1 GiB.

diskio-compare reads a whole result into Python objects, which take many
times the file's size.  jsonfile.py bounds that: a JSON input of at most
MAX_JSON_BYTES, whose values (estimated from the characters that open
and separate them, VALUE_COST) take at most MAX_PARSED_BYTES, with a
HIST's buckets kept compact.  This test writes files at those bounds and
runs diskio-compare on each against a small result, measuring its peak
resident memory (ru_maxrss of the child):

  - diskio results just under MAX_JSON_BYTES of the three things that make
    a result large: runs with full histograms (every bucket of 2^44 ns),
    a long --interval series, runs of the most repetitions --repeat
    makes; each is compared (status 0);
  - JSON built to cost the most per byte (lists of empty lists, of one
    number, empty objects, short strings, objects of distinct keys, runs
    of a result as small as they can be, buckets that are not integers),
    each once just under MAX_PARSED_BYTES by the estimate and once just
    under MAX_JSON_BYTES (read, then compared or refused as bad input, or
    refused as too dense before it is parsed); the status is 0 or 1, with
    a message naming the file for 1.

Every run must stay under 1 GiB of peak RSS.  The files are generated
in a temporary directory (about 1 GB of disk at once, removed at the end);
the whole takes about a minute.  Exit 0 pass, 1 fail, 77 skip (no
wait4(2) resource usage or too little free space in the temporary
directory).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import EXIT_SKIP, TOP_BUILDDIR, check, finish  # noqa: E402

from diskio_analysis.jsonfile import (MAX_JSON_BYTES,  # noqa: E402
                                      MAX_PARSED_BYTES, VALUE_COST)
from diskio_analysis.result import MAX_REPETITIONS  # noqa: E402

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
PEAK_LIMIT = 1 << 30        # the bound promised: 1 GiB of peak RSS
SMALL = 10 ** 6             # the index of the small result's run
TIMEOUT = 600               # a hang, not a speed


def estimate(text):
    """jsonfile's estimate of the memory a JSON text's values take."""
    return sum(text.count(mark) * cost for mark, cost in VALUE_COST)


def hist(count=1000, buckets=None):
    doc = {"count": count, "min": 1000, "max": 900000, "mean": 25000.5,
           "stddev": 1234.5, "p50": 20000, "p90": 40000, "p99": 90000,
           "p99_9": 400000, "p99_99": 800000, "percentiles_limited_by_ops": [],
           "overflow": 0, "max_trackable_ns": 17592186044415, "sub_buckets": 128}
    if buckets is not None:
        doc["buckets"] = buckets
    return doc


def summary(mean):
    return {"count": 200, "min": 1000, "max": 900000, "mean": mean,
            "stddev": 1234.5, "p50": 20000, "p90": 40000, "p99": 90000,
            "p99_9": 400000, "p99_99": 800000}


def every_bucket():
    """Every bucket of a histogram of 128 sub-buckets up to 2^44 ns."""
    out = [[value, value, 1] for value in range(256)]
    for power in range(8, 44):
        width = 1 << (power - 7)
        out += [[low, low + width - 1, 1]
                for low in range((1 << power), (1 << (power + 1)), width)]
    return out


def interference(index):
    stamp = f"2026-12-01T10:{index // 60000 % 60:02d}:{index // 1000 % 60:02d}.{index % 1000:03d}Z"
    return {"start_time": stamp, "wall_s": 0.0756, "cpus": 2,
            "cpu": {"own_s": 0.0127, "other_s": 0.0073, "other_cpus": 0.0964,
                    "steal_share": 0},
            "run_queue": {"before": 0, "after": 1},
            "pressure": {"cpu_some": 0.07, "cpu_full": 0, "io_some": 0.82,
                         "io_full": 0.75, "memory_some": 0, "memory_full": 0},
            "memory": {"dirty_kib_before": 348, "writeback_kib_before": 0,
                       "dirty_kib_after": 348, "writeback_kib_after": 0},
            "devices": [{"name": "vda", "depth": 0, "bytes": 1306624,
                         "foreign_bytes": 0, "foreign_share": 0}]}


def repetition(index):
    mean = 25000.5 + index
    return {"complete": True, "ops": 200, "bytes": 819200,
            "duration_ns": 5000000 + index, "start_offset_ns": 6000000 * index,
            "ops_per_s": 40000 - index / 100, "mb_per_s": 163.8,
            "start_time": interference(index)["start_time"], "disturbed": False,
            "disturbances": [], "interference": interference(index),
            "latency": {"total": summary(mean), "write": summary(mean / 10),
                        "sync": summary(mean * 0.9), "service": None,
                        "switch": None}}


def interval(index):
    return {"repetition": 1, "start_ns": 10000000 * index, "duration_ns": 10000000,
            "ops": 400, "bytes": 1638400, "ops_per_s": 40000, "mb_per_s": 163.84,
            "min_ns": 1000, "mean_ns": 25000.5 + index % 7, "p50_ns": 20000,
            "p99_ns": 90000, "max_ns": 900000}


def run(index, buckets=None, repetitions=None, intervals=None, parts=("total",)):
    return {"mode": "fdatasync",
            "parameters": {"block_size": 4096 * (1 + index % 64), "pattern": "seq",
                           "iodepth": 1, "sync_every": 1},
            "complete": True, "errors": 0, "error": None, "ops": 1000,
            "bytes": 4096000, "duration_ns": 25000000 + index, "ops_per_s": 40000,
            "mb_per_s": 163.84, "repetitions": repetitions,
            "intervals": None if intervals is None else
            {"interval_ns": 10000000, "series": intervals},
            "latency": {part: hist(buckets=buckets) for part in parts}}


def result(label, runs, **extra):
    return {"schema": "diskio-result", "schema_version": 2, "label": label,
            "start_time": "2026-12-01T10:00:00Z", "complete": True,
            "environment": {"hostname": label}, "runs": runs, **extra}


def write_result(path, doc):
    text = json.dumps(doc)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return text


def fill(path, make, limit, measure=len):
    """Write the result make(n) for the largest n whose text keeps
    measure(text) under limit (found from two small ones: each n adds
    the same)."""
    small, larger = measure(json.dumps(make(1))), measure(json.dumps(make(3)))
    per_item = (larger - small) / 2
    n = max(1, int((limit - small) / per_item * 0.995))
    text = write_result(path, make(n))
    while measure(text) > limit and n > 1:
        n = int(n * 0.98)
        text = write_result(path, make(n))
    return text


def large_results():
    """(name, make(n)) of diskio results that are large the ways a real
    one is."""
    full = every_bucket()
    return [
        ("full histograms", lambda n: result("big", [
            run(i, buckets=full, parts=("total", "write", "sync")) for i in range(n)])),
        ("a long interval series", lambda n: result("big", [
            run(0, intervals=[interval(i) for i in range(n)])])),
        ("runs of the most repetitions", lambda n: result("big", [
            run(i, repetitions=[repetition(i * MAX_REPETITIONS + r)
                                for r in range(MAX_REPETITIONS)])
            for i in range(n)])),
    ]


def dense_documents():
    """(name, make(n)) of JSON as costly per byte as it can be made."""
    base = [run(0, buckets=[[1000, 1007, 5]])]
    return [
        ("lists of empty lists", lambda n: result("dense", base, extra=[[]] * n)),
        ("lists of one number", lambda n: result("dense", base, extra=[[1.5]] * n)),
        ("empty objects", lambda n: result("dense", base, extra=[{}] * n)),
        ("short strings", lambda n: result("dense", base, extra=["ab"] * n)),
        ("objects of distinct keys", lambda n: result("dense", [
            dict(base[0], params={f"k{i}": "v" for i in range(n)})])),
        ("the smallest runs", lambda n: result("dense", base + [
            {"mode": "fsync", "parameters": {"block_size": 1}, "latency": {}}] * n)),
        ("the smallest repetitions", lambda n: result("dense", [
            dict(base[0], repetitions=[{"latency": {}}] * MAX_REPETITIONS)] * n)),
        ("buckets that are not integers", lambda n: result("dense", [
            run(0, buckets=[[1, 2, 3]] * n + [[1, 2, True]])])),
    ]


def peak_of(args):
    """(status, stderr, peak RSS in bytes) of a command."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            proc.kill()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return proc.returncode, err.read().decode("utf-8", "replace"), usage.ru_maxrss * 1024


def write(path, kind, index, bound):
    """Write the file in a process of its own: this one stays small, so
    that the commands it starts begin small (a child's peak RSS counts
    what it shares of its parent's memory until it runs the command)."""
    subprocess.run([sys.executable, __file__, "--write", path, kind, str(index), bound],
                   check=True, timeout=TIMEOUT)


def write_file(path, kind, index, bound):
    """The --write mode: the file of the index-th of kind (large, dense),
    filled up to bound (size: MAX_JSON_BYTES; estimate: MAX_PARSED_BYTES
    by the estimate)."""
    _, make = (large_results() if kind == "large" else dense_documents())[index]
    if bound == "size":
        fill(path, make, MAX_JSON_BYTES)
    else:
        fill(path, make, MAX_PARSED_BYTES, measure=estimate)


def compare(path, small, what, statuses):
    args = [sys.executable, COMPARE, path, small]
    status, stderr, peak = peak_of(args)
    size = os.path.getsize(path)
    with open(path, encoding="utf-8") as f:
        said = estimate(f.read())
    print(f"     {what}: {size >> 20} MiB of JSON, estimate {said >> 20}"
          f" MiB: status {status}, peak RSS {peak >> 20} MiB")
    check(status in statuses, f"{what}: status {status} is one of {sorted(statuses)}",
          stderr[-2000:])
    check(status == 0 or path in stderr, f"{what}: the refusal names the file", stderr[-500:])
    check("Traceback" not in stderr, f"{what}: no traceback", stderr[-2000:])
    check(peak < PEAK_LIMIT, f"{what}: peak RSS {peak >> 20} MiB is under "
          f"{PEAK_LIMIT >> 20} MiB")


def main():
    if sys.argv[1:2] == ["--write"]:
        write_file(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
        return 0
    if not hasattr(os, "wait4"):
        print("SKIP: no os.wait4 to measure a child's peak memory")
        return EXIT_SKIP
    work = tempfile.mkdtemp(prefix="diskio-input-memory.")
    try:
        if shutil.disk_usage(work).free < 4 * MAX_JSON_BYTES:
            print(f"SKIP: less than {4 * MAX_JSON_BYTES >> 20} MiB free in {work}")
            return EXIT_SKIP
        small = os.path.join(work, "small.json")
        # a run of its own: one alike in every figure would be a copy
        write_result(small, result("small", [run(SMALL, buckets=[[1000, 1007, 5]])]))
        path = os.path.join(work, "input.json")
        for index, (what, _) in enumerate(large_results()):
            write(path, "large", index, "size")
            compare(path, small, f"a result of {what}", {0})
        for index, (what, _) in enumerate(dense_documents()):
            write(path, "dense", index, "estimate")
            compare(path, small, f"{what}, as dense as is read", {0, 1})
            write(path, "dense", index, "size")
            compare(path, small, f"{what}, at the size limit", {0, 1})
    finally:
        shutil.rmtree(work)
    finish()


if __name__ == "__main__":
    sys.exit(main())
