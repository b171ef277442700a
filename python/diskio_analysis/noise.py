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
- inconclusive: anything else, with what would decide it (Advice): the
  fewest repetitions per invocation (diskio --repeat, at most MAX_REPEAT)
  or else the fewest invocations per side (at most MAX_INVOCATIONS) whose
  interval would decide, the point estimate and each level's variance
  kept; beyond both, the smallest change the data at hand (and the
  caps) resolve;
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
when the invocation saw the other CPUs less than half busy, else
BETWEEN_INVOCATION_NOISE^2; the verdict says which.  The default is the
invocation's, one for all its rows (judge's defaults, worked out from
every repetition of the invocation by default_between_noise), so that a
side of one invocation has one noise note; without it, the row's
repetitions decide.  Values given without their invocation (plain
numbers) are taken as independent repetitions.

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
# The most the advice of an inconclusive verdict asks of a side:
# repetitions in one invocation (diskio --repeat: beyond 30 a round of the
# modes runs long enough for the machine to drift within it, which is the
# between-invocation noise again) and invocations (more than 10 is a
# measurement campaign, not a comparison).  Beyond them the advice is the
# smallest change the machine resolves.
MAX_REPEAT = 30
MAX_INVOCATIONS = 10
# What a side measured once is asked for: doc/verdicts.md's
# recommendation on a quiet machine.
FIRST_REPEAT = 5

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
    # how long it ran (s), its weight among an invocation's shares; None
    # when unknown
    duration_s: float | None = None


@dataclass
class SideNoise:
    """One side's mean on the log scale and what its variance is made of:
    the variance within invocations (pooled) and between them (beyond
    the within's share), so that the variance of the mean can be worked
    out for another plan of invocations and repetitions (components)."""
    n: int                      # repetitions
    invocations: int            # k
    mean: float
    within: float | None = None  # s_W^2; None: no invocation repeated
    # s_B^2 (the estimate, at least 0), or the default's square (widened)
    between: float = 0.0
    widened: bool = False       # one invocation in a short span
    default: float | None = None  # the default noise it was widened by
    invocation: str | None = None  # its one invocation, when widened
    span_s: float | None = None  # from its first repetition's start to its last

    @property
    def per(self):
        """Repetitions per invocation (their mean)."""
        return self.n / self.invocations

    def components(self, invocations=None, per=None):
        """[(variance of the mean, degrees of freedom)] as measured (no
        arguments), or as the same machine would give with invocations
        invocations of per repetitions each: each level's variance the
        same, the between's a default (infinite degrees of freedom) only
        while one invocation stays one."""
        k = invocations or self.invocations
        total = self.n if k == self.invocations and per is None else \
            k * (per or self.per)
        comps = []
        if self.within is not None:
            comps.append((self.within / total, total - k))
        if self.between > 0:
            comps.append((self.between, math.inf) if k == 1 and self.widened
                         else (self.between / k, k - 1))
        elif k >= 2 and self.within is None:
            comps.append((0.0, k - 1))
        return comps

    @property
    def var_components(self):
        return self.components()

    @property
    def var(self):
        return sum(v for v, _ in self.var_components)


@dataclass
class Advice:
    """What would decide an inconclusive verdict, per side: "repeat" (each
    invocation with diskio --repeat `repeat`, `more` than the fewest now),
    "invocations" (`invocations` invocations a side, `more` than now, each
    of the present repetitions, or of `repeat`), "resolution" (neither
    within MAX_REPEAT and MAX_INVOCATIONS) or "unrepeated" (one value a
    side: no spread to tell from; measure with --repeat `repeat`).
    resolves: the smallest change (a fraction, either way) called with the
    data at hand; resolves_at_cap: with MAX_INVOCATIONS invocations of
    MAX_REPEAT repetitions a side."""
    kind: str
    repeat: int | None = None
    invocations: int | None = None
    more: int | None = None
    resolves: float | None = None
    resolves_at_cap: float | None = None


@dataclass
class Judgement:
    # other_value / base_value: the geometric means of the repetitions
    # judged (disturbed ones left out), over several invocations the
    # geometric mean of the invocations' own
    ratio: float
    low: float | None = None  # the 95% interval; None without repetitions
    high: float | None = None
    low90: float | None = None  # the 90% interval (the equivalence test's)
    high90: float | None = None
    verdict: str = "inconclusive"
    basis: str = "interval"  # "interval" | "unrepeated" | "identical"
    # inconclusive: what would decide (Advice), and how many more values
    # per side it asks for where each is one more repetition (--repeat) or
    # one more invocation of one value (a round); None otherwise
    advice: Advice | None = None
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
    # the repetitions' geometric means the ratio is of, and the
    # invocations they came from
    base_value: float | None = None
    other_value: float | None = None
    k_base: int = 0
    k_other: int = 0


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


