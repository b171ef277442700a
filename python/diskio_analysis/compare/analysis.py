# SPDX-License-Identifier: MIT
"""diskio-compare's analysis: two or more environments' diskio results,
each run matched with the baseline's, every metric's ratio judged against
the noise (noise.judge).

An environment is the results named alike on the command line (NAME=FILE,
sides.py) or else sharing a label (--label; a result without one is in
the environment named after its directory), so several
results of one machine are its repetitions, and so are runs of one result
that repeat the same parameters, and the repetitions diskio --repeat kept
in a run.  Runs are matched by what makes their
figures comparable: mode, block size, pattern, queue depth, sync_every,
the submission batch, the concurrent jobs (and whether they shared
one file), and for the runs of a suite (diskio --suite) the row they are
("SEQ1M Q8T1 read"), so that two results of one suite are compared row
by row.

A repetition is one measurement: one given twice among the samples of a
run in an environment (a repetition or a run copied, a whole result
copied or named twice) is refused, not counted twice, for copies agree
exactly and would narrow the noise band without a measurement of the
noise behind it.  (A result compared with a relabelled copy of itself,
another environment, is an A/A comparison: each side's band is its own.)
"""

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from .. import noise
from ..errors import InputError, UsageError
from ..jsonfile import json_path
from ..metrics import DIRECTIONS, MAX_VALUE, MIN_POSITIVE
from ..result import other_cpu_share
from ..sides import environment_name

# metric name -> (where it comes from, higher is better, unit)
METRICS = {
    "mean": ("total", "mean", False, "ns"),
    "p50": ("total", "p50", False, "ns"),
    "p99": ("total", "p99", False, "ns"),
    "p99_9": ("total", "p99_9", False, "ns"),
    "max": ("total", "max", False, "ns"),
    "write_mean": ("write", "mean", False, "ns"),
    "sync_mean": ("sync", "mean", False, "ns"),
    "ops_per_s": (None, "ops_per_s", True, "/s"),
    "mb_per_s": (None, "mb_per_s", True, "MB/s"),
}
# throughput, per direction of the data (metrics.data_direction): a run
# has the one of its own direction ("direction:write": the run's own
# figure when its mode writes)
METRICS.update({f"{direction}.mb_per_s": (f"direction:{direction}", "mb_per_s",
                                          True, "MB/s")
                for direction in DIRECTIONS})
DEFAULT_METRICS = ("mean",)
DETAIL_METRICS = ("mean", "p50", "p99", "p99_9", "write_mean", "sync_mean",
                  "ops_per_s") + tuple(f"{d}.mb_per_s" for d in DIRECTIONS)


@dataclass
class Environment:
    name: str
    results: list = field(default_factory=list)    # Result
    # run key -> {metric: [noise.Sample, one per repetition]}
    samples: dict = field(default_factory=dict)
    run_order: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    # (run key, measurement) -> (file, JSON path) of each sample taken
    measured: dict = field(default_factory=dict)
    # run key -> what showed that the filesystem buffered an O_DIRECT run
    # of it (not_direct): no verdict is made on that run
    not_direct: dict = field(default_factory=dict)
    # invocation (result file) -> its default between-invocation noise,
    # from every repetition of every run in it (noise.judge's defaults)
    defaults: dict = field(default_factory=dict)
    # diskio --steady: run key -> {metric: [noise.Sample]} of the steady
    # windows, and run key -> each sample's window (steady.SteadyWindow,
    # or None for a sample measured without --steady)
    steady_samples: dict = field(default_factory=dict)
    steady_windows: dict = field(default_factory=dict)
    # diskio --target: run key -> [result.Capacity], one per search
    capacities: dict = field(default_factory=dict)


@dataclass
class Row:
    environment: str
    run: "RunKey"
    metric: str
    base_values: list
    other_values: list
    judgement: noise.Judgement
    higher_is_better: bool
    unit: str
    steady: bool = False        # over the steady windows (diskio --steady)


