# SPDX-License-Identifier: MIT
"""The one reader of diskio's result JSON (doc/result-schema.md).

load_result(path) checks the schema name and version, checks the type and
range of every value it reads and returns plain objects every tool uses:
Result, its Runs and their Hists.  A value the file leaves out (or writes
as null) comes back as None; what a tool cannot do without it asks for
with Run.need()/Run.need_part()/Hist.need(), which raise the same
InputError (file, JSON path, what to do) a missing value always raises.
So each tool keeps its own notion of what is required (diskio-correlate
skips a run that recorded no ops before asking for its statistics) while
the file is read, and judged, in one place.
"""

import re
from dataclasses import dataclass, field

from .errors import InputError
from .jsonfile import (JsonFile, check_version, json_key_line, json_kind,
                       json_path, read_json)

RESULT_SCHEMA = "diskio-result"
SUPPORTED_RESULT_VERSIONS = (1, 2)
RESULT_TODO = ("the file does not follow the diskio result schema "
               "(doc/result-schema.md); regenerate it with diskio")

# The latency parts of a run, and the percentiles of a HIST, in file order.
PARTS = ("total", "write", "sync", "service", "switch")
PERCENTILES = ("p50", "p90", "p99", "p99_9", "p99_99")
# a percentile's key: p50, p99_9, p100 (diskio --percentiles)
PERCENTILE_KEY = re.compile(r"^p[0-9]+(_[0-9]+)?$")
HIST_NUMBERS = ("count", "min", "mean", "stddev", "max")


@dataclass
class Hist:
    """One HIST: count, min, mean, stddev, max (ns), percentiles
    {'p50': ns, ...} (those the file gives), buckets [(lowest_ns,
    highest_ns, count), ...] or None when the file gives none."""
    where: str                      # JSON path: runs[0].latency.total
    count: float | None = None
    min: float | None = None
    mean: float | None = None
    stddev: float | None = None
    max: float | None = None
    percentiles: dict = field(default_factory=dict)
    # the percentiles that are the max only for want of values (p99_9
    # with fewer than 1000): percentiles_limited_by_ops
    limited_by_ops: list = field(default_factory=list)
    buckets: list | None = None
    _src: JsonFile | None = field(default=None, repr=False, compare=False)
    _node: dict | None = field(default=None, repr=False, compare=False)

    def need(self, *keys):
        """The values of keys (numbers, percentiles or 'buckets'), each of
        which must be there: InputError naming its JSON path if not."""
        values = []
        for key in keys:
            if key == "buckets":
                self._src.get_list(self._node, self.where, key)
                values.append(self.buckets)
            else:
                values.append(self._src.get_number(self._node, self.where,
                                                   key))
        return values[0] if len(keys) == 1 else values


# Counters of a DEVICE_IO (schema 2), and its per-op figures.
DEVICE_COUNTERS = ("reads", "read_sectors", "writes", "write_merges",
                   "write_sectors", "flushes")
DEVICE_FIGURES = ("writes_per_op", "merges_per_op", "kib_per_write",
                  "flushes_per_op", "reads_per_op", "read_merges_per_op",
                  "kib_per_read")
# counters absent in files written before the read modes
DEVICE_COUNTERS_LATER = ("read_merges",)
# what a run's ops do: parameters.direction (absent before the read
# modes: "write")
DIRECTIONS = ("write", "read")
DEVICE_FLAGS = ("leaf", "own_io", "volatile_cache", "fua", "rotational")


@dataclass
class DeviceIO:
    """What one block device (or the total over the devices the
    filesystem sits on) did during a run's measured ops: counters
    (flushes None where the kernel does not count them), per-op figures
    (None where undefined) and, for a device, depth and flags."""
    where: str
    name: str
    depth: int | None = None
    counters: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)