def side_noise(samples, defaults=None):
    """The mean of log values of one side and what the variance of that
    mean is made of, from its invocations (module docstring); defaults:
    {invocation: its default between-invocation noise}, for a side of one
    invocation (else worked out from samples)."""
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
    starts = [s.start for s in samples if s.start is not None]
    span = max(starts) - min(starts) if len(starts) == n and starts else None
    # plain numbers (no invocation known): independent repetitions, each
    # an invocation of its own
    means = [statistics.fmean(g) for g in groups]
    within_df = n - k
    s_w2 = (sum(sum((v - m) ** 2 for v in g) for g, m in zip(groups, means))
            / within_df) if within_df > 0 else None
    side = SideNoise(n, k, statistics.fmean(means), within=s_w2, span_s=span)
    if k >= 2:
        var_means = statistics.variance(means)
        side.between = max(0.0, var_means - (s_w2 / (n / k) if s_w2 is not None
                                             else 0.0))
        return side
    invocation = samples[0].invocation
    if invocation is not None and n > 1 and (span is None or span < SHORT_SPAN_S):
        side.default = (defaults or {}).get(invocation) or \
            default_between_noise(samples)
        side.between = side.default ** 2
        side.widened = True
        side.invocation = invocation
    return side


def default_kind(between):
    return ("a quiet machine's: the other CPUs were less than half busy"
            if between == QUIET_BETWEEN_INVOCATION_NOISE else
            "a busy machine's: the other CPUs were half busy or more, or not recorded")


def weighted_median(values, weights):
    """The median of values, each counting as much as its weight: the
    value where half the weight lies on either side (the mean of the two
    at a tie, as statistics.median takes with equal weights)."""
    pairs = sorted(zip(values, weights))
    half = sum(weights) / 2.0
    acc = 0.0
    for i, (value, weight) in enumerate(pairs):
        acc += weight
        if acc > half:
            return value
        if acc == half:
            return (value + pairs[i + 1][0]) / 2.0
    return pairs[-1][0]


def default_between_noise(samples):
    """The default between-invocation noise for one invocation's
    repetitions: the quiet machine's when every one says how busy the
    other CPUs were and their median share, each weighted by how long it
    ran (where every one says), is below QUIET_CPU_SHARE, else the busy
    machine's (unknown counts as busy).  Weighted, a repetition of a few
    microseconds (a run of buffered writes), whose share of busy CPUs is
    mostly the counters' granularity, does not outvote the seconds of the
    others."""
    shares = [s.other_cpu_share for s in samples]
    if not shares or any(v is None for v in shares):
        return BETWEEN_INVOCATION_NOISE
    weights = [s.duration_s for s in samples]
    if any(w is None or not w > 0 for w in weights):
        weights = [1.0] * len(shares)
    if weighted_median(shares, weights) < QUIET_CPU_SHARE:
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


def half_width(components, p):
    """The half-width, on the log scale, of the interval of probability
    2p - 1 that the variance components give (Welch-Satterthwaite)."""
    var = sum(v for v, _ in components)
    if var <= 0:
        return 0.0
    return t_quantile(p, _satterthwaite(components)) * math.sqrt(var)


def advise(d, band, base, other, confidence=CONFIDENCE):
    """What would decide an inconclusive verdict (Advice): the fewest
    repetitions per invocation (diskio --repeat, up to MAX_REPEAT, the
    invocations as they are), else the fewest invocations per side (up to
    MAX_INVOCATIONS, each of the present repetitions, else of MAX_REPEAT),
    for which the interval that decides (the 95% one beyond the band, the
    90% one inside it) would be narrow enough, the point estimate and the
    variance of each level kept; else what the machine resolves."""
    p95 = 1.0 - (1.0 - confidence) / 2.0
    cap = [c for side in (base, other) for c in side.components(
        max(MAX_INVOCATIONS, side.invocations), max(MAX_REPEAT, side.per))]
    found = Advice("resolution",
                   resolves=math.expm1(band + half_width(
                       base.var_components + other.var_components, p95)),
                   resolves_at_cap=math.expm1(band + half_width(cap, p95)))
    gap = abs(abs(d) - band)
    p = p95 if abs(d) > band else 1.0 - ALPHA

    def decides(invocations, per):
        comps = [c for side in (base, other) for c in side.components(
            max(invocations, side.invocations), max(per, side.per))]
        return gap > 1e-12 and half_width(comps, p) < gap
    fewest = min(base.per, other.per)
    if math.floor(fewest) < MAX_REPEAT and decides(1, MAX_REPEAT):
        lo, hi = math.floor(fewest) + 1, MAX_REPEAT
        while lo < hi:
            mid = (lo + hi) // 2
            if decides(1, mid):
                hi = mid
            else:
                lo = mid + 1
        found.kind, found.repeat = "repeat", lo
        found.more = lo - math.floor(fewest)
        return found
    now = max(base.invocations, other.invocations)
    for per in (1, MAX_REPEAT):
        for invocations in range(now + 1, MAX_INVOCATIONS + 1):
            if decides(invocations, per):
                found.kind, found.invocations = "invocations", invocations
                found.repeat = per if per > fewest else None
                found.more = invocations - min(base.invocations,
                                               other.invocations)
                return found
    return found