class RunKey(NamedTuple):
    """What makes two runs' figures comparable, the one key every
    renderer reads by name.  The mode says the direction (a read mode's
    runs match read runs only); mode read's cache (--cached) is part of
    the workload too; a suite's runs are matched by their row."""
    workload: str                   # the mode, or a custom run's name
    block_size: int                 # None for a custom run
    pattern: str = "seq"
    iodepth: int = 1
    sync_every: int = 1
    batch: int = 1
    jobs: int = 1
    shared_file: bool = False
    cached: bool = False
    suite_row: str | None = None    # "SEQ1M Q8T1 read"; None outside a suite
    # diskio --target: "p99 <= 2 ms", its capacity compared (its jobs
    # are the answer's, not the workload's); None for a plain run
    capacity: str | None = None

    def as_dict(self):
        """The key as the JSON output gives it (suite_row null outside a
        suite)."""
        return {"mode": self.workload, **{
            name: getattr(self, name) for name in self._fields[1:]}}


def capacity_name(capacity):
    """What a capacity is of: 'p99 <= 2 ms'."""
    return (f"p{capacity.percentile:g} <= "
            f"{fmt_measure_ns(capacity.target_ns)}")


def fmt_measure_ns(ns):
    """A duration in ns as diskio's table writes one."""
    for scale, name in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if ns >= scale:
            return f"{ns / scale:.3g} {name}"
    return f"{ns:.3g} ns"


def run_key(run):
    """The RunKey of a Run."""
    p = run.parameters
    capacity = None if run.capacity is None else capacity_name(run.capacity)
    return RunKey(run.workload, p.block_size, p.pattern or "seq",
                  p.iodepth or 1, p.sync_every or 1, p.batch or 1,
                  1 if capacity else p.jobs, p.shared_file, p.cached,
                  None if run.suite_row is None else run.suite_row.name,
                  capacity)


def size_label(nbytes):
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size and nbytes % size == 0:
            return f"{nbytes // size} {unit}"
    return f"{nbytes} B"


def run_label(key):
    """fsync 8 KiB, aio 4 KiB qd32 rand, fdatasync 8 KiB every 8, aio 8 KiB
    qd32 batch32, fdatasync 8 KiB x4 jobs (1 file), read 1 MiB cached; a
    suite's row first: SEQ1M Q8T1 read (aio-read 1 MiB qd8)."""
    words = [key.workload] + ([size_label(key.block_size)]
                              if key.block_size else [])
    if key.cached:
        words.append("cached")
    if key.iodepth > 1:
        words.append(f"qd{key.iodepth}")
    if key.batch > 1:
        words.append(f"batch{key.batch}")
    if key.pattern != "seq":
        words.append(key.pattern)
    if key.sync_every > 1:
        words.append(f"every {key.sync_every}")
    if key.jobs > 1:
        words.append(f"x{key.jobs} jobs" + (" (1 file)" if key.shared_file
                                            else ""))
    if key.capacity is not None:
        words.append(f"capacity at {key.capacity}")
    if key.suite_row is not None:
        return f"{key.suite_row} ({' '.join(words)})"
    return " ".join(words)


def metric_value(run, metric, direction=None):
    """The value of metric in run (a Run, or a Repetition of a run that
    moves its data in direction), or None."""
    part, key, _, _ = METRICS[metric]
    if part is not None and part.startswith("direction:"):
        wanted = part.split(":", 1)[1]
        return getattr(run, key) if (direction or run.direction) == wanted else None
    if part is None:
        return getattr(run, key)
    hist = run.parts.get(part)
    if hist is None or not hist.count:
        return None
    return hist.percentiles.get(key) if key.startswith("p") else getattr(hist, key)


def metric_where(sample, metric):
    """The JSON path of the value metric_value() takes from sample."""
    part, key, _, _ = METRICS[metric]
    if part is None or part.startswith("direction:"):
        return json_path(sample.where, key)
    return json_path(sample.parts[part].where, key)


def group_environments(results):
    """Results grouped by environment, in the order first named; a
    measurement given twice in one is refused (add_samples)."""
    envs = {}
    for result in results:
        name = environment_name(result)
        env = envs.setdefault(name, Environment(name))
        env.results.append(result)
        add_samples(env, result)
    return list(envs.values())


def measurement(sample):
    """What tells one measurement (a run measured once, or a repetition)
    from another: when it began (its wall clock; a repetition's offset
    from its result's first run), how long it took, what it did and each
    part's count, extremes, mean, spread and percentiles.  Two real ones
    never agree in all of it: their times and latencies are nanoseconds
    from clocks that move on."""
    parts = tuple((name, hist.count, hist.min, hist.max, hist.mean, hist.stddev,
                   tuple(sorted(hist.percentiles.items())))
                  for name, hist in sorted(sample.parts.items()))
    return (sample.start_time, getattr(sample, "start_offset_ns", None),
            sample.duration_ns, sample.ops, sample.bytes, parts)


