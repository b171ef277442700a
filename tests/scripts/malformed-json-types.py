#!/usr/bin/env python3
"""Description: wrong JSON types and out-of-range numbers are bad data (exit 1) naming their path.

Wrong JSON types and out-of-range numbers, found by malformed-inputs.py:
diskio-correlate and diskio-plot exit 1 (bad data) naming the file and
the JSON path (or line), print nothing on stdout and no traceback, where
they used to stop with an internal error (ValueError for integers of
over 4300 digits, OverflowError, TypeError: unhashable type, KeyError,
AttributeError)."""

import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, FIXTURES, PLOT, check, finish,  # noqa: E402
                       run)

work = tempfile.mkdtemp(prefix="diskio-malformed-types.")
PLACEHOLDER = "__raw_token__"
BIGINT = "1" * 5000


def load(*parts):
    """A JSON file below FIXTURES (an absolute path stands for itself)."""
    with open(os.path.join(FIXTURES, *parts), encoding="utf-8") as handle:
        return json.load(handle)


def dump(doc, raw=None):
    text = json.dumps(doc, indent=1)
    if raw is not None:
        text = text.replace(json.dumps(PLACEHOLDER), raw, 1)
    return text


def make_env(name, fixture, filename, text):
    """A copy of fixtures/FIXTURE with FILENAME replaced by text."""
    path = os.path.join(work, name)
    shutil.copytree(os.path.join(FIXTURES, fixture), path)
    with open(os.path.join(path, filename), "w", encoding="utf-8") as out:
        out.write(text)
    return path


def expect_bad(tool, what, args, where):
    """where: a text stderr must hold, or a tuple of texts."""
    code, out, err = run(tool, *args)
    prog = os.path.basename(tool)
    wheres = where if isinstance(where, tuple) else (where,)
    check(code == 1 and out == "" and err.startswith(prog + ": ")
          and all(w in err for w in wheres) and "Traceback" not in err
          and "internal error" not in err,
          f"{prog}: {what}: exit 1, names {where}",
          f"status {code}, stdout {len(out)} bytes, stderr: {err.strip()[:500]}")


def result_case(name, mutate, raw=None):
    """env-c's result.json mutated; baseline env-a."""
    doc = load("env-c", "result.json")
    mutate(doc)
    return make_env("result-" + name, "env-c", "result.json", dump(doc, raw))


def fio_case(name, mutate, raw=None):
    """fixtures/fio with fio.json mutated; baseline env-c."""
    doc = load("fio", "fio.json")
    mutate(doc)
    return make_env("fio-" + name, "fio", "fio.json", dump(doc, raw))


