# SPDX-License-Identifier: MIT
"""The one reader of diskio's result JSON (doc/result-schema.json, the
format; doc/result-schema.md, its explanation).

load_result(path) checks the schema name and version, checks the type and
range of every value it reads and returns typed objects every tool uses:
a Result, its Environment, its Runs and theirs (Parameters, Hists,
Repetitions, Intervals, Rate, Wal, Checkpoint, Interference, ...).  Each
dataclass below is one object of the schema and has a field for each of
its keys, of the key's name unless the field's metadata says otherwise
(own(...)), so that tests/python/test_result_schema.py can hold the two
together: a key added to the schema without a field here fails it, and
so does a field without a key.  The fields are read by their annotation
(read_object), by one generic reader, so no key is forgotten.

A value the file leaves out (or writes as null) comes back as the field's
default (None, [], or what files of earlier releases mean by leaving it
out: jobs 1, direction "write"); what a tool cannot do without asks for
it with Run.need()/Run.need_part()/Summary.need(), which raise the same
InputError (file, JSON path, what to do) a missing value always raises.
So each tool keeps its own notion of what is required while the file is
read, and judged, in one place.

The objects are slotted dataclasses and a HIST's buckets compact Triples
(jsonfile.py): a large result is many small objects, and what each takes
is what bounds reading one (doc/threat-model.md, 39).  A count (ops,
bytes, requests, a histogram's values) is a count_key(), read as a whole
number from 0 up wherever it is.

Percentile keys follow one rule, percentile_key(), the same as the C
library's pct_name(): tests/cli/percentile-keys-one-rule.sh holds the two
together.
"""

import dataclasses
import math
import operator
import re
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

from .errors import InputError
from .jsonfile import (MISSING, JsonFile, Triples, check_version,
                       json_key_line, json_kind, json_path, parse_json,
                       read_json)

RESULT_SCHEMA = "diskio-result"
SUPPORTED_RESULT_VERSIONS = (1, 2)
RESULT_TODO = ("the file does not follow the diskio result schema "
               "(doc/result-schema.md); regenerate it with diskio")

# The latency parts of a run, in file order.
PARTS = ("total", "write", "sync", "service", "switch")
# The percentiles every HIST and SUMMARY holds (src/lib/result.c's
# summary_pcts), and the pattern of every percentile's key.
SUMMARY_PERCENTILES = (50.0, 90.0, 99.0, 99.9, 99.99)
PERCENTILE_KEY = re.compile(r"^p[0-9]+(_[0-9]+)?$")
# what parameters.direction may be (absent before the read modes: "write")
DIRECTIONS = ("write", "read")
# what decided whether an O_DIRECT run was direct (direct.source)
DIRECT_SOURCES = ("statx", "device")
# INTERFERENCE's waits_for: what the mode's ops wait for, which says what
# disturbs them (doc/verdicts.md)
WAITS_FOR = ("cpu", "device")
# The most repetitions a run has: diskio --repeat's limit (CLI_REPEAT_MAX,
# src/cli/cli_options.h; test_result.py holds the two together).  More
# is no measurement diskio made.
MAX_REPETITIONS = 1000


def percentile_key(pct: float, sep: str = "_") -> str:
    """A percentile's key, by the rule of the C library's pct_name(): "p"
    and the percentile in at most ten significant digits ("%.10g"), never
    an exponent, its decimal point as sep: 99.9 -> "p99_9", 1e-05 ->
    "p0_00001"; sep "." gives the table's "p99.9"."""
    text = "p%.10g" % pct
    if "e" in text and pct > 0:
        decimals = 9 - math.floor(math.log10(pct))
        text = "p%.*f" % (min(decimals, 40), pct)
        text = text.rstrip("0") if "." in text else text
        text = text.rstrip(".")
    return text.replace(".", sep)


# The keys of the summary's percentiles: p50, p90, p99, p99_9, p99_99.
PERCENTILES = tuple(percentile_key(p) for p in SUMMARY_PERCENTILES)


# ---- how a field is read: its metadata ----

def key(default: Any = None, *, required: bool = False,
        minimum: Optional[float] = None, nonempty: bool = False,
        choices: Tuple[str, ...] = (), most: Optional[Tuple[int, str]] = None) -> Any:
    """A field read from the JSON key of its name: required (missing or
    null is an error; else the default stands), numbers not below
    minimum, strings nonempty or one of choices, lists of at most
    most[0] items (most[1] says whose limit that is)."""
    meta = {"required": required, "minimum": minimum, "nonempty": nonempty,
            "choices": choices, "most": most}
    return field(default=default, metadata=meta)