def refuse_copies(result, key, sample, measured):
    """Note sample's measurement, a sample of the run key, in measured
    ({(key, measurement): (file, JSON path)}), refusing one already
    there.  diskio writes every run's and repetition's duration; one
    without (written by hand) is not told from another that agrees with
    it by chance."""
    if sample.duration_ns is None:
        return
    what = (key, measurement(sample))
    if what not in measured:
        measured[what] = (result.path, sample.where)
        return
    path, where = measured[what]
    if path != result.path:
        first = f"{where} of {path}"
    else:
        first = where if where != sample.where else f"{where} of this file, named twice"
    began = (f"began {sample.start_time}" if sample.start_time
             else "its start not recorded")
    raise InputError(
        result.path, None,
        f"{sample.where}: the same measurement as {first} ({began}; the same "
        "duration, ops and latencies to the nanosecond): a copy, not another "
        "repetition, would narrow the noise band without measuring any noise",
        "give each measurement once: leave out the copied repetition or run, "
        "or the result file given twice")


def sample_of(result, sample, value):
    """One repetition's value with what noise.judge weighs besides it:
    its invocation (the result file), when it ran, why it was disturbed,
    how busy the other CPUs were and for how long."""
    start = sample.start_time
    return noise.Sample(float(value), invocation=result.path,
                        start=noise.parse_start(start),
                        disturbed=tuple(d.message for d in sample.disturbances),
                        other_cpu_share=other_cpu_share(sample),
                        duration_s=(None if sample.duration_ns is None
                                    else sample.duration_ns / 1e9))


def add_samples(env, result):
    """The samples of result's runs into env; a sample of a run that is a
    measurement env already has for it is refused (refuse_copies)."""
    if not result.complete:
        env.notes.append(f"{result.path}: marked incomplete; its complete "
                         "runs are used")
    for run in result.runs:
        note_not_direct(env, run)
        if run.capacity is not None:
            add_capacity(env, run)
            continue
        windows = run.steady.windows if run.steady else []
        # diskio --repeat: each repetition is a sample of its own, as a
        # result per repetition would be
        for index, sample in enumerate(run.repetitions or [run]):
            if not sample.complete or not sample.ops:
                reason = ("did not complete" if not sample.complete
                          else "recorded no ops")
                env.notes.append(f"{result.path}: {sample.where} ({run.mode}) "
                                 f"{reason}; left out")
                continue
            key = run_key(run)
            refuse_copies(result, key, sample, env.measured)
            if key not in env.samples:
                env.samples[key] = {}
                env.run_order.append(key)
            add_values(env, env.samples[key], result, run, sample, sample)
            # diskio --steady: the sample's window too, if it was steady
            window = windows[index] if index < len(windows) else None
            env.steady_windows.setdefault(key, []).append(window)
            if window is not None and window.attained:
                add_values(env, env.steady_samples.setdefault(key, {}), result,
                           run, window, sample)


def add_capacity(env, run):
    """A search's answer (diskio --target) into env: its capacity is what
    is compared, not its confirming run's latencies, which are those of
    the rate it found."""
    key = run_key(run)
    if key not in env.samples:
        env.samples[key] = {}
        env.run_order.append(key)
    env.capacities.setdefault(key, []).append(run.capacity)


def add_values(env, into, result, run, figures, sample):
    """Every metric figures (a run, a repetition or a steady window of
    sample) has, into {metric: [noise.Sample]}, each judged as a
    repetition of sample (its invocation, time, disturbances)."""
    for metric in METRICS:
        value = metric_value(figures, metric, run.direction)
        if value is None:
            continue
        if value == 0:
            env.notes.append(f"{result.path}: "
                             f"{metric_where(figures, metric)} is 0: "
                             f"no ratio of it ({metric}) is taken")
            continue
        if not MIN_POSITIVE <= value <= MAX_VALUE:
            raise InputError(
                result.path, None,
                f"{metric_where(figures, metric)}: {value:g} is "
                f"outside {MIN_POSITIVE:g}..{MAX_VALUE:g}, which "
                "no measurement is",
                "regenerate the result with diskio (a corrupt or "
                "hand-edited file?)")
        into.setdefault(metric, []).append(sample_of(result, sample, value))


