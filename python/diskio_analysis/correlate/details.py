# SPDX-License-Identifier: MIT
"""diskio-correlate's details, after the summary on request (--details):
where the summary led with the WAL model, first what it leaves out of
the one screen (each phase's verdict against the disk metrics, the disk
line, the best fits); then per compared environment every shown phase
and metric with both values,
the ratio, its interval and verdict, and each phase's lists (candidates
with their implied share, the other way, within noise, not in both);
across environments the correlations and fits, or why they are
withheld; the WAL model basis by basis; the notes."""

from ..document import Heading, Items, Para, Table
from .candidates import candidate_text
from .fmt import (fmt_corr, fmt_count, fmt_interval, fmt_seconds,
                  fmt_share, fmt_signed_seconds, fmt_times, fmt_value)
from .summary import footer, leads_with_model, verdict_blocks

COMPARISON_HEADER = ("kind", "name", "baseline", "other", "ratio B/A",
                     "95% interval", "n", "verdict")


def comparison_rows(comparison, shown):
    rows = []
    for phase in shown["phases"]:
        row = comparison["phases"][phase]
        rows.append(("phase", phase, fmt_value(row["baseline_s"], "s"),
                     fmt_value(row["value_s"], "s"), fmt_times(row["ratio"]),
                     fmt_interval(row.get("interval")),
                     "/".join(str(n) for n in row.get("rounds", (1, 1))),
                     row["verdict"]))
    for name in shown["metrics"]:
        row = comparison["metrics"][name]
        rows.append(("metric", name, fmt_value(row["baseline"], row["unit"]),
                     fmt_value(row["value"], row["unit"]),
                     fmt_times(row["ratio"]),
                     fmt_interval(row["interval"]),
                     f"{row['n_baseline']}/{row['n_other']}",
                     row["verdict"] or row["not_compared"]))
    return rows


def listing(label, names):
    return f"{label} ({len(names)}): " + (", ".join(names) if names
                                          else "none")


def phase_items(analysis, with_verdict=True):
    """The phase's verdict (unless it was said above) and its lists."""
    candidates = [candidate_text(c, fmt_share(c["share"])
                                 + ("" if c["plausible"] else ": implausible"))
                  for c in analysis["candidates"]]
    items = [analysis["verdict"] + "."] if with_verdict else []
    items.append(listing("consistent with, if this share of the phase",
                         candidates))
    if analysis["direction"] == "same":
        items.append(listing("changed without the phase", analysis["moved"]))
    else:
        items.append(listing("moved the other way",
                             analysis["other_direction"]))
    items += [listing("same within noise", analysis["same"]),
              listing("inconclusive or disturbed",
                      analysis.get("undecided", [])),
              listing("not in both", analysis["not_compared"])]
    return items


def comparison_blocks(report, comparison, with_verdict=True):
    shown = report["shown"]
    blocks = [Heading(2, f"details: {comparison['environment']} vs "
                         f"{comparison['baseline']} (baseline)"),
              Para(f"Note: {report['direction_note']}."),
              Table(COMPARISON_HEADER, comparison_rows(comparison, shown))]
    for phase in shown["phases"]:
        analysis = comparison["phase_analysis"][phase]
        shown_metrics = set(shown["metrics"])
        analysis = dict(analysis, **{
            key: [n for n in analysis[key] if n in shown_metrics]
            for key in ("other_direction", "moved", "same", "not_compared")})
        analysis["candidates"] = [c for c in analysis["candidates"]
                                  if c["metric"] in shown_metrics]
        blocks += [Heading(3, f"phase {phase}"),
                   Items(phase_items(analysis, with_verdict))]
    return blocks


def across_blocks(report):
    corr, fits = report["correlations"], report["fits"]
    phases = report["shown"]["phases"]
    blocks = [Heading(2, "across environments ("
                         + ", ".join(corr["environments"]) + ")")]
    if corr["withheld"]:
        blocks.append(Para(f"Correlations withheld: {corr['withheld']}."))
    else:
        metrics = [m for m in report["shown"]["metrics"]
                   if m in corr["phases"].get(phases[0], {})] if phases else []
        blocks += [Para(f"Pearson/Spearman of each metric's ratio as a time "
                        f"(a throughput's inverted) with each phase's ratio, "
                        f"n = {corr['n']}."),
                   Table(["metric"] + phases,
                         [[m] + [f"{fmt_corr(corr['phases'][p][m]['pearson'])}"
                                 f"/{fmt_corr(corr['phases'][p][m]['spearman'])}"
                                 for p in phases] for m in metrics])]
    if fits["withheld"]:
        blocks.append(Para(f"Fits withheld: {fits['withheld']}."))
        return blocks
    rows = []
    for phase in phases:
        for fit in fits["phases"].get(phase, []):
            rows.append((phase, fit["metric"], fmt_seconds(fit["intercept_s"]),
                         f"{fit['slope']:.4g}",
                         "n/a" if fit["r2"] is None else f"{fit['r2']:.3f}",
                         str(fit["dof"]), fmt_share(fit["baseline_share"]),
                         " ".join(f"{env} {fmt_signed_seconds(r)}"
                                  for env, r in fit["residuals_s"].items())))
    blocks += [Para("Least-squares lines phase_s = intercept + slope × "
                    "metric (throughput-like metrics as time per op), one "
                    "point per environment; share = slope × the baseline's "
                    "metric / its phase time."),
               Table(("phase", "metric", "intercept", "slope", "R²", "dof",
                      "share", "residuals"), rows)]
    return blocks


