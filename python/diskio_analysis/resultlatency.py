# SPDX-License-Identifier: MIT
"""A run's latencies and what the devices did meanwhile: SUMMARY and
HIST, the device counters, the verdicts on them, whether O_DIRECT was
direct, the --interval series, --steady's windows and --target's
capacity search."""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .jsonfile import JsonFile, Triples, json_kind, json_path
from .resultkeys import (DIRECT_SOURCES, PERCENTILE_KEY, PERCENTILES, count_key,
                         derived, key, key_list, own)
from .resultread import read_buckets


@dataclass(slots=True)
class Summary:
    """A SUMMARY (a repetition's part): count, min, mean, stddev, max
    (ns) and the percentiles the file gives ({'p50': ns, ...})."""
    where: str = derived("")                    # runs[0].latency.total
    count: Optional[int] = count_key()
    min: Optional[float] = key(minimum=0)
    mean: Optional[float] = key(minimum=0)
    stddev: Optional[float] = key(minimum=0)
    max: Optional[float] = key(minimum=0)
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


@dataclass(slots=True)
class Hist(Summary):
    """A HIST: a SUMMARY with the percentiles diskio --percentiles added,
    the keys among them that are the max only for want of values
    (percentiles_limited_by_ops: p99_9 with fewer than 1000), and the
    buckets, compact Triples read as (lowest_ns, highest_ns, count)
    tuples (None when the file gives none)."""
    limited_by_ops: List[str] = own("percentiles_limited_by_ops", factory=list)
    overflow: Optional[int] = count_key()
    max_trackable_ns: Optional[int] = key(minimum=0)
    sub_buckets: Optional[int] = key(minimum=0)
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


@dataclass(slots=True)
class DeviceCounts:
    """What one block device (or, name "total", the devices the
    filesystem sits on) did during a run's measured ops: counters
    (flushes None where the kernel does not count them; read_merges None
    in files written before it; the milliseconds the requests took None
    in files written before device times) and per-op figures (None where
    undefined, and in files written before the read modes for the
    reads'), and each request's mean time on the device (us; None where
    undefined, under 20 ms of requests, or in older files)."""
    where: str = derived("")
    name: str = key("", required=True, nonempty=True)
    reads: int = count_key(0, required=True)
    read_merges: Optional[int] = count_key()
    read_sectors: int = count_key(0, required=True)
    writes: int = count_key(0, required=True)
    write_merges: int = count_key(0, required=True)
    write_sectors: int = count_key(0, required=True)
    flushes: Optional[int] = count_key()
    read_ms: Optional[int] = key(minimum=0)
    write_ms: Optional[int] = key(minimum=0)
    flush_ms: Optional[int] = key(minimum=0)
    writes_per_op: Optional[float] = key(minimum=0)
    merges_per_op: Optional[float] = key(minimum=0)
    kib_per_write: Optional[float] = key(minimum=0)
    flushes_per_op: Optional[float] = key(minimum=0)
    reads_per_op: Optional[float] = key(minimum=0)
    read_merges_per_op: Optional[float] = key(minimum=0)
    kib_per_read: Optional[float] = key(minimum=0)
    us_per_read: Optional[float] = key(minimum=0)
    us_per_write: Optional[float] = key(minimum=0)
    us_per_flush: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class DeviceIO(DeviceCounts):
    """A DEVICE_IO: one device's counters, with its depth and flags."""
    depth: Optional[int] = key(minimum=0)
    leaf: Optional[bool] = key()
    own_io: Optional[bool] = key()
    volatile_cache: Optional[bool] = key()
    fua: Optional[bool] = key()
    rotational: Optional[bool] = key()


@dataclass(slots=True)
class Verdict:
    """What the device figures say about the latencies."""
    code: str = key("", required=True, nonempty=True)
    message: Optional[str] = key()


@dataclass(slots=True)
class Direct:
    """DIRECT: whether an O_DIRECT run's I/O went to the device as issued
    (honoured; None: nothing told), what decided it (source: "statx" or
    "device") and what showed it, and the files' STATX_DIOALIGN (None
    where the kernel did not give it)."""
    honoured: Optional[bool] = key()
    source: Optional[str] = key(choices=DIRECT_SOURCES)
    evidence: str = key("", required=True, nonempty=True)
    dio_offset_align: Optional[int] = count_key()
    dio_mem_align: Optional[int] = count_key()


@dataclass(slots=True)
class Interval:
    """One entry of a run's intervals.series (diskio --interval): the ops
    that completed in it and their latencies (ns; None when ops is 0)."""
    where: str = derived("")                    # runs[0].intervals.series[3]
    repetition: int = key(1, minimum=1)         # which repetition (from 1)
    start_ns: int = key(0, required=True, minimum=0)
    duration_ns: int = key(0, required=True, minimum=0)
    ops: int = count_key(0, required=True)
    bytes: int = count_key(0)
    ops_per_s: Optional[float] = key(required=True, minimum=0)
    mb_per_s: Optional[float] = key(minimum=0)
    min_ns: Optional[float] = key(minimum=0)
    mean_ns: Optional[float] = key(minimum=0)
    p50_ns: Optional[float] = key(minimum=0)
    p99_ns: Optional[float] = key(minimum=0)
    max_ns: Optional[float] = key(minimum=0)

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


