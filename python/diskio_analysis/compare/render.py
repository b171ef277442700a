# SPDX-License-Identifier: MIT
"""The renderers of a diskio-compare comparison: the answer first (one
line per environment: slower in what, by how much; faster; then how many
are same, inconclusive and disturbed), then the table and what each
verdict rests on; text, markdown, CSV (one row per ratio) and JSON."""

import csv
import io
import json

from .. import noise
from ..document import Heading, Items, Para, Table, draw_markdown, text_table
from ..ratios import CONVENTION, distance, fmt_factor, fmt_interval as fmt_ratios
from ..textsafe import json_text, shown
from . import advice
from .analysis import run_label

SCHEMA = "diskio-compare"
SCHEMA_VERSION = 2


def header(base, other):
    return ("run", "metric", base, other, "ratio B/A", "95% interval",
            "verdict")


MAX_NAMED = 4       # runs named in a summary line before "and N more"


def fmt_measure(value, unit):
    """3 significant digits; ns scaled to us/ms/s as diskio's table does."""
    if unit == "ns":
        for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
            if value >= scale:
                return f"{value / scale:.3g} {name}"
        return f"{value:.3g} ns"
    return f"{value:.1f} {unit}" if value < 1e5 else f"{value:.0f} {unit}"


def fmt_interval(judgement):
    # a capacity whose other side missed no rate above it: open above
    if judgement.basis == "search" and judgement.high is None and judgement.low is not None:
        return f"{fmt_factor(judgement.low)} or more"
    return fmt_ratios(judgement.low, judgement.high)


def by_environment(comparison):
    envs = {}
    for row in comparison["rows"]:
        envs.setdefault(row.environment, []).append(row)
    return envs


def summary_lines(comparison):
    """Per environment: its verdicts on the first metric, worst first,
    then how many of its runs are same, inconclusive and disturbed."""
    base = comparison["baseline"].name
    primary = comparison["metrics"][0]
    lines = []
    for name, rows in by_environment(comparison).items():
        # and the capacities (diskio --target), whatever the metrics
        rows = [r for r in rows if r.metric in (primary, "capacity")]
        groups = {verdict: [] for verdict in noise.VERDICTS}
        for row in rows:
            groups[row.judgement.verdict].append(row)
        parts = []
        for verdict in ("slower", "faster"):
            chosen = sorted(groups[verdict],
                            key=lambda r: -distance(r.judgement.ratio))
            if chosen:
                named = ", ".join(
                    f"{run_label(r.run)} {fmt_factor(r.judgement.ratio)}"
                    for r in chosen[:MAX_NAMED])
                more = len(chosen) - MAX_NAMED
                parts.append(f"{verdict} in {named}"
                             + (f" and {more} more" if more > 0 else ""))
        counts = [f"same in {len(groups['same'])}"]
        if groups["inconclusive"]:
            counts.append(f"inconclusive in {len(groups['inconclusive'])}"
                          + advice.summary(groups["inconclusive"]))
        if groups["disturbed"]:
            counts.append(f"disturbed in {len(groups['disturbed'])} ("
                          + groups["disturbed"][0].judgement.disturbed + ")")
        parts.append(", ".join(counts) + f" of {len(rows)}")
        lines.append(f"{name} vs {base} ({primary}): " + "; ".join(parts))
    return lines


