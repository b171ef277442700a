# SPDX-License-Identifier: MIT
"""The renderers of a diskio-correlate report: text and markdown (one
layout, told how to draw headings, tables and lists), CSV in long format
(one value per row) and JSON (the report as it is)."""

import csv
import io
import json
import textwrap


def fmt_value(value, unit):
    if value is None:
        return "n/a"
    if abs(value) >= 1000:
        text = f"{value:.0f}"
    elif abs(value) >= 100:
        text = f"{value:.1f}"
    elif abs(value) >= 1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.3f}"
    return f"{text} {unit}" if unit else text


def fmt_ratio(value):
    return "n/a" if value is None else f"{value:.2f}"


def fmt_corr(value):
    return "n/a" if value is None else f"{value:+.2f}"


def fmt_share(value):
    return "n/a" if value is None else f"{100.0 * value:.2f}%"


def fmt_seconds(value):
    """Predictions differ from the baseline by little: keep milliseconds."""
    return "n/a" if value is None else f"{value:.3f} s"


def comparison_table(comparison, report):
    """Rows (kind, name, baseline, other, ratio, normalized) for one env."""
    rows = []
    for phase in report["phase_order"]:
        row = comparison["phases"][phase]
        rows.append(("phase", phase, fmt_value(row["baseline_s"], "s"),
                     fmt_value(row["value_s"], "s"), fmt_ratio(row["ratio"]),
                     fmt_ratio(row["ratio"])))
    for name in report["metric_order"]:
        row = comparison["metrics"][name]
        rows.append(("metric", name, fmt_value(row["baseline"], row["unit"]),
                     fmt_value(row["value"], row["unit"]),
                     fmt_ratio(row["ratio"]),
                     fmt_ratio(row["normalized_ratio"])))
    return rows


# The columns of the WAL model's tables: (report key, how to show it).
WAL_ESTIMATE_CELLS = (
    ("phase_s", fmt_seconds), ("sync_count", lambda v: f"{v:g}"),
    ("latency_us", lambda v: fmt_value(v, "us")), ("est_sync_s", fmt_seconds),
    ("share", fmt_share), ("pg_sync_time_s", fmt_seconds),
    ("pg_share", fmt_share), ("checkpoint_sync_time_s", fmt_seconds),
    ("checkpoint_share", fmt_share), ("basis", str))
WAL_PREDICTION_CELLS = (
    ("basis", str), ("baseline_s", fmt_seconds), ("predicted_s", fmt_seconds),
    ("predicted_wal_s", fmt_seconds), ("predicted_wal_alt_s", fmt_seconds),
    ("predicted_checkpoint_s", fmt_seconds), ("actual_s", fmt_seconds),
    ("predicted_ratio", fmt_ratio), ("actual_ratio", fmt_ratio))


def cells(row, spec):
    return tuple(show(row[key]) for key, show in spec)


def wal_estimate_rows(report):
    return [(env_name, phase) + cells(est, WAL_ESTIMATE_CELLS)
            for env_name, env_model in
            report["wal_model"]["environments"].items()
            for phase, est in env_model["phases"].items()]


def wal_prediction_rows(report):
    return [(prediction["environment"], phase) + cells(p, WAL_PREDICTION_CELLS)
            for prediction in report["wal_model"]["predictions"]
            for phase, p in prediction["phases"].items()]


WAL_ESTIMATE_HEADER = ("env", "phase", "phase_time", "syncs", "latency",
                       "est_sync", "share", "pg_sync_time", "pg_share",
                       "ckpt_sync", "ckpt_share", "basis")
WAL_PREDICTION_HEADER = ("env", "phase", "basis", "baseline", "predicted",
                         "pred_wal", "pred_wal_alt", "pred_ckpt", "actual",
                         "pred_ratio", "actual_ratio")
COMPARISON_HEADER = ("kind", "name", "baseline", "other", "ratio",
                     "normalized")


