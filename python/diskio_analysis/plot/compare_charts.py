# SPDX-License-Identifier: MIT
"""diskio-plot's chart of a diskio-compare comparison: per metric, each
run's ratio B/A (ratios.py) as a point with its 95% interval, on a
logarithmic axis centred on 1, so that 2× and 0.5× are equally far from
it; the band within ±min_change (where "same" can be shown) shaded; each
point labelled with its ratio and verdict; a point per compared
environment, each its own colour and point type.  A run diskio-compare
made no verdict on (O_DIRECT the filesystem buffered) gets its row with
a grey note instead of a point: it is drawn neither faster nor slower."""

import math
import os

from ..ratios import fmt_factor
from .charts import Chart, safe_name, write_table
from .gnuplot import (POINT_TYPES, common_settings, gp_datafile, gp_format,
                      gp_string)
from .report_charts import MAX_RATIO, ratio_tics

ROW_HEIGHT = 0.8        # of one run's slot, shared by the environments


def label(ratio):
    """2.06× (slower), 0.97× (same): the ratio and its verdict."""
    text = fmt_factor(ratio.ratio)
    return f"{text} ({ratio.verdict})" if ratio.verdict else text


def clamp(value):
    return min(max(value, 1.0 / MAX_RATIO), MAX_RATIO)


def point_rows(ratios, runs, env_index, env_count):
    """ratio:y:low:high:label rows of one environment's points (runs top
    to bottom); an interval not known is the point itself."""
    height = ROW_HEIGHT / env_count
    slot = {run: i for i, run in enumerate(runs)}
    rows = []
    for r in ratios:
        if not math.isfinite(r.ratio) or r.ratio <= 0:
            continue
        centre = len(runs) - slot[r.run] - 0.5
        y = centre + ROW_HEIGHT / 2 - (env_index + 0.5) * height
        low = r.ratio if r.low is None else r.low
        high = r.ratio if r.high is None else r.high
        rows.append((f"{clamp(r.ratio):.6g}", f"{y:.4f}", f"{clamp(low):.6g}",
                     f"{clamp(high):.6g}", label(r)))
    return rows


def left_out_labels(comparison, runs):
    """The grey notes of the runs diskio-compare made no verdict on, each
    in its row beside the line at 1: "no verdict: not direct on B (the
    filesystem buffered it)"."""
    on = {}
    for left_out in comparison.not_direct:
        names = on.setdefault(left_out.run, [])
        names += [name for name in left_out.on if name not in names]
    return [f"set label {k + 1} "
            + gp_string(f"no verdict: not direct on {' and '.join(names)} "
                        "(the filesystem buffered it)")
            + f" at 1, {len(runs) - runs.index(run) - 0.5:.4f} left offset 1,0 "
            "textcolor rgb 'gray40' front"
            for k, (run, names) in enumerate(on.items())]


def metric_chart(comparison, metric, ratios, workdir, ext, number):
    runs = list(dict.fromkeys([r.run for r in ratios]
                              + [n.run for n in comparison.not_direct]))
    envs = list(dict.fromkeys(r.environment for r in ratios))
    better = ratios[0].higher_is_better
    plots, values = [], []
    for i, env in enumerate(envs):
        rows = point_rows([r for r in ratios if r.environment == env], runs,
                          i, len(envs))
        if not rows:
            continue
        path = os.path.join(workdir, f"compare-{number}-{i}.dat")
        write_table(path, ("ratio", "y", "low", "high", "label"), rows)
        values += [float(v) for row in rows for v in row[:1] + row[2:4]]
        plots.append(f"{gp_datafile(path)} using 1:2:3:4 with xerrorbars "
                     f"lc {i % 8 + 1} pt {POINT_TYPES[i % len(POINT_TYPES)]} "
                     f"ps 1.3 lw 2 title {gp_string(env)}")
        if len(runs) * len(envs) <= 40:
            plots.append(f"{gp_datafile(path)} using 4:2:5 with labels left "
                         "offset 1,0 notitle")
    if not plots:
        return []
    band = 1.0 + comparison.min_change
    # room beyond the farthest point for its label, as the ratio chart has
    limit = max([max(v, 1.0 / v) for v in values] + [band * 1.1]) ** 1.25 * 1.3
    ytics = ", ".join(f"{gp_format(run)} {len(runs) - k - 0.5:.1f}"
                      for k, run in enumerate(runs))
    height = max(400, 140 + 30 * len(runs) * max(1, len(envs) // 2))
    direction = "faster" if better else "slower"
    commands = common_settings(
        f"diskio-compare: {metric}, ratio B/A to baseline "
        f"{comparison.baseline} with its 95% interval (log scale, centred "
        f"on 1; shaded: within ±{comparison.min_change:.0%})",
        f"ratio B/A, other / baseline (right of 1: {direction})", "",
        key="below") + "\n".join([
            "set logscale x",
            f"set xrange [{1.0 / limit:.6g}:{limit:.6g}]",
            ratio_tics(limit).rstrip("\n"),
            f"set yrange [0:{len(runs)}]",
            f"set ytics ({ytics})",
            "set grid xtics",
            f"set object 1 rect from {1.0 / band:.6g}, graph 0 to "
            f"{band:.6g}, graph 1 behind fillcolor rgb '#e8e8e8' "
            "fillstyle solid noborder",
            "set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 "
            "lc 'black' front", *left_out_labels(comparison, runs),
            "plot " + ", \\\n     ".join(plots)]) + "\n"
    return [Chart(f"diskio-compare-{safe_name(metric)}.{ext}",
                  f"comparison {metric}", commands,
                  size=(1000, min(height, 4000)))]


def compare_charts(comparisons, ext, workdir):
    """A chart per metric of each diskio-compare comparison (the metrics of
    a second comparison named after its file)."""
    charts = []
    for number, comparison in enumerate(comparisons):
        metrics = list(dict.fromkeys(r.metric for r in comparison.ratios))
        for m, metric in enumerate(metrics):
            found = metric_chart(
                comparison, metric,
                [r for r in comparison.ratios if r.metric == metric],
                workdir, ext, f"{number}-{m}")
            if len(comparisons) > 1:
                stem = safe_name(os.path.splitext(
                    os.path.basename(comparison.path))[0])
                for chart in found:
                    name, dot, suffix = chart.filename.rpartition(".")
                    chart.filename = f"{name}-{stem}{dot}{suffix}"
            charts += found
    return charts