def count_key(default: Any = None, *, required: bool = False) -> Any:
    """A count (ops, bytes, requests, a histogram's values, errors, ...):
    a field declared int and read as a whole number from 0 up, so that
    2.5, -1 or "3" is refused naming its JSON path (JsonFile.as_count),
    whatever the field."""
    return field(default=default, metadata={"required": required, "count": True})


def key_list(*, required: bool = False,
             factory: Callable[[], Any] = list) -> Any:
    """A list (factory dict: a name -> value object), empty when absent."""
    return field(default_factory=factory, metadata={"required": required})


def own(json: Optional[str] = None, factory: Optional[Callable[[], Any]] = None,
        shown: bool = True, **meta: Any) -> Any:
    """A field its class reads itself (_read_rest), from json (a key, or
    a dotted path: device.total), with meta for the schema test: keys
    (the fixed keys of a name -> value object), pattern (the pattern of
    its keys) or index (an index into runs[], read as the Run)."""
    info = {"json": json, "own": True, **meta}
    if factory is not None:
        return field(default_factory=factory, metadata=info, repr=shown)
    return field(default=None, metadata=info, repr=shown)


def derived(default: Any = None, shown: bool = True) -> Any:
    """A field that is not a key of the file: the JSON path an object was
    read at, a value worked out from others, the file it came from."""
    return field(default=default, metadata={"derived": True}, repr=shown,
                 compare=shown)


def json_key(f: "dataclasses.Field[Any]") -> str:
    """The JSON key (or dotted path) of a field."""
    return f.metadata.get("json") or f.name


# ---- the schema's objects ----

@dataclass(slots=True)
class Tool:
    """The program that wrote the file."""
    name: Optional[str] = key()
    version: Optional[str] = key()


@dataclass(slots=True)
class Kernel:
    """uname(2)."""
    sysname: Optional[str] = key()
    release: Optional[str] = key()
    version: Optional[str] = key()
    machine: Optional[str] = key()


@dataclass(slots=True)
class Cpu:
    model: Optional[str] = key()
    cores: Optional[int] = count_key()
    idle_driver: Optional[str] = key()      # None also in files before it
    wakeup_ns: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class Timer:
    """The clock every latency is read from."""
    clock: Optional[str] = key()
    resolution_ns: Optional[int] = key(minimum=0)
    overhead_ns: Optional[int] = key(minimum=0)
    clocksource: Optional[str] = key()          # schema 2


@dataclass(slots=True)
class TargetDevice:
    """The block device under the target's filesystem."""
    name: Optional[str] = key()
    partition: Optional[str] = key()
    rotational: Optional[bool] = key()
    scheduler: Optional[str] = key()
    write_cache: Optional[str] = key()
    logical_block_size: Optional[int] = key(minimum=0)
    physical_block_size: Optional[int] = key(minimum=0)
    model: Optional[str] = key()
    fua: Optional[bool] = key()                 # schema 2


@dataclass(slots=True)
class Ext4:
    journal: Optional[bool] = key()
    data_mode: Optional[str] = key()


@dataclass(slots=True)
class Loop:
    backing_file: Optional[str] = key()
    backing_filesystem: Optional[str] = key()
    backing_mount_point: Optional[str] = key()
    backing_device: Optional[str] = key()


@dataclass(slots=True)
class Overlay:
    upperdir: Optional[str] = key()
    upper_filesystem: Optional[str] = key()
    upper_mount_point: Optional[str] = key()


@dataclass(slots=True)
class EnvDevice:
    """A DEVICE: one block device under the target."""
    name: str = key("", required=True, nonempty=True)
    depth: Optional[int] = key(minimum=0)
    leaf: Optional[bool] = key()
    own_io: Optional[bool] = key()
    write_cache: Optional[str] = key()
    fua: Optional[bool] = key()
    rotational: Optional[bool] = key()


@dataclass(slots=True)
class Target:
    directory: Optional[str] = key()
    filesystem: Optional[str] = key()
    mount_point: Optional[str] = key()
    mount_source: Optional[str] = key()
    mount_options: Optional[str] = key()
    super_options: Optional[str] = key()
    device: Optional[TargetDevice] = key()
    ext4: Optional[Ext4] = key()                # schema 2, and the three below
    loop: Optional[Loop] = key()
    overlay: Optional[Overlay] = key()
    devices: List[EnvDevice] = key_list()


@dataclass(slots=True)
class Environment:
    """The environment probe: the machine and the target; None where a
    value could not be read."""
    hostname: Optional[str] = key()
    # which machine and which boot of it (None in files before them)
    machine_id: Optional[str] = key()
    boot_id: Optional[str] = key()
    kernel: Optional[Kernel] = key()
    cpu: Optional[Cpu] = key()
    memory_bytes: Optional[int] = key(minimum=0)
    timer: Optional[Timer] = key()
    target: Optional[Target] = key()


