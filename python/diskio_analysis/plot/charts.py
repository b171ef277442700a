# SPDX-License-Identifier: MIT
"""diskio-plot's charts of diskio results and traces: for each, its data
tables (tab-separated files in a work directory) and the gnuplot commands
that draw it.  Latency histograms and percentile curves per mode,
block-size sweeps, latency over time (diskio --interval), the I/O length
chart of a suite's runs (diskio --suite sweep: MB/s by I/O length, mean
and spread of the runs, a line per environment and column), per-op
traces (report_charts.py draws a diskio-correlate report's).  Every
latency axis is logarithmic with ticks in µs/ms/s; titles say the block
size and pattern; each series has its own dash type, so the charts read
in monochrome too."""

import hashlib
import math
import os
import re
import statistics
from dataclasses import dataclass

from ..compare.analysis import RunKey
from ..textsafe import shown
from .gnuplot import (LOG_AXIS_MARGIN, common_settings, gp_datafile,
                      gp_format, gp_string, key_corner, key_size,
                      latency_tics, log_axis, plot_lines, size_tics)
from .plotinputs import SERIES_FIELDS, key_word

HIST_BINS_PER_DECADE = 20
# x positions of the percentile axis: 1/(1-p).
TAIL_TICS = (("0%", 1), ("90%", 10), ("99%", 100), ("99.9%", 1e3),
             ("99.99%", 1e4), ("99.999%", 1e5), ("99.9999%", 1e6))


@dataclass
class Chart:
    filename: str     # final name in outdir
    title: str
    commands: str     # gnuplot commands after set output
    size: tuple | None = None  # (width, height) in pixels; None: the default


# ---------------------------------------------------------------- data

# A name in a file name is cut here (a name may be 4096 characters long;
# a file name not more than 255 bytes), with a digest of the whole name.
SAFE_NAME_CHARS = 60


def safe_name(text):
    """text for a file name: letters, digits, '.', '_' and '-' only, at
    most SAFE_NAME_CHARS of them and a digest of the rest."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text, flags=re.ASCII).strip("_")
    if len(name) > SAFE_NAME_CHARS:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
        name = f"{name[:SAFE_NAME_CHARS]}-{digest.hexdigest()[:8]}"
    return name or "x"


def table_cell(value):
    """A table cell as gnuplot shows a label it reads from one: shown(),
    so that no tab or newline of a name splits the cell or the row and no
    control character reaches the image; a '"' (which would open a quoted
    field) becomes a '\''."""
    return shown(value).replace('"', "'")


def write_table(path, header, rows):
    """Tab-separated, so names with spaces need no quoting."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("\t".join(table_cell(c) for c in header) + "\n")
        for row in rows:
            out.write("\t".join(table_cell(c) for c in row) + "\n")


def histogram_rows(run, log_y=False):
    """Percent of ops per log-spaced latency bin (bucket widths vary, so
    buckets are re-binned by their midpoint); with log_y an empty bin is
    NaN (a gap: a log axis has no 0)."""
    bins = {}
    for low, high, count in run.buckets:
        mid_us = max((low + high) / 2000.0, 1e-3)
        index = math.floor(math.log10(mid_us) * HIST_BINS_PER_DECADE)
        bins[index] = bins.get(index, 0) + count
    total = sum(bins.values())
    if total == 0:
        return []
    rows = []
    for index in range(min(bins), max(bins) + 1):
        left = 10 ** (index / HIST_BINS_PER_DECADE)
        count = bins.get(index, 0)
        rows.append((f"{left:.6g}", "NaN" if log_y and not count else
                     f"{100.0 * count / total:.6g}"))
    right = 10 ** ((max(bins) + 1) / HIST_BINS_PER_DECADE)
    rows.append((f"{right:.6g}", "NaN" if log_y else "0"))
    return rows