def noise_notes(comparison):
    rows = comparison["rows"]
    bases = {row.judgement.basis for row in rows}
    notes = [CONVENTION]
    if any(len(r.base_values) > 1 or len(r.other_values) > 1 for r in rows):
        notes.append("a side measured several times (--repeat, several "
                     "results of one side) shows the geometric mean of the "
                     "repetitions judged (disturbed ones left out: 3 of 5), "
                     "over several invocations the geometric mean of each "
                     "invocation's: the figures the ratio is taken between, "
                     "not the mean of all ops that diskio's table shows")
    if "search" in bases:
        notes.append(
            "capacity (diskio --target): the ratio of the highest offered "
            "rates that met the target; its interval is what the searches "
            "allow, from the other side's answer over the baseline's lowest "
            "rate that missed to the other's lowest rate that missed over "
            "the baseline's answer (open above when a side missed no rate "
            "above its answer)")
    if "unrepeated" in bases:
        notes.append(
            "one value on a side: the run-to-run noise is unknown, so only "
            f"a change beyond {noise.UNREPEATED_NOISE:.0%} is called and "
            "nothing is shown the same; give each side several repetitions "
            f"(diskio --repeat {noise.FIRST_REPEAT}) for an interval")
    band = comparison["min_change"]
    notes.append(f"slower/faster: the {noise.CONFIDENCE:.0%} interval lies "
                 f"beyond ±{band:.0%}; same: the {1 - 2 * noise.ALPHA:.0%} "
                 f"interval lies within ±{band:.0%} (equivalence, two one-"
                 f"sided tests at {noise.ALPHA:.0%}); inconclusive: neither, "
                 "and where its interval holds 1 no ratio is shown (-): the "
                 "interval is the answer")
    notes.extend(advice.explanations(
        {r.judgement.advice.kind for r in rows
         if r.judgement.verdict == "inconclusive" and r.judgement.advice}))
    widened = sorted({note for row in rows for note in row.judgement.notes})
    notes.extend(widened)
    if any(row.judgement.left_out for row in rows):
        notes.append("disturbed repetitions were left out where at least "
                     f"{noise.MIN_CLEAN} undisturbed ones remained (see the "
                     "table's notes)")
    return notes


def verdict_cell(judgement):
    """inconclusive: --repeat 12 (advice.cell), disturbed (slower if
    not)."""
    if judgement.verdict == "inconclusive":
        return advice.cell(judgement.advice)
    if judgement.verdict == "disturbed":
        return f"disturbed ({judgement.undisturbed_verdict} if not)"
    return judgement.verdict


def table_rows(rows):
    """Each row's figures as the ratio took them (advice.side_cell)."""
    return [(run_label(r.run) + (" (steady)" if r.steady else ""), r.metric,
             advice.side_cell(r.judgement, "baseline", len(r.base_values),
                              lambda v, u=r.unit: fmt_measure(v, u)),
             advice.side_cell(r.judgement, "other", len(r.other_values),
                              lambda v, u=r.unit: fmt_measure(v, u)),
             advice.ratio_cell(r.judgement),
             fmt_interval(r.judgement), verdict_cell(r.judgement))
            for r in rows]


def row_notes(rows):
    """What the table's verdicts rest on beyond the interval: disturbed
    sides, repetitions left out, what a row below the machine's
    resolution would take."""
    lines = []
    for r in rows:
        j = r.judgement
        label = f"{run_label(r.run)} {r.metric}"
        if j.verdict == "disturbed":
            lines.append(f"{label}: disturbed, not judged: {j.disturbed}")
        if j.verdict == "inconclusive" and j.advice and \
                j.advice.kind == "resolution":
            lines.append(advice.resolution_note(label, j))
        for side, count in j.left_out.items():
            name = (r.environment if side == "other" else "the baseline")
            lines.append(f"{label}: {count} disturbed repetition"
                         f"{'s' if count > 1 else ''} of {name} left out, "
                         f"{j.n_base if side == 'baseline' else j.n_other} "
                         "undisturbed ones judged")
    return lines


def other_lines(comparison):
    lines = row_notes(comparison["rows"])
    for have, key, lacks in comparison["missing"]:
        lines.append(f"{run_label(key)}: only in {have}, not in {lacks}")
    for env in comparison["environments"]:
        lines.extend(env.notes)
    return lines


def render_text(comparison):
    """Every line shown() (text_table shows each cell)."""
    out = [shown(line) for line in summary_lines(comparison)]
    out += [f"  ({note})" for note in noise_notes(comparison)]
    base = comparison["baseline"].name
    for name, rows in by_environment(comparison).items():
        out += ["", shown(f"{name} vs {base}")]
        out += text_table(header(base, name), table_rows(rows))
    extra = other_lines(comparison)
    if extra:
        out += ["", "notes:"] + [f"  {shown(line)}" for line in extra]
    return "\n".join(out) + "\n"