@dataclass(slots=True)
class Precondition:
    """diskio --precondition: what was written before the runs (the range
    bytes, passes times, in writes of block_size; complete, or stopped)."""
    passes: int = key(2, required=True, minimum=1)
    block_size: int = key(1, required=True, minimum=1)
    bytes: int = count_key(0, required=True)
    written: int = count_key(0, required=True)
    direct: bool = key(False)
    complete: bool = key(False, required=True)
    duration_ns: int = key(0, required=True, minimum=0)
    mb_per_s: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class Parameters:
    """A measured run's parameters.  A custom run (parameters null: a
    program's own operations, timed with libdiskio) has none of diskio's:
    custom is True and the rest None (its own are Run.params).  Files
    written before jobs, --shared-file, the read modes and --write-back
    lack them: read as 1, false, "write" and 0."""
    block_size: Optional[int] = key(required=True, minimum=1)
    file_size: Optional[int] = key(minimum=0)
    pattern: Optional[str] = key()
    count: Optional[int] = key(minimum=0)
    runtime_s: Optional[float] = key(minimum=0)
    warmup: Optional[int] = key(minimum=0)
    iodepth: Optional[int] = key(minimum=0)
    batch: Optional[int] = key(minimum=1)
    sync_every: Optional[int] = key(minimum=0)
    rate_ops_per_s: Optional[float] = key(minimum=0)
    jobs: int = key(1, minimum=1)
    shared_file: bool = key(False)
    open_flags: Optional[str] = key()
    direction: str = key("write", choices=DIRECTIONS)
    cached: bool = key(False)
    verify: bool = key(False)
    write_back: int = key(0, minimum=0)
    custom: bool = derived(False)


@dataclass(slots=True)
class RunError:
    """The error that stopped a run."""
    op: Optional[int] = key(minimum=0)
    errno: Optional[int] = key(minimum=0)
    message: Optional[str] = key()
    during: Optional[str] = key()
    job: Optional[int] = key(minimum=0)         # runs of several jobs


@dataclass(slots=True)
class LateStart:
    """With --rate, the ops whose lag is diskio's own lateness."""
    ops: Optional[int] = count_key()
    p50: Optional[int] = key(minimum=0)
    p99: Optional[int] = key(minimum=0)
    max: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class Backlog:
    """With --rate, the ops that waited for the device."""
    ops: Optional[int] = count_key()
    max_lag_ns: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class Rate:
    """With --rate: how the fixed schedule was kept (older files lack
    the figures from start_lag_p99_ns on: None)."""
    requested_ops_per_s: float = key(0.0, required=True, minimum=0)
    achieved_ops_per_s: float = key(0.0, required=True, minimum=0)
    held: bool = key(False, required=True)
    max_start_lag_ns: int = key(0, required=True, minimum=0)
    start_lag_p99_ns: Optional[int] = key(minimum=0)
    late_start_ns: Optional[LateStart] = key()
    backlog: Optional[Backlog] = key()
    spin_margin_ns: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class JobError:
    """Why one job stopped early."""
    message: Optional[str] = key()
    op: Optional[int] = key(minimum=0)
    during: Optional[str] = key()


@dataclass(slots=True)
class JobFigures:
    """One entry of a run's per_job[]: what one of its concurrent jobs
    (or threads) did.  errors is 1 for a job that stopped at an error of
    its own."""
    where: str = derived("")                    # runs[0].per_job[3]
    job: int = key(0, required=True, minimum=0)
    ops: int = count_key(0, required=True)
    bytes: int = count_key(0, required=True)
    duration_ns: int = key(0, required=True, minimum=0)
    mean_ns: float = key(0.0, required=True, minimum=0)
    p50_ns: int = key(0, required=True, minimum=0)
    p99_ns: int = key(0, required=True, minimum=0)
    max_ns: int = key(0, required=True, minimum=0)
    errors: int = count_key(0)
    error: Optional[JobError] = key()


@dataclass(slots=True)
class Wal:
    """--pattern wal: what the run did (diskio(1), PATTERNS)."""
    bytes_per_commit: Optional[int] = key(minimum=0)
    segment_size: Optional[int] = key(minimum=0)
    page_size: Optional[int] = key(minimum=0)
    recycle: Optional[bool] = key()
    committers: Optional[int] = count_key()
    gap_ns: Optional[int] = key(minimum=0)
    commits: Optional[int] = count_key()
    flushes: Optional[int] = count_key()
    writes: Optional[int] = count_key()
    syncs: Optional[int] = count_key()
    pages: Optional[int] = count_key()
    page_rewrites: Optional[int] = count_key()
    segment_switches: Optional[int] = count_key()
    insert_bytes: Optional[int] = count_key()
    syncs_per_commit: Optional[float] = key(minimum=0)
    flushes_per_commit: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class Checkpoint:
    """--pattern checkpoint: what the run did; its ops are pages."""
    files: Optional[int] = count_key()
    pages_per_checkpoint: Optional[int] = key(minimum=0)
    flush_after_pages: Optional[int] = key(minimum=0)
    checkpoints: Optional[int] = count_key()
    pages: Optional[int] = count_key()
    file_syncs: Optional[int] = count_key()
    writebacks: Optional[int] = count_key()