# ---- O_DIRECT the filesystem buffered: no verdict ----

def note_not_direct(env, run):
    """Note in env a run whose O_DIRECT I/O the filesystem did through
    the page cache (Run.not_direct), with what showed it."""
    if run.not_direct:
        env.not_direct.setdefault(run_key(run), run.direct.evidence)


class NotDirect(NamedTuple):
    """A run of key left out of every verdict between the baseline and
    environment: on (the names of) one side or both, the filesystem
    buffered its O_DIRECT I/O, which note says with the evidence."""
    environment: str
    run: RunKey
    on: tuple
    note: str


def not_direct_reason(base, env, key):
    """The NotDirect of key between base and env, or None: a latency of
    the page cache held against a device's is no comparison of storage."""
    sides = [side for side in (base, env) if key in side.not_direct]
    if not sides:
        return None
    on = tuple(side.name for side in sides)
    evidence = "; ".join(f"{side.name}: {side.not_direct[key]}" for side in sides)
    return NotDirect(env.name, key, on,
                     f"{run_label(key)}: not direct on {' and '.join(on)} (the "
                     f"filesystem buffered it; {evidence}): no verdict")


def invocation_defaults(results):
    """{result path: the default between-invocation noise of the rows it
    alone measured}: noise.default_between_noise over every repetition of
    every run in it that recorded the other CPUs' share, so that all its
    rows are widened alike; for an invocation that recorded none of them
    (diskio --pattern wal and checkpoint runs do not), over those of the
    side's other invocations (results), so that adding such runs to a
    quiet side does not bring the busy machine's default; with none
    recorded anywhere, the busy machine's.  And a note on each invocation
    whose default came from the others."""
    samples = {r.path: [sample_of(r, sample, 1.0) for run in r.runs
                        for sample in run.repetitions or [run]
                        if sample.complete and sample.ops
                        and other_cpu_share(sample) is not None]
               for r in results}
    side = [s for group in samples.values() for s in group]
    defaults, notes = {}, []
    for path, group in samples.items():
        defaults[path] = noise.default_between_noise(group or side)
        if not group and side:
            notes.append(f"{path}: no repetition recorded how busy the other "
                         "CPUs were; its default between-invocation noise is "
                         "that of the other results of its environment, "
                         f"{defaults[path]:.0%}")
    return defaults, notes


def choose_baseline(envs, wanted):
    if wanted is None:
        return envs[0]
    for env in envs:
        if env.name == wanted:
            return env
    raise UsageError(f"--baseline {wanted}: no such environment (have "
                     f"{', '.join(env.name for env in envs)})")


def compare(results, metrics=DEFAULT_METRICS, baseline=None,
            min_change=noise.DEFAULT_MIN_CHANGE):
    """The comparison of every environment with the baseline: a dict with
    the environments, the baseline's name and the judged rows."""
    envs = group_environments(results)
    if len(envs) < 2:
        names = ", ".join(env.name for env in envs)
        raise InputError(" ".join(r.path for r in results), None,
                         f"only one environment ({names})",
                         "give results of at least two environments: "
                         "results that share a --label (or a directory) "
                         "are repetitions of one; name each side on the "
                         "command line to compare them anyway: "
                         "A=first.json B=second.json")
    return compare_environments(envs, metrics, baseline, min_change)


def environment_of(name, results):
    """An environment made of the given results, whatever their labels
    (diskio-correlate: one environment per directory); a measurement given
    twice among them is refused."""
    env = Environment(name)
    for result in results:
        env.results.append(result)
        add_samples(env, result)
    return env


# Two machines' wake-up costs (environment.cpu.wakeup_ns) worth a note:
# this many times apart, and by this much (ns); one machine's probes
# scatter by about a fifth.
WAKEUP_RATIO = 2.0
WAKEUP_DIFFERENCE_NS = 5000


