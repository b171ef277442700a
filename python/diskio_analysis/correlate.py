# SPDX-License-Identifier: MIT
"""The correlation: each environment's ratios against the baseline (phase
times and disk metrics, normalized so that > 1 is always worse), the
direction each metric moved in relative to each phase, a verdict per
phase, and across three or more environments the Pearson and Spearman
correlations of metric ratios with phase ratios.  build_report() puts
them, the environments and the WAL model into the report every renderer
prints."""

import math

from . import __version__ as VERSION
from .errors import InputError
from .metrics import is_higher_better, metric_unit
from .walmodel import wal_model

REPORT_SCHEMA = "diskio-correlate"
REPORT_SCHEMA_VERSION = 1

DIRECTION_NOTE = ("ratio = other / baseline; normalized ratio > 1 always means "
                  "worse/slower: for throughput-like metrics (ops_per_s and "
                  "other *per_s, iops, tps, qph names) it is baseline / other")

MAX_LISTED_OPPOSITES = 4


def phase_sort_key(phases_in_order):
    """Top-level phases (load, power, throughput) first, then the rest in
    file order."""
    order = {name: i for i, name in enumerate(phases_in_order)}
    return lambda name: ("." in name, order[name])


def listing(names, most=8):
    """names for a message: the first few and how many more."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"


def check_same_phases(baseline, env):
    missing = [p for p in baseline.phases if p not in env.phases]
    extra = [p for p in env.phases if p not in baseline.phases]
    if missing or extra:
        what = []
        if missing:
            what.append("missing " + listing(missing))
        if extra:
            what.append("extra " + listing(extra))
        raise InputError(env.phase_files[0], None,
                         f"phases differ from baseline {baseline.name} "
                         f"({'; '.join(what)})",
                         "give every environment the same phases")


def ordered_phases(baseline):
    names = list(baseline.phases)
    return sorted(names, key=phase_sort_key(names))


def ordered_metrics(envs):
    names = []
    for env in envs:
        names.extend(n for n in env.metrics if n not in names)
    return names


def normalized_ratio(ratio, higher_is_better):
    return 1.0 / ratio if higher_is_better else ratio


def direction_of(log_ratio):
    if log_ratio > 0:
        return 1
    if log_ratio < 0:
        return -1
    return 0


def compare_environment(baseline, env, phases, metrics):
    """Ratios of one environment against the baseline, and per phase the
    metrics that moved with it."""
    phase_rows = {}
    for phase in phases:
        base, other = baseline.phases[phase], env.phases[phase]
        phase_rows[phase] = {"baseline_s": base, "value_s": other,
                             "ratio": other / base}
    metric_rows = {}
    for name in metrics:
        base, other = baseline.metrics.get(name), env.metrics.get(name)
        row = {"unit": metric_unit(name),
               "higher_is_better": is_higher_better(name),
               "baseline": base.value if base else None,
               "value": other.value if other else None,
               "ratio": None, "normalized_ratio": None}
        if base and other:
            row["ratio"] = other.value / base.value
            row["normalized_ratio"] = normalized_ratio(row["ratio"],
                                                       row["higher_is_better"])
        metric_rows[name] = row
    analysis = {phase: analyse_phase(phase, phase_rows[phase]["ratio"],
                                     metric_rows)
                for phase in phases}
    return {"environment": env.name, "baseline": baseline.name,
            "phases": phase_rows, "metrics": metric_rows,
            "phase_analysis": analysis}


def analyse_phase(phase, phase_ratio, metric_rows):
    log_phase = math.log(phase_ratio)
    groups = {1: [], -1: [], 0: []}
    distances = []
    for name, row in metric_rows.items():
        if row["normalized_ratio"] is None:
            continue
        log_metric = math.log(row["normalized_ratio"])
        relation = metric_relation(direction_of(log_metric),
                                   direction_of(log_phase))
        groups[relation].append(name)
        distances.append((abs(log_metric - log_phase), name, relation))
    closest = None
    if distances:
        distance, name, relation = min(distances, key=lambda d: d[0])
        closest = {"metric": name,
                   "normalized_ratio": metric_rows[name]["normalized_ratio"],
                   "log_distance": distance,
                   "direction": relation_word(relation)}
    result = {"ratio": phase_ratio,
              "direction": ("slower" if log_phase > 0 else
                            "faster" if log_phase < 0 else "unchanged"),
              "same_direction": groups[1], "other_direction": groups[-1],
              "unchanged": groups[0], "closest": closest}
    result["verdict"] = verdict_text(phase, result)
    return result


def metric_relation(metric_dir, phase_dir):
    """1 same direction, -1 other direction, 0 metric unchanged.  A metric
    that moved while the phase did not counts as the other direction."""
    if metric_dir == 0:
        return 0
    if phase_dir == 0:
        return -1
    return metric_dir * phase_dir


def relation_word(relation):
    return {1: "same direction", -1: "other direction", 0: "unchanged"}[relation]


def verdict_text(phase, analysis):
    ratio = analysis["ratio"]
    if analysis["direction"] == "slower":
        head = f"{phase}: {ratio:.2f}× slower"
    elif analysis["direction"] == "faster":
        head = f"{phase}: {1.0 / ratio:.2f}× faster"
    else:
        head = f"{phase}: unchanged"
    closest = analysis["closest"]
    if closest is None:
        return head + "; no metric in both environments"
    head += (f"; closest: {closest['metric']} "
             f"{closest['normalized_ratio']:.2f}× ({closest['direction']})")
    opposite = analysis["other_direction"]
    if not opposite:
        return head + "; no metric moved the other way"
    listed = ", ".join(opposite[:MAX_LISTED_OPPOSITES])
    if len(opposite) > MAX_LISTED_OPPOSITES:
        listed += f" and {len(opposite) - MAX_LISTED_OPPOSITES} more"
    return head + f"; {listed} moved the other way"


def pearson(xs, ys):
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys))
    sxx = sum((x - mean_x) ** 2 for x in xs)
    syy = sum((y - mean_y) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def ranks(values):
    """Ranks 1..n, ties given their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and \
                values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            result[order[k]] = (start + end) / 2.0 + 1.0
        start = end + 1
    return result


