# SPDX-License-Identifier: MIT
"""diskio-plot's chart of a diskio-compare comparison: per metric, each
run's ratio B/A (ratios.py) as a point with its 95% interval, on a
logarithmic axis centred on 1, so that 2× and 0.5× are equally far from
it; the band within ±min_change (where "same" can be shown) shaded; each
point labelled with its ratio and verdict, the axis wide enough for
every label to end inside the plot; a point per compared environment,
each its own colour and point type, the key where no point is
(ratio_axis.py).  A
disturbed row's point (diskio-compare judged it not: what else the
machine did disturbed it) is drawn hollow and grey, with a key entry
saying so.  A run diskio-compare made no verdict on (O_DIRECT the
filesystem buffered) gets its row with a grey note instead of a point:
it is drawn neither faster nor slower."""

import math
import os

from ..ratios import fmt_factor
from .charts import Chart, safe_name, write_table
from .gnuplot import (HOLLOW_POINT_TYPES, NOT_JUDGED_COLOUR, POINT_TYPES,
                      common_settings, gp_datafile, gp_format, gp_string,
                      series_colour)
from .ratio_axis import key_place, label_limit
from .report_charts import MAX_RATIO, ratio_tics

ROW_HEIGHT = 0.8        # of one run's slot, shared by the environments
NOT_JUDGED_TEXT = "#808080"     # a disturbed point's label


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


def point_series(path, index, env, disturbed):
    """The plot clause of an environment's points: its colour and point
    type, or, for the points of disturbed rows (drawn, never judged),
    grey and hollow, with a key entry saying so."""
    point = POINT_TYPES[index % len(POINT_TYPES)]
    if disturbed:
        return (f"{gp_datafile(path)} using 1:2:3:4 with xerrorbars "
                f"lc rgb '{NOT_JUDGED_COLOUR}' "
                f"pt {HOLLOW_POINT_TYPES.get(point, point)} ps 1.3 lw 2 "
                f"title {gp_string(f'{env}: disturbed, not judged')}")
    return (f"{gp_datafile(path)} using 1:2:3:4 with xerrorbars "
            f"lc rgb '{series_colour(index)}' pt {point} ps 1.3 lw 2 "
            f"title {gp_string(env)}")


def metric_series(ratios, runs, envs, workdir, number):
    """metric_chart()'s points: per environment its judged and its
    disturbed ratios, each a table written in workdir.  The plot clauses
    (points, and their labels when there are few), every ratio and
    interval end, the end and label of each point (when labelled), each
    point's line (y, from, to, label) and the key's titles."""
    plots, values, labelled, drawn, titles = [], [], [], [], []
    with_labels = len(runs) * len(envs) <= 40
    for i, env in enumerate(envs):
        for disturbed in (False, True):
            rows = point_rows([r for r in ratios if r.environment == env
                               and (r.verdict == "disturbed") == disturbed],
                              runs, i, len(envs))
            if not rows:
                continue
            path = os.path.join(workdir, f"compare-{number}-{i}"
                                f"{'-disturbed' if disturbed else ''}.dat")
            write_table(path, ("ratio", "y", "low", "high", "label"), rows)
            values += [float(v) for row in rows for v in row[:1] + row[2:4]]
            drawn += [(float(row[1]), float(row[2]), float(row[3]),
                       row[4] if with_labels else "") for row in rows]
            plots.append(point_series(path, i, env, disturbed))
            titles.append(f"{env}: disturbed, not judged" if disturbed else env)
            if with_labels:
                labelled += [(float(row[3]), row[4]) for row in rows]
                plots.append(f"{gp_datafile(path)} using 4:2:5 with labels left "
                             "offset 1,0 "
                             + (f"textcolor rgb '{NOT_JUDGED_TEXT}' "
                                if disturbed else "") + "notitle")
    return plots, values, labelled, drawn, titles


def metric_chart(comparison, metric, ratios, workdir, ext, number):
    runs = list(dict.fromkeys([r.run for r in ratios]
                              + [n.run for n in comparison.not_direct]))
    envs = list(dict.fromkeys(r.environment for r in ratios))
    better = ratios[0].higher_is_better
    plots, values, labelled, drawn, titles = metric_series(
        ratios, runs, envs, workdir, number)
    if not plots:
        return []
    band = 1.0 + comparison.min_change
    height = max(400, 140 + 30 * len(runs) * max(1, len(envs) // 2))
    width = 1000
    # room beyond the farthest point, and for every label inside the plot
    limit = max([max(v, 1.0 / v) for v in values] + [band * 1.1]) ** 1.25 * 1.3
    limit = min(MAX_RATIO ** 1.5, max(limit, label_limit(labelled, runs, width)))
    ytics = ", ".join(f"{gp_format(run)} {len(runs) - k - 0.5:.1f}"
                      for k, run in enumerate(runs))
    key, key_rows, key_px = key_place(drawn, titles, limit, runs,
                                      (width, min(height, 4000)))
    height = min(height, 4000) + key_px
    direction = "faster" if better else "slower"
    commands = common_settings(
        f"diskio-compare: {metric}, ratio B/A to baseline "
        f"{comparison.baseline} with its 95% interval (log scale, centred "
        f"on 1; shaded: within ±{comparison.min_change:.0%})",
        f"ratio B/A, other / baseline (right of 1: {direction})", "",
        key=key) + "\n".join([
            "set logscale x",
            f"set xrange [{1.0 / limit:.6g}:{limit:.6g}]",
            ratio_tics(limit).rstrip("\n"),
            f"set yrange [0:{len(runs) + key_rows:.4g}]",
            f"set ytics ({ytics})",
            "set grid xtics",
            f"set object 1 rect from {1.0 / band:.6g}, graph 0 to "
            f"{band:.6g}, first {len(runs)} behind fillcolor rgb '#e8e8e8' "
            "fillstyle solid noborder",
            # behind the points, and the key's box (opaque) over it
            f"set arrow 1 from 1, graph 0 to 1, first {len(runs)} nohead dt 2 lw 2 "
            "lc 'black' back", *left_out_labels(comparison, runs),
            "plot " + ", \\\n     ".join(plots)]) + "\n"
    return [Chart(f"diskio-compare-{safe_name(metric)}.{ext}",
                  f"comparison {metric}", commands, size=(width, height))]


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