def wakeup(env):
    """The median wake-up cost of an environment's results (ns) and its
    cpuidle drivers, or (None, ...) where no result measured one."""
    cpus = [r.environment.cpu for r in env.results if r.environment and r.environment.cpu]
    costs = sorted(c.wakeup_ns for c in cpus if c.wakeup_ns is not None)
    drivers = sorted({c.idle_driver for c in cpus if c.idle_driver})
    return (costs[len(costs) // 2] if costs else None), drivers


# What tells machines apart, most telling first: the digest of the
# machine id, the boot id, the host name (the only one in files written
# before the other two).
IDENTITY_KEYS = ("machine_id", "boot_id", "hostname")


def same_machine(a, b):
    """Whether results a and b were measured on one machine: decided by
    the first identity both recorded (IDENTITY_KEYS); False where they
    share none."""
    ea, eb = a.environment, b.environment
    for name in IDENTITY_KEYS:
        va = getattr(ea, name, None) if ea else None
        vb = getattr(eb, name, None) if eb else None
        if va and vb:
            return va == vb
    return False


def one_machine(*envs):
    """Whether every result of the environments comes from one machine."""
    results = [r for env in envs for r in env.results]
    return bool(results) and all(same_machine(results[0], r) for r in results[1:])


def note_wakeup_difference(base, env):
    """A note on env where waking a task on another CPU costs far more or
    less than on the baseline: every sync woken from another CPU differs
    by about that much, whatever the storage.  None when both sides come
    from one machine: its wake-up cost is the same machine's, measured at
    two moments, and a difference is what else it was doing then."""
    (base_ns, base_drivers), (ns, drivers) = wakeup(base), wakeup(env)
    if base_ns is None or ns is None or min(base_ns, ns) <= 0:
        return
    if one_machine(base, env):
        return
    if max(base_ns, ns) / min(base_ns, ns) < WAKEUP_RATIO or \
            abs(ns - base_ns) < WAKEUP_DIFFERENCE_NS:
        return

    def idle(names):
        return f" (cpuidle {', '.join(names)})" if names else ""
    env.notes.append(f"a wake-up on another CPU takes {ns / 1000:.1f} us in {env.name}"
                     f"{idle(drivers)} against {base_ns / 1000:.1f} us in {base.name}"
                     f"{idle(base_drivers)}: a sync whose completion wakes its task "
                     "on another CPU differs by about that much whatever the storage")


def compare_environments(envs, metrics=DEFAULT_METRICS, baseline=None,
                         min_change=noise.DEFAULT_MIN_CHANGE):
    base = choose_baseline(envs, baseline)
    rows, missing = [], []      # missing: (has it, run key, lacks it)
    not_direct = []             # NotDirect: runs left out of the verdicts
    # capacity keys on both sides (no row when a side found no rate: said
    # in a note)
    searched = 0
    for env in envs:
        env.defaults, notes = invocation_defaults(env.results)
        env.notes.extend(notes)
    for env in envs:
        if env is base:
            continue
        note_wakeup_difference(base, env)
        for key in base.run_order:
            if key not in env.samples:
                missing.append((base.name, key, env.name))
                continue
            searched += key.capacity is not None
            left_out = not_direct_reason(base, env, key)
            if left_out:
                not_direct.append(left_out)
                env.notes.append(left_out.note)
                continue
            rows.extend(compare_run(base, env, key, metrics, min_change))
        missing.extend((env.name, key, base.name) for key in env.run_order
                       if key not in base.samples)
    if not rows and not not_direct and not searched:
        raise InputError(" ".join(r.path for env in envs for r in env.results),
                         None,
                         "no run of the baseline matches a run of another "
                         "environment (mode, block size, pattern, iodepth, "
                         "sync_every and, for a suite's runs, the suite row "
                         "must agree)",
                         "run the same modes and options on each machine")
    return {"baseline": base, "environments": envs, "rows": rows,
            "missing": missing, "not_direct": not_direct,
            "min_change": min_change, "metrics": metrics}


def steady_words(window):
    """What a window that was not steady shows: 'mean rising 12%/min', or
    how few intervals there were to judge."""
    if window.trend is None or window.trend_pct_per_min is None:
        return f"{window.judged} whole intervals judged"
    return f"{window.trend} {abs(window.trend_pct_per_min):.0f}%/min"


def steady_basis(base, env, key):
    """Whether key's runs are compared over their steady windows (both
    sides ran with --steady and every window was steady), and the note
    that says which figures were compared, or None when neither side
    asked.  A run that was not steady is never taken for a steady
    disk's."""
    sides = [(side.name, side.steady_windows.get(key, [])) for side in (base, env)]
    asked = [(name, ws) for name, ws in sides if any(w is not None for w in ws)]
    if not asked:
        return False, None
    label = run_label(key)
    unsteady = [(name, w) for name, ws in sides for w in ws
                if w is not None and not w.attained]
    without = [name for name, ws in sides if any(w is None for w in ws)]
    if not unsteady and not without:
        return True, (f"{label}: compared over the steady windows of both sides "
                      "(diskio --steady), not the whole runs")
    if unsteady:
        names = sorted({name for name, _ in unsteady})
        words = "; ".join(f"{name}: {steady_words(w)}" for name, w in unsteady)
        return False, (f"{label}: NOT STEADY on {' and '.join(names)} ({words}): "
                       "compared over the whole runs, which are no figures of a "
                       "steady disk")
    return False, (f"{label}: steady on {' and '.join(n for n, _ in asked)} only "
                   f"({' and '.join(sorted(set(without)))} ran without --steady): "
                   "compared over the whole runs")


def capacity_bounds(capacities):
    """(the answer, the lowest and the highest the capacity may be) of
    one side's searches: the geometric mean of their answers, between the
    lowest rate found to meet the target and the highest rate tried above
    it that missed (None: none did); None when no search found a rate."""
    found = [c for c in capacities if c.found and c.ops_per_s]
    if not found or len(found) < len(capacities):
        return None
    value = math.exp(sum(math.log(c.ops_per_s) for c in found) / len(found))
    highs = [c.high_ops_per_s for c in found]
    high = None if any(h is None for h in highs) else max(highs)
    return value, min(c.ops_per_s for c in found), high


def capacity_row(base, env, key, min_change):
    """The ratio of two capacities (diskio --target) with the interval
    their searches' brackets allow: from the other side's lowest over the
    baseline's highest to the other's highest over the baseline's lowest.
    Slower or faster when the interval lies beyond the smallest change,
    the same when within it, inconclusive else; None (with a note) when a
    side found no rate."""
    a, b = capacity_bounds(base.capacities[key]), capacity_bounds(env.capacities[key])
    if a is None or b is None:
        none = " and ".join(side.name for side, bounds in ((base, a), (env, b))
                            if bounds is None)
        env.notes.append(f"{run_label(key)}: no rate met the target on {none}: no "
                         "ratio of capacities")
        return None
    low = b[1] / a[2] if a[2] else 0.0
    high = b[2] / a[1] if b[2] else math.inf
    verdict = ("faster" if low > 1 + min_change else
               "slower" if high < 1 - min_change else
               "same" if 1 - min_change <= low and high <= 1 + min_change else
               "inconclusive")
    judgement = noise.Judgement(
        ratio=b[0] / a[0], low=low, high=high if math.isfinite(high) else None,
        verdict=verdict, basis="search", n_base=len(base.capacities[key]),
        n_other=len(env.capacities[key]), base_value=a[0], other_value=b[0],
        k_base=len(base.capacities[key]), k_other=len(env.capacities[key]))
    unconfirmed = [side.name for side in (base, env)
                   if not all(c.confirmed for c in side.capacities[key])]
    if unconfirmed:
        env.notes.append(f"{run_label(key)}: the capacity of {' and '.join(unconfirmed)} "
                         "was not confirmed by a longer run")
    return Row(env.name, key, "capacity", [c.ops_per_s for c in base.capacities[key]],
               [c.ops_per_s for c in env.capacities[key]], judgement, True, "/s")


def compare_run(base, env, key, metrics, min_change):
    if key.capacity is not None:
        row = capacity_row(base, env, key, min_change)
        return [row] if row else []
    rows = []
    steady, note = steady_basis(base, env, key)
    if note and note not in env.notes:
        env.notes.append(note)
    base_samples = base.steady_samples[key] if steady else base.samples[key]
    other_samples = env.steady_samples[key] if steady else env.samples[key]
    for metric in metrics:
        base_values = base_samples.get(metric)
        other_values = other_samples.get(metric)
        if not base_values or not other_values:
            continue
        _, _, higher_is_better, unit = METRICS[metric]
        judgement = noise.judge(base_values, other_values, higher_is_better,
                                min_change, names=(base.name, env.name),
                                defaults={**base.defaults, **env.defaults})
        rows.append(Row(env.name, key, metric,
                        [sample.value for sample in base_values],
                        [sample.value for sample in other_values],
                        judgement, higher_is_better, unit, steady))
    return rows