BASIS_HEADER = ("env", "phase", "basis", "count", "count from", "latency",
                "est_time", "share", "pg_time", "pg_share")
PREDICTION_HEADER = ("env", "phase", "baseline", "predicted", "commit path",
                     "actual", "pred_ratio", "actual_ratio", "alt",
                     "dominant", "residual")


def basis_rows(model, phases):
    """The table's rows, and each distinct remark on a basis once: why it
    was not measured, what its count stands for."""
    rows, remarks = [], []
    for env, env_model in model["environments"].items():
        for phase, est in env_model["phases"].items():
            if phase not in phases:
                continue
            for name, b in est["bases"].items():
                for remark in (b["not_measured"] and
                               f"{name} not measured: {b['not_measured']}",
                               b["caveat"] and f"{name}: {b['caveat']}",
                               b["pg_time_note"] and
                               f"{name}, PostgreSQL's time: "
                               f"{b['pg_time_note']}"):
                    if remark and remark not in remarks:
                        remarks.append(remark)
                rows.append((env, phase, name + (" (bg)" if b["background"]
                                                 else ""),
                             fmt_count(b["count"]),
                             b["count_source"] or "not measured",
                             fmt_value(b["latency_us"], "us"),
                             fmt_seconds(b["est_s"]), fmt_share(b["share"]),
                             fmt_seconds(b["pg_time_s"]),
                             fmt_share(b["pg_share"])))
    return rows, remarks


def prediction_rows(model, phases):
    rows, trust = [], []
    for prediction in model["predictions"]:
        env = prediction["environment"]
        for phase, p in prediction["phases"].items():
            if phase not in phases:
                continue
            rows.append((env, phase, fmt_seconds(p["baseline_s"]),
                         fmt_seconds(p["predicted_s"]),
                         fmt_seconds(p["predicted_commit_path_s"]),
                         fmt_seconds(p["actual_s"]),
                         fmt_times(p["predicted_ratio"]),
                         fmt_times(p["actual_ratio"]),
                         fmt_seconds(p["predicted_alt_s"]),
                         p["dominant_basis"] or "n/a",
                         fmt_signed_seconds(p["trust"]["residual_s"])))
            t = p["trust"]
            text = (f"{env} {phase}: the model's syncs are "
                    f"{fmt_share(t['modelled_share'])} of the baseline's "
                    "phase" + (f", {fmt_share(t['modelled_share_other'])} "
                               f"of {env}'s" if t["modelled_share_other"]
                               is not None else "")
                    + f"; {t['pg_check']}; {t['latency_noise']}")
            if t.get("syncs_postgres_delta_s") is not None:
                text += ("; the commit path's syncs changed by "
                         f"{fmt_signed_seconds(t['syncs_postgres_delta_s'])} by "
                         "PostgreSQL's own timing (predicted "
                         f"{fmt_signed_seconds(t['syncs_predicted_delta_s'])}), "
                         "the rest of the phase by "
                         f"{fmt_signed_seconds(t['rest_delta_s'])}")
            if t.get("cpu_delta_s") is not None:
                text += ("; the CPU time of the server's processes and their "
                         "client changed by "
                         f"{fmt_signed_seconds(t['cpu_delta_s'])}")
            if t["estimated_counts"]:
                text += "; estimated counts: " + ", ".join(t["estimated_counts"])
            if t["not_measured"]:
                text += "; not measured: " + ", ".join(t["not_measured"])
            if t["incomplete_runs"]:
                text += ("; incomplete diskio-pgphases run: "
                         + ", ".join(t["incomplete_runs"]))
            if t.get("implausible"):
                text += "; implausible: " + t["implausible"]
            trust.append(text)
    return rows, trust


def wal_blocks(report):
    model = report["wal_model"]
    phases = report["shown"]["phases"]
    blocks = [Heading(2, f"WAL model (wal_sync_method {model['sync_method']})"),
              Para("Each basis: count × the mean latency of its diskio mode; "
                   "(bg) = background, weighing on the phase only as far as "
                   "it waits for it."),
              ]
    rows, remarks = basis_rows(model, phases)
    blocks += [Table(BASIS_HEADER, rows), Items(remarks)]
    calibration = [c["text"] for c in (model.get("calibration") or {}).values()
                   if c.get("text")]
    if calibration:
        blocks += [Heading(3, "calibration: PostgreSQL's own time per sync "
                              "against diskio's"), Items(calibration)]
    if model["predictions"]:
        rows, trust = prediction_rows(model, phases)
        blocks += [Heading(3, "predicted phase time when only the sync "
                              "latencies change"),
                   Para(model["formula"] + "."),
                   Table(PREDICTION_HEADER, rows),
                   Heading(3, "how much to trust each prediction"),
                   Items(trust)]
    return blocks


def details_blocks(report):
    blocks = []
    # where the summary led with the WAL model, each phase's verdict
    # against the disks comes first here, and not again in its lists
    model_first = leads_with_model(report)
    if model_first:
        blocks += verdict_blocks(report, ": each phase against the disks")
        blocks.append(footer(report, True))
    for comparison in report["comparisons"]:
        blocks += comparison_blocks(report, comparison, not model_first)
    blocks += across_blocks(report)
    if report["wal_model"]:
        blocks += wal_blocks(report)
    if report["notes"]:
        blocks += [Heading(2, "notes"), Items(report["notes"])]
    return blocks
