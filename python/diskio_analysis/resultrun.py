# SPDX-License-Identifier: MIT
"""A result and its runs: Result, Run (its parameters, figures,
latencies and interference, from the other result*.py modules), each
repetition, and --suite's rows, each naming its run.  Each class is the
schema's object its schema_object() names, with a field for each of its
keys (resulttypes.py)."""

from typing import Any, Dict, List, Optional

from ._result_keys import (RepetitionKeys, ResultKeys, RunKeys, SuiteKeys, SuiteRowKeys)
from .jsonfile import MISSING, JsonFile, json_kind, json_path
from .resultfigures import Parameters
from .resultinterference import check_disturbed
from .resultkeys import PARTS, RESULT_SCHEMA, derived, own
from .resultlatency import DeviceCounts, DeviceIO, Hist, Interval, Summary
from .resultread import read_object, read_parts
from .resulttypes import read, schema_object


@schema_object("repetition")
class Repetition(RepetitionKeys):
    """One entry of a run's repetitions[]: what one repetition measured,
    with the same attributes a Run has for its figures (complete, ops,
    ops_per_s, parts of Summaries), so a tool can take the repetitions of
    a run where it would take runs.  mb_per_s, absent in files written
    before repetitions carried it, is worked out from bytes and
    duration_ns."""
    where: str = derived("")                    # runs[0].repetitions[2]
    complete = read(True)
    ops = read(count=True)
    bytes = read(count=True)
    # integers in the schema, read as any number, as the reader always has
    duration_ns = read(number=True)
    start_offset_ns = read(number=True)         # from the first run
    parts: Dict[str, Summary] = own("latency", keys=PARTS, factory=dict)
    _src: Optional[JsonFile] = derived(shown=False)
    _node: Optional[Dict[str, Any]] = derived(shown=False)

    def need(self, name: str) -> Any:
        """A number of the repetition that must be there (ops_per_s)."""
        assert self._src is not None and self._node is not None
        return self._src.get_number(self._node, self.where, name)

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        if self.mb_per_s is None and self.bytes is not None and self.duration_ns:
            # annotated for mypy where it cannot see _result_keys.py (a
            # build outside the source tree writes it there)
            self.mb_per_s: Optional[float] = self.bytes / 1e6 / (self.duration_ns / 1e9)
        latency = src.get_object(node, self.where, "latency")
        read_parts(src, latency, json_path(self.where, "latency"), self.parts,
                   Summary)
        check_disturbed(src, self.where, self.disturbed, self.disturbances)


@schema_object("run")
class Run(RunKeys):
    """One entry of runs[].  parts are the latency parts the file gives,
    {'total': Hist, 'write': ..., 'sync': ..., 'service': ...,
    'switch': ...}; device (schema 2) is device_total, device_shared and
    devices (None, None and [] in schema 1 and where no device was
    counted); intervals (--interval) is interval_ns and intervals, the
    series (both None without it)."""
    where: str = derived("")                    # runs[0]
    mode = read("", required=True)
    parameters: Parameters = own(factory=Parameters)
    complete = read(True)
    errors = read(0, count=True)
    ops = read(count=True)
    bytes = read(count=True)
    # None, as disturbed, wal, checkpoint, steady, capacity and direct
    # are, in files written before diskio wrote it
    disturbed_repetitions = read(count=True)
    # None when the run was measured once
    repetitions = read(most="repetitions diskio --repeat makes")
    interval_ns: Optional[int] = own("intervals.interval_ns")
    intervals: Optional[List[Interval]] = own("intervals.series")
    parts: Dict[str, Hist] = own("latency", keys=PARTS, factory=dict)
    device_total: Optional[DeviceCounts] = own("device.total")
    device_shared: Optional[bool] = own("device.shared")
    devices: List[DeviceIO] = own("device.devices", factory=list)
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
        if params is None:
            self.parameters = Parameters()
            self.parameters.custom = True
        else:
            self.parameters = read_object(src, params, pwhere, Parameters)
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


@schema_object("suite_row")
class SuiteRow(SuiteRowKeys):
    """One entry of suite.rows[]: a row of a suite file, its run (the Run
    its index names, or None for a row that was not run, with the reason
    in note)."""
    where: str = derived("")                    # suite.rows[3]
    label = read("", required=True)           # "SEQ1M Q8T1"
    column = read("", required=True)          # "read", "write"
    run: Optional[Run] = own(index="runs", shown=False)

    @property
    def name(self) -> str:
        """The row as the suite's view names it: "SEQ1M Q8T1 read"."""
        return f"{self.label} {self.column}"


@schema_object("suite")
class Suite(SuiteKeys):
    """diskio --suite: the suite's name, title, how its rows are summarised
    ("best" or "mean") and its rows, in the file's order."""
    name = read("", required=True)
    rows = read(required=True)


@schema_object("result")
class Result(ResultKeys):
    """One diskio result file: one environment and its runs."""
    path: str = derived("")
    # the environment the command line named it into (NAME=FILE,
    # sides.py), None when not named
    side: Optional[str] = derived(None)
    schema = read(RESULT_SCHEMA)
    schema_version = read(1)
    complete = read(True)                       # False: interrupted or a run failed
    runs = read(required=True)
    suite: Optional[Suite] = own()              # diskio --suite; None otherwise

    def _read_rest(self, src: JsonFile, node: Dict[str, Any]) -> None:
        suite = src.get_object(node, "", "suite", optional=True)
        if suite is not None:
            self.suite = read_suite(src, suite, self.runs)


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