@dataclass
class Run:
    """One entry of runs[]: mode, parameters (the file's, with
    block_size, pattern, iodepth and sync_every checked), complete, error
    (object or None), ops, ops_per_s, mb_per_s and the latency parts the
    file gives, {'total': Hist, 'write': ..., 'sync': ..., 'service': ...}."""
    where: str                      # JSON path: runs[0]
    mode: str
    parameters: dict
    direction: str = "write"        # "read" for the read modes
    complete: bool = True
    error: dict | None = None
    ops: float | None = None
    ops_per_s: float | None = None
    mb_per_s: float | None = None
    parts: dict = field(default_factory=dict)
    # diskio --repeat: each repetition's own figures (Repetition), in the
    # order they ran; None when the run was measured once
    repetitions: list | None = None
    # diskio --suite: the suite row this run is (SuiteRow), None otherwise
    suite_row: "SuiteRow | None" = None
    # schema 2: the block devices under the target (None in schema 1 and
    # where no device was counted), whether they were shared with other
    # I/O, and the verdict codes ("sync_not_flushed", "merged",
    # "cache_ack", "shared")
    device_total: DeviceIO | None = None
    devices: list = field(default_factory=list)
    device_shared: bool | None = None
    verdicts: list = field(default_factory=list)
    # diskio --interval: the interval length (ns) and the series
    # (Interval), in time order; None without --interval
    interval_ns: int | None = None
    intervals: list | None = None
    # diskio --jobs N (N > 1) and threaded custom runs: each job's own
    # figures (JobFigures), in job order; empty for a run of one
    per_job: list = field(default_factory=list)
    # a custom run's own parameters (diskio_run_set_param): name -> text
    params: dict = field(default_factory=dict)
    # what else the machine did (read_interference): whether the run (any
    # of its repetitions) was disturbed, None in files written before
    # diskio measured it; the reasons (Disturbance); the figures of a run
    # measured once (a dict as the file has it, None otherwise)
    disturbed: bool | None = None
    disturbances: list = field(default_factory=list)
    interference: dict | None = None
    # --pattern wal and checkpoint: what the run did, as the file gives it
    # ({"syncs_per_commit": ..., "committers": ..., "gap_ns": ...}); None
    # for the other patterns and in files written before them
    wal: dict | None = None
    checkpoint: dict | None = None
    _src: JsonFile | None = field(default=None, repr=False, compare=False)
    _node: dict | None = field(default=None, repr=False, compare=False)

    @property
    def workload(self):
        """The mode, or a custom run's name with its params (its program's
        own parameters, which tell two custom runs of one name apart):
        'log-commit (record=512, sync=fdatasync)'.  A run of diskio's own
        is its mode whatever its params say (a --durability run's
        listener and run id are bookkeeping, not another workload)."""
        if not self.params or not self.parameters.get("custom"):
            return self.mode
        return self.mode + " (" + ", ".join(
            f"{key}={value}" for key, value in self.params.items()) + ")"

    def need(self, key):
        """A number of the run that must be there (ops_per_s, mb_per_s)."""
        return self._src.get_number(self._node, self.where, key)

    def need_part(self, name):
        """The latency part name, which must be there."""
        if name not in self.parts:
            self._src.get_object(self._node["latency"],
                                 json_path(self.where, "latency"), name)
        return self.parts[name]


@dataclass
class JobFigures:
    """One entry of a run's per_job[]: what one of its concurrent jobs
    (or threads) did.  error is None, or its object (message, op,
    during); errors is 1 for the job whose error stopped the run."""
    where: str                      # JSON path: runs[0].per_job[3]
    job: int
    ops: int
    bytes: int
    duration_ns: int
    mean_ns: float
    p50_ns: int
    p99_ns: int
    max_ns: int
    errors: int = 0
    error: dict | None = None


@dataclass
class Repetition:
    """One entry of a run's repetitions[]: what one repetition measured,
    with the same attributes a Run has for its figures (complete, ops,
    ops_per_s, parts of Hists without buckets), so a tool can take the
    repetitions of a run where it would take runs."""
    where: str                      # JSON path: runs[0].repetitions[2]
    complete: bool = True
    ops: float | None = None
    ops_per_s: float | None = None
    mb_per_s: float | None = None   # 10^6 bytes per second
    duration_ns: float | None = None
    bytes: float | None = None
    start_offset_ns: float | None = None  # from the result's first measured run
    parts: dict = field(default_factory=dict)
    # when it ran (ISO 8601 UTC, None in older files), whether what else
    # the machine did disturbed it and why (read_interference)
    start_time: str | None = None
    disturbed: bool | None = None
    disturbances: list = field(default_factory=list)
    interference: dict | None = None
    _src: JsonFile | None = field(default=None, repr=False, compare=False)
    _node: dict | None = field(default=None, repr=False, compare=False)

    def need(self, key):
        """A number of the repetition that must be there (ops_per_s)."""
        return self._src.get_number(self._node, self.where, key)