def spearman(xs, ys):
    return pearson(ranks(xs), ranks(ys))


def correlations(baseline, envs, phases, metrics):
    """Across environments, each metric's normalized ratio against each
    phase's ratio (baseline = 1 for both)."""
    if len(envs) < 3:
        return None
    common = [m for m in metrics if all(m in e.metrics for e in envs)]
    table = {}
    for phase in phases:
        phase_ratios = [e.phases[phase] / baseline.phases[phase] for e in envs]
        table[phase] = {}
        for name in common:
            ratios = [normalized_ratio(e.metrics[name].value /
                                       baseline.metrics[name].value,
                                       is_higher_better(name)) for e in envs]
            table[phase][name] = {"pearson": pearson(ratios, phase_ratios),
                                  "spearman": spearman(ratios, phase_ratios)}
    return {"environments": [e.name for e in envs],
            "method": "Pearson and Spearman (average ranks for ties) of the "
                      "metric's normalized ratio against the phase ratio, "
                      "one point per environment",
            "phases": table}


# ---------------------------------------------------------------- report

def build_report(envs, baseline, method):
    for env in envs:
        if env is not baseline:
            check_same_phases(baseline, env)
    ordered = [baseline] + [e for e in envs if e is not baseline]
    phases = ordered_phases(baseline)
    metrics = ordered_metrics(ordered)
    notes = []
    for env in ordered:
        notes.extend(env.notes)
    for env in ordered[1:]:
        only_base = [m for m in baseline.metrics if m not in env.metrics]
        only_other = [m for m in env.metrics if m not in baseline.metrics]
        if only_base:
            notes.append(f"only in {baseline.name}, not in {env.name}: "
                         + ", ".join(only_base))
        if only_other:
            notes.append(f"only in {env.name}, not in {baseline.name}: "
                         + ", ".join(only_other))
    report = {
        "schema": REPORT_SCHEMA, "schema_version": REPORT_SCHEMA_VERSION,
        "tool": {"name": "diskio-correlate", "version": VERSION},
        "baseline": baseline.name,
        "direction_note": DIRECTION_NOTE,
        "phase_order": phases, "metric_order": metrics,
        "environments": [environment_summary(e) for e in ordered],
        "comparisons": [compare_environment(baseline, e, phases, metrics)
                        for e in ordered[1:]],
        "correlations": correlations(baseline, ordered, phases, metrics),
        "wal_model": wal_model(baseline, ordered, method, notes),
        "notes": notes,
    }
    return report


def environment_summary(env):
    return {"name": env.name, "directory": env.directory,
            "sources": env.sources,
            "phases": dict(env.phases),
            "metrics": {name: {"value": m.value, "unit": m.unit,
                               "higher_is_better": m.higher_is_better,
                               "source": m.source}
                        for name, m in env.metrics.items()},
            "runs": env.runs,
            "wal": {phase: {k: v for k, v in row.items() if k != "_line"}
                    for phase, row in env.wal.items()} or None}
