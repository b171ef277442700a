# SPDX-License-Identifier: MIT
"""Which disk metrics a phase's change is consistent with.

A phase that took r_p times as long is consistent with a metric whose
normalized ratio r_m moved the same way, beyond its noise, if a share s
of the baseline's phase time was spent in what the metric measures and
only that changed:  r_p = (1 − s) + s × r_m,  so  s = (r_p − 1)/(r_m − 1).
The smaller s, the less the hypothesis asks; s above 1 asks for more than
the whole phase, which is implausible.  Candidates are ranked by s.
Metrics shown "same" (their interval inside the band), whatever their
ratio, are not candidates; nor are the "inconclusive" and "disturbed"
ones, which the data cannot place (they are counted as undecided); metrics
that moved the other way are named as such.  The wording is "consistent
with", never "explains": a ratio that matches proves no cause."""

from ..ratios import fmt_factor, fmt_ratio_word

MAX_NAMED = 2           # candidates named in a verdict line


def implied_share(phase_ratio, metric_ratio):
    """s with phase_ratio = 1 + s × (metric_ratio − 1)."""
    return (phase_ratio - 1.0) / (metric_ratio - 1.0)


def metric_mode(name):
    """The diskio mode a metric name measures: fdatasync@wal-jobs4.mean_us
    -> fdatasync."""
    return name.split(".", 1)[0].split("@", 1)[0]


def analyse_phase(phase, phase_row, metric_rows, discipline=None):
    """The candidates, the metrics that moved the other way, those within
    noise and those not in both environments, and the verdict line.
    discipline: the diskio mode of the sync PostgreSQL used (its
    wal_sync_method's): a plausible candidate of it is named first,
    whatever the others' shares."""
    direction = phase_row["verdict"]
    groups = {"candidates": [], "other_direction": [], "moved": [],
              "same": [], "undecided": [], "not_compared": []}
    for name, row in metric_rows.items():
        if row["verdict"] is None:
            groups["not_compared"].append(name)
        elif row["verdict"] == "same":
            groups["same"].append(name)
        elif row["verdict"] in ("inconclusive", "disturbed"):
            groups["undecided"].append(name)
        elif direction == "same":
            groups["moved"].append(name)
        elif row["verdict"] == direction:
            share = implied_share(phase_row["ratio"], row["normalized_ratio"])
            groups["candidates"].append({
                "metric": name,
                "ratio": row.get("ratio", row["normalized_ratio"]),
                "higher_is_better": row.get("higher_is_better", False),
                "normalized_ratio": row["normalized_ratio"],
                "share": share, "plausible": share <= 1.0,
                "discipline": discipline is not None and
                metric_mode(name) == discipline})
        else:
            groups["other_direction"].append(name)
    groups["candidates"].sort(
        key=lambda c: (not (c["plausible"] and c["discipline"]), c["share"]))
    if direction in ("inconclusive", "disturbed"):
        # the phase's own rounds cannot tell (or were disturbed): nothing
        # is weighed against it
        groups["moved"] += [c["metric"] for c in groups["candidates"]]
        groups["moved"] += groups["other_direction"]
        groups["candidates"], groups["other_direction"] = [], []
        conclusion = "undecided"
    elif direction == "same":
        conclusion = "nothing to explain"
    elif any(c["plausible"] for c in groups["candidates"]):
        conclusion = "consistent"
    else:
        conclusion = "none"
    analysis = {"ratio": phase_row["ratio"], "direction": direction,
                "conclusion": conclusion, **groups}
    analysis["verdict"] = verdict_text(phase, phase_row, analysis)
    return analysis


def fmt_share(share):
    """55%, 0.016%, 1500%."""
    return f"{100 * share:.2g}%" if share < 0.1 else f"{share:.0%}"


def phase_head(phase, phase_row):
    ratio = phase_row["ratio"]
    if phase_row["verdict"] == "disturbed":
        return (f"{phase}: {fmt_factor(ratio)}, disturbed ({phase_row['disturbed']}): "
                "not judged")
    if phase_row["verdict"] == "inconclusive":
        more = phase_row.get("more_repetitions")
        return (f"{phase}: {fmt_factor(ratio)}, inconclusive: its rounds disagree too "
                "much to tell" + (f" ({more} more rounds would decide: raise "
                                  "diskio-pgphases --rounds)" if more else ""))
    if phase_row["verdict"] in ("slower", "faster"):
        return f"{phase}: {fmt_ratio_word(ratio)}"
    return (f"{phase}: same ({fmt_factor(ratio)}, within "
            f"{phase_row['min_change']:.0%})")


def candidate_ratio(c):
    """A candidate's B/A ratio; a throughput's with its word."""
    ratio = c.get("ratio", c["normalized_ratio"])
    return (fmt_ratio_word(ratio, True) if c.get("higher_is_better")
            else fmt_factor(ratio))


def candidate_text(c, what):
    """A candidate's B/A ratio and what it asks of the phase: fsync.mean_us
    1.51× (needs 59%); a throughput's with its word, which a time's takes
    from the phase it moved with: write.mb_per_s 0.66× (slower, needs
    59%)."""
    if c.get("higher_is_better"):
        return f"{c['metric']} {candidate_ratio(c)[:-1]}, {what})"
    ratio = c.get("ratio", c["normalized_ratio"])
    return f"{c['metric']} {fmt_factor(ratio)} ({what})"


def named(items, most, describe):
    shown = ", ".join(describe(item) for item in items[:most])
    more = len(items) - most
    return shown + (f" and {more} more" if more > 0 else "")


def verdict_text(phase, phase_row, analysis):
    head = phase_head(phase, phase_row)
    if analysis["conclusion"] == "undecided":
        return head
    if analysis["conclusion"] == "nothing to explain":
        moved = analysis["moved"]
        return head + ("; nothing to explain" + (
            f" ({named(moved, MAX_NAMED, str)} changed without it)"
            if moved else ""))
    plausible = [c for c in analysis["candidates"] if c["plausible"]]
    implausible = [c for c in analysis["candidates"] if not c["plausible"]]
    if plausible:
        text = head + "; consistent with " + named(
            plausible, MAX_NAMED,
            lambda c: candidate_text(c, f"needs {fmt_share(c['share'])}"))
    else:
        text = head + "; no disk metric moved enough to explain this phase"
        if implausible:
            c = implausible[0]
            text += (f" ({c['metric']} {candidate_ratio(c)} would "
                     f"need {fmt_share(c['share'])} of it: implausible)")
    if analysis["other_direction"]:
        text += (f"; {named(analysis['other_direction'], 2, str)} moved the "
                 "other way")
    return text
