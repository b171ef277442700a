# SPDX-License-Identifier: MIT
"""The answer first: diskio-correlate's summary, one screen (at most
MAX_LINES lines of text) whatever the number of phases and metrics in the
input.

With the WAL model's predictions (wal.csv in the baseline): per compared
environment the phases the model predicts, each with its predicted time
and range against the measured one and the verdict (within, off,
inconclusive), and which phases are left out and why; then the
calibration (PostgreSQL's own time per sync against diskio's, in
labelled columns); then the disk ratios the predictions rest on.  The
verdict of each phase against every disk metric is in the details
(verdict_blocks, shown first there).

Without predictions: per compared environment which disk metrics changed
beyond their noise and for each phase shown its verdict; across three or
more environments the best fitting metric per phase; then how the noise
was judged and where the details are."""

from ..document import Heading, Items, Para, Table
from ..ratios import distance, fmt_interval
from .fit import MIN_CORRELATION_N, MIN_FIT_N
from .fmt import fmt_interval as fmt_ratio_interval, fmt_share, fmt_times, \
    fmt_value
from .report import DEFAULT_PHASES
from .walbases import BASES
from .calibration import device_figures, fmt_factor

MAX_LINES = 40
MAX_NAMED = 3       # disk metrics named per direction before "and N more"
MAX_PREDICTED = 12  # phases in a comparison's table of predictions


def named(names, most=MAX_NAMED):
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most
                    else "")


