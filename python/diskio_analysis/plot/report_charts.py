# SPDX-License-Identifier: MIT
"""diskio-plot's charts of a diskio-correlate report: the ratio of each
phase and disk metric to the baseline, and the WAL model's sync shares.

The ratios are B/A (ratios.py: the other environment's over the
baseline's, whatever the quantity), horizontal bars on a logarithmic axis
centred on 1 (a bar grows from 1 to its ratio), so 2× and 0.5× are the
same length and a 0.01× bar is as visible as a 100× one; each bar's label
says the ratio and the word derived from it (slower, faster), since right
of 1 is slower for a time and faster for a throughput.  The top-level
phases are drawn unless told otherwise.  Each environment
has its own fill pattern, so the bars read in monochrome too."""

import math
import os

from ..ratios import fmt_ratio_word
from .charts import Chart, safe_name, write_table
from .gnuplot import (common_settings, gp_datafile, gp_format, gp_string,
                      series_colour)
from .ratio_axis import key_place, label_limit

BAR_HEIGHT = 0.8        # of one category's slot, shared by the environments
RATIO_STEPS = (1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 1e3, 1e4, 1e5, 1e6)
MAX_RATIO = 1e6


def ratio_label(value):
    """0.001×, 0.5×, 1.25×, 1000×."""
    return (f"{value:.0f}×" if value >= 10 else f"{value:.3g}×")


def ratio_tics(limit):
    """Ticks at 1 and at nice factors each side within [1/limit, limit],
    no two closer than a fifth of the half-axis; labelled 0.5×, 1×, 2×."""
    gap = math.log(limit) / 5
    steps, last = [], 0.0
    for step in RATIO_STEPS:
        if step <= limit and math.log(step) - last >= gap:
            steps.append(step)
            last = math.log(step)
    values = sorted([1.0 / s for s in steps] + [1.0] + steps)
    return "set xtics (" + ", ".join(
        f"{gp_format(ratio_label(v))} {v:.6g}" for v in values) + ")\n"


def select(names, pattern, default_top_level):
    """names matching pattern (a compiled regex or 'all'); None: the
    top-level ones (no dot) when default_top_level, else all."""
    if pattern == "all" or (pattern is None and not default_top_level):
        return list(names)
    if pattern is None:
        return [n for n in names if "." not in n] or list(names)
    return [n for n in names if pattern.search(n)]


def bar_rows(categories, values, env_index, env_count, better=None):
    """x:y:xlow:xhigh:ylow:yhigh:label rows of one environment's bars,
    from 1 to each finite ratio (categories top to bottom); better[i]:
    whether higher is better for category i (the label's word)."""
    height = BAR_HEIGHT / env_count
    rows = []
    for slot, (name, value) in enumerate(zip(categories, values)):
        if value is None or not math.isfinite(value) or value <= 0:
            continue
        label = fmt_ratio_word(value, bool(better and better[slot]))
        value = min(max(value, 1.0 / MAX_RATIO), MAX_RATIO)
        centre = len(categories) - slot - 0.5
        y = centre + BAR_HEIGHT / 2 - (env_index + 0.5) * height
        rows.append((f"{value:.6g}", f"{y:.4f}", f"{min(value, 1.0):.6g}",
                     f"{max(value, 1.0):.6g}", f"{y - height / 2:.4f}",
                     f"{y + height / 2:.4f}", label))
    return rows