def percentile_rows(run):
    """(1/(1-p), latency_us) at the top of each bucket, as HdrHistogram's
    percentile plots do."""
    total = sum(count for _, _, count in run.buckets)
    if total == 0:
        return []
    rows, cumulative = [], 0
    for low, high, count in run.buckets:
        if cumulative == 0:
            rows.append(("1", f"{low / 1000.0:.6g}"))
        cumulative += count
        p = cumulative / total
        # p = 1 has no finite position; the last point sits at 1/(1/total).
        tail = 1.0 / (1.0 - p) if p < 1 else float(total)
        rows.append((f"{tail:.6g}", f"{high / 1000.0:.6g}"))
    return rows


# ---------------------------------------------------------------- charts

def mode_order(runs):
    modes = []
    for run in runs:
        if run.mode not in modes:
            modes.append(run.mode)
    return modes


def bytes_label(nbytes):
    """8192 -> '8 KiB', 1048576 -> '1 MiB', 512 -> '512 B'."""
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if nbytes >= 1 << shift and nbytes % (1 << shift) == 0:
            return f"{nbytes >> shift} {unit}"
    return f"{nbytes} B"


def what_was_written(runs):
    """'8 KiB seq writes' ('reads' for the read modes) when the runs
    agree, naming what differs otherwise (the legend says how)."""
    sizes = {run.block_size for run in runs}
    patterns = {run.pattern for run in runs}
    if sizes == {0}:
        pattern = patterns.pop() if len(patterns) == 1 else "mixed"
        return f"{pattern} operations"      # custom runs: no block size
    ops = ("reads" if all(r.direction == "read" for r in runs)
           else "writes")
    words = ([bytes_label(sizes.pop())] if len(sizes) == 1 else []) + \
        ([patterns.pop()] if len(patterns) == 1 else []) + [ops]
    several = (["block sizes"] if sizes else []) + \
        (["patterns"] if patterns else [])
    return " ".join(words) + (f" of several {' and '.join(several)}"
                              if several else "")


def mode_series(runs, mode, workdir, kind, header, rows_of, number=0):
    """A data table per run of mode (KIND-NUMBER-I.dat, rows_of(run):
    number tells the modes apart), the plot series drawing them and the
    values of their two columns (x then y, a list each per run)."""
    series, values = [], []
    for i, run in enumerate(r for r in runs if r.mode == mode):
        path = os.path.join(workdir, f"{kind}-{number}-{i}.dat")
        rows = rows_of(run)
        write_table(path, header, rows)
        series.append((path, "1:2", run.series))
        values.append([float(row[0]) for row in rows])
        values.append([float(row[1]) for row in rows])
    return series, values


def lines_of(values, steps=False):
    """The points of each series from mode_series' values (x and y lists
    in turn); steps: a step line's corners too."""
    lines = []
    for xs, ys in zip(values[0::2], values[1::2]):
        points = list(zip(xs, ys))
        if steps:
            points = [p for (x0, y0), (x1, _) in zip(points, points[1:])
                      for p in ((x0, y0), (x1, y0))] + points[-1:]
        lines.append(points)
    return lines


def key_for(series, lines, log_x, log_y, x_range=None, y_range=None):
    """key_corner() for the plot series [(path, using, title)]."""
    return key_corner(lines, log_x, log_y, [title for _, _, title in series],
                      x_range, y_range)


def span(columns, positive=True):
    values = [v for column in columns for v in column
              if not positive or v > 0]
    return (min(values), max(values)) if values else (1.0, 10.0)


# A linear histogram's axis reaches this much above its highest bin.
HIST_HEADROOM = 1.08
# The most of a plot's height a key may take above a histogram's peak;
# a taller key goes outside the plot, to its right.
KEY_ROOM_MAX = 0.45


def linear_histogram_axis(lines, titles, x_range):
    """A linear histogram's y range and its key's place: from 0 to a
    little above the highest bin, the key in a corner no line crosses;
    where every corner is crossed, the axis raised until the key fits in
    the top right corner above every line (or, for a key taller than
    KEY_ROOM_MAX of the plot, the key outside it): no line runs under
    the key, and the peak is always inside the axis."""
    peak = max((y for line in lines for _, y in line if math.isfinite(y)),
               default=0.0) or 1.0
    top = peak * HIST_HEADROOM
    key = key_corner(lines, True, False, titles, x_range, (0.0, top))
    if key == "below":
        height = key_size(titles)[1]
        if height <= KEY_ROOM_MAX:
            top, key = top / (1.0 - height), "top right"
        else:
            key = "outside"
    return f"set yrange [0:{top:.6g}]\n", key


