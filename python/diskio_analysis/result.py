# SPDX-License-Identifier: MIT
"""The one reader of diskio's result JSON (doc/result-schema.json, the
format; doc/result-schema.md, its explanation).

load_result(path) checks the schema name and version, checks the type and
range of every value it reads and returns typed objects every tool uses:
a Result, its Environment, its Runs and theirs (Parameters, Hists,
Repetitions, Intervals, Rate, Wal, Checkpoint, Interference, ...).  Each
dataclass below is one object of the schema and has a field for each of
its keys, made from the schema itself (resulttypes.py, from the
_result_types.py python/make-result-types.py writes when diskio is
built), of the key's name unless the field's metadata says otherwise
(own(...)): a key added to the schema is a field with no edit here, and
tests/python/test_result_schema.py holds the two together.  The fields
are read by their annotation (read_object), by one generic reader, so
no key is forgotten.

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

This module is where the reader is entered (load_result() and the like)
and every name of it is imported from; its parts are a module each: the
schema's names and the fields' metadata (resultkeys.py), the fields made
from the schema (resulttypes.py), the generic
reader (resultread.py), and the schema's objects, of the environment
(resultenv.py), of what a run was asked and did (resultfigures.py), of
what else the machine did (resultinterference.py), of its latencies and
devices (resultlatency.py), and the result and its runs
(resultrun.py).
"""

from typing import Any

from .errors import InputError
from .jsonfile import (MISSING, JsonFile, Triples, check_version, json_key_line,
                       json_kind, json_path, parse_json, read_json)
from .resultenv import (Cpu, EnvDevice, Environment, Ext4, Kernel, Loop, Overlay,
                        Target, TargetDevice, Timer, Tool)
from .resultfigures import (Backlog, Checkpoint, JobError, JobFigures, LateStart,
                            Parameters, Precondition, Rate, RunError, Wal)
from .resultinterference import (Disturbance, Interference, InterferenceCpu,
                                 InterferenceDevice, MemoryFigures, Pressure, RunQueue,
                                 ThreadFigures, check_disturbed, other_cpu_share)
from .resultkeys import (DIRECTIONS, DIRECT_SOURCES, MAX_REPETITIONS, PARTS,
                         PERCENTILES, PERCENTILE_KEY, RESULT_SCHEMA, RESULT_TODO,
                         SUMMARY_PERCENTILES, SUPPORTED_RESULT_VERSIONS, WAITS_FOR,
                         count_key, derived, json_key, key, key_list, own,
                         percentile_key)
from .resultlatency import (CAPACITY_PHASES, Capacity, CapacityStep, DeviceCounts,
                            DeviceIO, Direct, Hist, INTERVAL_LATENCIES, Interval,
                            STEADY_METRICS, STEADY_TRENDS, Steady, SteadyWindow,
                            Summary, Verdict)
from .resultread import (NONE_TYPE, Reader, plan, read_buckets, read_object, read_parts,
                         unwrap_optional, value_reader)
from .resultrun import Repetition, Result, Run, Suite, SuiteRow, read_suite

# every name the reader had when it was one module, for its callers
__all__ = ["Backlog", "CAPACITY_PHASES", "Capacity", "CapacityStep", "Checkpoint",
           "Cpu", "DIRECTIONS", "DIRECT_SOURCES", "DeviceCounts", "DeviceIO", "Direct",
           "Disturbance", "EnvDevice", "Environment", "Ext4", "Hist",
           "INTERVAL_LATENCIES", "InputError", "Interference", "InterferenceCpu",
           "InterferenceDevice", "Interval", "JobError", "JobFigures", "JsonFile",
           "Kernel", "LateStart", "Loop", "MAX_REPETITIONS", "MISSING", "MemoryFigures",
           "NONE_TYPE", "Overlay", "PARTS", "PERCENTILES", "PERCENTILE_KEY",
           "Parameters", "Precondition", "Pressure", "RESULT_SCHEMA", "RESULT_TODO",
           "Rate", "Reader", "Repetition", "Result", "Run", "RunError", "RunQueue",
           "STEADY_METRICS", "STEADY_TRENDS", "SUMMARY_PERCENTILES",
           "SUPPORTED_RESULT_VERSIONS", "Steady", "SteadyWindow", "Suite", "SuiteRow",
           "Summary", "Target", "TargetDevice", "ThreadFigures", "Timer", "Tool",
           "Triples", "Verdict", "WAITS_FOR", "Wal", "check_disturbed", "check_version",
           "count_key", "derived", "json_key", "json_key_line", "json_kind",
           "json_path", "key", "key_list", "other_cpu_share", "own", "parse_json",
           "percentile_key", "plan", "read_buckets", "read_json", "read_object",
           "read_parts", "read_suite", "unwrap_optional", "value_reader", "load_result",
           "result_from_text", "is_result", "result_from_json"]


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