def text_table(header, rows, indent="  "):
    widths = [max(len(str(r[i])) for r in [header] + list(rows))
              for i in range(len(header))]
    lines = []
    for row in [header] + list(rows):
        cells = [str(c).ljust(w) if i < 2 else str(c).rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        lines.append(indent + "  ".join(cells).rstrip())
    return lines


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def phase_detail_lines(analysis, wrap):
    def listing(label, names):
        return wrap(f"{label} ({len(names)}): "
                    + (", ".join(names) if names else "none"))
    return (listing("same direction", analysis["same_direction"])
            + listing("other direction", analysis["other_direction"])
            + listing("unchanged", analysis["unchanged"]))


def correlation_matrix(report):
    """Header and rows: one row per metric, one 'pearson/spearman' cell
    per phase."""
    corr = report["correlations"]
    phases = report["phase_order"]
    metrics = list(corr["phases"][phases[0]]) if phases else []
    rows = []
    for name in metrics:
        rows.append([name] + [
            f"{fmt_corr(corr['phases'][p][name]['pearson'])}/"
            f"{fmt_corr(corr['phases'][p][name]['spearman'])}"
            for p in phases])
    return ["metric"] + phases, rows


def render_document(report, table, heading, wrap):
    """Text and markdown share one layout; table/heading/wrap say how."""
    lines = [heading(1, f"diskio-correlate: {len(report['environments'])} "
                        f"environments, baseline {report['baseline']}"),
             f"Note: {report['direction_note']}.", ""]
    for comparison in report["comparisons"]:
        lines.append(heading(2, f"{comparison['environment']} vs "
                                f"{comparison['baseline']} (baseline)"))
        lines += table(COMPARISON_HEADER, comparison_table(comparison, report))
        lines.append("")
        for phase in report["phase_order"]:
            analysis = comparison["phase_analysis"][phase]
            lines.append(heading(3, f"phase {phase}: ratio "
                                    f"{fmt_ratio(analysis['ratio'])} "
                                    f"({analysis['direction']})"))
            lines += phase_detail_lines(analysis, wrap)
            if analysis["closest"]:
                closest = analysis["closest"]
                lines.append(f"  closest: {closest['metric']} "
                             f"(|ln r_metric − ln r_phase| = "
                             f"{closest['log_distance']:.3f})")
            lines.append("")
        lines.append(heading(3, "verdicts"))
        lines += [f"  {comparison['phase_analysis'][p]['verdict']}"
                  for p in report["phase_order"]]
        lines.append("")
    if report["correlations"]:
        lines.append(heading(2, "correlation across environments ("
                                + ", ".join(report["correlations"]
                                            ["environments"]) + ")"))
        lines.append("  pearson/spearman of each metric's normalized ratio "
                     "with each phase's ratio")
        header, rows = correlation_matrix(report)
        lines += table(header, rows)
        lines.append("")
    if report["wal_model"]:
        model = report["wal_model"]
        lines.append(heading(2, f"WAL model (wal_sync_method "
                                f"{model['sync_method']}: {model['counted']} × "
                                f"{model['latency_mode']} mean latency)"))
        lines += table(WAL_ESTIMATE_HEADER, wal_estimate_rows(report))
        lines.append("")
        if model["predictions"]:
            lines.append(heading(3, "predicted phase time when only sync "
                                    "latency changes"))
            lines.append(f"  {model['formula']}")
            lines += table(WAL_PREDICTION_HEADER, wal_prediction_rows(report))
            lines.append("")
    if report["notes"]:
        lines.append(heading(2, "notes"))
        lines += [f"  - {note}" for note in report["notes"]]
    return "\n".join(lines).rstrip() + "\n"


def render_text(report):
    def heading(level, title):
        return {1: title, 2: f"== {title} ==", 3: f"-- {title}"}[level]
    def wrap(line):
        return textwrap.wrap(line, width=100, initial_indent="  ",
                             subsequent_indent="      ",
                             break_on_hyphens=False)
    return render_document(report, text_table, heading, wrap)


def render_markdown(report):
    def heading(level, title):
        return "\n" + "#" * level + " " + title + "\n"

    def table(header, rows, indent=""):
        return markdown_table(header, rows)
    def wrap(line):
        return ["- " + line]
    text = render_document(report, table, heading, wrap)
    return text.lstrip("\n")


CSV_HEADER = ("section", "environment", "baseline", "phase", "metric",
              "quantity", "value", "unit")


def key_unit(key):
    """The unit of a WAL model quantity, from its name."""
    return "s" if key.endswith("_s") else "us" if key.endswith("_us") else ""


def csv_rows(report):
    """Long format: one value per row, so the file pivots easily."""
    rows = []
    for comparison in report["comparisons"]:
        env, base = comparison["environment"], comparison["baseline"]
        for phase, row in comparison["phases"].items():
            rows += [("phase", env, base, phase, "", "baseline_s",
                      row["baseline_s"], "s"),
                     ("phase", env, base, phase, "", "value_s", row["value_s"],
                      "s"),
                     ("phase", env, base, phase, "", "ratio", row["ratio"], "")]
        for name, row in comparison["metrics"].items():
            for quantity in ("baseline", "value"):
                rows.append(("metric", env, base, "", name, quantity,
                             row[quantity], row["unit"]))
            for quantity in ("ratio", "normalized_ratio"):
                rows.append(("metric", env, base, "", name, quantity,
                             row[quantity], ""))
        for phase, analysis in comparison["phase_analysis"].items():
            for key in ("same_direction", "other_direction", "unchanged"):
                rows += [("direction", env, base, phase, name, "direction",
                          key, "") for name in analysis[key]]
            if analysis["closest"]:
                closest = analysis["closest"]
                rows += [("closest", env, base, phase, closest["metric"],
                          "normalized_ratio", closest["normalized_ratio"], ""),
                         ("closest", env, base, phase, closest["metric"],
                          "log_distance", closest["log_distance"], "")]
            rows.append(("verdict", env, base, phase, "", "verdict",
                         analysis["verdict"], ""))
    if report["correlations"]:
        for phase, table in report["correlations"]["phases"].items():
            for name, values in table.items():
                rows += [("correlation", "", "", phase, name, method,
                          values[method], "")
                         for method in ("pearson", "spearman")]
    if report["wal_model"]:
        model = report["wal_model"]
        for env, env_model in model["environments"].items():
            for phase, est in env_model["phases"].items():
                rows += [("wal", env, "", phase, "", key, value, key_unit(key))
                         for key, value in est.items()]
        for prediction in model["predictions"]:
            for phase, p in prediction["phases"].items():
                rows += [("prediction", prediction["environment"],
                          prediction["baseline"], phase, "", key, value,
                          key_unit(key)) for key, value in p.items()]
    return rows


def render_csv(report):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for row in csv_rows(report):
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float)
                         else v for v in row])
    return out.getvalue()


def render_json(report):
    return json.dumps(report, indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"


RENDERERS = {"text": render_text, "markdown": render_markdown,
             "csv": render_csv, "json": render_json}