def histogram_charts(runs, workdir, ext, log_y=False):
    """A histogram per mode; log_y (diskio-plot --histogram-y log): the
    share of ops on a log axis, so that the tail's bins of 0.01% show
    beside a peak of 50%."""
    charts = []
    for number, mode in enumerate(mode_order(runs)):
        mode_runs = [r for r in runs if r.mode == mode]
        series, values = mode_series(
            runs, mode, workdir, "hist", ("latency_us", "percent"),
            lambda run: histogram_rows(run, log_y), number)
        shares = [v for column in values[1::2] for v in column
                  if math.isfinite(v) and v > 0]
        low_us, high_us = span(values[0::2])
        x_range = (low_us / LOG_AXIS_MARGIN, high_us * LOG_AXIS_MARGIN)
        lines = lines_of(values, steps=True)
        if log_y and shares:
            yaxis = (f"set logscale y\nset yrange [{min(shares) / 2:.6g}:100]\n"
                     + log_axis("y", min(shares), 100.0,
                                label=lambda v: f"{v:g}%").split("\n", 1)[1])
            key = key_for(series, lines, True, True, x_range,
                          (min(shares) / 2, 100.0))
        else:
            yaxis, key = linear_histogram_axis(
                lines, [title for _, _, title in series], x_range)
        commands = common_settings(
            f"Latency histogram, {mode}, {what_was_written(mode_runs)}",
            "latency per op (log scale)",
            "share of ops (%, log scale)" if log_y else "share of ops (%)",
            key=key) + \
            "set logscale x\n" + yaxis + \
            latency_tics("x", low_us, high_us) + \
            plot_lines(series, "with steps lw 2")
        charts.append(Chart(f"diskio-hist-{safe_name(mode)}.{ext}",
                            f"histogram {mode}", commands))
    return charts


def percentile_charts(runs, workdir, ext):
    """A percentile chart per mode; the right margin holds the last tic's
    label ("99.9999%" at the axis' end) whole."""
    charts = []
    # Tic labels are format strings to gnuplot: % must be doubled.
    tics = ", ".join(f"{gp_format(label)} {value:g}"
                     for label, value in TAIL_TICS)
    for number, mode in enumerate(mode_order(runs)):
        mode_runs = [r for r in runs if r.mode == mode]
        series, values = mode_series(runs, mode, workdir, "pct",
                                     ("tail", "latency_us"), percentile_rows,
                                     number)
        commands = common_settings(
            f"Latency by percentile, {mode}, {what_was_written(mode_runs)}",
            "percentile", "latency per op (log scale)",
            key=key_for(series, lines_of(values), True, True)) + \
            f"set logscale xy\nset xtics ({tics})\nset xrange [1:*]\n" + \
            "set rmargin 5\n" + \
            latency_tics("y", *span(values[1::2])) + \
            plot_lines(series, "with lines lw 2")
        charts.append(Chart(f"diskio-percentiles-{safe_name(mode)}.{ext}",
                            f"percentiles {mode}", commands))
    return charts


def sweep_key(run):
    """What a block-size sweep's line is: everything of the run's key but
    its block size (a --jobs 1,4 sweep at several sizes is two lines)."""
    key = run.key or RunKey(run.mode, run.block_size, run.pattern)
    return key._replace(block_size=None, suite_row=None)


def sweep_groups(runs):
    """(env, mode, key but the size) groups that ran at two or more block
    sizes (a suite's runs have the I/O length chart instead)."""
    groups = {}
    for run in runs:
        if run.suite is not None:
            continue
        groups.setdefault((run.env, run.mode, sweep_key(run)), []).append(run)
    return {key: sorted(group, key=lambda r: r.block_size)
            for key, group in groups.items()
            if len({r.block_size for r in group}) > 1}