def ratio_chart(report, suffix, phase_filter, metric_filter, workdir, ext,
                number=0):
    """Phases (top) and metrics (below) with one bar per compared
    environment; every ratio B/A, labelled with its word."""
    if not report.comparisons:
        return []
    phases = select(report.phases, phase_filter, True)
    metrics = select(report.metrics, metric_filter, False)
    categories = [f"phase {p}" for p in phases] + metrics
    if not categories:
        return []
    envs = [env for env, _, _ in report.comparisons]
    labels = len(categories) * len(envs) <= 40
    series, values, drawn, labelled = ratio_series(
        report, phases, metrics, workdir, number, labels)
    # room beyond the longest bar for its label, in proportion on the log
    # axis, and for every label to end inside the plot
    width = 1000
    limit = max([max(v, 1.0 / v) for v in values] + [1.25]) ** 1.25 * 1.3
    limit = min(MAX_RATIO ** 1.5, max(limit, label_limit(labelled, categories, width)))
    plots = ratio_plots(series, labels)
    ytics = ", ".join(f"{gp_format(name)} {len(categories) - k - 0.5:.1f}"
                      for k, name in enumerate(categories))
    height = min(4000, max(400, 140 + 28 * len(categories) * max(1, len(envs) // 2)))
    key, key_rows, key_px = key_place(
        drawn, [env for _, env, count in series if count], limit, categories,
        (width, height))
    commands = common_settings(
        f"Ratio B/A to baseline {report.baseline} (log scale, centred on 1)",
        "ratio B/A, other / baseline (right of 1: a longer time, or a higher "
        "throughput)", "", key=key) + \
        "\n".join([
            "set logscale x",
            f"set xrange [{1.0 / limit:.6g}:{limit:.6g}]",
            ratio_tics(limit).rstrip("\n"),
            f"set yrange [0:{len(categories) + key_rows:.4g}]",
            f"set ytics ({ytics})",
            "set grid xtics",
            f"set arrow 1 from 1, graph 0 to 1, first {len(categories)} nohead "
            "dt 2 lw 2 lc 'black' front",
            (f"set arrow 2 from graph 0, first {len(metrics)} to graph 1, "
             f"first {len(metrics)} nohead lc 'gray'" if phases and metrics
             else ""),
            "plot " + (", \\\n     ".join(plots) if plots else
                       "1/0 notitle")]) + "\n"
    return [Chart(f"diskio-ratios{suffix}.{ext}", "ratios", commands,
                  size=(width, height + key_px))]


def ratio_series(report, phases, metrics, workdir, number, labels):
    """ratio_chart()'s bars: per compared environment its table of bars
    written in workdir, as (path, environment, bars); every bar's ratio;
    each bar's top, middle and bottom edge (y, from, to, its label when
    labels); and the end and label of each bar (when labels)."""
    categories = [f"phase {p}" for p in phases] + metrics
    envs = [env for env, _, _ in report.comparisons]
    series, values, drawn, labelled = [], [], [], []
    better = [False] * len(phases) + [
        (report.higher_is_better or {}).get(m, False) for m in metrics]
    for i, (env, phase_ratios, metric_ratios) in enumerate(report.comparisons):
        ratios = [phase_ratios.get(p) for p in phases] + \
            [metric_ratios.get(m) for m in metrics]
        rows = bar_rows(categories, ratios, i, len(envs), better)
        path = os.path.join(workdir, f"ratios-{number}-{i}.dat")
        write_table(path, ("ratio", "y", "xlow", "xhigh", "ylow", "yhigh",
                           "label"), rows)
        series.append((path, env, len(rows)))
        values += [float(r[0]) for r in rows]
        # each bar's top, middle and bottom edge, from 1 to its end
        drawn += [(float(y), float(r[2]), float(r[3]), r[6] if labels else "")
                  for r in rows for y in (r[1], r[4], r[5])]
        labelled += [(float(r[3]), r[6]) for r in rows] if labels else []
    return series, values, drawn, labelled


def ratio_plots(series, labels):
    """The plot clauses of ratio_chart()'s series: each environment's
    bars in its colour and pattern, and their labels (when labels)."""
    plots = []
    for i, (path, env, count) in enumerate(series):
        if not count:
            continue
        plots.append(f"{gp_datafile(path)} using 1:2:3:4:5:6 with boxxyerror "
                     f"lc rgb '{series_colour(i)}' fs pattern {i % 7 + 1} border "
                     f"title {gp_string(env)}")
        if labels:
            plots.append(f"{gp_datafile(path)} using 4:2:7 with labels left "
                         "offset 0.5,0 notitle")
    return plots


def sync_share_chart(report, suffix, phase_filter, workdir, ext, number=0):
    """Stacked bar per environment and phase: the WAL syncs' and the
    checkpoints' share of the phase (the rest of the phase is left out,
    so that a share of 0.2% is still seen); each part its own fill
    pattern."""
    phases = set(select([p for _, p, _, _ in report.sync_shares],
                        phase_filter, True))
    rows, top = [], 0.0
    for env, phase, share, checkpoint_share in report.sync_shares:
        if phase not in phases:
            continue
        wal, checkpoint = 100.0 * share, 100.0 * checkpoint_share
        top = max(top, wal + checkpoint)
        rows.append((f"{env} {phase}", f"{wal:.6g}", f"{checkpoint:.6g}"))
    if not rows:
        return []
    datafile = os.path.join(workdir, f"sync-share-{number}.dat")
    write_table(datafile, ("phase", "WAL syncs (count x diskio latency)",
                           "checkpoint syncs"), rows)
    commands = common_settings(
        f"Sync share of each phase (wal_sync_method {report.sync_method})",
        "environment and phase", "share of the phase's time (%)",
        key="top left") + \
        "\n".join([
            "set style data histograms",
            "set style histogram rowstacked",
            "set boxwidth 0.7",
            f"set yrange [0:{max(top * 1.25, 0.01):.6g}]",
            "set xtics rotate by -40 left",
            f"plot {gp_datafile(datafile)} using 2:xtic(1) title columnheader(2) "
            "lc 1 fs pattern 2 border, "
            f"'' using 3 title columnheader(3) lc 2 fs pattern 5 border"]) \
        + "\n"
    return [Chart(f"diskio-sync-share{suffix}.{ext}", "sync share", commands)]


def report_suffix(reports, path):
    if len(reports) == 1:
        return ""
    return "-" + safe_name(os.path.splitext(os.path.basename(path))[0])


def report_charts(reports, ext, phase_filter, metric_filter, workdir):
    charts = []
    # the data tables are named by the report's place (two reports' names
    # can come out alike in a file name), the charts by the report
    for number, (path, report) in enumerate(reports):
        suffix = report_suffix(reports, path)
        charts += ratio_chart(report, suffix, phase_filter, metric_filter,
                              workdir, ext, number)
        charts += sync_share_chart(report, suffix, phase_filter, workdir, ext,
                                   number)
    return charts
