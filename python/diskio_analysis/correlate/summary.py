# SPDX-License-Identifier: MIT
"""The answer first: diskio-correlate's summary, one screen (at most
MAX_LINES lines of text) whatever the number of phases and metrics in the
input.  Per compared environment: which disk metrics changed beyond
their noise, and for each phase shown (the top-level ones unless told
otherwise) its verdict, with the WAL model's prediction where there is
one; across three or more environments the best fitting metric per
phase; then how the noise was judged and where the details are."""

from ..document import Heading, Items, Para
from ..ratios import distance, fmt_interval
from .fit import MIN_CORRELATION_N, MIN_FIT_N
from .fmt import fmt_share, fmt_times
from .walmodel import fmt_factor

MAX_LINES = 40
MAX_NAMED = 3       # disk metrics named per direction before "and N more"


def named(names, most=MAX_NAMED):
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most
                    else "")


def disk_line(comparison, metrics):
    """slower: ...; faster: ...; same within ±min_change: k, inconclusive:
    k (about N more repetitions would decide), disturbed: k (why) of n."""
    rows = {m: comparison["metrics"][m] for m in metrics}
    parts = []
    for verdict in ("slower", "faster"):
        moved = sorted((m for m, r in rows.items() if r["verdict"] == verdict),
                       key=lambda m: -distance(rows[m]["ratio"]))
        if moved:
            parts.append(f"{verdict}: " + named(
                [f"{m} {fmt_times(rows[m]['ratio'])}" for m in moved]))
    compared = [r for r in rows.values() if r["verdict"] is not None]
    counts = {verdict: sum(1 for r in compared if r["verdict"] == verdict)
              for verdict in ("same", "inconclusive", "disturbed")}
    text = f"same within ±min_change: {counts['same']}"
    if counts["inconclusive"]:
        more = [r["more_repetitions"] for r in compared
                if r["verdict"] == "inconclusive" and r["more_repetitions"]]
        text += (f", inconclusive: {counts['inconclusive']}"
                 + (f" (about {max(more)} more repetitions would decide)"
                    if more else ""))
    if counts["disturbed"]:
        first = next(r for r in compared if r["verdict"] == "disturbed")
        text += f", disturbed: {counts['disturbed']} ({first['disturbed']})"
    parts.append(f"{text} of {len(compared)}")
    missing = len(rows) - len(compared)
    if missing:
        parts.append(f"{missing} not in both (see the notes)")
    return "disks: " + "; ".join(parts)


def wal_clause(prediction):
    """The WAL model's word on one phase, with what it rests on: the
    share of the phase its syncs take and how diskio's estimate of their
    time compares with PostgreSQL's own."""
    if prediction is None or prediction["predicted_ratio"] is None:
        return None
    trust = prediction["trust"]
    text = (f"WAL model {fmt_times(prediction['predicted_ratio'])} "
            f"(commit path "
            f"{fmt_times(prediction['predicted_commit_path_ratio'])}")
    if trust["predicted_ratio_range"]:
        low, high = trust["predicted_ratio_range"]
        text += f", range {fmt_interval(low, high)}"
    text += f"; syncs {fmt_share(trust['modelled_share'])}"
    if trust["modelled_share_other"] is not None:
        text += f"→{fmt_share(trust['modelled_share_other'])}"
    if trust["background_share"]:
        text += f", {fmt_share(trust['background_share'])} background"
    if trust["pg_agreement"]:
        text += "; vs PostgreSQL " + ", ".join(
            f"{env} {fmt_factor(factor)}×"
            for env, factor in trust["pg_agreement"].items())
    if trust["incomplete_runs"]:
        text += "; incomplete run: " + ", ".join(trust["incomplete_runs"])
    if trust.get("implausible"):
        text += "; IMPLAUSIBLE: " + trust["implausible"]
    if trust.get("inconclusive"):
        text += "; inconclusive: " + trust["inconclusive"]
    if trust.get("disturbed"):
        text += "; disturbed latencies: " + trust["disturbed"]
    return text + ")."


def not_measured(report):
    """The WAL bases not measured for a shown phase of any comparison."""
    names = {}
    for comparison in report["comparisons"]:
        predictions = predictions_of(report, comparison["environment"])
        for phase in report["shown"]["phases"]:
            prediction = predictions.get(phase)
            if prediction:
                for name in prediction["trust"]["not_measured"]:
                    names.setdefault(name, None)
    return list(names)


def predictions_of(report, env_name):
    model = report["wal_model"]
    for prediction in (model or {}).get("predictions", []):
        if prediction["environment"] == env_name:
            return prediction["phases"]
    return {}


