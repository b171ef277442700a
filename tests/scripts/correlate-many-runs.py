#!/usr/bin/env python3
"""Description: diskio-correlate and diskio-compare read 20,000 runs per environment in a pass or two.

diskio-correlate and diskio-compare read 20,000 runs per
environment (two results of 20,000 fsync runs at as many block sizes,
with phases and 40,000 metrics.csv lines) and finish with every run
named: the readers take a pass or two over the runs, where they took
over two minutes comparing each run with every other.  The timeout is a
hang guard only (the run takes seconds), never a measure."""

import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, FIXTURES, TOP_BUILDDIR, check,  # noqa: E402
                       finish)

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
RUNS = 20000
METRIC_LINES = 40000
HANG_GUARD_S = 600


def run(argv):
    try:
        proc = subprocess.run([sys.executable, *argv], capture_output=True,
                              text=True, timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        return None, "", f"no answer within {HANG_GUARD_S} s"
    return proc.returncode, proc.stdout, proc.stderr


work = tempfile.mkdtemp(prefix="diskio-many-runs.")
try:
    with open(os.path.join(FIXTURES, "env-a", "result.json"),
              encoding="utf-8") as handle:
        template = json.load(handle)
    base = template["runs"][1]            # fsync
    base["latency"] = {"total": {k: v for k, v in
                                 base["latency"]["total"].items()
                                 if k != "buckets"}}
    dirs = []
    for label, scale in (("A", 1.0), ("B", 1.5)):
        envdir = os.path.join(work, label)
        os.mkdir(envdir)
        doc = copy.deepcopy(template)
        doc["label"] = label
        doc["runs"] = []
        for i in range(RUNS):
            one = copy.deepcopy(base)
            one["parameters"]["block_size"] = 512 * (i + 1)
            one["latency"]["total"]["mean"] *= scale
            doc["runs"].append(one)
        with open(os.path.join(envdir, "result.json"), "w",
                  encoding="utf-8") as out:
            json.dump(doc, out)
        with open(os.path.join(envdir, "phases.csv"), "w",
                  encoding="utf-8") as out:
            out.write(f"load,{100 * scale}\npower,{50 * scale}\n")
        with open(os.path.join(envdir, "metrics.csv"), "w",
                  encoding="utf-8") as out:
            out.write("metric,value\n" + "".join(
                f"net{i}.rtt_us,{1 + i % 7}\n" for i in range(METRIC_LINES)))
        dirs.append(envdir)

    status, out, err = run([CORRELATE, "--format", "json", *dirs])
    check(status == 0, f"diskio-correlate on {RUNS} runs per environment "
          "finishes", err[-2000:])
    if status == 0:
        report = json.loads(out)
        names = report["metric_order"]
        check(len(names) == len(set(names)) and
              sum(n.startswith("fsync@") and n.endswith(".mean_us")
                  for n in names) == RUNS,
              "every run has a name of its own", names[:5])
        check(sum(n.startswith("net") for n in names) == METRIC_LINES,
              "every metrics.csv line is a metric")
    status, out, err = run([COMPARE, "--format", "csv",
                            *(os.path.join(d, "result.json") for d in dirs)])
    check(status == 0 and len(out.splitlines()) == RUNS + 1,
          f"diskio-compare on {RUNS} runs per environment: a row per run",
          err[-2000:])
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