@dataclass(slots=True)
class InterferenceCpu:
    """The machine's CPU time over the window: other_s, other_cpus and
    steal_share None over a window shorter than resolution_s (what
    /proc/stat's counters resolve over all CPUs; None in files written
    before it)."""
    own_s: Optional[float] = key()
    other_s: Optional[float] = key()
    other_cpus: Optional[float] = key()
    steal_share: Optional[float] = key()
    resolution_s: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class ThreadFigures:
    """The measuring threads' own scheduling (one per job), summed over
    them: their wall, CPU and run-delay time (runnable, waiting for a
    CPU), and the shares of the wall time they waited for a CPU and were
    blocked (neither running nor waiting for a CPU; None for a paced
    run)."""
    threads: Optional[int] = count_key()
    wall_s: Optional[float] = key(minimum=0)
    cpu_s: Optional[float] = key(minimum=0)
    run_delay_s: Optional[float] = key(minimum=0)
    run_delay_share: Optional[float] = key(minimum=0)
    blocked_share: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class RunQueue:
    before: Optional[int] = count_key()
    after: Optional[int] = count_key()


@dataclass(slots=True)
class Pressure:
    cpu_some: Optional[float] = key()
    cpu_full: Optional[float] = key()
    io_some: Optional[float] = key()
    io_full: Optional[float] = key()
    memory_some: Optional[float] = key()
    memory_full: Optional[float] = key()


@dataclass(slots=True)
class MemoryFigures:
    dirty_kib_before: Optional[int] = key(minimum=0)
    writeback_kib_before: Optional[int] = key(minimum=0)
    dirty_kib_after: Optional[int] = key(minimum=0)
    writeback_kib_after: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class InterferenceDevice:
    name: str = key("", required=True, nonempty=True)
    depth: Optional[int] = key(minimum=0)
    bytes: Optional[int] = count_key()
    foreign_bytes: Optional[int] = count_key()
    foreign_share: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class Interference:
    """What else the machine did while a run's (or a repetition's)
    measured ops ran (doc/verdicts.md); None where unreadable."""
    start_time: Optional[str] = key()
    wall_s: Optional[float] = key(minimum=0)
    cpus: Optional[int] = count_key()
    # "cpu" or "device" (None in files written before it, where every
    # mode was judged as the device's)
    waits_for: Optional[str] = key(choices=WAITS_FOR)
    cpu: Optional[InterferenceCpu] = key()
    thread: Optional[ThreadFigures] = key()
    run_queue: Optional[RunQueue] = key()
    pressure: Optional[Pressure] = key()
    memory: Optional[MemoryFigures] = key()
    devices: List[InterferenceDevice] = key_list()

    @property
    def other_cpu_share(self) -> Optional[float]:
        """Others' busy CPUs over the machine's CPUs (0..1), or None where
        the file does not say."""
        if self.cpu is None or not self.cpus or self.cpu.other_cpus is None:
            return None
        return min(1.0, max(0.0, self.cpu.other_cpus / self.cpus))


@dataclass(slots=True)
class Disturbance:
    """One reason a run or repetition was disturbed: its kind
    ("other_cpu", "run_delay", "steal", "cpu_pressure", "memory_pressure",
    "dirty", "device_io", "writeback"), the figure measured against the
    threshold (in unit), the device (device_io, writeback) and the
    sentence diskio wrote."""
    where: str = derived("")
    reason: str = key("", required=True, nonempty=True)
    message: str = key("", required=True, nonempty=True)
    figure: Optional[float] = key()
    threshold: Optional[float] = key()
    unit: Optional[str] = key()
    device: Optional[str] = key()
    repetition: Optional[int] = key(minimum=1)  # a run's list: which one


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