@dataclass
class Disturbance:
    """One reason a run or repetition was disturbed: its kind
    ("other_cpu", "steal", "cpu_pressure", "memory_pressure", "dirty",
    "device_io"), the figure measured against the threshold (in unit),
    the device (device_io) and the sentence diskio wrote."""
    where: str
    reason: str
    message: str
    figure: float | None = None
    threshold: float | None = None
    unit: str | None = None
    device: str | None = None
    repetition: int | None = None   # a run's list: which repetition (from 1)


# The latency figures of an interval (ns), None where no op completed.
INTERVAL_LATENCIES = ("min_ns", "mean_ns", "p50_ns", "p99_ns", "max_ns")


@dataclass
class Interval:
    """One entry of a run's intervals.series (diskio --interval): the ops
    that completed in it and their latencies (ns; None when ops is 0)."""
    where: str                      # JSON path: runs[0].intervals.series[3]
    repetition: int = 1             # which repetition (from 1)
    start_ns: int = 0               # from the start of the (first) run
    duration_ns: int = 0
    ops: int = 0
    bytes: int = 0
    ops_per_s: float | None = None
    mb_per_s: float | None = None
    min_ns: float | None = None
    mean_ns: float | None = None
    p50_ns: float | None = None
    p99_ns: float | None = None
    max_ns: float | None = None


@dataclass
class SuiteRow:
    """One entry of suite.rows[]: a row of a suite file, its run (Run, or
    None for a row that was not run, with the reason in note)."""
    where: str                      # JSON path: suite.rows[3]
    label: str                      # "SEQ1M Q8T1"
    column: str                     # "read", "write"
    run: "Run | None" = None
    note: str | None = None

    @property
    def name(self):
        """The row as the suite's view names it: "SEQ1M Q8T1 read"."""
        return f"{self.label} {self.column}"


@dataclass
class Suite:
    """diskio --suite: the suite's name, title, how its rows are summarised
    ("best" or "mean") and its rows (SuiteRow), in the file's order."""
    name: str
    title: str | None = None
    summary: str | None = None
    rows: list = field(default_factory=list)


@dataclass
class Result:
    """One diskio result file: one environment and its runs."""
    path: str
    label: str | None = None        # --label, None when not given
    complete: bool = True           # False: interrupted or a run failed
    environment: dict = field(default_factory=dict)
    runs: list = field(default_factory=list)
    schema_version: int = 1
    suite: Suite | None = None      # diskio --suite; None otherwise


def load_result(path):
    """Read and check the diskio result at path."""
    text, doc = read_json(path)
    return result_from_json(path, text, doc)


def is_result(doc):
    """Whether a parsed JSON document claims to be a diskio result."""
    return isinstance(doc, dict) and doc.get("schema") == RESULT_SCHEMA


def result_from_json(path, text, doc):
    """The Result of an already parsed file (text is its JSON text, for
    line numbers): for tools that read a file before knowing its kind."""
    if not is_result(doc):
        raise InputError(path, json_key_line(text, "schema") or 1,
                         f'not a diskio result (no "schema": '
                         f'"{RESULT_SCHEMA}")',
                         "give a file written by diskio --format json")
    check_version(path, text, doc, SUPPORTED_RESULT_VERSIONS,
                  "diskio result")
    src = JsonFile(path, RESULT_TODO)
    result = Result(
        path=path,
        label=src.get_string(doc, "", "label", optional=True),
        complete=doc.get("complete") is not False,
        environment=src.get_object(doc, "", "environment",
                                   optional=True) or {},
        schema_version=doc["schema_version"])
    for index, run in enumerate(src.get_list(doc, "", "runs")):
        result.runs.append(read_run(src, run, json_path("runs", index)))
    suite = src.get_object(doc, "", "suite", optional=True)
    if suite is not None:
        result.suite = read_suite(src, suite, result.runs)
    return result