def comparison_blocks(report, comparison):
    shown = report["shown"]
    predictions = predictions_of(report, comparison["environment"])
    items = []
    for phase in shown["phases"]:
        text = comparison["phase_analysis"][phase]["verdict"] + "."
        clause = wal_clause(predictions.get(phase))
        items.append(text + (" " + clause if clause else ""))
    return [Heading(2, f"{comparison['environment']} vs "
                       f"{comparison['baseline']} (baseline)"),
            Para(disk_line(comparison, shown["metrics"])), Items(items)]


def fit_item(phase, fits, correlations, baseline):
    rows = fits["phases"].get(phase) or []
    if not rows:
        text = f"{phase}: no candidate metric to fit"
    else:
        best = rows[0]
        r2 = "n/a" if best["r2"] is None else f"{best['r2']:.2f}"
        share = best["baseline_share"]
        text = (f"{phase}: {best['metric']} fits best: R² {r2}, "
                f"{best['dof']} dof, {fmt_share(share)} of {baseline}'s "
                "phase" + (" (implausible)" if share > 1 or share < 0
                           else ""))
        cell = (correlations["phases"].get(phase) or {}).get(best["metric"])
        if cell:
            text += (f"; Pearson {cell['pearson']:+.2f}, Spearman "
                     f"{cell['spearman']:+.2f} (n = {cell['n']})"
                     if cell["pearson"] is not None and
                     cell["spearman"] is not None else "")
    return text


def across_blocks(report):
    fits, correlations = report["fits"], report["correlations"]
    names = ", ".join(correlations["environments"])
    if fits["withheld"]:
        return [Para(f"Across environments: nothing with "
                     f"{correlations['n']} (a fit needs {MIN_FIT_N}, a "
                     f"correlation {MIN_CORRELATION_N}).")]
    blocks = [Heading(2, f"across {names}"),
              Items([fit_item(p, fits, correlations, report["baseline"])
                     for p in report["shown"]["phases"]])]
    if correlations["withheld"]:
        blocks.append(Para(f"Correlations withheld: "
                           f"{correlations['withheld']}."))
    return blocks


def selection_line(report):
    shown = report["shown"]
    phases, metrics = shown["phases"], shown["metrics"]
    total_p, total_m = len(report["phase_order"]), len(report["metric_order"])
    text = f"Phases: {named(phases, 5)}"
    if len(phases) < total_p:
        text += f" ({len(phases)} of {total_p}: --phases all)"
    text += "; metrics "
    if len(metrics) < total_m:
        text += (f"{shown['metric_filter']} ({len(metrics)} of {total_m}: "
                 "--metrics all)")
    else:
        text += f"all {total_m}"
    return text


def footer(report, details):
    text = ("needs X%: the share of the phase the metric's operations must "
            "take to account for it alone. ")
    if report["wal_model"] and report["wal_model"]["predictions"]:
        text += ("WAL model: the ratio predicted from each kind of sync's "
                 "count × diskio latency; syncs: their share of the phase "
                 "(baseline→other); vs PostgreSQL: their time / its own")
        missing = not_measured(report)
        text += ("; not measured: " + ", ".join(missing) if missing
                 else "") + ". "
    text += "Noise: " + "; ".join(report["noise_notes"]) + "."
    if not details:
        text += " More: --details"
        if report["notes"]:
            text += f" ({len(report['notes'])} notes)"
        text += "."
    return Para(text)


def summary_blocks(report, details):
    envs = [e["name"] for e in report["environments"]]
    title = (f"diskio-correlate: {envs[1]} vs {envs[0]} (baseline)"
             if len(envs) == 2 else
             f"diskio-correlate: {len(envs)} environments, baseline "
             f"{report['baseline']}")
    blocks = [Heading(1, title), Para(selection_line(report))]
    for comparison in report["comparisons"]:
        blocks += comparison_blocks(report, comparison)
    blocks += across_blocks(report)
    calibration = calibration_line(report)
    if calibration:
        blocks.append(Para(calibration))
    blocks.append(footer(report, details))
    return blocks


def calibration_line(report):
    """diskio's time per sync over PostgreSQL's own in each environment
    (WAL syncs, the commit probe's first; checkpoint file syncs): how far
    diskio stands for the database there.  The details say which runs."""
    model = report.get("wal_model") or {}
    shorts = [c["short"] for c in (model.get("calibration") or {}).values()
              if c.get("short")]
    if not shorts:
        return None
    return ("Calibration, diskio's time per sync / PostgreSQL's own: "
            + "; ".join(shorts) + ".")
