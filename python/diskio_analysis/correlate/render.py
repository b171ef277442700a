# SPDX-License-Identifier: MIT
"""The renderers of a diskio-correlate report: text and markdown (the
summary, then the details when asked for: one list of blocks, drawn by
document.py either way), CSV in long format (one value per row) and JSON
(the report as it is).  CSV and JSON always hold everything."""

import csv
import io
import json

from ..document import draw_markdown, draw_text
from ..textsafe import json_text, shown
from .details import details_blocks
from .summary import summary_blocks


def blocks(report, details):
    result = summary_blocks(report, details)
    if details:
        result += details_blocks(report)
    return result


def render_text(report, details=False):
    return draw_text(blocks(report, details))


def render_markdown(report, details=False):
    return draw_markdown(blocks(report, details))


CSV_HEADER = ("section", "environment", "baseline", "phase", "metric",
              "quantity", "value", "unit")


def key_unit(key):
    """The unit of a quantity, from its name."""
    return "s" if key.endswith("_s") else "us" if key.endswith("_us") else ""


def comparison_csv_rows(comparison):
    env, base = comparison["environment"], comparison["baseline"]
    rows = []
    for phase, row in comparison["phases"].items():
        rows += [("phase", env, base, phase, "", key, row[key], key_unit(key))
                 for key in ("baseline_s", "value_s", "ratio", "verdict")]
    for name, row in comparison["metrics"].items():
        rows += [("metric", env, base, "", name, key, row[key],
                  row["unit"] if key in ("baseline", "value") else "")
                 for key in ("baseline", "value", "ratio", "normalized_ratio",
                             "n_baseline", "n_other", "verdict",
                             "not_compared")]
        if row["interval"]:
            rows += [("metric", env, base, "", name, key, value, "")
                     for key, value in zip(("interval_low", "interval_high"),
                                           row["interval"])]
    for phase, analysis in comparison["phase_analysis"].items():
        for c in analysis["candidates"]:
            rows += [("candidate", env, base, phase, c["metric"], key, c[key],
                      "") for key in ("normalized_ratio", "share",
                                      "plausible")]
        for key in ("other_direction", "moved", "same", "not_compared"):
            rows += [("direction", env, base, phase, name, "direction", key,
                      "") for name in analysis[key]]
        rows += [("verdict", env, base, phase, "", "conclusion",
                  analysis["conclusion"], ""),
                 ("verdict", env, base, phase, "", "verdict",
                  analysis["verdict"], "")]
    return rows


def across_csv_rows(report):
    rows = []
    corr, fits = report["correlations"], report["fits"]
    if corr["withheld"]:
        rows.append(("correlation", "", "", "", "", "withheld",
                     corr["withheld"], ""))
    for phase, table in corr["phases"].items():
        for name, values in table.items():
            rows += [("correlation", "", "", phase, name, method,
                      values[method], "") for method in ("pearson", "spearman",
                                                         "n")]
    if fits["withheld"]:
        rows.append(("fit", "", "", "", "", "withheld", fits["withheld"], ""))
    for phase, lines in fits["phases"].items():
        for fit in lines:
            rows += [("fit", "", "", phase, fit["metric"], key, fit[key],
                      key_unit(key)) for key in ("intercept_s", "slope", "r2",
                                                 "dof", "baseline_share")]
            rows += [("fit", env, "", phase, fit["metric"], "residual_s", r,
                      "s") for env, r in fit["residuals_s"].items()]
    return rows


def wal_csv_rows(model):
    rows = []
    for env, env_model in model["environments"].items():
        for phase, est in env_model["phases"].items():
            rows += [("wal", env, "", phase, "", key, est[key], "")
                     for key in ("commit_path_share", "background_share",
                                 "modelled_share")]
            for name, b in est["bases"].items():
                rows += [("wal_basis", env, name, phase, b["latency_metric"]
                          or "", key, b[key], key_unit(key))
                         for key in ("count", "count_source", "latency_us",
                                     "est_s", "share", "pg_time_s",
                                     "pg_share", "not_measured")]
    for prediction in model["predictions"]:
        env, base = prediction["environment"], prediction["baseline"]
        for phase, p in prediction["phases"].items():
            rows += [("prediction", env, base, phase, "", key, p[key],
                      key_unit(key))
                     for key in ("baseline_s", "predicted_s",
                                 "predicted_commit_path_s", "predicted_alt_s",
                                 "actual_s", "predicted_ratio",
                                 "actual_ratio", "dominant_basis",
                                 "verdict", "error", "measured_spread")]
            trust = p["trust"]
            rows += [("trust", env, base, phase, "", key, trust[key],
                      key_unit(key))
                     for key in ("modelled_share", "pg_check", "pg_agreement",
                                 "residual_s", "syncs_predicted_delta_s",
                                 "syncs_postgres_delta_s", "rest_delta_s",
                                 "cpu_delta_s")]
    return rows


def csv_rows(report):
    """Long format: one value per row, so the file pivots easily."""
    rows = []
    for comparison in report["comparisons"]:
        rows += comparison_csv_rows(comparison)
    rows += across_csv_rows(report)
    if report["wal_model"]:
        rows += wal_csv_rows(report["wal_model"])
    return rows


def render_csv(report, details=False):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for row in csv_rows(report):
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float)
                         else shown(v) if isinstance(v, str) else v
                         for v in row])
    return out.getvalue()


def render_json(report, details=False):
    return json_text(json.dumps(report, indent=2, ensure_ascii=False,
                                allow_nan=False)) + "\n"


RENDERERS = {"text": render_text, "markdown": render_markdown,
             "csv": render_csv, "json": render_json}