@dataclass(slots=True)
class Repetition:
    """One entry of a run's repetitions[]: what one repetition measured,
    with the same attributes a Run has for its figures (complete, ops,
    ops_per_s, parts of Summaries), so a tool can take the repetitions of
    a run where it would take runs.  mb_per_s, absent in files written
    before repetitions carried it, is worked out from bytes and
    duration_ns."""
    where: str = derived("")                    # runs[0].repetitions[2]
    complete: bool = key(True)
    ops: Optional[int] = count_key()
    bytes: Optional[int] = count_key()
    duration_ns: Optional[float] = key(minimum=0)
    start_offset_ns: Optional[float] = key(minimum=0)  # from the first run
    ops_per_s: Optional[float] = key(minimum=0)
    mb_per_s: Optional[float] = key(minimum=0)  # 10^6 bytes per second
    start_time: Optional[str] = key()           # ISO 8601 UTC
    disturbed: Optional[bool] = key()
    disturbances: List[Disturbance] = key_list()
    interference: Optional[Interference] = key()
    parts: Dict[str, Summary] = own("latency", keys=PARTS, factory=dict)
    _src: Optional[JsonFile] = derived(shown=False)
    _node: Optional[Dict[str, Any]] = derived(shown=False)

    def need(self, name: str) -> Any:
        """A number of the repetition that must be there (ops_per_s)."""
        assert self._src is not None and self._node is not None
        return self._src.get_number(self._node, self.where, name)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        if self.mb_per_s is None and self.bytes is not None and self.duration_ns:
            self.mb_per_s = self.bytes / 1e6 / (self.duration_ns / 1e9)
        latency = src.get_object(node, self.where, "latency")
        read_parts(src, latency, json_path(self.where, "latency"), self.parts,
                   Summary)
        check_disturbed(src, self.where, self.disturbed, self.disturbances)


@dataclass(slots=True)
class Run:
    """One entry of runs[].  parts are the latency parts the file gives,
    {'total': Hist, 'write': ..., 'sync': ..., 'service': ...,
    'switch': ...}; device (schema 2) is device_total, device_shared and
    devices (None, None and [] in schema 1 and where no device was
    counted); intervals (--interval) is interval_ns and intervals, the
    series (both None without it)."""
    where: str = derived("")                    # runs[0]
    mode: str = key("", required=True, nonempty=True)
    parameters: Parameters = own(factory=Parameters)
    # a custom run's own parameters (diskio_run_set_param), and
    # diskio --durability's: name -> text
    params: Dict[str, str] = key_list(factory=dict)
    complete: bool = key(True)
    errors: int = count_key(0)
    error: Optional[RunError] = key()
    ops: Optional[int] = count_key()
    bytes: Optional[int] = count_key()
    duration_ns: Optional[int] = key(minimum=0)
    ops_per_s: Optional[float] = key(minimum=0)
    mb_per_s: Optional[float] = key(minimum=0)
    # diskio --jobs N (N > 1) and threaded custom runs: each job's own
    # figures, in job order; empty for a run of one
    per_job: List[JobFigures] = key_list()
    # --pattern wal and checkpoint; None for the other patterns and in
    # files written before them
    wal: Optional[Wal] = key()
    checkpoint: Optional[Checkpoint] = key()
    rate: Optional[Rate] = key()                # --rate
    # what else the machine did: whether the run (any of its repetitions)
    # was disturbed (None in files written before diskio measured it),
    # how many repetitions were, the reasons, the figures of a run
    # measured once
    disturbed: Optional[bool] = key()
    disturbed_repetitions: Optional[int] = count_key()
    interference: Optional[Interference] = key()
    disturbances: List[Disturbance] = key_list()
    # diskio --repeat: each repetition's own figures, in the order they
    # ran; None when the run was measured once
    repetitions: Optional[List[Repetition]] = key(
        most=(MAX_REPETITIONS, "repetitions diskio --repeat makes"))
    interval_ns: Optional[int] = own("intervals.interval_ns")
    intervals: Optional[List[Interval]] = own("intervals.series")
    # diskio --steady: None for a run without it (and in older files)
    steady: Optional[Steady] = key()
    # diskio --target: None for a run without it (and in older files)
    capacity: Optional[Capacity] = key()
    parts: Dict[str, Hist] = own("latency", keys=PARTS, factory=dict)
    device_total: Optional[DeviceCounts] = own("device.total")
    device_shared: Optional[bool] = own("device.shared")
    devices: List[DeviceIO] = own("device.devices", factory=list)
    verdicts: List[Verdict] = key_list()
    # the O_DIRECT modes: whether their I/O was direct; None for the other
    # modes, custom runs and files written before it
    direct: Optional[Direct] = key()
    # "read" for the read modes (parameters.direction)
    direction: str = derived("write")
    # diskio --suite: the suite row this run is, None otherwise
    suite_row: Optional["SuiteRow"] = derived(shown=False)
    _src: Optional[JsonFile] = derived(shown=False)
    _node: Optional[Dict[str, Any]] = derived(shown=False)

    @property
    def workload(self) -> str:
        """The mode, or a custom run's name with its params (its program's
        own parameters, which tell two custom runs of one name apart):
        'log-commit (record=512, sync=fdatasync)'.  A run of diskio's own
        is its mode whatever its params say (a --durability run's
        listener and run id are bookkeeping, not another workload)."""
        if not self.params or not self.parameters.custom:
            return self.mode
        return self.mode + " (" + ", ".join(
            f"{name}={value}" for name, value in self.params.items()) + ")"

    @property
    def start_time(self) -> Optional[str]:
        """When its measured ops began (a run measured once), as a
        Repetition's start_time: its interference's."""
        return self.interference.start_time if self.interference else None

    @property
    def not_direct(self) -> bool:
        """An O_DIRECT run whose I/O the filesystem buffered (direct.honoured
        false): its latencies are the page cache's, not a device's, and no
        verdict may rest on them."""
        return self.direct is not None and self.direct.honoured is False

    def need(self, name: str) -> Any:
        """A number of the run that must be there (ops_per_s, mb_per_s)."""
        assert self._src is not None and self._node is not None
        return self._src.get_number(self._node, self.where, name)

    def need_part(self, name: str) -> Hist:
        """The latency part name, which must be there."""
        if name not in self.parts:
            assert self._src is not None and self._node is not None
            self._src.get_object(self._node["latency"],
                                 json_path(self.where, "latency"), name)
        return self.parts[name]

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        if "parameters" not in node:
            src.fail(json_path(self.where, "parameters"),
                     "missing, expected an object (null for a custom run)")
        pwhere = json_path(self.where, "parameters")
        params = src.get_object(node, self.where, "parameters", optional=True)
        self.parameters = (Parameters(custom=True) if params is None
                           else read_object(src, params, pwhere, Parameters))
        self.direction = self.parameters.direction
        latency = src.get_object(node, self.where, "latency")
        read_parts(src, latency, json_path(self.where, "latency"), self.parts,
                   Hist)
        self._read_intervals(src, node)
        self._read_device(src, node)
        check_disturbed(src, self.where, self.disturbed, self.disturbances)

    def _read_intervals(self, src: JsonFile, node: Dict[str, Any]) -> None:
        """The interval series (absent in files written before --interval
        existed, null for runs without it)."""
        intervals = src.get_object(node, self.where, "intervals", optional=True)
        if intervals is None:
            return
        iwhere = json_path(self.where, "intervals")
        self.interval_ns = src.get_int(intervals, iwhere, "interval_ns",
                                       minimum=1)
        swhere = json_path(iwhere, "series")
        self.intervals = [
            read_object(src, item, json_path(swhere, index), Interval)
            for index, item in enumerate(src.get_list(intervals, iwhere,
                                                      "series"))]

    def _read_device(self, src: JsonFile, node: Dict[str, Any]) -> None:
        """Schema 2's device (absent in schema 1)."""
        device = src.get_object(node, self.where, "device", optional=True)
        if device is None:
            return
        dwhere = json_path(self.where, "device")
        self.device_total = read_object(
            src, src.get_object(device, dwhere, "total"),
            json_path(dwhere, "total"), DeviceCounts)
        shared = device.get("shared", MISSING)
        if not isinstance(shared, bool):
            src.fail(json_path(dwhere, "shared"),
                     f"{json_kind(shared)}, expected true or false")
        self.device_shared = shared
        lwhere = json_path(dwhere, "devices")
        self.devices = [read_object(src, item, json_path(lwhere, index), DeviceIO)
                        for index, item in enumerate(
                            src.get_list(device, dwhere, "devices"))]