def render_markdown(comparison):
    """Each summary line a list item, each note its own paragraph (never
    run together), each environment's table a GFM table."""
    blocks = [Heading(1, "diskio-compare"), Items(summary_lines(comparison))]
    blocks += [Para(note) for note in noise_notes(comparison)]
    base = comparison["baseline"].name
    for name, rows in by_environment(comparison).items():
        blocks += [Heading(2, f"{name} vs {base}"),
                   Table(header(base, name), table_rows(rows))]
    extra = other_lines(comparison)
    if extra:
        blocks += [Heading(2, "Notes"), Items(extra)]
    return draw_markdown(blocks)


def row_record(row, base):
    return {
        "environment": row.environment, "baseline": base,
        "run": row.run.as_dict(),
        "run_label": run_label(row.run), "metric": row.metric,
        "steady": row.steady,
        "unit": row.unit, "higher_is_better": row.higher_is_better,
        "baseline_values": row.base_values, "other_values": row.other_values,
        "baseline_value": row.judgement.base_value,
        "other_value": row.judgement.other_value,
        "baseline_n": row.judgement.n_base, "other_n": row.judgement.n_other,
        "baseline_invocations": row.judgement.k_base,
        "other_invocations": row.judgement.k_other,
        "ratio": row.judgement.ratio,
        "interval": (None if row.judgement.low is None
                     else [row.judgement.low, row.judgement.high]),
        "interval_90": (None if row.judgement.low90 is None
                        else [row.judgement.low90, row.judgement.high90]),
        "basis": row.judgement.basis, "verdict": row.judgement.verdict,
        "more_repetitions": row.judgement.more,
        "advice": advice_record(row.judgement),
        "left_out": row.judgement.left_out,
        "disturbed": row.judgement.disturbed,
        "undisturbed_verdict": row.judgement.undisturbed_verdict,
        "notes": row.judgement.notes}


def advice_record(judgement):
    """An inconclusive row's advice (noise.Advice) and its cell; None
    for the others."""
    a = judgement.advice
    if judgement.verdict != "inconclusive" or a is None:
        return None
    return {"kind": a.kind, "repeat": a.repeat, "invocations": a.invocations,
            "more": a.more, "resolves": a.resolves,
            "resolves_at_cap": a.resolves_at_cap, "text": advice.cell(a)}


def render_json(comparison):
    base = comparison["baseline"].name
    doc = {
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION,
        "baseline": base, "min_change": comparison["min_change"],
        "confidence": noise.CONFIDENCE,
        "equivalence_alpha": noise.ALPHA,
        "summary": summary_lines(comparison),
        "environments": [{"name": env.name,
                          "results": [r.path for r in env.results],
                          "notes": env.notes}
                         for env in comparison["environments"]],
        "comparisons": [row_record(r, base) for r in comparison["rows"]],
        "missing": [{"run_label": run_label(key), "only_in": have,
                     "not_in": lacks}
                    for have, key, lacks in comparison["missing"]],
        # runs left out of every verdict: O_DIRECT the filesystem buffered
        "not_direct": [{"environment": n.environment,
                        "run_label": run_label(n.run), "on": list(n.on),
                        "note": n.note}
                       for n in comparison.get("not_direct", [])]}
    return json_text(json.dumps(doc, indent=2, ensure_ascii=False,
                                allow_nan=False)) + "\n"


CSV_HEADER = ("environment", "baseline", "run", "metric", "unit",
              "baseline_value", "other_value", "baseline_n", "other_n",
              "ratio", "interval_low", "interval_high", "verdict",
              "more_repetitions", "disturbed", "advice")


def render_csv(comparison):
    """One row per ratio; the names in it as shown()."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    base = comparison["baseline"].name
    for r in comparison["rows"]:
        j = r.judgement
        writer.writerow((shown(r.environment), shown(base),
                         shown(run_label(r.run)), r.metric,
                         r.unit, f"{j.base_value:.6g}",
                         f"{j.other_value:.6g}", j.n_base, j.n_other,
                         f"{j.ratio:.6g}",
                         "" if j.low is None else f"{j.low:.6g}",
                         "" if j.high is None else f"{j.high:.6g}", j.verdict,
                         "" if j.more is None else j.more,
                         j.disturbed or "",
                         advice.cell(j.advice) if j.verdict == "inconclusive"
                         else ""))
    return out.getvalue()


RENDERERS = {"text": render_text, "markdown": render_markdown,
             "csv": render_csv, "json": render_json}
