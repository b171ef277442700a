# SPDX-License-Identifier: MIT
"""diskio-plot's chart of a capacity search (diskio --target): the
latency-versus-offered-rate curve the search measured, the picture
performance engineers expect.  Latency (log scale) against the offered
rate: the target's percentile as a bold line per count of committers,
the answer's committers' p50 and max beside it (thin), the target as a
horizontal line, the rate the store takes as fast as it goes as a
vertical one, and the capacity (the knee) marked and labelled."""

import os

from .charts import Chart, safe_name, span, write_table, what_was_written
from .gnuplot import common_settings, gp_string, latency_tics, plot_lines


def percentile_word(percentile):
    """99 -> 'p99', 99.9 -> 'p99.9'."""
    return f"p{percentile:g}"


def curve_rows(steps):
    """(offered/s, mean, p50, the percentile, max in µs, met) per offered
    rate, ascending; a rate measured twice (searched, then confirmed)
    once, as its longer run measured it."""
    by_rate = {}
    for step in steps:
        if not step.offered_ops_per_s:
            continue
        kept = by_rate.get(step.offered_ops_per_s)
        if kept is None or step.duration_ns >= kept.duration_ns:
            by_rate[step.offered_ops_per_s] = step
    return [(f"{rate:.6g}", f"{(s.mean_ns or 0) / 1000:.6g}",
             f"{s.p50_ns / 1000:.6g}", f"{s.pct_ns / 1000:.6g}",
             f"{s.max_ns / 1000:.6g}", "1" if s.met else "0")
            for rate, s in sorted(by_rate.items())]


def committer_curves(capacity, workdir, number):
    """A data table per count of committers the search tried: {count:
    (path, rows)}."""
    curves = {}
    for count in sorted({s.committers for s in capacity.steps}):
        rows = curve_rows([s for s in capacity.steps if s.committers == count])
        if not rows:
            continue
        path = os.path.join(workdir, f"capacity-{number}-{count}.dat")
        write_table(path, ("offered_per_s", "mean_us", "p50_us", "pct_us",
                           "max_us", "met"), rows)
        curves[count] = (path, rows)
    return curves


def curve_series(capacity, curves):
    """The plotted lines, each (path, column, title, [(x, y)]): the
    percentile per count of committers, then the answer's committers'
    p50 and max."""
    pct = percentile_word(capacity.percentile)
    several = len(curves) > 1

    def line(count, column, name):
        path, rows = curves[count]
        tail = f", {count} committer{'s' if count > 1 else ''}" if several else ""
        return (path, column, name + tail,
                [(float(row[0]), float(row[column - 1])) for row in rows])
    series = [line(count, 4, pct) for count in curves]
    if capacity.committers in curves:
        series += [line(capacity.committers, 3, "p50"),
                   line(capacity.committers, 5, "max")]
    return series


def knee_us(capacity):
    """The percentile measured at the capacity (its longest run there),
    or None."""
    at = [s for s in capacity.steps if s.offered_ops_per_s == capacity.ops_per_s
          and s.committers == capacity.committers]
    return max(at, key=lambda s: s.duration_ns).pct_ns / 1000 if at else None