def more_values(advice, base, other):
    """The values per side the advice adds where each is one more
    repetition, or one more invocation of a single value (a round of
    diskio-pgphases); None for other advice."""
    if advice.kind == "repeat" or (advice.kind == "invocations" and
                                   advice.repeat is None and
                                   base.per == other.per == 1):
        return advice.more
    return None


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


def widened_note(side, name):
    """The note on a side widened by the default: one per invocation, the
    same for every row it alone measured."""
    return (f"{name}: what one invocation alone measured ({side.invocation}) is "
            f"widened by the default between-invocation noise "
            f"{side.default:.0%} ({default_kind(side.default)})")


def judge(base, other, higher_is_better=False, min_change=DEFAULT_MIN_CHANGE,
          confidence=CONFIDENCE, names=("baseline", "other"), defaults=None):
    """Judge other's values against base's: positive numbers or Samples,
    one per repetition.  The verdict speaks of speed: a higher latency is
    "slower", a higher throughput (higher_is_better) is "faster".
    defaults: {invocation: its default between-invocation noise} (see
    side_noise)."""
    base, other = as_samples(base), as_samples(other)
    if not base or not other or min(s.value for s in base) <= 0 \
            or min(s.value for s in other) <= 0:
        raise ValueError("judge() needs positive values on both sides")
    judgement = Judgement(1.0)
    base, why_b = _clean(base, names[0], judgement, "baseline")
    other, why_o = _clean(other, names[1], judgement, "other")
    judgement.n_base, judgement.n_other = len(base), len(other)
    band = math.log1p(min_change) + 1e-12
    b, o = side_noise(base, defaults), side_noise(other, defaults)
    judgement.k_base, judgement.k_other = b.invocations, o.invocations
    d = o.mean - b.mean
    judgement.base_value, judgement.other_value = math.exp(b.mean), math.exp(o.mean)
    judgement.ratio = judgement.other_value / judgement.base_value
    judgement.notes = [widened_note(side, name) for side, name in
                       ((b, names[0]), (o, names[1])) if side.widened]
    if b.n < 2 or o.n < 2:
        judgement.basis = "unrepeated"
        wide = max(band, math.log1p(UNREPEATED_NOISE) + 1e-12)
        verdict = _decide(d, 0.0, math.inf, wide, higher_is_better)
        judgement.verdict = verdict if verdict != "same" else "inconclusive"
        if judgement.verdict == "inconclusive":
            judgement.advice = Advice("unrepeated", repeat=FIRST_REPEAT,
                                      resolves=math.expm1(wide))
    else:
        comps = b.var_components + o.var_components
        var = sum(v for v, _ in comps)
        if var == 0.0:
            judgement.basis = "identical" if d == 0.0 else "interval"
        half95 = half_width(comps, 1.0 - (1.0 - confidence) / 2.0)
        half90 = half_width(comps, 1.0 - ALPHA)
        judgement.low, judgement.high = math.exp(d - half95), math.exp(d + half95)
        judgement.low90, judgement.high90 = math.exp(d - half90), math.exp(d + half90)
        judgement.verdict = _decide(d, half95, half90, band, higher_is_better)
        if judgement.verdict == "inconclusive":
            judgement.advice = advise(d, band, b, o, confidence)
            judgement.more = more_values(judgement.advice, b, o)
    why = why_b or why_o
    if why:
        judgement.undisturbed_verdict = judgement.verdict
        judgement.verdict = "disturbed"
        judgement.disturbed = why if not (why_b and why_o) else f"{why_b}; {why_o}"
    return judgement
