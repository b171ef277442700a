# SPDX-License-Identifier: MIT
"""When is a ratio a change?  The statistics behind diskio-compare's
slower / faster / same, standard library only.

Ratios are taken between geometric means and judged on the log scale,
where "2x slower" and "2x faster" are the same distance from 1 and
repetitions of a latency are closer to normal than on the linear scale.
With at least two values on each side, the ratio gets a Welch t interval
(unequal variances, Welch-Satterthwaite degrees of freedom).  A change is
called only when the whole interval lies beyond the smallest change the
user cares about (min_change): "with 95% confidence it changed by more
than 5%".  Anything else is "same": the interval is shown so that a wide
one can be seen for what it is.  With one value on a side there is no
interval; the run-to-run noise is unknown, and only a ratio beyond
UNREPEATED_NOISE is called a change (pyperf's compare_to needs repeated
values too; diskio --repeat or several results per environment give them).
"""

import math
from dataclasses import dataclass

CONFIDENCE = 0.95
DEFAULT_MIN_CHANGE = 0.05
# Without repetitions: what two runs of one disk commonly differ by on a
# shared machine (fsync latency drifts with the journal and the host).
UNREPEATED_NOISE = 0.25


@dataclass
class Judgement:
    ratio: float            # geometric mean other / geometric mean baseline
    low: float = None       # the interval, None without repetitions
    high: float = None
    verdict: str = "same"   # "slower", "faster" or "same"
    basis: str = "interval"  # "interval" | "unrepeated" | "identical"


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _log_beta_cf(a, b, x):
    """Continued fraction of the regularised incomplete beta function
    (modified Lentz), as in Numerical Recipes' betacf."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a, b, x):
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _log_beta_cf(a, b, x) / a
    return 1.0 - front * _log_beta_cf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t) for Student's t with df (not necessarily integer)."""
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p, df):
    """The t with P(T <= t) = p, by bisection on t_cdf (p in (0.5, 1))."""
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2.0


def log_ratio_interval(base, other, confidence=CONFIDENCE):
    """(log ratio, half width) of mean(ln other) - mean(ln base), Welch;
    half width None with fewer than two values on a side."""
    lb = [math.log(v) for v in base]
    lo = [math.log(v) for v in other]
    mb, mo = sum(lb) / len(lb), sum(lo) / len(lo)
    if len(lb) < 2 or len(lo) < 2:
        return mo - mb, None
    vb = sum((x - mb) ** 2 for x in lb) / (len(lb) - 1) / len(lb)
    vo = sum((x - mo) ** 2 for x in lo) / (len(lo) - 1) / len(lo)
    if vb + vo == 0.0:
        return mo - mb, 0.0
    df = (vb + vo) ** 2 / (vb ** 2 / (len(lb) - 1) + vo ** 2 / (len(lo) - 1))
    return mo - mb, t_quantile(0.5 + confidence / 2.0, df) * math.sqrt(vb + vo)


def judge(base, other, higher_is_better=False, min_change=DEFAULT_MIN_CHANGE,
          confidence=CONFIDENCE):
    """Judge other's values against base's (positive numbers, one per
    repetition).  The verdict speaks of speed: a higher latency is
    "slower", a higher throughput (higher_is_better) is "faster"."""
    if not base or not other or min(base) <= 0 or min(other) <= 0:
        raise ValueError("judge() needs positive values on both sides")
    log_ratio, half = log_ratio_interval(base, other, confidence)
    ratio = math.exp(log_ratio)
    band = math.log1p(min_change)
    if half is None:
        judgement = Judgement(ratio, basis="unrepeated")
        band = max(band, math.log1p(UNREPEATED_NOISE))
        low_log = high_log = log_ratio
    else:
        judgement = Judgement(ratio, math.exp(log_ratio - half),
                              math.exp(log_ratio + half))
        low_log, high_log = log_ratio - half, log_ratio + half
        if half == 0.0 and log_ratio == 0.0:
            judgement.basis = "identical"
    # A ratio exactly at the edge of the band is not beyond it, however
    # the logarithms of its two values round.
    band += 1e-12
    if low_log > band:
        worse = not higher_is_better
    elif high_log < -band:
        worse = higher_is_better
    else:
        return judgement
    judgement.verdict = "slower" if worse else "faster"
    return judgement


def speed_factor(ratio, higher_is_better=False):
    """How many times slower (>1) or faster (<1) a ratio means."""
    return 1.0 / ratio if higher_is_better else ratio