def sweep_names(groups):
    """A legend entry per sweep group: 'ENV MODE' and each field of the
    key that differs between the groups ('ext4 fdatasync x4 jobs')."""
    keys = [key for _, _, key in groups]
    varying = [name for name in SERIES_FIELDS if name != "block_size"
               and len({getattr(key, name) for key in keys}) > 1]
    return [" ".join([env, mode] + [key_word(key, name) for name in varying])
            for env, mode, key in groups]


def sweep_charts(runs, workdir, ext):
    """Throughput and mean latency by block size, both axes logarithmic:
    the modes differ by decades."""
    groups = sweep_groups(runs)
    if not groups:
        return []
    patterns = {key.pattern for _, _, key in groups}
    series_tp, series_lat, sizes, tp, lat = [], [], [], [], []
    for i, (group, name) in enumerate(zip(groups.values(),
                                          sweep_names(groups))):
        path = os.path.join(workdir, f"sweep-{i}.dat")
        write_table(path, ("block_kib", "mb_per_s", "mean_us"),
                    [(r.block_size / 1024.0, r.mb_per_s, r.mean_us)
                     for r in group])
        series_tp.append((path, "1:2", name))
        series_lat.append((path, "1:3", name))
        sizes += [r.block_size / 1024.0 for r in group]
        tp += [r.mb_per_s for r in group]
        lat += [r.mean_us for r in group]
    what = f"{patterns.pop()} writes" if len(patterns) == 1 else "writes"
    xaxis = "set logscale x 2\n" + size_tics("x", sizes)
    lines_tp = [[(r.block_size, r.mb_per_s) for r in g] for g in groups.values()]
    lines_lat = [[(r.block_size, r.mean_us) for r in g] for g in groups.values()]
    tp_tics = log_axis("y", *span([tp]), label=lambda v: f"{v:g}")
    return [
        Chart(f"diskio-bs-throughput.{ext}", "throughput by block size",
              common_settings(f"Throughput by block size, {what}",
                              "block size (log scale)",
                              "throughput (MB/s, 10^6 bytes, log scale)",
                              key=key_for(series_tp, lines_tp, True, True))
              + xaxis + "set logscale y\n" + tp_tics
              + plot_lines(series_tp, "with linespoints lw 2")),
        Chart(f"diskio-bs-latency.{ext}", "mean latency by block size",
              common_settings(f"Mean latency by block size, {what}",
                              "block size (log scale)",
                              "mean latency per op (log scale)",
                              key=key_for(series_lat, lines_lat, True, True))
              + xaxis + "set logscale y\n" + latency_tics("y", *span([lat]))
              + plot_lines(series_lat, "with linespoints lw 2")),
    ]


def interval_rows(run):
    """(start of the interval in s, its middle, ops/s, p50, p99, max in
    µs) per interval, then the end of the last one (so that the ops/s
    steps cover it); latencies NaN where no op completed (a gap in their
    lines, while ops/s drops to 0: a stall shows)."""
    rows = []
    for iv in run.intervals:
        row = [f"{iv.start_ns / 1e9:.6g}",
               f"{(iv.start_ns + iv.duration_ns / 2.0) / 1e9:.6g}",
               f"{iv.ops_per_s:.6g}"]
        for value in (iv.p50_ns, iv.p99_ns, iv.max_ns):
            row.append("NaN" if not iv.ops or value is None
                       else f"{value / 1000.0:.6g}")
        rows.append(tuple(row))
    if rows:
        last = run.intervals[-1]
        end_s = (last.start_ns + last.duration_ns) / 1e9
        rows.append((f"{end_s:.6g}", "NaN", rows[-1][2], "NaN", "NaN", "NaN"))
    return rows


