# SPDX-License-Identifier: MIT
"""The reader of diskio's per-op trace CSV (op,start_ns,latency_ns,
write_ns,sync_ns), as diskio-plot charts it."""

import csv
import os
from dataclasses import dataclass, field

from ..errors import InputError
from ..jsonfile import MAX_JSON_INT
from ..plainnumber import plain_number
from ..textfile import unreadable

TRACE_HEADER = ["op", "start_ns", "latency_ns", "write_ns", "sync_ns"]
# --pattern wal and checkpoint add columns after these (diskio(1), Trace)
TRACE_HEADERS = (TRACE_HEADER,
                 TRACE_HEADER + ["job", "record_lsn", "record_end_lsn",
                                 "flush_from_lsn", "flush_to_lsn", "switch_ns"],
                 TRACE_HEADER + ["checkpoint", "file", "offset", "writeback_ns"])


@dataclass
class Trace:
    name: str
    path: str
    ops: list = field(default_factory=list)       # op index
    elapsed_s: list = field(default_factory=list)
    latency_us: list = field(default_factory=list)


def load_trace(path):
    trace = Trace(name=os.path.splitext(os.path.basename(path))[0], path=path)
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            header = None if header is None else [h.strip() for h in header]
            if header not in TRACE_HEADERS:
                raise InputError(path, 1, "not a diskio trace (header must "
                                 "be " + ",".join(TRACE_HEADER) + ")",
                                 "give diskio trace CSV, result JSON or "
                                 "diskio-correlate JSON files")
            first_start = None
            for row in reader:
                if not row:
                    continue
                line = reader.line_num
                if len(row) != len(header):
                    raise InputError(path, line, f"{len(row)} fields, "
                                     f"expected {len(header)}",
                                     "regenerate the trace")
                op, start, latency = (plain_number(cell, integer=True)
                                      for cell in row[:3])
                if op is None or start is None or latency is None:
                    raise InputError(path, line, "op, start_ns and "
                                     "latency_ns must be integers in ASCII "
                                     "digits", "regenerate the trace")
                if latency < 0 or start < 0:
                    raise InputError(path, line, "negative time",
                                     "regenerate the trace")
                if max(abs(op), start, latency) > MAX_JSON_INT:
                    raise InputError(path, line, "op, start_ns or "
                                     "latency_ns out of range",
                                     "regenerate the trace")
                first_start = start if first_start is None else first_start
                trace.ops.append(op)
                trace.elapsed_s.append((start - first_start) / 1e9)
                # 1 ns floor keeps zero latencies on the log axis.
                trace.latency_us.append(max(latency, 1) / 1000.0)
    except csv.Error as err:
        raise InputError(path, None, f"malformed CSV: {err}",
                         "regenerate the trace")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(path, None, f"cannot read: {unreadable(err)}",
                         "check the file exists and is readable")
    if not trace.ops:
        raise InputError(path, 2, "trace holds no operations",
                         "run diskio with tracing long enough to record ops")
    return trace


def is_trace_file(path):
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.readline().strip() in {",".join(h) for h in TRACE_HEADERS}
    except (OSError, UnicodeDecodeError):
        return False
