#!/usr/bin/env python3
"""Description: diskio-correlate and diskio-compare read many runs per environment in a pass or two.

diskio-correlate and diskio-compare read two results of N fsync runs at
as many block sizes (with phases and 2N metrics.csv lines) for N = 150,
300 and 600, and finish with every run named and every metrics.csv line
a metric, a comparison row per run.  The readers take a pass or two over
the runs (they once compared each run with every other: over ten
minutes for 20,000 runs): the work is counted, not timed, as the lines
of the analysis package the command executes (sys.settrace, the
commands run in this process), and the lines each added run costs must
stay the same when the runs double: from 2N to 4N runs within 10% of
from N to 2N.  A pass over the runs costs the same per run however many
there are; comparing each run with every other costs twice as much per
run at twice the runs.  (A scan of a list in C, which no line shows, is
what tests/python/test_correlate.py's ScaleTest counts for the metric
lists.)"""

import contextlib
import copy
import io
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import FIXTURES, check, finish  # noqa: E402

import diskio_analysis  # noqa: E402
from diskio_analysis.compare.command import main as compare_main  # noqa: E402
from diskio_analysis.correlate.command import main as correlate_main  # noqa: E402

SIZES = (150, 300, 600)
# the growth of the lines per added run allowed from one doubling to the
# next: a pass or two stays at 1.0 (measured: 1.003, the rest is sorting)
GROWTH = 1.10
PACKAGE = os.path.dirname(os.path.abspath(diskio_analysis.__file__)) + os.sep


class LineCounter:
    """Counts the lines executed in the analysis package's own code while
    it is installed with sys.settrace (other code is not traced)."""

    def __init__(self):
        self.lines = 0

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines += 1
        return self._local

    def _global(self, frame, event, arg):
        return self._local if frame.f_code.co_filename.startswith(PACKAGE) else None

    def run(self, main, argv):
        """main(argv) traced: (its status, its stdout, lines executed)."""
        self.lines = 0
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            sys.settrace(self._global)
            try:
                status = main(argv)
            finally:
                sys.settrace(None)
        return status, out.getvalue() + err.getvalue(), self.lines


def write_env(work, label, scale, runs, template):
    base = copy.deepcopy(template["runs"][1])            # fsync
    base["latency"] = {"total": {k: v for k, v in
                                 base["latency"]["total"].items()
                                 if k != "buckets"}}
    envdir = os.path.join(work, label)
    os.mkdir(envdir)
    doc = copy.deepcopy(template)
    doc["label"] = label
    doc["runs"] = []
    for i in range(runs):
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
            f"net{i}.rtt_us,{1 + i % 7}\n" for i in range(2 * runs)))
    return envdir


def read_size(work, runs, template, counter):
    """Both commands on two environments of `runs` runs: their line
    counts, after checking what they wrote."""
    dirs = [write_env(os.path.join(work), f"{label}{runs}", scale, runs,
                      template) for label, scale in (("A", 1.0), ("B", 1.5))]
    status, out, correlate_lines = counter.run(
        correlate_main, ["--format", "json", *dirs])
    check(status == 0, f"diskio-correlate on {runs} runs per environment "
          "finishes", out[-2000:])
    if status == 0:
        names = json.loads(out)["metric_order"]
        check(len(names) == len(set(names)) and
              sum(n.startswith("fsync@") and n.endswith(".mean_us")
                  for n in names) == runs,
              f"{runs} runs: every run has a name of its own", names[:5])
        check(sum(n.startswith("net") for n in names) == 2 * runs,
              f"{runs} runs: every metrics.csv line is a metric")
    status, out, compare_lines = counter.run(
        compare_main, ["--format", "csv",
                       *(os.path.join(d, "result.json") for d in dirs)])
    check(status == 0 and len(out.splitlines()) == runs + 1,
          f"diskio-compare on {runs} runs per environment: a row per run",
          out[-2000:])
    return correlate_lines, compare_lines


def check_growth(command, counts):
    """counts: lines at SIZES.  The lines per added run from the second
    doubling over those from the first."""
    (n1, l1), (n2, l2), (n3, l3) = zip(SIZES, counts)
    first = (l2 - l1) / (n2 - n1)
    second = (l3 - l2) / (n3 - n2)
    check(second <= GROWTH * first,
          f"{command}: each run added costs the same lines at {n3} runs as at "
          f"{n2} ({second:.0f} and {first:.0f} lines a run; at most "
          f"{GROWTH:.2f} times): a pass or two over the runs, not each run "
          "against every other")


work = tempfile.mkdtemp(prefix="diskio-many-runs.")
try:
    with open(os.path.join(FIXTURES, "env-a", "result.json"),
              encoding="utf-8") as handle:
        template = json.load(handle)
    counter = LineCounter()
    counts = [read_size(work, runs, template, counter) for runs in SIZES]
    for i, command in enumerate(("diskio-correlate", "diskio-compare")):
        check_growth(command, [c[i] for c in counts])
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
