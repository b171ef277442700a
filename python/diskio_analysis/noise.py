# SPDX-License-Identifier: MIT
"""When is a ratio a change, and when is it shown to be none?  The
statistics behind every slower / faster / same / inconclusive / disturbed
verdict of diskio-compare and diskio-correlate.

Ratios are taken between means of log values (geometric means) and judged
on the log scale, where "2x slower" and "2x faster" are the same distance
from 1 and repetitions of a latency are closer to normal than on the
linear scale.  With min_change the smallest change the user cares about
(the band ±log(1 + min_change)):

- slower / faster: the whole 95% interval (two-sided, Welch t) of the
  ratio lies beyond the band on one side;
- same: an equivalence test, Lakens' TOST (two one-sided tests at
  alpha = 0.05): the whole 90% (1 - 2 alpha) interval lies inside the
  band, so that both "it is slower by min_change or more" and "faster by
  min_change or more" are rejected at 5%;
- inconclusive: anything else, with about how many more repetitions per
  side would decide, from the observed spread (the variance of each side's
  mean shrinking as 1 / n, the same point estimate);
- disturbed: a side had too few undisturbed repetitions left (fewer than
  MIN_CLEAN) after its disturbed ones (diskio's interference flags) were
  left out; the verdict the numbers alone give is kept beside it.

Noise comes from two levels.  Repetitions of one invocation of diskio share
what stays fixed for that invocation (the file's place on the disk, the
cache, the host's moment), so several invocations (several result files
with one label) are treated as a two-level sample: the variance of a side's
mean is s_B^2 / k + s_W^2 / N (k invocations, N repetitions; s_W^2 the
pooled variance within invocations, s_B^2 = var(invocation means) - s_W^2
/ n, at least 0), with Welch-Satterthwaite degrees of freedom over the
components.  A side whose repetitions all come from one invocation within
SHORT_SPAN_S cannot show its between-invocation noise: its variance gets
a default added (a known component, measured on a 2-CPU VM by
bench/verdict-calibration; doc/verdicts.md): QUIET_BETWEEN_INVOCATION_NOISE^2
when every repetition saw the other CPUs less than half busy, else
BETWEEN_INVOCATION_NOISE^2; the verdict says which.  Values given without
their invocation (plain numbers) are taken as independent repetitions.

The t quantiles are scipy.stats.t's (scipy.special.stdtrit, imported when
a verdict first needs one); means, variances and geometric means the
standard library's statistics'.
"""

import datetime
import math
import statistics
from dataclasses import dataclass, field

CONFIDENCE = 0.95               # slower / faster: the 95% interval
ALPHA = 0.05                    # same: TOST at 5%, the 90% interval
DEFAULT_MIN_CHANGE = 0.05
# Without repetitions: what two runs of one disk commonly differ by on a
# shared machine (fsync latency drifts with the journal and the host).
UNREPEATED_NOISE = 0.25
# The standard deviation of log(mean latency) between separate
# invocations of diskio on one filesystem beyond the spread within them,
# measured by bench/verdict-calibration on a 2-CPU VM (doc/verdicts.md):
# 0.32 while other work kept the CPUs busy, 0.082 on the quiet machine.
# A side is "on a quiet machine" when the median of its repetitions'
# other CPUs (others' busy CPU time over the wall time, as a share of the
# machine's CPUs) is below QUIET_CPU_SHARE: quiet A/A sides measured 0.17,
# a side with one busy loop beside it 0.72, the busy machine 0.98.  The
# quiet default is the measured 0.082 rounded up.
BETWEEN_INVOCATION_NOISE = 0.32
QUIET_BETWEEN_INVOCATION_NOISE = 0.10
QUIET_CPU_SHARE = 0.5
# Repetitions of one invocation spanning less than this are "a short
# span": they cannot show a drift between invocations.
SHORT_SPAN_S = 600.0
# Undisturbed repetitions a side needs for its disturbed ones to be left
# out; with fewer the verdict is "disturbed".
MIN_CLEAN = 3
# More repetitions than this per side are not offered as a way to decide.
MAX_MORE = 1000

VERDICTS = ("slower", "faster", "same", "inconclusive", "disturbed")


@dataclass
class Sample:
    """One repetition's value, where it came from (invocation: the result
    file, None when unknown), when it ran (start: seconds since the epoch,
    None when unknown) and why it was disturbed (messages; empty: it was
    not)."""
    value: float
    invocation: str | None = None
    start: float | None = None
    disturbed: tuple = ()
    # others' busy CPUs over the machine's CPUs while it ran (0..1); None
    # when unknown
    other_cpu_share: float | None = None


@dataclass
class SideNoise:
    """One side's mean and its variance on the log scale."""
    n: int
    invocations: int
    mean: float
    var_components: list        # [(variance of the mean, degrees of freedom)]
    widened: bool = False       # one invocation in a short span
    between: float | None = None  # the default it was widened by
    span_s: float | None = None  # from its first repetition's start to its last

    @property
    def var(self):
        return sum(v for v, _ in self.var_components)


