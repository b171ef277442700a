# SPDX-License-Identifier: MIT
"""The correlation: each environment's ratios against the baseline (phase
times and disk metrics, B/A as ratios.py says; normalized_ratio, > 1
always worse, is what the candidates' shares are computed from), each
judged against its noise (noise.judge: a metric inside its band is
"same"), the metrics each phase's change is consistent with (candidates),
and across environments the correlations and least-squares fits (fit).
build_report() puts them, the environments and the WAL model into the
report every renderer prints."""

import math
import re

from .. import __version__ as VERSION
from .. import noise
from ..errors import InputError
from ..inputs import WAL_SYNC_METHODS
from ..metrics import is_higher_better, metric_unit
from ..ratios import CONVENTION
from .candidates import analyse_phase
from .fit import correlations, fits
from .walmodel import phase_disturbed, wal_model

REPORT_SCHEMA = "diskio-correlate"
REPORT_SCHEMA_VERSION = 2

DIRECTION_NOTE = (CONVENTION + " (throughput-like metrics: ops_per_s and "
                  "other *per_s, iops, tps, qph names); the JSON's "
                  "normalized_ratio is the ratio as a time (a throughput's "
                  "inverted), which the candidates' shares are computed from")

# What the summary shows unless told otherwise: the top-level phases and
# those the WAL model predicts (the phases the baseline's wal.csv counts:
# diskio-pgphases' LOAD.DATA, LOAD.CHECKPOINT, RF1, RF2 and the commit
# probe's), and the mean latencies (the statistics whose ratio scales a
# phase's time).
DEFAULT_PHASES = "top-level and those with WAL counters"
DEFAULT_METRICS = r"mean_us$"


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
    """Every metric of the environments, in the order first met (a dict
    keeps it: one pass, whatever their number)."""
    names = {}
    for env in envs:
        for name in env.metrics:
            names.setdefault(name, None)
    return list(names)


def normalized_ratio(ratio, higher_is_better):
    return 1.0 / ratio if higher_is_better else ratio


def select_phases(phases, wanted, counted=()):
    """The phases shown: None = the top-level ones (no dot) and those the
    baseline has WAL counters for (counted: the WAL model predicts them),
    'all', or a compiled regular expression (searched)."""
    if wanted is None:
        return [p for p in phases if "." not in p or p in counted] \
            or list(phases)
    if wanted == "all":
        return list(phases)
    return [p for p in phases if wanted.search(p)]


def select_metrics(metrics, wanted):
    """The metrics shown: 'all' or a compiled regular expression."""
    if wanted == "all":
        return list(metrics)
    pattern = wanted or re.compile(DEFAULT_METRICS)
    return [m for m in metrics if pattern.search(m)]


def judge_phase(base_s, other_s, min_change, base_rounds=None,
                other_rounds=None, base_disturbed=(), other_disturbed=(),
                names=("baseline", "other")):
    """A phase's verdict.  With rounds on both sides (two or more each:
    noise.Samples, their disturbed ones flagged) noise.judge decides, as
    for the disk metrics.  A phase time of one run on each side: a change
    beyond min_change is called, the rest is "same" (one run shows no
    spread; the noise notes say so); a disturbed run makes it
    "disturbed"."""
    ratio = other_s / base_s
    row = {"baseline_s": base_s, "value_s": other_s, "ratio": ratio,
           "verdict": None, "min_change": min_change, "interval": None,
           "rounds": [len(base_rounds or [1]), len(other_rounds or [1])],
           "disturbed": None, "more_repetitions": None}
    if base_rounds and other_rounds and len(base_rounds) > 1 \
            and len(other_rounds) > 1:
        judgement = noise.judge(base_rounds, other_rounds,
                                min_change=min_change, names=names)
        row.update(verdict=judgement.verdict, interval=[judgement.low,
                                                        judgement.high],
                   disturbed=judgement.disturbed,
                   more_repetitions=judgement.more)
        return row
    band = math.log1p(min_change)
    row["verdict"] = ("slower" if math.log(ratio) > band else
                      "faster" if math.log(ratio) < -band else "same")
    why = [f"{name}: {reasons[0]}" for name, reasons in
           ((names[0], base_disturbed), (names[1], other_disturbed)) if reasons]
    if why:
        row["disturbed"] = "; ".join(why)
        row["verdict"] = "disturbed"
    return row


def metric_row(name, base, other, min_change, baseline_name, env_name,
               defaults=None):
    """Both values, the ratio, its interval and verdict (noise.judge on
    the repetitions, with the invocations' defaults); a metric missing on
    one side says which."""
    higher_is_better = is_higher_better(name)
    row = {"unit": metric_unit(name), "higher_is_better": higher_is_better,
           "baseline": base.value if base else None,
           "value": other.value if other else None,
           "n_baseline": len(base.samples) if base else 0,
           "n_other": len(other.samples) if other else 0,
           "ratio": None, "normalized_ratio": None, "interval": None,
           "basis": None, "verdict": None, "not_compared": None,
           "more_repetitions": None, "disturbed": None, "left_out": {},
           "noise_notes": []}
    if not (base and other):
        row["not_compared"] = (f"only in {baseline_name}" if base
                               else f"only in {env_name}")
        return row
    judgement = noise.judge(base.judged_samples(), other.judged_samples(),
                            higher_is_better, min_change,
                            names=(baseline_name, env_name), defaults=defaults)
    row["ratio"] = other.value / base.value
    row["normalized_ratio"] = normalized_ratio(row["ratio"], higher_is_better)
    if judgement.low is not None:
        row["interval"] = [judgement.low, judgement.high]   # of B/A
    row["basis"] = judgement.basis
    row["verdict"] = judgement.verdict
    row["more_repetitions"] = judgement.more
    row["disturbed"] = judgement.disturbed
    row["left_out"] = judgement.left_out
    row["noise_notes"] = judgement.notes
    return row


