# SPDX-License-Identifier: MIT
"""What diskio-plot reads: diskio results (their runs as the charts need
them), per-op traces, diskio-correlate reports and diskio-compare
comparisons, given as files or as directories of them."""

import os
from dataclasses import dataclass

from ..compare.analysis import RunKey, run_key
from ..errors import InputError
from ..fio import fio_repeated_option, is_fio_output
from ..jsonfile import json_key_line, read_json
from ..metrics import size_label
from ..result import is_result, result_from_json
from ..sides import environment_name, named_path
from .comparefile import is_comparison, load_comparison
from .reportfile import is_report, load_report
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
    series: str = ""       # legend: environment, mode and what tells it apart
    pattern: str = "seq"   # seq, rand or append
    # diskio --interval: the series (result.Interval), None without it
    intervals: list | None = None
    # diskio --suite: the suite's name and title, the row's column ("read",
    # "write") and each repetition's MB/s (the run's own when measured once)
    suite: str | None = None
    suite_title: str | None = None
    column: str | None = None
    mb_per_s_runs: list | None = None
    # what tells the run from others of its mode (compare.RunKey)
    key: RunKey | None = None
    # "read" for the read modes (the result's parameters.direction)
    direction: str = "write"
    # diskio --target: the search (result.Capacity), None without it
    capacity: object = None


def plot_runs(result):
    """The runs of a Result that recorded ops, as PlotRuns, of its
    environment (sides.environment_name)."""
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
        custom = run.parameters.custom
        plot_run = PlotRun(env, run.workload, run.parameters.block_size or 0,
                           float(ops_per_s), float(mb_per_s), mean / 1000.0,
                           count, buckets,
                           pattern=run.parameters.pattern or
                           ("custom" if custom else "seq"),
                           intervals=run.intervals, key=run_key(run),
                           direction=run.direction, capacity=run.capacity)
        if run.suite_row is not None:
            plot_run.suite = result.suite.name
            plot_run.suite_title = result.suite.title
            plot_run.column = run.suite_row.column
            reps = [rep.mb_per_s for rep in run.repetitions or []
                    if rep.complete and rep.mb_per_s is not None]
            plot_run.mb_per_s_runs = reps or [float(mb_per_s)]
        runs.append(plot_run)
    return runs


def expand_inputs(arguments):
    """(name, file, named) of each file the arguments give (NAME=PATH or
    PATH, sides.py; name None where not named): files as given, a
    directory standing for its *.json and trace *.csv (its results take
    its name; named is whether the file itself was)."""
    files = []
    for argument in arguments:
        name, path = named_path(argument)
        if os.path.isdir(path):
            for entry in sorted(os.listdir(path)):
                full = os.path.join(path, entry)
                if entry.endswith(".json") or (entry.endswith(".csv") and
                                               is_trace_file(full)):
                    files.append((name, full, False))
        elif os.path.isfile(path):
            files.append((name, path, name is not None))
        else:
            raise InputError(path, None, "no such file or directory",
                             "give diskio result/trace or diskio-correlate "
                             "files")
    return files


def refuse_name(named, name, path, what):
    """A NAME= given to a file that is no diskio result."""
    if named:
        raise InputError(path, None, f"named {name}, but {what}: a name "
                         "(NAME=FILE) is the environment of diskio results",
                         f"give {path} without {name}=")


def load_inputs(paths):
    """(runs, traces, reports, comparisons) of the files and directories
    given."""
    runs, traces, reports, comparisons = [], [], [], []
    for name, path, named in expand_inputs(paths):
        if path.endswith(".csv"):
            refuse_name(named, name, path, "a trace is not a result")
            traces.append(load_trace(path))
            continue
        text, doc = read_json(path, preamble_ok=is_fio_output,
                              repeated_ok=fio_repeated_option)
        if is_result(doc):
            result = result_from_json(path, text, doc)
            result.side = name
            runs.extend(plot_runs(result))
            continue
        refuse_name(named, name, path, "it is not a diskio result")
        if is_report(doc):
            reports.append((path, load_report(path, text, doc)))
        elif is_comparison(doc):
            comparisons.append(load_comparison(path, text, doc))
        elif is_fio_output(doc):
            raise InputError(path, None, "fio output is not plotted",
                             "compare it with diskio-correlate and plot the "
                             "report (--format json)")
        else:
            raise InputError(path, json_key_line(text, "schema") or 1,
                             "neither a diskio result, a diskio-correlate "
                             "report nor a diskio-compare comparison",
                             "give files written by diskio --format json, "
                             "diskio-correlate --format json or "
                             "diskio-compare --format json")
    if not (runs or traces or reports or comparisons):
        raise InputError(" ".join(paths), None, "nothing to plot",
                         "give diskio results, traces, a diskio-correlate "
                         "report or a diskio-compare comparison")
    name_series(runs)
    return runs, traces, reports, comparisons


# What can tell two runs of one mode apart, in the order a legend names it.
SERIES_FIELDS = ("block_size", "cached", "iodepth", "batch", "pattern",
                 "sync_every", "jobs", "shared_file")


def key_word(key, name):
    """One field of a run's key as a legend says it: 4K, cached, qd8,
    batch32, rand, every 8, x4 jobs, 1 file."""
    value = getattr(key, name)
    return {"block_size": lambda: size_label(value, "KMG") if value else "",
            "cached": lambda: "cached" if value else "uncached",
            "iodepth": lambda: f"qd{value}",
            "batch": lambda: f"batch{value}",
            "pattern": lambda: value,
            "sync_every": lambda: f"every {value}",
            "jobs": lambda: f"x{value} jobs" if value > 1 else "1 job",
            "shared_file": lambda: "1 file" if value else "a file each",
            }[name]()


def name_series(runs):
    """Legend text: 'ENV MODE' and what tells the environment's runs of
    the mode apart: a suite's row ('ext4 aio SEQ1M Q8T1 write'; a word of
    the row the entry already says is not said again: the sweep's '8 KiB
    read' row of mode read is 'A read 8 KiB'), else each of block size,
    cache, queue depth, batch, pattern, sync_every and jobs that differs
    among them ('ext4 aio 4K qd32', 'ext4 fdatasync x4 jobs').  Runs
    alike in all of that (results of one label) are numbered, '#2' on:
    no two series share a legend entry."""
    groups = {}
    for run in runs:
        groups.setdefault((run.env, run.mode), []).append(run)
    for (env, mode), group in groups.items():
        keys = [run.key or RunKey(mode, run.block_size, run.pattern)
                for run in group]
        # a suite's runs are named by their row where anything else of
        # the mode is there too; the others by what differs among them
        rows = {key.suite_row for key in keys}
        plain = [key for key in keys if key.suite_row is None]
        varying = [name for name in SERIES_FIELDS
                   if len({getattr(key, name) for key in plain}) > 1]
        for run, key in zip(group, keys):
            words = [env, mode]
            if key.suite_row is not None:
                said = set(words)
                words += [word for word in key.suite_row.split()
                          if word not in said] if len(rows) > 1 else []
            else:
                words += [key_word(key, name) for name in varying]
            run.series = " ".join(word for word in words if word)
    seen = {}
    for run in runs:
        count = seen[run.series] = seen.get(run.series, 0) + 1
        if count > 1:
            run.series += f" #{count}"