@dataclass(slots=True)
class SuiteRow:
    """One entry of suite.rows[]: a row of a suite file, its run (the Run
    its index names, or None for a row that was not run, with the reason
    in note)."""
    where: str = derived("")                    # suite.rows[3]
    label: str = key("", required=True, nonempty=True)  # "SEQ1M Q8T1"
    column: str = key("", required=True, nonempty=True)  # "read", "write"
    run: Optional[Run] = own(index="runs", shown=False)
    note: Optional[str] = key()

    @property
    def name(self) -> str:
        """The row as the suite's view names it: "SEQ1M Q8T1 read"."""
        return f"{self.label} {self.column}"


@dataclass(slots=True)
class Suite:
    """diskio --suite: the suite's name, title, how its rows are summarised
    ("best" or "mean") and its rows, in the file's order."""
    name: str = key("", required=True, nonempty=True)
    title: Optional[str] = key()
    summary: Optional[str] = key()
    rows: List[SuiteRow] = key_list(required=True)


@dataclass(slots=True)
class Result:
    """One diskio result file: one environment and its runs."""
    path: str = derived("")
    # the environment the command line named it into (NAME=FILE,
    # sides.py), None when not named
    side: Optional[str] = derived(None)
    schema: str = key(RESULT_SCHEMA)
    schema_version: int = key(1)
    tool: Optional[Tool] = key()
    label: Optional[str] = key()                # --label, None when not given
    start_time: Optional[str] = key()
    complete: bool = key(True)                  # False: interrupted or a run failed
    environment: Optional[Environment] = key()
    precondition: Optional[Precondition] = key()  # --precondition; else None
    runs: List[Run] = key_list(required=True)
    suite: Optional[Suite] = own()              # diskio --suite; None otherwise

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        suite = src.get_object(node, "", "suite", optional=True)
        if suite is not None:
            self.suite = read_suite(src, suite, self.runs)