@dataclass(slots=True)
class SteadyWindow:
    """One entry of a run's steady.windows (diskio --steady): one
    repetition's window of intervals, steady (attained: its figures over
    the window alone in ops_per_s, mb_per_s and parts' "total") or, when
    none was, the last one judged with the trend the metric had (latency
    None: never a sample of a steady disk).  Its figures are read as a
    Run's are (ops_per_s, mb_per_s, parts)."""
    where: str = derived("")                    # runs[0].steady.windows[0]
    repetition: int = key(1, minimum=1)
    attained: bool = key(False, required=True)
    first_interval: Optional[int] = key(minimum=0)
    intervals: int = count_key(0)
    judged: int = count_key(0)
    start_ns: Optional[int] = key(minimum=0)
    end_ns: Optional[int] = key(minimum=0)
    average: Optional[float] = key(minimum=0)
    range_pct: Optional[float] = key(minimum=0)
    slope_pct: Optional[float] = key(minimum=0)
    trend: Optional[str] = key(choices=STEADY_TRENDS)
    trend_per_min: Optional[float] = key()
    trend_pct_per_min: Optional[float] = key()
    ops: Optional[int] = count_key()
    duration_ns: Optional[int] = key(minimum=0)
    ops_per_s: Optional[float] = key(minimum=0)
    mb_per_s: Optional[float] = key(minimum=0)
    latency: Optional[Summary] = key()
    # the parts a run's figures are read from: "total", the window's
    parts: Dict[str, Summary] = derived(None, shown=False)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        self.parts = {"total": self.latency} if self.latency is not None else {}
        if self.attained and self.latency is None:
            src.fail(json_path(self.where, "latency"),
                     "null, but the window is attained: a steady window has "
                     "its latencies")


CAPACITY_PHASES = ("saturation", "search", "confirm")


@dataclass(slots=True)
class CapacityStep:
    """One entry of a run's capacity.steps (diskio --target): an offered
    rate (None: as fast as possible) and what it did; latencies (ns)
    from each op's due time, pct_ns the capacity's percentile."""
    where: str = derived("")                    # runs[0].capacity.steps[3]
    step: int = count_key(0, required=True)
    phase: str = key("search", required=True, choices=CAPACITY_PHASES)
    committers: int = key(1, required=True, minimum=1)
    offered_ops_per_s: Optional[float] = key(minimum=0)
    achieved_ops_per_s: float = key(0.0, required=True, minimum=0)
    ops: int = count_key(0, required=True)
    duration_ns: int = key(0, required=True, minimum=0)
    mean_ns: Optional[float] = key(minimum=0)
    p50_ns: int = key(0, required=True, minimum=0)
    p99_ns: int = key(0, required=True, minimum=0)
    pct_ns: int = key(0, required=True, minimum=0)
    max_ns: int = key(0, required=True, minimum=0)
    met: bool = key(False, required=True)
    rate_held: bool = key(False)
    error: Optional[str] = key()


@dataclass(slots=True)
class Capacity:
    """A run's capacity (diskio --target): the highest offered rate whose
    percentile met the target (ops_per_s, None when none did), the lowest
    rate above it that missed (high_ops_per_s: the capacity lies between),
    whether a longer run confirmed it, and the search's steps."""
    where: str = derived("")                    # runs[0].capacity
    percentile: float = key(99.0, required=True, minimum=0)
    target_ns: int = key(1, required=True, minimum=1)
    found: bool = key(False, required=True)
    confirmed: bool = key(False, required=True)
    ops_per_s: Optional[float] = key(minimum=0)
    high_ops_per_s: Optional[float] = key(minimum=0)
    committers: int = key(1, required=True, minimum=1)
    budget_ns: int = key(1, required=True, minimum=1)
    duration_ns: int = key(0, required=True, minimum=0)
    steps: List[CapacityStep] = key_list(required=True)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        if self.found and self.ops_per_s is None:
            src.fail(json_path(self.where, "ops_per_s"), "null, but found is true")


@dataclass(slots=True)
class Steady:
    """A run's steady (diskio --steady): the spec it was judged by, whether
    every window was steady, each repetition's window."""
    metric: str = key("mean", required=True, choices=STEADY_METRICS)
    window: int = key(5, required=True, minimum=2)
    range_limit_pct: float = key(0.0, required=True, minimum=0)
    slope_limit_pct: float = key(0.0, required=True, minimum=0)
    ramp_ns: int = key(0, minimum=0)
    interval_ns: int = key(1, required=True, minimum=1)
    attained: bool = key(False, required=True)
    windows: List[SteadyWindow] = key_list(required=True)