@dataclass
class Judgement:
    ratio: float            # geometric mean other / geometric mean baseline
    low: float | None = None  # the 95% interval; None without repetitions
    high: float | None = None
    low90: float | None = None  # the 90% interval (the equivalence test's)
    high90: float | None = None
    verdict: str = "inconclusive"
    basis: str = "interval"  # "interval" | "unrepeated" | "identical"
    # inconclusive: about this many more repetitions per side would
    # decide (None: more than MAX_MORE, or no spread to tell from)
    more: int | None = None
    # disturbed repetitions left out, per side ("baseline", "other")
    left_out: dict = field(default_factory=dict)
    # the verdict is "disturbed": which side, why ("b: 58% of vda's I/O was
    # not diskio's"), and what the numbers alone say
    disturbed: str | None = None
    undisturbed_verdict: str | None = None
    # sides widened by the default between-invocation noise, in words
    notes: list = field(default_factory=list)
    n_base: int = 0
    n_other: int = 0


# ---------------------------------------------------------------- t

def t_quantile(p, df):
    """The t with P(T <= t) = p (p in (0.5, 1)) for df degrees of freedom
    (any real df > 0; math.inf for the normal): scipy.stats.t's, from
    scipy.special.stdtrit, the function scipy.stats.t.ppf calls."""
    if math.isinf(df) or df > 1e7:
        return statistics.NormalDist().inv_cdf(p)
    # imported here, and scipy.special rather than scipy.stats: every
    # command starts without scipy (--help, --version, a comparison of
    # single values never needs it), and a t quantile costs scipy.special's
    # import (about 0.1 s), not scipy.stats' (0.3 to 0.6 s)
    from scipy.special import stdtrit
    return float(stdtrit(df, p))


# ---------------------------------------------------------------- sides

def as_samples(values):
    return [v if isinstance(v, Sample) else Sample(float(v)) for v in values]


