# SPDX-License-Identifier: MIT
"""A run's latencies and what the devices did meanwhile: SUMMARY and
HIST, the device counters, the verdicts on them, whether O_DIRECT was
direct, the --interval series, --steady's windows and --target's
capacity search.  Each class is the schema's object its schema_object()
names, with a field for each of its keys (resulttypes.py)."""

from typing import Any, Dict, List, Optional

from ._result_keys import (CapacityKeys, CapacityStepKeys, DeviceCountsKeys, DeviceIOKeys,
                           DirectKeys, HistKeys, IntervalKeys, SteadyKeys, SteadyWindowKeys,
                           SummaryKeys, VerdictKeys)
from .jsonfile import JsonFile, Triples, json_kind, json_path
from .resultkeys import PERCENTILE_KEY, PERCENTILES, derived, own
from .resultread import read_buckets
from .resulttypes import read, schema_object


@schema_object("summary_figures")
class Summary(SummaryKeys):
    """A SUMMARY (a repetition's part): count, min, mean, stddev, max
    (ns) and the percentiles the file gives ({'p50': ns, ...})."""
    where: str = derived("")                    # runs[0].latency.total
    count = read(count=True)
    # integers in the schema, read as any number, as the reader always has
    min = read(number=True)
    max = read(number=True)
    percentiles: Dict[str, float] = own(pattern=PERCENTILE_KEY.pattern,
                                        factory=dict)
    _src: Optional[JsonFile] = derived(shown=False)
    _node: Optional[Dict[str, Any]] = derived(shown=False)

    def need(self, *keys: str) -> Any:
        """The values of keys (numbers, percentiles or 'buckets'), each of
        which must be there: InputError naming its JSON path if not.  One
        key: its value; several: the list of them."""
        assert self._src is not None and self._node is not None
        values: List[Any] = []
        for name in keys:
            if name == "buckets":
                self._src.get_list(self._node, self.where, name)
                values.append(getattr(self, "buckets", None))
            else:
                values.append(self._src.get_number(self._node, self.where,
                                                   name))
        return values[0] if len(keys) == 1 else values

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        # the summary's percentiles, and any diskio --percentiles added
        for name in PERCENTILES + tuple(k for k in node if PERCENTILE_KEY.match(k)
                                        and k not in PERCENTILES):
            value = src.get_number(node, self.where, name, optional=True,
                                   minimum=0)
            if value is not None:
                self.percentiles[name] = value


@schema_object("hist")
class Hist(Summary, HistKeys):
    """A HIST: a SUMMARY with the percentiles diskio --percentiles added,
    the keys among them that are the max only for want of values
    (percentiles_limited_by_ops: p99_9 with fewer than 1000), and the
    buckets, compact Triples read as (lowest_ns, highest_ns, count)
    tuples (None when the file gives none)."""
    limited_by_ops: List[str] = own("percentiles_limited_by_ops", factory=list)
    overflow = read(count=True)
    max_trackable_ns = read(minimum=0)          # 0 taken, as the reader always has
    sub_buckets = read(minimum=0)
    buckets: Optional[Triples] = own()

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        Summary._read_rest(self, src, node)  # slots: no zero-argument super()
        lwhere = json_path(self.where, "percentiles_limited_by_ops")
        limited = src.get_list(node, self.where, "percentiles_limited_by_ops",
                               optional=True)
        for index, name in enumerate(limited or []):
            if not isinstance(name, str) or not PERCENTILE_KEY.match(name):
                src.fail(json_path(lwhere, index),
                         f"{json_kind(name)}, expected a percentile's key (p99_9)")
            self.limited_by_ops.append(name)
        buckets = src.get_list(node, self.where, "buckets", optional=True)
        if buckets is not None:
            self.buckets = read_buckets(src, buckets,
                                        json_path(self.where, "buckets"))


@schema_object("device_counts")
class DeviceCounts(DeviceCountsKeys):
    """What one block device (or, name "total", the devices the
    filesystem sits on) did during a run's measured ops: counters
    (flushes None where the kernel does not count them; read_merges None
    in files written before it; the milliseconds the requests took None
    in files written before device times) and per-op figures (None where
    undefined, and in files written before the read modes for the
    reads'), and each request's mean time on the device (us; None where
    undefined, under 20 ms of requests, or in older files)."""
    where: str = derived("")
    name = read("", required=True)
    reads = read(0, required=True, count=True)
    read_merges = read(count=True)
    read_sectors = read(0, required=True, count=True)
    writes = read(0, required=True, count=True)
    write_merges = read(0, required=True, count=True)
    write_sectors = read(0, required=True, count=True)
    flushes = read(count=True)


@schema_object("device_io")
class DeviceIO(DeviceCounts, DeviceIOKeys):
    """A DEVICE_IO: one device's counters, with its depth and flags."""


