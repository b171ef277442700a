# SPDX-License-Identifier: MIT
"""The reader of diskio-correlate's JSON report, for diskio-plot: the
phase and metric ratios of each comparison and the WAL model's sync
shares."""

from dataclasses import dataclass

from ..jsonfile import JsonFile, check_version, json_path

REPORT_SCHEMA = "diskio-correlate"
# Version 2 (the noise verdicts, candidates and the WAL model's bases)
# keeps every field the charts read where version 1 had it.
SUPPORTED_REPORT_VERSIONS = (1, 2)
REPORT_TODO = "regenerate it with diskio-correlate --format json"


def is_report(doc):
    """Whether a parsed JSON document claims to be a diskio-correlate
    report."""
    return isinstance(doc, dict) and doc.get("schema") == REPORT_SCHEMA


@dataclass
class Report:
    """What the charts take from a diskio-correlate report."""
    baseline: str
    phases: list           # phase names, in order
    metrics: list          # metric names, in order
    comparisons: list      # [(environment, {phase: ratio}, {metric: ratio})]:
    #                        B/A ratios (ratios.py), NaN where not in both
    sync_method: str       # of the WAL model; None without one
    sync_shares: list      # [(env, phase, WAL share, checkpoint share)]
    # {metric: whether higher is better} (a throughput: its B/A above 1
    # is faster), for the word beside each ratio
    higher_is_better: dict | None = None


def ratio_or_nan(src, node, where, key):
    """A ratio of the report; null (not measured in both) is NaN."""
    value = src.get_number(node, where, key, optional=True)
    return float("nan") if value is None else float(value)


def load_report(path, text, doc):
    """The Report of an already parsed diskio-correlate report (text is its
    JSON text, for line numbers)."""
    check_version(path, text, doc, SUPPORTED_REPORT_VERSIONS,
                  "diskio-correlate report")
    src = JsonFile(path, REPORT_TODO)
    phases = [src.as_string(name, json_path("phase_order", i))
              for i, name in enumerate(src.get_list(doc, "", "phase_order",
                                                    optional=True) or [])]
    metrics = [src.as_string(name, json_path("metric_order", i))
               for i, name in enumerate(src.get_list(doc, "", "metric_order",
                                                     optional=True) or [])]
    comparisons, higher_is_better = [], {}
    for index, comparison in enumerate(src.get_list(doc, "", "comparisons",
                                                    optional=True) or []):
        where = json_path("comparisons", index)
        comparison = src.as_object(comparison, where)
        tables = []
        for key, names, ratio_key in (("phases", phases, "ratio"),
                                      ("metrics", metrics, "ratio")):
            table = src.get_object(comparison, where, key)
            table_where = json_path(where, key)
            tables.append({name: ratio_or_nan(
                src, src.get_object(table, table_where, name),
                json_path(table_where, name), ratio_key) for name in names})
        comparisons.append((src.get_string(comparison, where, "environment"),
                            *tables))
        rows = src.get_object(comparison, where, "metrics")
        for name in metrics:
            better = rows[name].get("higher_is_better")
            if isinstance(better, bool):
                higher_is_better.setdefault(name, better)
    sync_method, shares = None, []
    model = src.get_object(doc, "", "wal_model", optional=True) or {}
    environments = src.get_object(model, "wal_model", "environments",
                                  optional=True) or {}
    if environments:
        sync_method = src.get_string(model, "wal_model", "sync_method",
                                     optional=True)
    for env, env_model in environments.items():
        env_where = json_path("wal_model.environments", env)
        env_model = src.as_object(env_model, env_where)
        phases_where = json_path(env_where, "phases")
        for phase, est in src.get_object(env_model, env_where,
                                         "phases").items():
            est_where = json_path(phases_where, phase)
            est = src.as_object(est, est_where)
            shares.append((env, phase,
                           src.get_number(est, est_where, "share",
                                          optional=True) or 0.0,
                           src.get_number(est, est_where, "checkpoint_share",
                                          optional=True) or 0.0))
    baseline = src.get_string(doc, "", "baseline") if comparisons else ""
    return Report(baseline, phases, metrics, comparisons, sync_method, shares,
                  higher_is_better)