def disk_line(comparison, metrics):
    """slower: ...; faster: ...; same within ±min_change: k, inconclusive:
    k (N more repetitions a side would decide: raise --repeat), disturbed: k (why) of n."""
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
                 + (f" ({max(more)} more repetitions a side would decide: raise --repeat)"
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


def comparison_blocks(report, comparison, heading_suffix=""):
    shown = report["shown"]
    predictions = predictions_of(report, comparison["environment"])
    items = []
    for phase in shown["phases"]:
        text = comparison["phase_analysis"][phase]["verdict"] + "."
        clause = wal_clause(predictions.get(phase))
        items.append(text + (" " + clause if clause else ""))
    return [Heading(2, f"{comparison['environment']} vs "
                       f"{comparison['baseline']} (baseline)"
                       + heading_suffix),
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


def title(report):
    envs = [e["name"] for e in report["environments"]]
    return (f"diskio-correlate: {envs[1]} vs {envs[0]} (baseline)"
            if len(envs) == 2 else
            f"diskio-correlate: {len(envs)} environments, baseline "
            f"{report['baseline']}")


def verdict_blocks(report, heading_suffix=""):
    """Which phases and metrics are shown; per comparison the disk line
    and each phase's verdict (with the WAL model's clause); across
    environments the best fit."""
    blocks = [Para(selection_line(report))]
    for comparison in report["comparisons"]:
        blocks += comparison_blocks(report, comparison, heading_suffix)
    return blocks + across_blocks(report)


def summary_blocks(report, details):
    if leads_with_model(report):
        return model_summary_blocks(report, details)
    blocks = [Heading(1, title(report))] + verdict_blocks(report)
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


# ---- the WAL model's answer first ----

def predicted(prediction):
    return bool(prediction) and prediction["predicted_s"] is not None


def leads_with_model(report):
    """Whether the summary leads with the WAL model: some phase shown has
    a prediction."""
    model = report["wal_model"] or {}
    phases = set(report["shown"]["phases"])
    return any(predicted(p) for pred in model.get("predictions", [])
               for phase, p in pred["phases"].items() if phase in phases)


def predicted_phases(report, comparison):
    """{phase: prediction} of the shown phases the model predicts, in
    the report's order (the top-level ones first)."""
    predictions = predictions_of(report, comparison["environment"])
    return {phase: predictions[phase] for phase in report["shown"]["phases"]
            if predicted(predictions.get(phase))}


PREDICTION_HEADER = ("phase", "verdict", "predicted", "range", "measured",
                     "syncs")


def verdict_cell(p):
    """within +3%, off -21% (prediction / measurement - 1), within 0%,
    inconclusive."""
    if p["verdict"] == "inconclusive":
        return p["verdict"]
    percent = round(100.0 * p["error"])
    return f"{p['verdict']} {percent:+d}%" if percent else f"{p['verdict']} 0%"


def prediction_row(phase, p):
    trust = p["trust"]
    syncs = fmt_share(trust["modelled_share"])
    if trust["modelled_share_other"] is not None:
        syncs += "→" + fmt_share(trust["modelled_share_other"])
    return (phase, verdict_cell(p),
            f"{fmt_value(p['predicted_s'], 's')} "
            f"{fmt_times(p['predicted_ratio'])}",
            fmt_ratio_interval(trust["predicted_ratio_range"]),
            f"{fmt_value(p['actual_s'], 's')} {fmt_times(p['actual_ratio'])}",
            syncs)


def caveats(phases):
    """What a prediction shown must be read with, each said once with the
    phases it concerns: why it is inconclusive (with the rounds' spreads),
    implausible, an incomplete run, disturbed latencies."""
    said, spreads = {}, {}
    for phase, p in phases.items():
        trust = p["trust"]
        note = p["verdict_note"]
        for text in (note and "inconclusive: " + note,
                     trust.get("implausible") and
                     "IMPLAUSIBLE: " + trust["implausible"],
                     trust["incomplete_runs"] and "incomplete diskio-pgphases "
                     "run: " + ", ".join(trust["incomplete_runs"]),
                     trust.get("disturbed") and "disturbed latencies: "
                     + trust["disturbed"]):
            if text:
                said.setdefault(text, []).append(phase)
        if p["verdict_cause"] == "spread":
            spreads.setdefault("inconclusive: " + note, []).append(
                p["measured_spread"])
    items = []
    for text, names in said.items():
        spread = spreads.get(text)
        if spread:
            low, high = min(spread), max(spread)
            text += (f" (±{low:.0%})" if f"{low:.0%}" == f"{high:.0%}"
                     else f" (±{low:.0%} to ±{high:.0%})")
        items.append(f"{named(names)}: {text}")
    return items


def left_out(report, comparison, shown):
    """The phases the table leaves out and why: no WAL counters in the
    baseline (the queries: the model has nothing to predict them from),
    a basis' latency not measured, or more than the table holds."""
    predictions = predictions_of(report, comparison["environment"])
    default = report["shown"]["phase_filter"] == DEFAULT_PHASES
    phases = report["phase_order"] if default else report["shown"]["phases"]
    uncounted = [p for p in phases if p not in predictions]
    items = []
    if uncounted:
        items.append(f"not predicted: {named(uncounted)}: no WAL counters in "
                     f"{comparison['baseline']}'s wal.csv")
    why = {}
    for phase in phases:
        p = predictions.get(phase)
        if p and not predicted(p):
            reasons = list(p["trust"]["not_measured"].values())
            why.setdefault(reasons[0] if reasons else "no basis measured",
                           []).append(phase)
    items += [f"not predicted: {named(names)}: {reason}"
              for reason, names in why.items()]
    if len(shown) > MAX_PREDICTED:
        items.append(f"and {len(shown) - MAX_PREDICTED} more predicted: "
                     f"{named(list(shown)[MAX_PREDICTED:])} (--details)")
    return items


def prediction_blocks(report, comparison):
    shown = predicted_phases(report, comparison)
    rows = [prediction_row(phase, p)
            for phase, p in list(shown.items())[:MAX_PREDICTED]]
    blocks = [Heading(2, f"{comparison['environment']} vs "
                         f"{comparison['baseline']} (baseline): the WAL "
                         "model's prediction of each phase")]
    if rows:
        blocks.append(Table(PREDICTION_HEADER, rows))
    items = caveats(dict(list(shown.items())[:MAX_PREDICTED]))
    items += left_out(report, comparison, shown)
    return blocks + ([Items(items)] if items else [])


CALIBRATION_HEADER = ("env", "sync", "PostgreSQL", "diskio", "diskio/PG",
                      "device PG", "device diskio")


def device_cells(device_us):
    figures = device_figures(device_us) if device_us else None
    if figures is None:
        return ("n/a", "n/a")
    kind, pg, diskio = figures
    return (f"{pg:.0f} us/{kind}", f"{diskio:.0f} us/{kind}")


def calibration_rows(model):
    """Per environment: the WAL syncs the summary shows (the commit
    probe's, else the phase with the most) and the checkpoint file
    syncs, PostgreSQL's own time per sync against diskio's."""
    rows = []
    for env, cal in (model.get("calibration") or {}).items():
        wal = {c["phase"]: c for c in cal["wal"]}
        for phase in cal.get("summary_phases") or []:
            c = wal[phase]
            rows.append((env, f"WAL, {phase} ({c['committers']})",
                         fmt_value(c["pg_us"], "us"),
                         fmt_value(c["diskio_us"], "us"),
                         fmt_times(c["ratio"])) + device_cells(c["device_us"]))
        ckpt = cal["checkpoint"]
        if ckpt:
            rows.append((env, "checkpoint file", fmt_value(ckpt["pg_us"], "us"),
                         fmt_value(ckpt["diskio_us"], "us"),
                         fmt_times(ckpt["ratio"]), "n/a", "n/a"))
    return rows


def calibration_blocks(report):
    rows = calibration_rows(report["wal_model"])
    if not rows:
        return []
    return [Heading(2, "calibration: time per sync, PostgreSQL's own (PG) "
                       "against diskio's"),
            Table(CALIBRATION_HEADER, rows),
            Para("PostgreSQL: its time per sync in the phase (N committers), "
                 "or per checkpoint file; diskio: the run standing for it "
                 "(--details names it); device: the device's own time per "
                 "flush (per write where nothing was flushed).")]


def model_metrics(phases):
    """{(baseline's metric, other's metric): [bases]}: the diskio
    latencies the predictions of phases rest on, in the bases' order."""
    used = {}
    for name in BASES:
        for p in phases.values():
            b = p["bases"][name]
            if b["delta_s"] is None:
                continue
            names = used.setdefault((b["latency_metric"],
                                     b["latency_metric_other"]), [])
            if name not in names:
                names.append(name)
    return used


RATIO_HEADER = ("for", "metric", "B/A", "95% interval", "verdict")


def disk_ratio_rows(comparison, phases):
    rows = []
    for (base, other), bases in model_metrics(phases).items():
        row = comparison["metrics"].get(base) if base == other else None
        if row:
            rows.append((", ".join(bases), base, fmt_times(row["ratio"]),
                         fmt_ratio_interval(row["interval"]),
                         row["verdict"] or row["not_compared"]))
            continue
        # different runs on the two sides: the ratio of their latencies
        b = next(p["bases"][bases[0]] for p in phases.values()
                 if p["bases"][bases[0]]["latency_metric"] == base)
        rows.append((", ".join(bases), f"{base} / {other}",
                     fmt_times(b["latency_other_us"] / b["latency_baseline_us"]),
                     fmt_ratio_interval(b["latency_ratio_interval"]), "n/a"))
    return rows


def disk_ratio_blocks(report):
    """The diskio latencies the predictions rest on, each with its B/A
    ratio, interval and verdict: one table, with the environment where
    there are several."""
    several = len(report["comparisons"]) > 1
    rows = []
    for comparison in report["comparisons"]:
        env = comparison["environment"]
        rows += [row[:2] + (env,) + row[2:] if several else row
                 for row in disk_ratio_rows(comparison, predicted_phases(
                     report, comparison))]
    if not rows:
        return []
    base = report["baseline"]
    header = (RATIO_HEADER[:2] + ("env", f"env/{base}") + RATIO_HEADER[3:]
              if several else RATIO_HEADER)
    return [Heading(2, f"disk ratios the predictions rest on (vs {base})"),
            Table(header, rows)]


def model_footer(report, details):
    model = report["wal_model"]
    text = (f"predicted (wal_sync_method {model['sync_method']}): the "
            "baseline's phase time plus each kind of sync's count × the "
            "change of its diskio latency; range: from their repetitions; "
            f"verdict: within ±{model['verdict_bound']:.0%} of the measured "
            "time (prediction / measured - 1), off beyond, inconclusive "
            "where the phase was disturbed or its rounds spread more, or "
            "the range is wider; syncs: their share of the phase "
            "(baseline→other).")
    if not details:
        text += " How the noise was judged, and more: --details"
        if report["notes"]:
            text += f" ({len(report['notes'])} notes)"
        text += "."
    return Para(text)


def model_summary_blocks(report, details):
    """The WAL model's answer: the predictions, the calibration, the disk
    ratios they rest on; the rest is in the details."""
    blocks = [Heading(1, title(report))]
    for comparison in report["comparisons"]:
        blocks += prediction_blocks(report, comparison)
    blocks += calibration_blocks(report)
    blocks += disk_ratio_blocks(report)
    return blocks + [model_footer(report, details)]