# ---- reading ----

T = TypeVar("T")
# how to read a value: (file, value, its JSON path) -> the value or None
Reader = Callable[[JsonFile, Any, str], Any]
# per class: its fields read from keys (field, key, reader), whether it
# has a where, _src and _node, and its _read_rest
_PLANS: Dict[type, Tuple[List[Tuple[str, str, Reader]], Tuple[bool, bool, bool]]] = {}


NONE_TYPE = type(None)


def unwrap_optional(hint: Any) -> Any:
    """X of Optional[X]; hint itself otherwise."""
    if typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not NONE_TYPE]
        if len(args) == 1:
            return args[0]
    return hint


def plan(cls: type) -> Tuple[List[Tuple[str, str, Reader]], Tuple[bool, bool, bool]]:
    """How to read an object of class cls, worked out once from its
    fields' annotations and metadata."""
    if cls not in _PLANS:
        hints = typing.get_type_hints(cls)
        steps = [(f.name, json_key(f), value_reader(hints[f.name], f.metadata))
                 for f in dataclasses.fields(cls)
                 if not f.metadata.get("derived") and not f.metadata.get("own")]
        names = {f.name for f in dataclasses.fields(cls)}
        _PLANS[cls] = steps, ("where" in names, "_src" in names, "_node" in names)
    return _PLANS[cls]


def read_object(src: JsonFile, node: Any, where: str, cls: Type[T]) -> T:
    """The object of class cls (one of the schema's objects above) that
    the JSON object node at where holds: every field that is a key of it
    read by its annotation and metadata (key()); then the class's own
    fields (own()) by its _read_rest."""
    node = src.as_object(node, where)
    steps, (has_where, has_src, has_node) = plan(cls)
    values: Dict[str, Any] = {}
    prefix = where + "." if where else ""
    for name, json_name, reader in steps:
        # every key of the schema is an identifier: its path is prefix.key
        value = reader(src, node.get(json_name, MISSING), prefix + json_name)
        if value is not None:
            values[name] = value
    if has_where:
        values["where"] = where
    if has_src:
        values["_src"] = src
    if has_node:
        values["_node"] = node
    obj = cls(**values)
    finish = getattr(obj, "_read_rest", None)
    if finish is not None:
        finish(src, node)
    return obj


def value_reader(hint: Any, meta: Any) -> Reader:
    """The reader of a value of type hint (bool, int, float, str, a
    dataclass, or a list or name -> value object of them): it returns
    None when the value is absent or null and not required."""
    kind = unwrap_optional(hint)
    optional = not meta.get("required", False)
    minimum = meta.get("minimum")
    origin = typing.get_origin(kind)
    if kind is bool:
        def read_bool(src: JsonFile, value: Any, where: str) -> Any:
            if (value is MISSING or value is None) and optional:
                return None
            if not isinstance(value, bool):
                src.fail(where, f"{json_kind(value)}, expected true or false")
            return value
        return read_bool
    if meta.get("count"):
        if kind is not int:
            raise TypeError(f"a count is declared int, not {hint!r}")
        return lambda src, value, where: src.as_count(value, where, optional=optional)
    if kind is int:
        return lambda src, value, where: src.as_int(value, where, optional=optional,
                                                    minimum=minimum)
    if kind is float:
        return lambda src, value, where: src.as_number(value, where, optional=optional,
                                                       minimum=minimum)
    if kind is str:
        nonempty, choices = meta.get("nonempty", False), meta.get("choices")

        def read_str(src: JsonFile, value: Any, where: str) -> Any:
            text = src.as_string(value, where, optional=optional, nonempty=nonempty)
            if text is not None and choices and text not in choices:
                src.fail(where, f"'{text}', expected one of: {', '.join(choices)}")
            return text
        return read_str
    if dataclasses.is_dataclass(kind):
        def read_nested(src: JsonFile, value: Any, where: str) -> Any:
            node = src.as_object(value, where, optional=optional)
            return None if node is None else read_object(src, node, where, kind)
        return read_nested
    if origin in (list, dict):
        item = value_reader(typing.get_args(kind)[-1], {"required": True})

        most = meta.get("most")

        def read_items(src: JsonFile, value: Any, where: str) -> Any:
            if origin is list:
                items = src.as_list(value, where, optional=optional)
                if most is not None and items is not None and len(items) > most[0]:
                    src.fail(where, f"{len(items)} items, more than the "
                             f"{most[0]} {most[1]}: no measurement")
                return None if items is None else [
                    item(src, v, f"{where}[{i}]") for i, v in enumerate(items)]
            node = src.as_object(value, where, optional=optional)
            return None if node is None else {
                name: item(src, v, json_path(where, name)) for name, v in node.items()}
        return read_items
    raise TypeError(f"no reader for {hint!r}")


