# SPDX-License-Identifier: MIT
"""How the reports show numbers: values with their unit, ratios,
shares, seconds, intervals; "n/a" for what is not there, so that nothing
prints as a bare null.  Ratios follow ratios.py (B/A, the word derived
from it)."""

from ..ratios import fmt_factor, fmt_interval as ratio_interval


def fmt_value(value, unit):
    """Four significant digits, three below 1 (a value that rounds up
    to the next power of ten gets its format: 1000, not 1000.0)."""
    if value is None:
        return "n/a"
    size = abs(value)
    digits = (0 if size >= 999.95 else 1 if size >= 99.995 else
              2 if size >= 0.9995 else 3)
    text = f"{value:.{digits}f}"
    return f"{text} {unit}" if unit else text


def fmt_ratio(value):
    return "n/a" if value is None else f"{value:.2f}"


def fmt_times(value):
    """A B/A ratio as a factor: 1.51× (ratios.fmt_factor)."""
    return fmt_factor(value)


def fmt_corr(value):
    return "n/a" if value is None else f"{value:+.2f}"


def fmt_share(value):
    if value is None:
        return "n/a"
    if 0 < abs(value) < 1e-5:
        return "<0.001%"
    if abs(value) < 0.01:
        return f"{100.0 * value:.2g}%"
    return f"{100.0 * value:.1f}%"


def fmt_seconds(value):
    """Predictions differ from the baseline by little: keep milliseconds."""
    return "n/a" if value is None else f"{value:.3f} s"


def fmt_signed_seconds(value):
    return "n/a" if value is None else f"{value:+.3f} s"


def fmt_interval(interval):
    """An interval of B/A ratios, [low, high]: 0.85-1.10×."""
    return "n/a" if not interval else ratio_interval(*interval)


def fmt_count(value):
    """5000; an estimated count keeps three digits: 0.101."""
    if value is None:
        return "n/a"
    return f"{value:.0f}" if value == int(value) else f"{value:.3g}"