def interval_charts(runs, workdir, ext):
    """Latency over time, a chart per run with a series (diskio
    --interval): p50, p99 and max per interval on a logarithmic axis,
    ops/s on the right-hand axis from 0."""
    charts = []
    for i, run in enumerate(r for r in runs if r.intervals):
        path = os.path.join(workdir, f"intervals-{i}.dat")
        rows = interval_rows(run)
        write_table(path, ("start_s", "middle_s", "ops_per_s", "p50_us",
                           "p99_us", "max_us"), rows)
        latencies = [float(v) for row in rows for v in row[3:]
                     if v != "NaN"]
        seconds = run.intervals[0].duration_ns / 1e9
        title = (f"Latency over time, {run.series}, "
                 f"{what_was_written([run])}, {seconds:g} s intervals")
        lines = [(path, "2:4", "p50"), (path, "2:5", "p99"),
                 (path, "2:6", "max")]
        plot = plot_lines(lines, "with linespoints lw 2").rstrip("\n")
        commands = common_settings(title, "time since the run began (s)",
                                   "latency per op (log scale)",
                                   key="below") + \
            "set logscale y\n" + latency_tics("y", *span([latencies])) + \
            f"set y2label {gp_string('ops/s')}\nset y2range [0:*]\n" + \
            "set y2tics\nset ytics nomirror\n" + plot + ", \\\n     " + \
            f"{gp_datafile(path)} using 1:3 axes x1y2 with steps lw 1 " + \
            f"lc 8 dt 1 title {gp_string('ops/s (right axis)')}\n"
        charts.append(Chart(f"diskio-intervals-{safe_name(run.series)}.{ext}",
                            f"latency over time {run.series}", commands))
    return charts


def io_length_groups(runs):
    """A suite's runs by (env, suite, column, mode, pattern), sorted by
    I/O length, where a group ran at two or more lengths."""
    groups = {}
    for run in runs:
        if run.suite is None:
            continue
        key = (run.env, run.suite, run.column, run.mode, run.pattern)
        groups.setdefault(key, []).append(run)
    return {key: sorted(group, key=lambda r: r.block_size)
            for key, group in groups.items()
            if len({r.block_size for r in group}) > 1}


# Below this many runs a row's bar spans its runs' minimum to maximum:
# a standard deviation of two or three values says little (with two runs
# of 40 and 50 MB/s, mean ± sd runs from 38 to 52, and a wide pair's bar
# runs to near 0 on the log axis).
SPREAD_MIN_N = 5