def check_disturbed(src: JsonFile, where: str, disturbed: Optional[bool],
                    disturbances: List[Disturbance]) -> None:
    if disturbances and not disturbed:
        src.fail(json_path(where, "disturbed"),
                 "false, but disturbances lists reasons")


def read_parts(src: JsonFile, latency: Dict[str, Any], where: str,
               parts: Dict[str, Any], cls: Type[Summary]) -> None:
    """Each part latency gives (null ones left out)."""
    for name in PARTS:
        node = src.get_object(latency, where, name, optional=True)
        if node is not None:
            parts[name] = read_object(src, node, json_path(where, name), cls)


def read_buckets(src: JsonFile, buckets: Any, where: str) -> Triples:
    """buckets, [[lowest_ns, highest_ns, count], ...] (the Triples
    parse_json made of them, or a list), as Triples of (lowest_ns,
    highest_ns, count): whole numbers from 0 up, no bucket's highest
    below its lowest."""
    triples = buckets if isinstance(buckets, Triples) else Triples.of(buckets)
    if triples is None:
        # an item that is no [integer, integer, integer]: find it
        for index, bucket in enumerate(buckets):
            bucket_where = json_path(where, index)
            if not (isinstance(bucket, list) and len(bucket) == 3):
                src.fail(bucket_where, f"{json_kind(bucket)}, expected "
                         "[lowest, highest, count]")
            for k, value in enumerate(bucket):
                src.as_count(value, json_path(bucket_where, k))
        raise AssertionError(f"{where}: buckets neither Triples nor refused")
    flat = triples.flat
    if flat and min(flat) < 0:
        index = next(i for i, value in enumerate(flat) if value < 0)
        src.as_count(flat[index], json_path(json_path(where, index // 3), index % 3))
    if any(map(operator.lt, flat[1::3], flat[0::3])):
        index, (low, high, _) = next((i, b) for i, b in enumerate(triples) if b[1] < b[0])
        src.fail(json_path(where, index), f"highest {high} is below lowest {low}")
    return triples


def read_suite(src: JsonFile, node: Dict[str, Any], runs: List[Run]) -> Suite:
    """The suite block: each row's run index must name a run of the file,
    and no run may be two rows."""
    suite = read_object(src, node, "suite", Suite)
    taken: Dict[int, str] = {}
    rows = src.get_list(node, "suite", "rows")
    for row, item in zip(suite.rows, rows):
        run_index = src.get_int(item, row.where, "run", optional=True, minimum=0)
        if run_index is None:
            continue
        if run_index >= len(runs):
            src.fail(json_path(row.where, "run"),
                     f"run {run_index} is not in runs[] ({len(runs)} runs)")
        if run_index in taken:
            src.fail(json_path(row.where, "run"),
                     f"run {run_index} is also {taken[run_index]}")
        taken[run_index] = row.where
        run = row.run = runs[run_index]
        run.suite_row = row
    return suite


def load_result(path: str) -> Result:
    """Read and check the diskio result at path."""
    text, doc = read_json(path)
    return result_from_json(path, text, doc)


def result_from_text(name: str, text: str) -> Result:
    """The Result of a JSON text diskio printed (--format json on its
    standard output); name stands for the file in messages."""
    return result_from_json(name, text, parse_json(name, text))


def is_result(doc: Any) -> bool:
    """Whether a parsed JSON document claims to be a diskio result."""
    return isinstance(doc, dict) and doc.get("schema") == RESULT_SCHEMA


def result_from_json(path: str, text: str, doc: Any) -> Result:
    """The Result of an already parsed file (text is its JSON text, for
    line numbers): for tools that read a file before knowing its kind."""
    if not is_result(doc):
        raise InputError(path, json_key_line(text, "schema") or 1,
                         f'not a diskio result (no "schema": '
                         f'"{RESULT_SCHEMA}")',
                         "give a file written by diskio --format json")
    check_version(path, text, doc, SUPPORTED_RESULT_VERSIONS,
                  "diskio result")
    result = read_object(JsonFile(path, RESULT_TODO), doc, "", Result)
    result.path = path
    return result


def other_cpu_share(measured) -> Optional[float]:
    """A run's or repetition's other CPUs' share of the machine while it
    ran (Interference.other_cpu_share), None where the file does not say."""
    return None if measured.interference is None else measured.interference.other_cpu_share
