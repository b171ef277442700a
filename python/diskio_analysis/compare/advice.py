# SPDX-License-Identifier: MIT
"""What an inconclusive verdict asks for, in words a person can follow:
the option to add and how much (diskio --repeat N, or N invocations a
side), never more than noise.MAX_REPEAT repetitions or
noise.MAX_INVOCATIONS invocations; beyond them, the smallest change this
machine resolves.  And the figures a table shows beside a verdict: the
geometric means the ratio was taken between, and the ratio itself only
where it does not lean towards a verdict the interval does not give."""

from .. import noise
from ..ratios import fmt_factor, fmt_interval


def pct(fraction):
    """A change either way: 0.383 -> '±38%', 0.052 -> '±5.2%', and from
    a doubling on as a factor, 29.5 -> '×30.5'."""
    if fraction >= 1.0:
        return f"×{1.0 + fraction:.3g}"
    return f"±{fraction:.0%}" if fraction >= 0.095 else f"±{100 * fraction:.1f}%"


def cell(advice):
    """The table's verdict cell of an inconclusive row: inconclusive:
    --repeat 12, inconclusive: 4 invocations, inconclusive: below ±38%."""
    if advice is None:
        return "inconclusive"
    if advice.kind in ("repeat", "unrepeated"):
        return f"inconclusive: --repeat {advice.repeat}"
    if advice.kind == "invocations":
        return (f"inconclusive: {advice.invocations} invocations"
                + ("" if advice.repeat is None else
                   f" of --repeat {advice.repeat}"))
    return f"inconclusive: below {pct(advice.resolves)}"


def explanations(kinds):
    """One line per kind of advice present, saying what its cell asks
    (one value a side has its note already: render.noise_notes)."""
    lines = {
        "repeat": "inconclusive: --repeat N: measure each side again with "
                  "diskio --repeat N (an invocation of N repetitions in "
                  "place of each one): that would decide it",
        "invocations": "inconclusive: N invocations: more repetitions in "
                       f"one invocation would not decide (not even "
                       f"{noise.MAX_REPEAT}: they share the invocation's "
                       "moment); measure each side in N invocations of the "
                       "same --repeat (or the --repeat said), at other "
                       "times, interleaved with the other side's, and name "
                       "each side's results alike (A=a1.json A=a2.json) or "
                       "give them one --label",
        "resolution": "inconclusive: below ±X%: the smallest change called "
                      "with these repetitions is ±X% (×F: by a factor F "
                      "either way), and the difference "
                      "measured is smaller; neither "
                      f"{noise.MAX_REPEAT} repetitions nor "
                      f"{noise.MAX_INVOCATIONS} invocations a side would "
                      "decide it (see the notes for what they would resolve)",
    }
    return [lines[kind] for kind in ("repeat", "invocations", "resolution")
            if kind in kinds]


def summary(rows):
    """The inconclusive rows' advice in one parenthesis, or ''."""
    advice = [r.judgement.advice for r in rows if r.judgement.advice]
    parts = []
    repeat = [a.repeat for a in advice if a.kind == "repeat"]
    if repeat:
        parts.append(f"diskio --repeat {max(repeat)} on each side would "
                     f"decide {len(repeat)}")
    unrepeated = [a for a in advice if a.kind == "unrepeated"]
    if unrepeated:
        parts.append(f"{len(unrepeated)} measured once a side: diskio "
                     f"--repeat {noise.FIRST_REPEAT} gives an interval")
    invocations = [a for a in advice if a.kind == "invocations"]
    if invocations:
        repeat = [a.repeat for a in invocations if a.repeat is not None]
        parts.append(f"{max(a.invocations for a in invocations)} invocations "
                     "a side" + (f" of --repeat {max(repeat)}" if repeat else "")
                     + f" would decide {len(invocations)}")
    below = [a.resolves for a in advice if a.kind == "resolution"]
    if below:
        parts.append(f"{len(below)} below what this machine resolves: "
                     f"{pct(min(below))} or more with these repetitions")
    return f" ({'; '.join(parts)})" if parts else ""


def resolution_note(label, judgement):
    """A row beyond the caps: what it would take and what the machine
    resolves, now and at the caps."""
    a = judgement.advice
    return (f"{label}: {fmt_interval(judgement.low, judgement.high)} "
            f"(measured {judgement.ratio - 1:+.1%}): below what this machine "
            f"resolves: a change must exceed {pct(a.resolves)} to be called "
            f"with these repetitions, {pct(a.resolves_at_cap)} with "
            f"{noise.MAX_INVOCATIONS} invocations of {noise.MAX_REPEAT} "
            "repetitions a side")


def leans(judgement):
    """Whether a point ratio would lean towards a verdict the interval
    does not give: an undecided row whose interval holds 1, or that has
    none."""
    verdict = judgement.undisturbed_verdict or judgement.verdict
    if verdict in ("slower", "faster", "same"):
        return False
    return judgement.low is None or judgement.low <= 1.0 <= judgement.high


def ratio_cell(judgement):
    """The ratio, or '-' where it leans (the interval beside it is the
    answer)."""
    return "-" if leans(judgement) else fmt_factor(judgement.ratio)


def side_cell(judgement, side, given, fmt):
    """The figure the ratio was taken from on one side (side "baseline"
    or "other"), as fmt shows it, and what it is of: 101 us (geomean of
    3), 235 us (geomean of 3 of 5), 884 us (geomean of 2 invocations, 6
    reps).  given: how many values the side had before disturbed ones
    were left out."""
    value, n, k = ((judgement.base_value, judgement.n_base, judgement.k_base)
                   if side == "baseline" else
                   (judgement.other_value, judgement.n_other, judgement.k_other))
    text = fmt(value)
    if given == 1:
        return text
    reps = f"{n}" if n == given else f"{n} of {given}"
    if 1 < k < n:
        return f"{text} (geomean of {k} invocations, {reps} reps)"
    return f"{text} (geomean of {reps})"
