# SPDX-License-Identifier: MIT
"""Across three or more environments: how each phase's time goes with a
disk metric, one point per environment.

Correlations (Pearson, Spearman) are given with their n and withheld
below MIN_CORRELATION_N: with three points a correlation of ±1 comes
easily by chance (two points always give ±1).  A least-squares line of
phase time on each candidate metric, phase = a + b × metric, comes with
its R², its residual per environment and its degrees of freedom (n − 2),
from MIN_FIT_N points on; b × metric at the baseline over the baseline's
phase time is the share of the phase the line attributes to the metric,
comparable with the candidates' implied shares."""

import statistics

MIN_CORRELATION_N = 4
MIN_FIT_N = 3


def pearson(xs, ys):
    """Pearson's r (statistics.correlation); None when either side does
    not vary."""
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return None


def spearman(xs, ys):
    """Spearman's rho: Pearson's r of the ranks, ties given their average
    rank (scipy.stats.rankdata)."""
    from scipy.stats import rankdata     # see noise.t_quantile
    return pearson(rankdata(xs).tolist(), rankdata(ys).tolist())


def least_squares(xs, ys):
    """(intercept, slope, R², residuals) of y = a + b x
    (statistics.linear_regression); None when x does not vary."""
    try:
        slope, intercept = statistics.linear_regression(xs, ys)
    except statistics.StatisticsError:
        return None
    mean_y = statistics.fmean(ys)
    residuals = [y - (intercept + slope * x) for x, y in zip(xs, ys)]
    syy = sum((y - mean_y) ** 2 for y in ys)
    r2 = 1.0 - sum(r * r for r in residuals) / syy if syy > 0 else None
    return intercept, slope, r2, residuals


def time_like(metric):
    """The metric as a cost that grows with time: the value, or for a
    throughput-like metric its reciprocal (time per operation)."""
    return 1.0 / metric.value if metric.higher_is_better else metric.value


def withheld(n, minimum, what):
    return f"n = {n} < {minimum}: {what}"


def correlations(envs, baseline, phases, metrics):
    """Each metric's normalized ratio against each phase's ratio, one
    point per environment (the baseline is the point 1, 1)."""
    names = [e.name for e in envs]
    n = len(envs)
    result = {"n": n, "environments": names, "withheld": None,
              "method": "Pearson and Spearman (average ranks for ties) of "
                        "the metric's normalized ratio against the phase "
                        "ratio, one point per environment",
              "phases": {}}
    if n < MIN_CORRELATION_N:
        result["withheld"] = withheld(
            n, MIN_CORRELATION_N, "so few points give ±1 by chance")
        return result
    common = [m for m in metrics if all(m in e.metrics for e in envs)]
    for phase in phases:
        phase_ratios = [e.phases[phase] / baseline.phases[phase] for e in envs]
        result["phases"][phase] = {}
        for name in common:
            ratios = [time_like(e.metrics[name]) /
                      time_like(baseline.metrics[name]) for e in envs]
            result["phases"][phase][name] = {
                "pearson": pearson(ratios, phase_ratios),
                "spearman": spearman(ratios, phase_ratios), "n": n}
    return result


def fits(envs, baseline, phases, candidates):
    """For each phase, a line of phase time on each of its candidate
    metrics (candidates: {phase: [metric, ...]}), best R² first."""
    n = len(envs)
    result = {"n": n, "environments": [e.name for e in envs],
              "withheld": None, "phases": {}}
    if n < MIN_FIT_N:
        result["withheld"] = withheld(n, MIN_FIT_N, "a line through two "
                                      "points always fits")
        return result
    for phase in phases:
        rows = []
        for name in candidates.get(phase, []):
            if not all(name in e.metrics for e in envs):
                continue
            xs = [time_like(e.metrics[name]) for e in envs]
            ys = [e.phases[phase] for e in envs]
            line = least_squares(xs, ys)
            if line is None:
                continue
            intercept, slope, r2, residuals = line
            x_base = time_like(baseline.metrics[name])
            rows.append({
                "metric": name, "intercept_s": intercept, "slope": slope,
                "r2": r2, "dof": n - 2,
                "residuals_s": dict(zip(result["environments"], residuals)),
                "baseline_share": slope * x_base / baseline.phases[phase]})
        rows.sort(key=lambda row: -(row["r2"] if row["r2"] is not None
                                    else -1.0))
        result["phases"][phase] = rows
    return result