def marks(capacity, saturation, target_us, top_us):
    """gnuplot commands for the target line, the saturation rate and the
    knee: the capacity's measured point, its label above it."""
    pct = percentile_word(capacity.percentile)
    lines = [f"set arrow from graph 0, first {target_us:.6g} to graph 1, first "
             f"{target_us:.6g} nohead lw 2 dt 2 lc rgb 'red'",
             f"set label {gp_string(f'target: {pct} at most ' + fmt_us(target_us))}"
             f" at graph 0.01, first {target_us * 1.12:.6g} left tc rgb 'red'"]
    if saturation:
        lines += [f"set arrow from first {saturation:.6g}, graph 0 to first "
                  f"{saturation:.6g}, graph 1 nohead lw 1 dt 3 lc rgb 'gray40'",
                  f"set label {gp_string(f'as fast as it goes: {fmt_rate(saturation)}/s')}"
                  f" at first {saturation:.6g}, graph 0.04 right offset -0.5,0 "
                  "tc rgb 'gray40'"]
    knee = knee_us(capacity) if capacity.found and capacity.ops_per_s else None
    if knee:
        word = "capacity" if capacity.confirmed else "capacity (not confirmed)"
        rate = capacity.ops_per_s
        lines += [f"set object circle at first {rate:.6g}, first {knee:.6g} "
                  "size screen 0.012 front fs transparent solid 0.6 fc rgb 'red'",
                  f"set label {gp_string(f'{word}: {fmt_rate(rate)}/s')}"
                  f" at first {rate:.6g}, first {top_us:.6g} center front tc rgb 'red'",
                  f"set arrow from first {rate:.6g}, first {top_us / 1.3:.6g} to first "
                  f"{rate:.6g}, first {knee * 1.1:.6g} lw 1 lc rgb 'red' front"]
    return "\n".join(lines) + "\n"


def fmt_rate(value):
    """An offered rate as a label: 15832, 99.1, 0.5."""
    return f"{value:.0f}" if value >= 1000 else f"{value:.4g}"


def fmt_us(value_us):
    for scale, unit in ((1e6, "s"), (1e3, "ms")):
        if value_us >= scale:
            return f"{value_us / scale:g} {unit}"
    return f"{value_us:g} µs"


def capacity_chart(run, number, workdir, ext):
    """The curve of one run's search, or None when it measured no
    offered rate."""
    capacity = run.capacity
    curves = committer_curves(capacity, workdir, number)
    if not curves:
        return None
    series = curve_series(capacity, curves)
    target_us = capacity.target_ns / 1000
    lat = [y for *_, points in series for _, y in points if y > 0] + [target_us]
    low, high = span([lat])
    rates = [x for *_, points in series for x, _ in points]
    saturation = max((s.achieved_ops_per_s for s in capacity.steps
                      if s.phase == "saturation" and s.committers == capacity.committers),
                     default=0.0)
    # below the plot: the knee's label stands above the curves
    pct = percentile_word(capacity.percentile)
    title = (f"Latency against offered rate, {run.series}, "
             f"{what_was_written([run])}: {pct} at most {fmt_us(target_us)}")
    commands = common_settings(title, "offered rate (ops/s, a fixed schedule)",
                               "latency from when each op was due (log scale)",
                               key="below") + "set bmargin 5\n" + \
        x_range(rates + ([saturation] if saturation else [])) + \
        "set logscale y\n" + latency_tics("y", low, high * 1.5) + \
        marks(capacity, saturation, target_us, high * 1.4) + \
        widths(plot_lines([(path, f"1:{column}", title)
                           for path, column, title, _ in series],
                          "with linespoints"), len(curves))
    return Chart(f"diskio-capacity-{safe_name(run.series)}.{ext}",
                 f"capacity {run.series}", commands)


def x_range(rates):
    """From 0 when the rates reach down to a fifth of the highest; else
    around them (a search near saturation keeps to a few percent)."""
    low, high = min(rates), max(rates)
    start = 0 if low < high / 5 else low - (high - low) * 0.15 - high * 0.01
    return f"set xrange [{start:.6g}:{high + (high - start) * 0.08:.6g}]\n"


def widths(plot, bold):
    """The percentile lines (the first bold ones) drawn thicker."""
    parts = plot.split(", \\\n     ")
    return ", \\\n     ".join(
        part.replace(" with linespoints ", " with linespoints lw 3 ps 1.2 "
                     if i < bold else " with linespoints lw 1 ps 0.6 ")
        for i, part in enumerate(parts))


def capacity_charts(runs, workdir, ext):
    """A chart per run made with diskio --target."""
    charts = []
    for number, run in enumerate(r for r in runs if r.capacity is not None):
        chart = capacity_chart(run, number, workdir, ext)
        if chart is not None:
            charts.append(chart)
    return charts