def parse_start(text):
    """An ISO 8601 time as diskio writes it ("2026-11-27T11:10:33.988Z")
    in seconds since the epoch, or None."""
    if not text:
        return None
    try:
        return datetime.datetime.fromisoformat(
            text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _satterthwaite(components):
    total = sum(v for v, _ in components)
    denom = sum(v * v / df for v, df in components if v > 0 and not math.isinf(df))
    if total <= 0:
        return math.inf
    return math.inf if denom == 0 else total * total / denom


def side_noise(samples):
    """The mean of log values of one side and the variance of that mean,
    from its invocations (module docstring)."""
    logs = {}
    order = []
    for i, s in enumerate(samples):
        key = s.invocation if s.invocation is not None else ("#", i)
        if key not in logs:
            logs[key] = []
            order.append(key)
        logs[key].append(math.log(s.value))
    groups = [logs[k] for k in order]
    n = len(samples)
    k = len(groups)
    known = any(s.invocation is not None for s in samples)
    starts = [s.start for s in samples if s.start is not None]
    span = max(starts) - min(starts) if len(starts) == n and starts else None
    if not known:
        # plain numbers: independent repetitions
        values = [v for g in groups for v in g]
        mean = statistics.fmean(values)
        comps = [(statistics.variance(values) / n, n - 1)] if n > 1 else []
        return SideNoise(n, n, mean, comps, span_s=span)
    means = [statistics.fmean(g) for g in groups]
    mean = statistics.fmean(means)
    within_df = n - k
    s_w2 = (sum(sum((v - m) ** 2 for v in g) for g, m in zip(groups, means))
            / within_df) if within_df > 0 else None
    comps = []
    if k >= 2:
        var_means = statistics.variance(means)
        n_bar = n / k
        s_b2 = var_means - (s_w2 / n_bar if s_w2 is not None else 0.0)
        if s_b2 > 0:
            comps.append((s_b2 / k, k - 1))
        if s_w2 is not None:
            comps.append((s_w2 / n, within_df))
        elif s_b2 <= 0:
            comps.append((var_means / k, k - 1))
        return SideNoise(n, k, mean, comps, span_s=span)
    # one invocation
    if s_w2 is not None:
        comps.append((s_w2 / n, within_df))
    side = SideNoise(n, 1, mean, comps, span_s=span)
    if n > 1 and (span is None or span < SHORT_SPAN_S):
        side.between = default_between_noise(samples)
        side.var_components.append((side.between ** 2, math.inf))
        side.widened = True
    return side


def default_kind(between):
    return ("a quiet machine's: the other CPUs were less than half busy"
            if between == QUIET_BETWEEN_INVOCATION_NOISE else
            "a busy machine's: the other CPUs were half busy or more, or not recorded")


def default_between_noise(samples):
    """The default between-invocation noise for a side of one invocation:
    the quiet machine's when every repetition says how busy the other
    CPUs were and their median share is below QUIET_CPU_SHARE, else the
    busy machine's (unknown counts as busy)."""
    shares = [s.other_cpu_share for s in samples]
    if shares and all(v is not None for v in shares) and \
            statistics.median(shares) < QUIET_CPU_SHARE:
        return QUIET_BETWEEN_INVOCATION_NOISE
    return BETWEEN_INVOCATION_NOISE


# ---------------------------------------------------------------- verdicts

def _decide(d, half95, half90, band, higher_is_better):
    if d - half95 > band:
        return "faster" if higher_is_better else "slower"
    if d + half95 < -band:
        return "slower" if higher_is_better else "faster"
    if -band <= d - half90 and d + half90 <= band:
        return "same"
    return "inconclusive"


def more_repetitions(d, base, other, band):
    """About how many more repetitions per side would decide: the least m
    for which the interval that decides (the 95% one beyond the band, the
    90% one inside it) would be narrow enough, the point estimate kept and
    each side's variance shrinking as n / (n + m).  None beyond MAX_MORE
    or where nothing can decide (the estimate on the band's edge)."""
    gap = abs(abs(d) - band)
    if gap <= 1e-12:
        return None
    p = 1.0 - (1.0 - CONFIDENCE) / 2.0 if abs(d) > band else 1.0 - ALPHA
    lo, hi = 1, MAX_MORE

    def decides(m):
        comps = []
        for side in (base, other):
            scale = side.n / (side.n + m)
            comps += [(v * scale, df * (side.n + m) / side.n)
                      for v, df in side.var_components]
        var = sum(v for v, _ in comps)
        return t_quantile(p, _satterthwaite(comps)) * math.sqrt(var) < gap
    if not decides(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if decides(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _clean(samples, name, judgement, key):
    """The side's samples without its disturbed ones when at least
    MIN_CLEAN remain; else all of them and the reason they cannot
    decide."""
    clean = [s for s in samples if not s.disturbed]
    if len(clean) == len(samples):
        return samples, None
    if len(clean) >= MIN_CLEAN:
        judgement.left_out[key] = len(samples) - len(clean)
        return clean, None
    first = next(s for s in samples if s.disturbed)
    share = f"{len(samples) - len(clean)} of {len(samples)} repetitions"
    return samples, f"{name}: {first.disturbed[0]} ({share} disturbed)"


def judge(base, other, higher_is_better=False, min_change=DEFAULT_MIN_CHANGE,
          confidence=CONFIDENCE, names=("baseline", "other")):
    """Judge other's values against base's: positive numbers or Samples,
    one per repetition.  The verdict speaks of speed: a higher latency is
    "slower", a higher throughput (higher_is_better) is "faster"."""
    base, other = as_samples(base), as_samples(other)
    if not base or not other or min(s.value for s in base) <= 0 \
            or min(s.value for s in other) <= 0:
        raise ValueError("judge() needs positive values on both sides")
    judgement = Judgement(1.0)
    base, why_b = _clean(base, names[0], judgement, "baseline")
    other, why_o = _clean(other, names[1], judgement, "other")
    judgement.n_base, judgement.n_other = len(base), len(other)
    band = math.log1p(min_change) + 1e-12
    b, o = side_noise(base), side_noise(other)
    d = o.mean - b.mean
    judgement.ratio = math.exp(d)
    for side, name in ((b, names[0]), (o, names[1])):
        if side.widened:
            span = ("" if side.span_s is None else
                    f" within {side.span_s:.0f} s")
            judgement.notes.append(
                f"{name}: all {side.n} repetitions from one invocation{span}: "
                f"widened by the default between-invocation noise "
                f"{side.between:.0%} ({default_kind(side.between)})")
    if b.n < 2 or o.n < 2:
        judgement.basis = "unrepeated"
        wide = max(band, math.log1p(UNREPEATED_NOISE) + 1e-12)
        verdict = _decide(d, 0.0, math.inf, wide, higher_is_better)
        judgement.verdict = verdict if verdict != "same" else "inconclusive"
    else:
        comps = b.var_components + o.var_components
        var = sum(v for v, _ in comps)
        df = _satterthwaite(comps)
        if var == 0.0:
            judgement.basis = "identical" if d == 0.0 else "interval"
            half95 = half90 = 0.0
        else:
            half95 = t_quantile(1.0 - (1.0 - confidence) / 2.0, df) * math.sqrt(var)
            half90 = t_quantile(1.0 - ALPHA, df) * math.sqrt(var)
        judgement.low, judgement.high = math.exp(d - half95), math.exp(d + half95)
        judgement.low90, judgement.high90 = math.exp(d - half90), math.exp(d + half90)
        judgement.verdict = _decide(d, half95, half90, band, higher_is_better)
        if judgement.verdict == "inconclusive":
            judgement.more = more_repetitions(d, b, o, band)
    why = why_b or why_o
    if why:
        judgement.undisturbed_verdict = judgement.verdict
        judgement.verdict = "disturbed"
        judgement.disturbed = why if not (why_b and why_o) else f"{why_b}; {why_o}"
    return judgement
