# SPDX-License-Identifier: MIT
"""The one ratio convention of every report and chart: B/A.

Every ratio shown is the other environment's value over the baseline's
(B/A), whatever the quantity, as the seed study's Table 4 reads (load
0.93, power 0.90, throughput 0.89, fsync 0.74, async 1.44).  The word
beside it is derived from it, once, here: for a time (a latency, a
phase's duration) a B/A above 1 is "slower" and below 1 "faster"; for a
throughput (MB/s, ops/s, IOPS: higher is better) the other way round.
So fsync 0.74x is faster and MB/s 0.89x is slower, and no screen shows
1.35x for what another shows as 0.74x."""

import math

TIMES = "\u00d7"        # ×

CONVENTION = ("ratios are B/A, the other environment's value over the "
              "baseline's: for a time (latency, phase) above 1 is slower, "
              "for a throughput (MB/s, ops/s) above 1 is faster")


def direction(ratio, higher_is_better=False):
    """'slower' or 'faster' as a B/A ratio of a time (higher_is_better
    False) or of a throughput (True) says; 'equal' at exactly 1, None
    for no ratio."""
    if ratio is None or not math.isfinite(ratio) or ratio <= 0:
        return None
    if ratio == 1.0:
        return "equal"
    return "slower" if (ratio > 1.0) != higher_is_better else "faster"


def fmt_factor(ratio):
    """A B/A ratio as a factor: 0.74×, 1.35×, 12.50×, 528×, 0.014×,
    0.0042×; n/a for none."""
    if ratio is None or not math.isfinite(ratio):
        return "n/a"
    if ratio >= 100:
        return f"{ratio:.0f}{TIMES}"
    if ratio >= 0.1:
        return f"{ratio:.2f}{TIMES}"
    return f"{ratio:.2g}{TIMES}"


def fmt_ratio_word(ratio, higher_is_better=False):
    """A B/A ratio and the word derived from it: 0.74× (faster) for a
    latency, 0.89× (slower) for a throughput."""
    word = direction(ratio, higher_is_better)
    text = fmt_factor(ratio)
    return text if word in (None, "equal") else f"{text} ({word})"


def fmt_interval(low, high):
    """An interval of B/A ratios: 0.70-0.79×; n/a without one."""
    if low is None or high is None:
        return "n/a"
    return f"{fmt_factor(low)[:-1]}-{fmt_factor(high)}"


def distance(ratio):
    """How far from 1 a ratio is, the same each way (2× and 0.5× alike):
    for putting the largest changes first."""
    return abs(math.log(ratio)) if ratio and ratio > 0 else 0.0