def compare_environment(baseline, env, phases, metrics,
                        min_change=noise.DEFAULT_MIN_CHANGE, weighed=None,
                        discipline=None):
    """Ratios of one environment against the baseline, judged, and per
    phase the metrics it is consistent with among those weighed (default:
    all), the mode of PostgreSQL's sync (discipline) named first."""
    phase_rows = {phase: judge_phase(
        baseline.phases[phase], env.phases[phase], min_change,
        baseline.phase_rounds.get(phase), env.phase_rounds.get(phase),
        phase_disturbed(baseline, phase), phase_disturbed(env, phase),
        (baseline.name, env.name)) for phase in phases}
    metric_rows = {name: metric_row(name, baseline.metrics.get(name),
                                    env.metrics.get(name), min_change,
                                    baseline.name, env.name,
                                    {**baseline.defaults, **env.defaults})
                   for name in metrics}
    weighed_rows = {name: metric_rows[name] for name in (weighed or metrics)}
    analysis = {phase: analyse_phase(phase, phase_rows[phase], weighed_rows,
                                     discipline)
                for phase in phases}
    return {"environment": env.name, "baseline": baseline.name,
            "phases": phase_rows, "metrics": metric_rows,
            "phase_analysis": analysis}


def candidate_metrics(comparisons, phases):
    """{phase: metrics that are a candidate in some comparison}."""
    result = {}
    for phase in phases:
        names = {}
        for comparison in comparisons:
            for c in comparison["phase_analysis"][phase]["candidates"]:
                names.setdefault(c["metric"], None)
        result[phase] = list(names)
    return result


# ---------------------------------------------------------------- report

def noise_notes(comparisons, min_change):
    """How the verdicts were reached, in words."""
    bases = {row["basis"] for c in comparisons for row in c["metrics"].values()
             if row["basis"]}
    rounds = any(len(row["rounds"]) == 2 and min(row["rounds"]) > 1
                 for c in comparisons for row in c["phases"].values())
    notes = [f"phases with rounds: their {noise.CONFIDENCE:.0%} interval "
             f"beyond ±{min_change:.0%}, same when the 90% one is within it"
             if rounds else
             f"phases are single runs (beyond {min_change:.0%} is a change; "
             "their same has no spread)"]
    if "unrepeated" in bases:
        notes.append("disk metrics with one value per side need beyond "
                     f"{noise.UNREPEATED_NOISE:.0%}")
    if bases & {"interval", "identical"}:
        notes.append(f"disk metrics with repetitions: their "
                     f"{noise.CONFIDENCE:.0%} interval beyond ±{min_change:.0%}, "
                     f"same when the 90% one is within it (TOST), else "
                     "inconclusive")
    widened = sorted({note for c in comparisons
                      for row in c["metrics"].values()
                      for note in row.get("noise_notes") or []})
    notes.extend(widened)
    return notes


def build_report(envs, baseline, method, phases_wanted=None,
                 metrics_wanted=None, min_change=noise.DEFAULT_MIN_CHANGE):
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
    shown_phases = select_phases(phases, phases_wanted, baseline.wal)
    shown_metrics = select_metrics(metrics, metrics_wanted)
    # The verdicts weigh the metrics shown (by default the mean latencies,
    # which scale a phase's time); every metric keeps its ratio and verdict.
    comparisons = [compare_environment(baseline, e, phases, metrics,
                                       min_change, shown_metrics,
                                       WAL_SYNC_METHODS[method][0])
                   for e in ordered[1:]]
    report = {
        "schema": REPORT_SCHEMA, "schema_version": REPORT_SCHEMA_VERSION,
        "tool": {"name": "diskio-correlate", "version": VERSION},
        "baseline": baseline.name,
        "direction_note": DIRECTION_NOTE,
        "min_change": min_change,
        "noise_notes": noise_notes(comparisons, min_change),
        "phase_order": phases, "metric_order": metrics,
        "shown": {"phases": shown_phases, "metrics": shown_metrics,
                  "phase_filter": describe_filter(phases_wanted,
                                                  DEFAULT_PHASES),
                  "metric_filter": describe_filter(metrics_wanted,
                                                   DEFAULT_METRICS)},
        "environments": [environment_summary(e) for e in ordered],
        "comparisons": comparisons,
        "correlations": correlations(ordered, baseline, phases, metrics),
        "fits": fits(ordered, baseline, phases,
                     candidate_metrics(comparisons, phases)),
        "wal_model": wal_model(baseline, ordered, method, notes, min_change),
        "notes": notes,
    }
    return report


def describe_filter(wanted, default):
    if wanted is None:
        return default
    return wanted if isinstance(wanted, str) else wanted.pattern


def environment_summary(env):
    return {"name": env.name, "directory": env.directory,
            "sources": env.sources,
            "phases": dict(env.phases),
            "metrics": {name: {"value": m.value, "unit": m.unit,
                               "higher_is_better": m.higher_is_better,
                               "source": m.source, "samples": m.samples}
                        for name, m in env.metrics.items()},
            "runs": env.runs,
            "wal": {phase: {k: v for k, v in row.items() if k != "_line"}
                    for phase, row in env.wal.items()} or None,
            "pgphases": None if env.settings is None else {
                "settings": env.settings.path,
                "complete": env.settings.complete,
                "error": env.settings.error,
                "wal_sync_method": env.settings.wal_sync_method,
                "track_wal_io_timing": env.settings.track_wal_io_timing,
                "wal_segment_size": env.settings.wal_segment_size}}