def mean_and_spread(values):
    """The mean and the sample standard deviation (0 for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, statistics.stdev(values, mean)


def io_length_rows(group):
    """(length KiB, mean MB/s, low, high, runs): the bar spans the runs'
    min to max below SPREAD_MIN_N runs, else mean ± one standard
    deviation, kept above 0 for the log axis."""
    rows = []
    for run in group:
        values = run.mb_per_s_runs
        mean, sd = mean_and_spread(values)
        if len(values) < SPREAD_MIN_N:
            low, high = min(values), max(values)
        else:
            low, high = max(mean - sd, mean / 100.0), mean + sd
        rows.append((run.block_size / 1024.0, mean, low, high, len(values)))
    return rows


def spread_words(counts):
    """What the bars of rows with these numbers of runs span."""
    if max(counts) < SPREAD_MIN_N:
        return "bars min to max"
    if min(counts) >= SPREAD_MIN_N:
        return "bars ± 1 standard deviation"
    return (f"bars min to max below {SPREAD_MIN_N} runs, ± 1 standard "
            "deviation from it")


def io_length_charts(runs, workdir, ext):
    """diskio --suite sweep (any suite whose rows run one mode at several
    lengths): MB/s by I/O length, the length on a log2 axis, MB/s on a
    log axis (a network filesystem's small lengths sit decades below a
    local disk's), a line per environment and column, error bars of the
    row's runs (io_length_rows)."""
    groups = io_length_groups(runs)
    if not groups:
        return []
    envs = {env for env, _, _, _, _ in groups}
    suites = {(suite, run.suite_title) for (_, suite, _, _, _), group
              in groups.items() for run in group}
    series, sizes, values, lines = [], [], [], []
    for i, ((env, suite, column, mode, pattern), group) in \
            enumerate(groups.items()):
        path = os.path.join(workdir, f"iolength-{i}.dat")
        rows = io_length_rows(group)
        write_table(path, ("length_kib", "mb_per_s", "low", "high", "runs"),
                    rows)
        # the mode and pattern where they add to the column: 'write
        # (fdatasync)', 'read' for mode read, 'read (rand)'
        said = [word for word in (mode, pattern) if word not in (column, "seq")]
        name = column + (f" ({' '.join(said)})" if said else "")
        if len(envs) > 1:
            name = f"{env} {name}"
        series.append((path, "1:2:3:4", name))
        # the line and both ends of each bar
        lines += [[(row[0], row[1]) for row in rows]] + \
            [[(row[0], row[2]), (row[0], row[3])] for row in rows]
        sizes += [row[0] for row in rows]
        values += [row[2] for row in rows] + [row[3] for row in rows]
    names = sorted(suites)
    title = names[0][1] or names[0][0] if len(names) == 1 else "suites"
    runs_per_row = sorted({len(r.mb_per_s_runs) for g in groups.values()
                           for r in g})
    how = (f"mean of {runs_per_row[0]} runs" if len(runs_per_row) == 1
           else "mean of the runs") + ", " + spread_words(runs_per_row)
    commands = common_settings(
        f"MB/s by I/O length, {title} ({how})",
        "I/O length (log scale)",
        "throughput (MB/s, 10^6 bytes, log scale)",
        key=key_for(series, lines, True, True)) + \
        "set logscale x 2\n" + size_tics("x", sizes) + \
        "set logscale y\n" + \
        log_axis("y", *span([values]), label=lambda v: f"{v:g}") + \
        plot_lines(series, "with yerrorlines lw 2")
    suite_name = names[0][0] if len(names) == 1 else "suites"
    return [Chart(f"diskio-{safe_name(suite_name)}-io-length.{ext}",
                  "MB/s by I/O length", commands)]


def trace_charts(traces, workdir, ext):
    charts = []
    for i, trace in enumerate(traces):
        path = os.path.join(workdir, f"trace-{i}.dat")
        write_table(path, ("op", "elapsed_s", "latency_us"),
                    zip(trace.ops, trace.elapsed_s, trace.latency_us))
        name = safe_name(trace.name)
        style = "with points pt 7 ps 0.3"
        tics = "set logscale y\n" + latency_tics("y", *span([trace.latency_us]))
        charts.append(Chart(
            f"diskio-trace-{name}-index.{ext}", f"trace {trace.name} by op",
            common_settings(f"Per-op latency, {trace.name}", "op index",
                            "latency (log scale)", key="below")
            + tics + plot_lines([(path, "1:3", trace.name)], style)))
        charts.append(Chart(
            f"diskio-trace-{name}-time.{ext}", f"trace {trace.name} by time",
            common_settings(f"Per-op latency over time, {trace.name}",
                            "elapsed time since first op (s)",
                            "latency (log scale)", key="below")
            + tics + plot_lines([(path, "2:3", trace.name)], style)))
    return charts


def unique_filenames(charts):
    """Charts whose names came out the same (safe_name() makes `a b` and
    `a_b` alike) are told apart by a number, -2, -3..., in their order."""
    seen = set()
    for chart in charts:
        stem, ext = os.path.splitext(chart.filename)
        name, number = chart.filename, 1
        while name in seen:
            number += 1
            name = f"{stem}-{number}{ext}"
        seen.add(name)
        chart.filename = name
    return charts


def run_charts(runs, traces, ext, workdir, histogram_log=False):
    """Every chart of the results and traces, as ext images; their data
    tables are written into workdir."""
    return histogram_charts(runs, workdir, ext, histogram_log) + \
        percentile_charts(runs, workdir, ext) + \
        sweep_charts(runs, workdir, ext) + \
        interval_charts(runs, workdir, ext) + \
        io_length_charts(runs, workdir, ext) + \
        trace_charts(traces, workdir, ext)