def setter(*path_and_value):
    *path, value = path_and_value

    def mutate(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return mutate


A = os.path.join(FIXTURES, "env-a")
C = os.path.join(FIXTURES, "env-c")

try:
    # ---- diskio-correlate, diskio result JSON
    cases = [
        ("bigint", setter("runs", 0, "ops", PLACEHOLDER), BIGINT,
         ":"),
        ("pattern-list", setter("runs", 0, "parameters", "pattern", ["seq"]),
         None, "runs[0].parameters.pattern"),
        ("pattern-object", setter("runs", 1, "parameters", "pattern", {}),
         None, "runs[1].parameters.pattern"),
        ("iodepth-list", setter("runs", 0, "parameters", "iodepth", [1]),
         None, "runs[0].parameters.iodepth"),
        ("mean-huge", setter("runs", 0, "latency", "total", "mean",
                             PLACEHOLDER), "9" * 400,
         "runs[0].latency.total.mean"),
        ("mean-nan", setter("runs", 0, "latency", "total", "mean",
                            PLACEHOLDER), "NaN",
         "runs[0].latency.total.mean"),
        ("p50-bool", setter("runs", 0, "latency", "total", "p50", True), None,
         "runs[0].latency.total.p50"),
        ("block-size-huge", setter("runs", 0, "parameters", "block_size",
                                   10 ** 30), None,
         "runs[0].parameters.block_size"),
        ("sync-list", setter("runs", 1, "latency", "sync", [1]), None,
         "runs[1].latency.sync"),
        ("error-string", lambda d: d["runs"][0].update(
            complete=False, error="disk full"), None, "runs[0].error"),
        ("mean-too-large", setter("runs", 0, "latency", "total", "mean",
                                  1e300), None, "metric async.mean_us"),
    ]
    for name, mutate, raw, where in cases:
        d = result_case(name, mutate, raw)
        path = os.path.join(d, "result.json")
        expect_bad(CORRELATE, f"result {name}", [A, d],
                   (path + ":", "malformed JSON: number out of range")
                   if where == ":" else path + ": " + where)

    # ---- diskio-correlate, fio JSON (jobs: fsync, fdatasync, async)
    cases = [
        ("jobopts-list", setter("jobs", 0, "job options", ["bs=8k"]), None,
         'jobs[0]["job options"]'),
        ("jobopts-value-object", setter("jobs", 0, "job options", "bs", {}),
         None, 'jobs[0]["job options"].bs'),
        ("bs-garbage", setter("jobs", 2, "job options", "bs", "huge"), None,
         'jobs[2]["job options"].bs'),
        ("bs-long", setter("jobs", 2, "job options", "bs", "1" * 5000), None,
         'jobs[2]["job options"].bs'),
        ("fsync-huge", setter("jobs", 0, "job options", "fsync", "9" * 25),
         None, 'jobs[0]["job options"].fsync'),
        ("global-options-list", setter("global options", []), None,
         '["global options"]'),
        ("latns-string", setter("jobs", 0, "write", "lat_ns", "x"), None,
         "jobs[0].write.lat_ns"),
        ("iops-string", setter("jobs", 0, "write", "iops", "fast"), None,
         "jobs[0].write.iops"),
        ("iops-huge", setter("jobs", 0, "write", "iops", PLACEHOLDER),
         "9" * 400, "jobs[0].write.iops"),
        ("latns-mean-bool", setter("jobs", 2, "write", "lat_ns", "mean",
                                   True), None, "jobs[2].write.lat_ns.mean"),
        ("latns-max-null", setter("jobs", 2, "write", "lat_ns", "max", None),
         None, "jobs[2].write.lat_ns.max"),
        ("sync-list", setter("jobs", 0, "sync", [1]), None, "jobs[0].sync"),
        ("sync-latns-null", setter("jobs", 0, "sync", "lat_ns", None), None,
         "jobs[0].sync.lat_ns"),
        ("sync-latns-list", setter("jobs", 0, "sync", "lat_ns", [1]), None,
         "jobs[0].sync.lat_ns"),
        ("sync-mean-string", setter("jobs", 0, "sync", "lat_ns", "mean", "x"),
         None, "jobs[0].sync.lat_ns.mean"),
        ("sync-percentile-list", setter("jobs", 1, "sync", "lat_ns",
                                        "percentile", [1]), None,
         "jobs[1].sync.lat_ns.percentile"),
        ("sync-percentile-value", setter("jobs", 1, "sync", "lat_ns",
                                         "percentile", "99.000000", "x"),
         None, 'jobs[1].sync.lat_ns.percentile["99.000000"]'),
        ("slat-list", setter("jobs", 2, "write", "slat_ns", [1, 2]), None,
         "jobs[2].write.slat_ns"),
        ("clat-percentile-value", setter("jobs", 2, "write", "clat_ns",
                                         "percentile", "99.000000", None),
         None, 'jobs[2].write.clat_ns.percentile["99.000000"]'),
    ]
    for name, mutate, raw, where in cases:
        d = fio_case(name, mutate, raw)
        expect_bad(CORRELATE, f"fio {name}", [C, d],
                   os.path.join(d, "fio.json") + ": " + where)

    # fio's read,write form of bs is a valid size (the write part counts).
    d = fio_case("bs-read-write", setter("jobs", 2, "job options", "bs",
                                         "4k,8k"))
    code, out, err = run(CORRELATE, "--format", "json", C, d)
    check(code == 0 and json.loads(out)["environments"][1]["runs"][2]
          ["block_size"] == 8192, "fio bs=4k,8k: the write size, 8192",
          err.strip())

    # ---- diskio-correlate, settings.json and out-of-range CSV numbers
    d = make_env("settings-list", "env-c", "settings.json",
                 json.dumps({"tool": "diskio-pgphases",
                             "wal_sync_method": ["fsync"]}))
    expect_bad(CORRELATE, "settings.json wal_sync_method a list", [A, d],
               os.path.join(d, "settings.json"))
    with open(os.path.join(FIXTURES, "env-b", "wal.csv"),
              encoding="utf-8") as handle:
        wal_lines = handle.read().split("\n")
    cells = wal_lines[1].split(",")
    cells[2] = "1e308"
    wal_lines[1] = ",".join(cells)
    d = make_env("wal-huge", "env-b", "wal.csv", "\n".join(wal_lines))
    for fmt in ("text", "json"):
        expect_bad(CORRELATE, f"wal.csv counter 1e308 (--format {fmt})",
                   ["--format", fmt, A, d], os.path.join(d, "wal.csv") + ":2:")

    # ---- diskio-plot: the errors come before gnuplot is looked for
    out_dir = os.path.join(work, "plots")
    os.makedirs(out_dir)

    def plot_bad(name, fixture, mutate, raw, where):
        doc = load(*fixture)
        mutate(doc)
        path = os.path.join(work, f"plot-{name}.json")
        with open(path, "w", encoding="utf-8") as out:
            out.write(dump(doc, raw))
        expect_bad(PLOT, name, ["--outdir", out_dir, path],
                   (path + ":", "malformed JSON: number out of range")
                   if where == ":" else path + ": " + where)

    sweep = ("plot", "sweep.json")
    plot_bad("bigint", sweep, setter("runs", 0, "bytes", PLACEHOLDER), BIGINT,
             ":")
    plot_bad("bucket-huge", sweep, setter("runs", 2, "latency", "total",
                                          "buckets", 5, 1, PLACEHOLDER),
             "9" * 400, "runs[2].latency.total.buckets[5][1]")
    plot_bad("bucket-short", sweep, setter("runs", 2, "latency", "total",
                                           "buckets", 5, [1, 2]), None,
             "runs[2].latency.total.buckets[5]")
    plot_bad("bucket-reversed", sweep, setter("runs", 2, "latency", "total",
                                              "buckets", 5, [9, 1, 1]), None,
             "runs[2].latency.total.buckets[5]")
    plot_bad("mean-huge", sweep, setter("runs", 1, "latency", "total", "mean",
                                        PLACEHOLDER), "9" * 400,
             "runs[1].latency.total.mean")
    plot_bad("mode-list", sweep, setter("runs", 1, "mode", ["async"]), None,
             "runs[1].mode")

    code, out, err = run(CORRELATE, "--format", "json", A,
                         os.path.join(FIXTURES, "env-b"))
    check(code == 0, "diskio-correlate report for the plot cases", err)
    report_path = os.path.join(work, "report.json")
    with open(report_path, "w", encoding="utf-8") as handle:
        handle.write(out)
    report = (report_path,)
    plot_bad("report-phases-list", report,
             setter("comparisons", 0, "phases", []), None,
             "comparisons[0].phases")
    plot_bad("report-metric-order", report, setter("metric_order", [5]),
             None, "metric_order[0]")
    plot_bad("report-ratio-huge", report,
             lambda d: d["comparisons"][0]["phases"][d["phase_order"][0]]
             .update(ratio=PLACEHOLDER), "9" * 400, "comparisons[0].phases.")
    plot_bad("report-share-string", report,
             lambda d: next(iter(next(iter(
                 d["wal_model"]["environments"].values()))["phases"]
                 .values())).update(share="x"), None,
             "wal_model.environments.A.phases.load.share")

    trace_path = os.path.join(work, "trace.csv")
    with open(trace_path, "w", encoding="utf-8") as out:
        out.write("op,start_ns,latency_ns,write_ns,sync_ns\n"
                  f"0,0,{'9' * 400},0,0\n")
    expect_bad(PLOT, "trace latency of 400 digits",
               ["--outdir", out_dir, trace_path], trace_path + ":2:")
finally:
    shutil.rmtree(work, ignore_errors=True)

finish()