def read_parameters(src, params, where):
    """A measured run's parameters: the file's, with the ones tools use
    checked (jobs and shared_file read as 1 and false where absent)."""
    parameters = dict(params)
    parameters.update(
        block_size=src.get_int(params, where, "block_size", minimum=1),
        pattern=src.get_string(params, where, "pattern", optional=True),
        iodepth=src.get_int(params, where, "iodepth", optional=True,
                            minimum=0),
        sync_every=src.get_int(params, where, "sync_every", optional=True,
                               minimum=0),
        jobs=src.get_int(params, where, "jobs", optional=True,
                         minimum=1) or 1)
    shared = params.get("shared_file", False)
    if not isinstance(shared, bool):
        src.fail(json_path(where, "shared_file"), "must be true or false")
    parameters["shared_file"] = shared
    direction = src.get_string(params, where, "direction", optional=True) or "write"
    if direction not in DIRECTIONS:
        src.fail(json_path(where, "direction"),
                 f"'{direction}', expected one of: {', '.join(DIRECTIONS)}")
    parameters["direction"] = direction
    return parameters


def read_custom_parameters():
    """A custom run's (parameters null: a program's own operations, timed
    with libdiskio): none of diskio's; its own are Run.params."""
    return dict(block_size=None, pattern=None, iodepth=None, sync_every=None,
                jobs=1, shared_file=False, direction="write", custom=True)


def read_suite(src, node, runs):
    """The suite block: each row's run index must name a run of the file,
    and no run may be two rows."""
    suite = Suite(
        name=src.get_string(node, "suite", "name", nonempty=True),
        title=src.get_string(node, "suite", "title", optional=True),
        summary=src.get_string(node, "suite", "summary", optional=True))
    taken = {}
    for index, item in enumerate(src.get_list(node, "suite", "rows")):
        where = json_path(json_path("suite", "rows"), index)
        item = src.as_object(item, where)
        row = SuiteRow(
            where,
            label=src.get_string(item, where, "label", nonempty=True),
            column=src.get_string(item, where, "column", nonempty=True),
            note=src.get_string(item, where, "note", optional=True))
        run_index = src.get_int(item, where, "run", optional=True, minimum=0)
        if run_index is not None:
            if run_index >= len(runs):
                src.fail(json_path(where, "run"),
                         f"run {run_index} is not in runs[] "
                         f"({len(runs)} runs)")
            if run_index in taken:
                src.fail(json_path(where, "run"),
                         f"run {run_index} is also {taken[run_index]}")
            taken[run_index] = where
            row.run = runs[run_index]
            row.run.suite_row = row
        suite.rows.append(row)
    return suite


def read_run(src, node, where):
    node = src.as_object(node, where)
    mode = src.get_string(node, where, "mode", nonempty=True)
    if "parameters" not in node:
        src.fail(json_path(where, "parameters"),
                 "missing, expected an object (null for a custom run)")
    params = src.get_object(node, where, "parameters", optional=True)
    parameters = (read_custom_parameters() if params is None else
                  read_parameters(src, params, json_path(where, "parameters")))
    direction = parameters["direction"]
    latency = src.get_object(node, where, "latency")
    latency_where = json_path(where, "latency")
    run = Run(where, mode, parameters, direction=direction,
              complete=node.get("complete") is not False,
              ops=src.get_number(node, where, "ops", optional=True,
                                 minimum=0),
              ops_per_s=src.get_number(node, where, "ops_per_s",
                                       optional=True, minimum=0),
              mb_per_s=src.get_number(node, where, "mb_per_s", optional=True,
                                      minimum=0),
              error=src.get_object(node, where, "error", optional=True),
              _src=src, _node=node)
    if run.error is not None:
        src.get_string(run.error, json_path(where, "error"), "message",
                       optional=True)
    read_parts(src, latency, latency_where, run.parts)
    repetitions = src.get_list(node, where, "repetitions", optional=True)
    if repetitions is not None:
        run.repetitions = [
            read_repetition(src, rep,
                            json_path(json_path(where, "repetitions"), index))
            for index, rep in enumerate(repetitions)]
    read_run_device(src, node, where, run)
    read_interference(src, node, where, run)
    read_intervals(src, node, where, run)
    read_run_jobs(src, node, where, run)
    run.wal = src.get_object(node, where, "wal", optional=True)
    run.checkpoint = src.get_object(node, where, "checkpoint", optional=True)
    return run


