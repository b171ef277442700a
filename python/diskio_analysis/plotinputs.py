# SPDX-License-Identifier: MIT
"""What diskio-plot reads: diskio results (their runs as the charts need
them), per-op traces and diskio-correlate reports, given as files or as
directories of them."""

import os
from dataclasses import dataclass

from .errors import InputError
from .fio import is_fio_output
from .jsonfile import json_key_line, read_json
from .metrics import size_label
from .reportfile import is_report, load_report
from .result import is_result, result_from_json
from .trace import is_trace_file, load_trace


@dataclass
class PlotRun:
    """One diskio run as the charts need it."""
    env: str
    mode: str
    block_size: int
    ops_per_s: float
    mb_per_s: float
    mean_us: float
    count: int
    buckets: list          # [(lowest_ns, highest_ns, count)]
    series: str = ""       # legend: environment and mode (and size)
    pattern: str = "seq"   # seq, rand or append
    # diskio --interval: the series (result.Interval), None without it
    intervals: list = None
    # diskio --suite: the suite's name and title, the row's column ("read",
    # "write") and each repetition's MB/s (the run's own when measured once)
    suite: str = None
    suite_title: str = None
    column: str = None
    mb_per_s_runs: list = None


def environment_name(result):
    """The result's label, else the name of its directory (else of the
    file)."""
    if result.label:
        return result.label
    path = result.path
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return parent or os.path.splitext(os.path.basename(path))[0]


def plot_runs(result):
    """The runs of a Result that recorded ops, as PlotRuns."""
    env = environment_name(result)
    runs = []
    for run in result.runs:
        ops_per_s, mb_per_s = run.need("ops_per_s"), run.need("mb_per_s")
        total = run.need_part("total")
        mean, count, buckets = total.need("mean", "count", "buckets")
        if not count:
            continue
        # a custom run (a program's own operations) has no block size or
        # pattern of diskio's: 0 and "custom", and its params in its name
        custom = run.parameters.get("custom")
        plot_run = PlotRun(env, run.workload, run.parameters["block_size"] or 0,
                           float(ops_per_s), float(mb_per_s), mean / 1000.0,
                           count, buckets,
                           pattern=run.parameters.get("pattern") or
                           ("custom" if custom else "seq"),
                           intervals=run.intervals)
        if run.suite_row is not None:
            plot_run.suite = result.suite.name
            plot_run.suite_title = result.suite.title
            plot_run.column = run.suite_row.column
            reps = [rep.mb_per_s for rep in run.repetitions or []
                    if rep.complete and rep.mb_per_s is not None]
            plot_run.mb_per_s_runs = reps or [float(mb_per_s)]
        runs.append(plot_run)
    return runs


def expand_inputs(paths):
    """Files as given; a directory stands for its *.json and trace *.csv."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            for entry in sorted(os.listdir(path)):
                full = os.path.join(path, entry)
                if entry.endswith(".json") or (entry.endswith(".csv") and
                                               is_trace_file(full)):
                    files.append(full)
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise InputError(path, None, "no such file or directory",
                             "give diskio result/trace or diskio-correlate "
                             "files")
    return files


def load_inputs(paths):
    runs, traces, reports = [], [], []
    for path in expand_inputs(paths):
        if path.endswith(".csv"):
            traces.append(load_trace(path))
            continue
        text, doc = read_json(path, preamble_ok=is_fio_output)
        if is_result(doc):
            runs.extend(plot_runs(result_from_json(path, text, doc)))
        elif is_report(doc):
            reports.append((path, load_report(path, text, doc)))
        elif is_fio_output(doc):
            raise InputError(path, None, "fio output is not plotted",
                             "compare it with diskio-correlate and plot the "
                             "report (--format json)")
        else:
            raise InputError(path, json_key_line(text, "schema") or 1,
                             "neither a diskio result nor a diskio-correlate "
                             "report", "give files written by diskio "
                             "--format json or diskio-correlate --format json")
    if not (runs or traces or reports):
        raise InputError(" ".join(paths), None, "nothing to plot",
                         "give diskio results, traces or a diskio-correlate "
                         "report")
    name_series(runs)
    return runs, traces, reports


def name_series(runs):
    """Legend text: 'ENV MODE', plus the block size and the pattern where
    one environment ran the mode with several."""
    sizes, patterns = {}, {}
    for run in runs:
        sizes.setdefault((run.env, run.mode), set()).add(run.block_size)
        patterns.setdefault((run.env, run.mode), set()).add(run.pattern)
    for run in runs:
        run.series = f"{run.env} {run.mode}"
        if len(sizes[(run.env, run.mode)]) > 1:
            run.series += f" {size_label(run.block_size, 'KMG')}"
        if len(patterns[(run.env, run.mode)]) > 1:
            run.series += f" {run.pattern}"
