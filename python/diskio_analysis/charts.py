# SPDX-License-Identifier: MIT
"""diskio-plot's charts: for each, its data tables (tab-separated files
in a work directory) and the gnuplot commands that draw it.  Latency
histograms and percentile curves per mode, block-size sweeps, per-op
traces, and from a diskio-correlate report the ratio bars and the WAL
model's sync shares."""

import math
import os
import re
import sys
from dataclasses import dataclass

from .gnuplot import common_settings, gp_string, plot_lines

HIST_BINS_PER_DECADE = 20
# x positions of the percentile axis: 1/(1-p).
TAIL_TICS = (("0%", 1), ("90%", 10), ("99%", 100), ("99.9%", 1e3),
             ("99.99%", 1e4), ("99.999%", 1e5), ("99.9999%", 1e6))


@dataclass
class Chart:
    filename: str     # final name in outdir
    title: str
    commands: str     # gnuplot commands after set output


# ---------------------------------------------------------------- data

def safe_name(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def one_line(text):
    """A table cell: control characters (tabs, newlines) from names in
    the input would split the cell or the row."""
    return re.sub(r"[\x00-\x1f\x7f]", " ", str(text))


def write_table(path, header, rows):
    """Tab-separated, so names with spaces need no quoting."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("\t".join(one_line(c) for c in header) + "\n")
        for row in rows:
            out.write("\t".join(one_line(c) for c in row) + "\n")


def histogram_rows(run):
    """Percent of ops per log-spaced latency bin (bucket widths vary, so
    buckets are re-binned by their midpoint)."""
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
        rows.append((f"{left:.6g}", f"{100.0 * bins.get(index, 0) / total:.6g}"))
    right = 10 ** ((max(bins) + 1) / HIST_BINS_PER_DECADE)
    rows.append((f"{right:.6g}", "0"))
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


def mode_series(runs, mode, workdir, kind, header, rows_of):
    """A data table per run of mode (KIND-MODE-I.dat, rows_of(run)) and
    the plot series drawing them."""
    series = []
    for i, run in enumerate(r for r in runs if r.mode == mode):
        path = os.path.join(workdir, f"{kind}-{safe_name(mode)}-{i}.dat")
        write_table(path, header, rows_of(run))
        series.append((path, "1:2", run.series))
    return series


def histogram_charts(runs, workdir, ext):
    charts = []
    for mode in mode_order(runs):
        series = mode_series(runs, mode, workdir, "hist",
                             ("latency_us", "percent"), histogram_rows)
        commands = common_settings(
            f"Latency histogram, mode {mode}", "latency per op (us, log scale)",
            "share of ops (%)") + "set logscale x\nset yrange [0:*]\n" + \
            plot_lines(series, "with steps lw 2")
        charts.append(Chart(f"diskio-hist-{safe_name(mode)}.{ext}",
                            f"histogram {mode}", commands))
    return charts


def percentile_charts(runs, workdir, ext):
    charts = []
    # Tic labels are format strings to gnuplot: % must be doubled.
    tics = ", ".join(f"{gp_string(label.replace('%', '%%'))} {value:g}"
                     for label, value in TAIL_TICS)
    for mode in mode_order(runs):
        series = mode_series(runs, mode, workdir, "pct",
                             ("tail", "latency_us"), percentile_rows)
        commands = common_settings(
            f"Latency by percentile, mode {mode}", "percentile",
            "latency per op (us, log scale)") + \
            f"set logscale xy\nset xtics ({tics})\nset xrange [1:*]\n" + \
            plot_lines(series, "with lines lw 2")
        charts.append(Chart(f"diskio-percentiles-{safe_name(mode)}.{ext}",
                            f"percentiles {mode}", commands))
    return charts


def sweep_groups(runs):
    """(env, mode) groups that ran at two or more block sizes."""
    groups = {}
    for run in runs:
        groups.setdefault((run.env, run.mode), []).append(run)
    return {key: sorted(group, key=lambda r: r.block_size)
            for key, group in groups.items()
            if len({r.block_size for r in group}) > 1}


def sweep_charts(runs, workdir, ext):
    groups = sweep_groups(runs)
    if not groups:
        return []
    series_tp, series_lat = [], []
    for i, ((env, mode), group) in enumerate(groups.items()):
        path = os.path.join(workdir, f"sweep-{i}.dat")
        write_table(path, ("block_kib", "mb_per_s", "mean_us"),
                    [(r.block_size / 1024.0, r.mb_per_s, r.mean_us)
                     for r in group])
        series_tp.append((path, "1:2", f"{env} {mode}"))
        series_lat.append((path, "1:3", f"{env} {mode}"))
    xaxis = "set logscale x 2\n"
    return [
        Chart(f"diskio-bs-throughput.{ext}", "throughput by I/O size",
              common_settings("Throughput by I/O length",
                              "I/O length (KiB, log2 scale)",
                              "throughput (MB/s, 10^6 bytes)")
              + xaxis + "set yrange [0:*]\n"
              + plot_lines(series_tp, "with linespoints lw 2 pt 7")),
        Chart(f"diskio-bs-latency.{ext}", "mean latency by I/O size",
              common_settings("Mean latency by I/O length",
                              "I/O length (KiB, log2 scale)",
                              "mean latency per op (us)")
              + xaxis + "set yrange [0:*]\n"
              + plot_lines(series_lat, "with linespoints lw 2 pt 7")),
    ]


def trace_charts(traces, workdir, ext):
    charts = []
    for i, trace in enumerate(traces):
        path = os.path.join(workdir, f"trace-{i}.dat")
        write_table(path, ("op", "elapsed_s", "latency_us"),
                    zip(trace.ops, trace.elapsed_s, trace.latency_us))
        name = safe_name(trace.name)
        style = "with points pt 7 ps 0.3"
        charts.append(Chart(
            f"diskio-trace-{name}-index.{ext}", f"trace {trace.name} by op",
            common_settings(f"Per-op latency, {trace.name}", "op index",
                            "latency (us, log scale)")
            + "set logscale y\n"
            + plot_lines([(path, "1:3", trace.name)], style)))
        charts.append(Chart(
            f"diskio-trace-{name}-time.{ext}", f"trace {trace.name} by time",
            common_settings(f"Per-op latency over time, {trace.name}",
                            "elapsed time since first op (s)",
                            "latency (us, log scale)")
            + "set logscale y\n"
            + plot_lines([(path, "2:3", trace.name)], style)))
    return charts


def report_suffix(reports, path):
    if len(reports) == 1:
        return ""
    return "-" + safe_name(os.path.splitext(os.path.basename(path))[0])


def ratio_chart(path, report, suffix, metric_filter, workdir, ext):
    """Environment ratios per metric (normalized: > 1 worse) beside the
    phase ratios, one bar per compared environment."""
    if not report.comparisons:
        return []
    metrics = [m for m in report.metrics if metric_filter.search(m)]
    envs = [env for env, _, _ in report.comparisons]
    header = ["name"] + envs
    phase_rows = [[p] + [phase_ratios[p]
                         for _, phase_ratios, _ in report.comparisons]
                  for p in report.phases]
    metric_rows = [[m] + [metric_ratios[m]
                          for _, _, metric_ratios in report.comparisons]
                   for m in metrics]
    phase_file = os.path.join(workdir, f"ratios-phases{suffix}.dat")
    metric_file = os.path.join(workdir, f"ratios-metrics{suffix}.dat")
    write_table(phase_file, header, phase_rows)
    write_table(metric_file, header, metric_rows)
    values = [v for row in phase_rows + metric_rows for v in row[1:]
              if isinstance(v, float) and math.isfinite(v)]
    # Headroom above the tallest bar, kept finite for gnuplot.
    top = min(max(values + [1.0]) * 1.15, sys.float_info.max)
    columns = len(envs) + 1

    def panel(title, datafile, count):
        if count == 0:
            return (f"set title {gp_string(title + ' (none)')}\n"
                    "unset key\nplot 1 with lines dt 2 lc 'black' notitle\n")
        return (f"set title {gp_string(title)}\n"
                "set key top left\n"
                f"plot for [i=2:{columns}] {gp_string(datafile)} using "
                "i:xtic(1) title columnheader(i)\n")
    commands = "\n".join([
        "set datafile separator '\\t'",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.8 border -1",
        "set boxwidth 0.9",
        "set grid ytics",
        f"set yrange [0:{top:.6g}]",
        "set xtics rotate by -40 left",
        "set ylabel " + gp_string(f"ratio to baseline {report.baseline} "
                                  "(> 1 = slower/worse)"),
        "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead "
        "dt 2 lw 2 lc 'black' front",
        "set multiplot layout 1,2 title "
        + gp_string(f"Environment ratios against baseline {report.baseline}"),
        panel("DB phase time ratio", phase_file, len(phase_rows)),
        panel("disk metric ratio (normalized)", metric_file, len(metric_rows)),
        "unset multiplot"]) + "\n"
    return [Chart(f"diskio-ratios{suffix}.{ext}", "ratios", commands)]


def sync_share_chart(path, report, suffix, workdir, ext):
    """Stacked bar per environment and phase: estimated WAL sync time,
    PostgreSQL's checkpoint sync time and the rest, as % of the phase."""
    if not report.sync_shares:
        return []
    rows = []
    for env, phase, share, checkpoint_share in report.sync_shares:
        wal = 100.0 * share
        checkpoint = 100.0 * checkpoint_share
        rest = max(0.0, 100.0 - wal - checkpoint)
        rows.append((f"{env} {phase}", f"{wal:.6g}", f"{checkpoint:.6g}",
                     f"{rest:.6g}"))
    datafile = os.path.join(workdir, f"sync-share{suffix}.dat")
    write_table(datafile, ("phase", "WAL sync (syncs x measured latency)",
                           "checkpoint sync (PostgreSQL)", "rest of phase"),
                rows)
    commands = common_settings(
        f"Estimated sync share of each phase (wal_sync_method "
        f"{report.sync_method})", "environment and phase",
        "share of phase time (%)") + "\n".join([
            "set style data histograms",
            "set style histogram rowstacked",
            "set style fill solid 0.8 border -1",
            "set boxwidth 0.7",
            "set yrange [0:*]",
            "set xtics rotate by -40 left",
            f"plot for [i=2:4] {gp_string(datafile)} using i:xtic(1) "
            "title columnheader(i)"]) + "\n"
    return [Chart(f"diskio-sync-share{suffix}.{ext}", "sync share", commands)]


def build_charts(runs, traces, reports, ext, metric_filter, workdir):
    """Every chart the inputs make, as ext images; their data tables are
    written into workdir."""
    charts = histogram_charts(runs, workdir, ext) + \
        percentile_charts(runs, workdir, ext) + \
        sweep_charts(runs, workdir, ext) + \
        trace_charts(traces, workdir, ext)
    for path, report in reports:
        suffix = report_suffix(reports, path)
        charts += ratio_chart(path, report, suffix, metric_filter, workdir,
                              ext)
        charts += sync_share_chart(path, report, suffix, workdir, ext)
    return charts