def read_intervals(src, node, where, run):
    """The run's interval series (absent in files written before
    --interval existed, null for runs without it)."""
    intervals = src.get_object(node, where, "intervals", optional=True)
    if intervals is None:
        return
    iwhere = json_path(where, "intervals")
    run.interval_ns = src.get_int(intervals, iwhere, "interval_ns",
                                  minimum=1)
    swhere = json_path(iwhere, "series")
    run.intervals = []
    for index, item in enumerate(src.get_list(intervals, iwhere, "series")):
        at = json_path(swhere, index)
        item = src.as_object(item, at)
        iv = Interval(
            at,
            repetition=src.get_int(item, at, "repetition", optional=True,
                                   minimum=1) or 1,
            start_ns=src.get_int(item, at, "start_ns", minimum=0),
            duration_ns=src.get_int(item, at, "duration_ns", minimum=0),
            ops=src.get_int(item, at, "ops", minimum=0),
            bytes=src.get_int(item, at, "bytes", optional=True,
                              minimum=0) or 0,
            ops_per_s=src.get_number(item, at, "ops_per_s", minimum=0),
            mb_per_s=src.get_number(item, at, "mb_per_s", optional=True,
                                    minimum=0))
        for key in INTERVAL_LATENCIES:
            setattr(iv, key, src.get_number(item, at, key,
                                            optional=iv.ops == 0, minimum=0))
        run.intervals.append(iv)


def read_run_jobs(src, node, where, run):
    """per_job[] (runs of several jobs) and params{} (custom runs)."""
    jobs = src.get_list(node, where, "per_job", optional=True) or []
    for index, job in enumerate(jobs):
        at = json_path(json_path(where, "per_job"), index)
        job = src.as_object(job, at)
        ints = {key: src.get_int(job, at, key, minimum=0)
                for key in ("job", "ops", "bytes", "duration_ns", "p50_ns",
                            "p99_ns", "max_ns")}
        run.per_job.append(JobFigures(
            where=at, mean_ns=src.get_number(job, at, "mean_ns", minimum=0),
            errors=src.get_int(job, at, "errors", optional=True,
                               minimum=0) or 0,
            error=src.get_object(job, at, "error", optional=True), **ints))
    params = src.get_object(node, where, "params", optional=True) or {}
    for key in params:
        run.params[key] = src.get_string(params, json_path(where, "params"),
                                         key)


def read_parts(src, latency, latency_where, parts):
    for name in PARTS:
        hist = src.get_object(latency, latency_where, name, optional=True)
        if hist is not None:
            parts[name] = read_hist(src, hist, json_path(latency_where, name))


def read_repetition(src, node, where):
    node = src.as_object(node, where)
    rep = Repetition(
        where, complete=node.get("complete") is not False,
        ops=src.get_number(node, where, "ops", optional=True, minimum=0),
        ops_per_s=src.get_number(node, where, "ops_per_s", optional=True,
                                 minimum=0),
        mb_per_s=src.get_number(node, where, "mb_per_s", optional=True,
                                minimum=0),
        duration_ns=src.get_number(node, where, "duration_ns", optional=True,
                                   minimum=0),
        bytes=src.get_number(node, where, "bytes", optional=True, minimum=0),
        start_offset_ns=src.get_number(node, where, "start_offset_ns",
                                       optional=True, minimum=0),
        _src=src, _node=node)
    if rep.mb_per_s is None:
        # before repetitions carried it: from their bytes and duration
        if rep.bytes is not None and rep.duration_ns:
            rep.mb_per_s = rep.bytes / 1e6 / (rep.duration_ns / 1e9)
    latency = src.get_object(node, where, "latency")
    read_parts(src, latency, json_path(where, "latency"), rep.parts)
    rep.start_time = src.get_string(node, where, "start_time", optional=True)
    read_interference(src, node, where, rep)
    return rep


def read_interference(src, node, where, into):
    """disturbed, disturbances[] and interference of a run or repetition
    (absent in files written before diskio measured interference)."""
    disturbed = node.get("disturbed")
    if disturbed is not None and not isinstance(disturbed, bool):
        src.fail(json_path(where, "disturbed"),
                 f"{json_kind(disturbed)}, expected true or false")
    into.disturbed = disturbed
    into.interference = src.get_object(node, where, "interference",
                                       optional=True)
    dwhere = json_path(where, "disturbances")
    items = src.get_list(node, where, "disturbances", optional=True) or []
    for index, item in enumerate(items):
        at = json_path(dwhere, index)
        item = src.as_object(item, at)
        into.disturbances.append(Disturbance(
            at, reason=src.get_string(item, at, "reason", nonempty=True),
            message=src.get_string(item, at, "message", nonempty=True),
            figure=src.get_number(item, at, "figure", optional=True),
            threshold=src.get_number(item, at, "threshold", optional=True),
            unit=src.get_string(item, at, "unit", optional=True),
            device=src.get_string(item, at, "device", optional=True),
            repetition=src.get_int(item, at, "repetition", optional=True,
                                   minimum=1)))
    if into.disturbances and not disturbed:
        src.fail(json_path(where, "disturbed"),
                 "false, but disturbances lists reasons")