@schema_object("verdict")
class Verdict(VerdictKeys):
    """What the device figures say about the latencies."""
    code = read("", required=True, choices=(), nonempty=True)  # may grow
    message = read(nonempty=False)              # "" read as it stands


@schema_object("direct")
class Direct(DirectKeys):
    """DIRECT: whether an O_DIRECT run's I/O went to the device as issued
    (honoured; None: nothing told), what decided it (source: "statx" or
    "device") and what showed it, and the files' STATX_DIOALIGN (None
    where the kernel did not give it)."""
    evidence = read("", required=True)
    dio_offset_align = read(count=True)
    dio_mem_align = read(count=True)


@schema_object("interval")
class Interval(IntervalKeys):
    """One entry of a run's intervals.series (diskio --interval): the ops
    that completed in it and their latencies (ns; None when ops is 0)."""
    where: str = derived("")                    # runs[0].intervals.series[3]
    repetition = read(1)                        # which repetition (from 1)
    start_ns = read(0, required=True)
    duration_ns = read(0, required=True)
    ops = read(0, required=True, count=True)
    bytes = read(0, count=True)
    ops_per_s = read(required=True)
    # integers in the schema, read as any number, as the reader always has
    min_ns = read(number=True)
    p50_ns = read(number=True)
    p99_ns = read(number=True)
    max_ns = read(number=True)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        if self.ops:
            # an interval in which ops completed has their latencies
            for name in INTERVAL_LATENCIES:
                src.get_number(node, self.where, name, minimum=0)


# The latency figures of an interval (ns), None where no op completed.
INTERVAL_LATENCIES = ("min_ns", "mean_ns", "p50_ns", "p99_ns", "max_ns")

# what --steady judges (diskio_steady_metric_name()) and where it went
STEADY_METRICS = ("mean", "p99", "ops_per_s")
STEADY_TRENDS = ("rising", "falling", "flat")


@schema_object("steady_window")
class SteadyWindow(SteadyWindowKeys):
    """One entry of a run's steady.windows (diskio --steady): one
    repetition's window of intervals, steady (attained: its figures over
    the window alone in ops_per_s, mb_per_s and parts' "total") or, when
    none was, the last one judged with the trend the metric had (latency
    None: never a sample of a steady disk).  Its figures are read as a
    Run's are (ops_per_s, mb_per_s, parts)."""
    where: str = derived("")                    # runs[0].steady.windows[0]
    repetition = read(1)
    attained = read(False, required=True)
    intervals = read(0, count=True)
    judged = read(0, count=True)
    ops = read(count=True)
    # the parts a run's figures are read from: "total", the window's
    parts: Dict[str, Summary] = derived(None, shown=False)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        self.parts = {"total": self.latency} if self.latency is not None else {}
        if self.attained and self.latency is None:
            src.fail(json_path(self.where, "latency"),
                     "null, but the window is attained: a steady window has "
                     "its latencies")


CAPACITY_PHASES = ("saturation", "search", "confirm")


@schema_object("capacity_step")
class CapacityStep(CapacityStepKeys):
    """One entry of a run's capacity.steps (diskio --target): an offered
    rate (None: as fast as possible) and what it did; latencies (ns)
    from each op's due time, pct_ns the capacity's percentile."""
    where: str = derived("")                    # runs[0].capacity.steps[3]
    step = read(0, required=True, count=True)
    phase = read("search", required=True)
    committers = read(1, required=True)
    achieved_ops_per_s = read(0.0, required=True)
    ops = read(0, required=True, count=True)
    duration_ns = read(0, required=True)
    p50_ns = read(0, required=True)
    p99_ns = read(0, required=True)
    pct_ns = read(0, required=True)
    max_ns = read(0, required=True)
    met = read(False, required=True)
    rate_held = read(False)


@schema_object("capacity")
class Capacity(CapacityKeys):
    """A run's capacity (diskio --target): the highest offered rate whose
    percentile met the target (ops_per_s, None when none did), the lowest
    rate above it that missed (high_ops_per_s: the capacity lies between),
    whether a longer run confirmed it, and the search's steps."""
    where: str = derived("")                    # runs[0].capacity
    percentile = read(99.0, required=True)
    target_ns = read(1, required=True)
    found = read(False, required=True)
    confirmed = read(False, required=True)
    committers = read(1, required=True)
    budget_ns = read(1, required=True)
    duration_ns = read(0, required=True)
    steps = read(required=True)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        if self.found and self.ops_per_s is None:
            src.fail(json_path(self.where, "ops_per_s"), "null, but found is true")


@schema_object("steady")
class Steady(SteadyKeys):
    """A run's steady (diskio --steady): the spec it was judged by, whether
    every window was steady, each repetition's window."""
    metric = read("mean", required=True)
    window = read(5, required=True)
    range_limit_pct = read(0.0, required=True)
    slope_limit_pct = read(0.0, required=True)
    ramp_ns = read(0)
    interval_ns = read(1, required=True)
    attained = read(False, required=True)
    windows = read(required=True)
