# SPDX-License-Identifier: MIT
"""Disk metrics: what a metric's name says about it (its unit, whether a
higher value is the better one), the bounds every value must lie within,
and the names given to the runs of one file (fsync@8k.mean_us)."""

import re
import statistics
from dataclasses import dataclass, field

from .errors import InputError

# Metrics and times must lie within these bounds (whatever the unit), so
# that ratios, their logarithms, correlations and the WAL model stay finite.
MAX_VALUE = 1e30
MIN_POSITIVE = 1e-30

# Statistics taken from a diskio HIST, in output order: (json key, name).
TOTAL_STATS = (("mean", "mean_us"), ("p50", "p50_us"), ("p90", "p90_us"),
               ("p99", "p99_us"), ("p99_9", "p99_9_us"), ("max", "max_us"))
SYNC_PART_STATS = (("p50", "sync_p50_us"), ("p99", "sync_p99_us"))
SYNC_PART_NAMES = {name for _, name in SYNC_PART_STATS}

# The directions a run moves its data in (a result's run says which:
# parameters.direction, from its mode's row of the mode table).  A run's
# throughput is the metric DIRECTION.mb_per_s (write.mb_per_s,
# read.mb_per_s): megabytes (10^6 bytes) per second, higher is better.
DIRECTIONS = ("write", "read")


def throughput_metric(direction):
    """The name of the throughput metric of a run moving its data in
    direction: write.mb_per_s for the write modes."""
    return f"{direction}.mb_per_s"


@dataclass
class Metric:
    """A disk metric of one environment: its value (the geometric mean of
    its samples, one per repetition: several diskio results in the
    directory, or runs of one result with the same parameters)."""
    value: float
    unit: str
    higher_is_better: bool
    source: str
    samples: list = field(default_factory=list)
    # noise.Sample of each sample where its source tells its invocation,
    # start and disturbances (diskio results); empty otherwise
    sample_info: list = field(default_factory=list)

    def __post_init__(self):
        if not self.samples:
            self.samples = [self.value]

    def judged_samples(self):
        """What noise.judge weighs: the samples with their invocation and
        disturbances where every one has them, else the plain values."""
        if self.sample_info and len(self.sample_info) == len(self.samples):
            return self.sample_info
        return self.samples

    def add_sample(self, value, info=None):
        self.samples.append(value)
        if info is not None:
            self.sample_info.append(info)
        self.value = statistics.geometric_mean(self.samples)


def metric_unit(name):
    """The unit a metric name carries in its last _SUFFIX."""
    stat = name.rsplit(".", 1)[-1]
    for suffix, unit in (("mb_per_s", "MB/s"), ("_per_s", "/s"), ("_us", "us"), ("_ms", "ms"),
                         ("_ns", "ns"), ("_bytes", "bytes"), ("_s", "s")):
        if stat.endswith(suffix):
            return unit
    return ""


def is_higher_better(name):
    """Throughput-like metrics: a smaller value is the worse one."""
    stat = name.rsplit(".", 1)[-1].lower()
    last = re.split(r"[._]", stat)[-1]
    return stat.endswith("per_s") or last in ("iops", "tps", "qph", "qphh")


def new_metric(name, value, path, line=None):
    """A Metric for value read from path (at line): InputError unless it
    is positive and within MIN_POSITIVE..MAX_VALUE."""
    source = path if line is None else f"{path}:{line}"
    if not value > 0:
        raise InputError(path, line, f"metric {name} is {value:g}, must be > 0",
                         "ratios need positive values; remove or fix it")
    if not MIN_POSITIVE <= value <= MAX_VALUE:
        raise InputError(path, line, f"metric {name} is {value:g}, outside "
                         f"{MIN_POSITIVE:g}..{MAX_VALUE:g}",
                         "fix the value (a wrong unit or corrupt data?)")
    return Metric(value, metric_unit(name), is_higher_better(name), source)