def read_run_device(src, node, where, run):
    """Schema 2's device and verdicts of a run (absent in schema 1)."""
    device = src.get_object(node, where, "device", optional=True)
    if device is not None:
        dwhere = json_path(where, "device")
        run.device_total = read_device_io(
            src, src.get_object(device, dwhere, "total"),
            json_path(dwhere, "total"))
        shared = device.get("shared")
        if not isinstance(shared, bool):
            src.fail(json_path(dwhere, "shared"),
                     f"{json_kind(shared)}, expected true or false")
        run.device_shared = shared
        lwhere = json_path(dwhere, "devices")
        for index, item in enumerate(src.get_list(device, dwhere,
                                                  "devices")):
            run.devices.append(read_device_io(src, item,
                                              json_path(lwhere, index)))
    verdicts = src.get_list(node, where, "verdicts", optional=True) or []
    vwhere = json_path(where, "verdicts")
    for index, item in enumerate(verdicts):
        item = src.as_object(item, json_path(vwhere, index))
        run.verdicts.append(src.get_string(item, json_path(vwhere, index),
                                           "code", nonempty=True))


def read_device_io(src, node, where):
    node = src.as_object(node, where)
    dev = DeviceIO(where, src.get_string(node, where, "name", nonempty=True),
                   depth=src.get_int(node, where, "depth", optional=True,
                                     minimum=0))
    for key in DEVICE_COUNTERS:
        dev.counters[key] = src.get_int(node, where, key, minimum=0,
                                        optional=key == "flushes")
    for key in DEVICE_COUNTERS_LATER:
        if key in node:
            dev.counters[key] = src.get_int(node, where, key, minimum=0)
    for key in DEVICE_FIGURES:
        dev.figures[key] = src.get_number(node, where, key, optional=True,
                                          minimum=0)
    for key in DEVICE_FLAGS:
        if key in node:
            if not isinstance(node[key], bool):
                src.fail(json_path(where, key),
                         f"{json_kind(node[key])}, expected true or false")
            dev.flags[key] = node[key]
    return dev


def read_hist(src, node, where):
    hist = Hist(where, _src=src, _node=node)
    # counts and latencies (ns): none is ever below 0
    for key in HIST_NUMBERS:
        setattr(hist, key, src.get_number(node, where, key, optional=True,
                                          minimum=0))
    # the summary's percentiles, and any diskio --percentiles added
    for key in PERCENTILES + tuple(k for k in node if PERCENTILE_KEY.match(k)
                                   and k not in PERCENTILES):
        value = src.get_number(node, where, key, optional=True, minimum=0)
        if value is not None:
            hist.percentiles[key] = value
    limited = src.get_list(node, where, "percentiles_limited_by_ops",
                           optional=True)
    for index, key in enumerate(limited or []):
        if not isinstance(key, str) or not PERCENTILE_KEY.match(key):
            src.fail(json_path(json_path(where, "percentiles_limited_by_ops"),
                               index),
                     f"{json_kind(key)}, expected a percentile's key (p99_9)")
        hist.limited_by_ops.append(key)
    buckets = src.get_list(node, where, "buckets", optional=True)
    if buckets is not None:
        hist.buckets = read_buckets(src, buckets, json_path(where, "buckets"))
    return hist


def read_buckets(src, buckets, where):
    """buckets as [(lowest_ns, highest_ns, count), ...]."""
    checked = []
    for index, bucket in enumerate(buckets):
        bucket_where = json_path(where, index)
        if not (isinstance(bucket, list) and len(bucket) == 3):
            src.fail(bucket_where, f"{json_kind(bucket)}, expected "
                     "[lowest, highest, count]")
        low, high, count = (src.as_int(value, json_path(bucket_where, k),
                                       minimum=0)
                            for k, value in enumerate(bucket))
        if high < low:
            src.fail(bucket_where, f"highest {high} is below lowest {low}")
        checked.append((low, high, count))
    return checked