def size_label(nbytes, letters="kmg"):
    """8192 -> '8k', 1048576 -> '1m', 512 -> '512' (letters 'KMG': '8K')."""
    for shift, letter in zip((30, 20, 10), reversed(letters)):
        if nbytes >= (1 << shift) and nbytes % (1 << shift) == 0:
            return f"{nbytes >> shift}{letter}"
    return str(nbytes)


# descriptor keys older results may lack, and the value they mean
DESCRIPTOR_DEFAULTS = {"batch": 1, "jobs": 1, "shared_file": False, "cached": False}


# What tells runs of one mode apart, in name order, and how each is
# written in the name.
QUALIFIERS = (("block_size", size_label), ("pattern", str),
              ("iodepth", lambda v: f"qd{v}"),
              ("sync_every", lambda v: f"every{v}"),
              ("batch", lambda v: f"batch{v}"), ("jobs", lambda v: f"jobs{v}"),
              ("shared_file", lambda v: "shared" if v else "own"))


def descriptor_value(desc, key):
    """A descriptor's value of key, the default where older results lack
    it; None where a custom run has none (its block size, pattern...)."""
    if key in DESCRIPTOR_DEFAULTS:
        return desc.get(key) or DESCRIPTOR_DEFAULTS[key]
    return desc.get(key)


def qualified_names(descriptors):
    """Metric prefixes for a list of runs: the mode, suffixed with what
    tells runs of the same mode apart (@8k, @rand, @qd4, @every8), and
    @cached for a read from the page cache (mode read --cached) always:
    it is another workload than the uncached read, never a repetition of
    it in another file of the same environment.  A custom run (no block
    size: parameters null) among runs of its name is @custom.  Two passes
    over the runs, whatever their number."""
    first, varies = {}, set()
    for desc in descriptors:
        group = (desc["mode"], pattern_family(desc))
        for key, _ in QUALIFIERS:
            value = descriptor_value(desc, key)
            seen = first.setdefault((group, key), value)
            if seen != value:
                varies.add((group, key))
    names = []
    for desc in descriptors:
        group = (desc["mode"], pattern_family(desc))
        qualifiers = []
        for key, render in QUALIFIERS:
            value = descriptor_value(desc, key)
            if (group, key) not in varies:
                continue
            if value is None:
                if "custom" not in qualifiers:
                    qualifiers.append("custom")
            else:
                qualifiers.append(render(value))
        if desc.get("cached"):
            qualifiers.append("cached")
        family = pattern_family(desc)
        if family:
            # PostgreSQL's own shapes are named so always, with the
            # committers and the pause between commits they ran with
            qualifiers = [family] + [q for q in qualifiers
                                     if q != family and not q.startswith("jobs")]
            if (desc.get("jobs") or 1) > 1:
                qualifiers.append(f"jobs{desc['jobs']}")
            if desc.get("wal_gap_ns"):
                qualifiers.append(f"gap{gap_label(desc['wal_gap_ns'])}")
        names.append(desc["mode"] + ("@" + "-".join(qualifiers)
                                     if qualifiers else ""))
    return names


# the patterns that stand for PostgreSQL's WAL and checkpoints: their runs
# are named apart from the plain runs of the same mode
PG_PATTERNS = ("wal", "checkpoint")


def pattern_family(desc):
    """'wal' or 'checkpoint' for those patterns' runs, else None."""
    return desc.get("pattern") if desc.get("pattern") in PG_PATTERNS else None


def gap_label(ns):
    """150000 -> '150us', 2000000 -> '2ms'."""
    if ns % 1000000 == 0:
        return f"{ns // 1000000}ms"
    if ns % 1000 == 0:
        return f"{ns // 1000}us"
    return f"{ns}ns"


def unique_run_names(path, descriptors):
    """qualified_names(), refusing two runs nothing tells apart."""
    names = qualified_names(descriptors)
    seen = set()
    for name, desc in zip(names, descriptors):
        if name in seen:
            raise InputError(path, None,
                             f"two runs of mode {desc['mode']} with the same "
                             "block size, pattern, iodepth, sync_every, batch "
                             "jobs and cache",
                             "split them into separate environment "
                             "directories")
        seen.add(name)
    return names
