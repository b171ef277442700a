# SPDX-License-Identifier: MIT
"""Readers of the database side's files and of hand-written figures, one
per format: the DBT-3 kit's q_time.csv, a plain phases.csv, metrics.csv,
PostgreSQL's WAL counters per phase (wal.csv) and diskio-pgphases'
settings.json.

The phase and metric readers yield (line, name, value) as they go, so
that whoever collects them can refuse a phase or metric another file
already gave, at the line where it comes, before the rest is read.
"""

import csv
import io
import math
import re

from .errors import InputError
from .metrics import MAX_VALUE, MIN_POSITIVE
from .textfile import read_text

# PostgreSQL wal_sync_method -> (diskio mode whose mean latency one WAL
# flush costs, wal.csv column counting those flushes, column with
# PostgreSQL's own time for them).  With open_* the sync happens inside
# the write, so the writes are what must be counted.
WAL_SYNC_METHODS = {
    "fdatasync": ("fdatasync", "wal_sync", "wal_sync_time_ms"),
    "fsync": ("fsync", "wal_sync", "wal_sync_time_ms"),
    "open_datasync": ("odsync", "wal_write", "wal_write_time_ms"),
    "open_sync": ("osync", "wal_write", "wal_write_time_ms"),
}

WAL_REQUIRED_COLUMNS = ("phase", "wal_write", "wal_sync", "wal_write_time_ms",
                        "wal_sync_time_ms", "wal_bytes")
WAL_OPTIONAL_COLUMNS = ("checkpoint_write_time_ms", "checkpoint_sync_time_ms",
                        "checkpoint_sync_files")
Q_TIME_HEADER = "task_name,s_time,e_time,diff_time,seconds"


def phase_name_from_task(task):
    """DBT-3 task_name -> phase name: LOAD -> load, PERF.POWER -> power,
    PERF.THRUPUT.QS1.ALL -> throughput.qs1.all."""
    parts = task.strip().split(".")
    if len(parts) > 1 and parts[0].upper() == "PERF":
        parts = parts[1:]
    renames = {"POWER": "power", "THRUPUT": "throughput"}
    parts[0] = renames.get(parts[0].upper(), parts[0])
    return ".".join(p.lower() for p in parts)


def read_csv_rows(path):
    """(line number, row) for every non-blank, non-comment CSV line.
    A psql footer such as '(22 rows)' is skipped."""
    text = read_text(path, newline="")
    rows = []
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if row[0].lstrip().startswith("#"):
                continue
            if len(row) == 1 and re.fullmatch(r"\(\d+ rows?\)", row[0].strip()):
                continue
            rows.append((line, [cell.strip() for cell in row]))
    except csv.Error as err:
        raise InputError(path, reader.line_num, f"malformed CSV: {err}",
                         "fix the quoting on that line")
    return rows


def csv_number(path, line, column, text, positive=False):
    """A finite number within bounds: > 0 for times and metrics (positive),
    >= 0 for counters."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(path, line, f"{column} '{text}' is not a number",
                         "write a plain decimal number")
    if not math.isfinite(value):
        raise InputError(path, line, f"{column} '{text}' is not finite",
                         "write a plain decimal number")
    if positive and value <= 0:
        raise InputError(path, line, f"{column} is {text}, must be > 0",
                         "a zero or negative time cannot be compared; "
                         "remove the row or fix the measurement")
    if not positive and value < 0:
        raise InputError(path, line, f"{column} is {text}, must be >= 0",
                         "fix the counter (take the difference of two "
                         "pg_stat_wal snapshots, later minus earlier)")
    if value > MAX_VALUE or (positive and value < MIN_POSITIVE):
        raise InputError(path, line, f"{column} is {text}, outside "
                         f"{'%g' % MIN_POSITIVE if positive else 0}.."
                         f"{MAX_VALUE:g}",
                         "fix the value (a wrong unit or corrupt data?)")
    return value


def header_index(path, line, header, required, what):
    """{column name: index} of a header holding the required columns."""
    columns = {name.lower(): i for i, name in enumerate(header)}
    missing = [name for name in required if name not in columns]
    if missing:
        raise InputError(path, line,
                         f"header lacks column(s) {', '.join(missing)}",
                         f"the first line must be {what}")
    return columns


def headed_rows(path, required, header_text, expected):
    """The header's columns and an iterator over the rows after it, each
    checked to be as long as the header when it comes; header_text is
    what the header should be, expected what an empty file should hold."""
    rows = read_csv_rows(path)
    if not rows:
        raise InputError(path, 1, "empty file", expected)
    line, header = rows[0]
    columns = header_index(path, line, header, required, header_text)

    def checked():
        for line, row in rows[1:]:
            if len(row) != len(header):
                raise InputError(path, line,
                                 f"{len(row)} fields, header has "
                                 f"{len(header)}",
                                 "give every row the header's columns")
            yield line, row
    return columns, checked()


def read_q_time_csv(path):
    """The DBT-3 kit's q_time.csv: yields (line, phase, seconds)."""
    columns, rows = headed_rows(path, ("task_name", "seconds"),
                                Q_TIME_HEADER, f"expected header "
                                f"{Q_TIME_HEADER} and one row per task")
    for line, row in rows:
        seconds_text = row[columns["seconds"]]
        if not seconds_text:
            raise InputError(path, line, "empty seconds",
                             "the task did not finish; rerun it or remove "
                             "the row")
        seconds = csv_number(path, line, "seconds", seconds_text,
                             positive=True)
        yield line, phase_name_from_task(row[columns["task_name"]]), seconds


def two_column_rows(path, header, what):
    """Rows of a name,value file whose header line (header) is optional."""
    for index, (line, row) in enumerate(read_csv_rows(path)):
        if index == 0 and [c.lower() for c in row[:2]] == list(header):
            continue
        if len(row) != 2:
            raise InputError(path, line, f"{len(row)} fields, expected 2",
                             f"write lines as {what}")
        yield line, row


def read_phases_csv(path):
    """A plain phase,seconds file (header optional): yields (line, phase,
    seconds)."""
    for line, row in two_column_rows(path, ("phase", "seconds"),
                                     "phase,seconds"):
        seconds = csv_number(path, line, "seconds", row[1], positive=True)
        yield line, row[0].lower(), seconds


def read_metrics_csv(path):
    """metric,value lines (header optional) for figures from elsewhere:
    yields (line, metric, value)."""
    for line, row in two_column_rows(path, ("metric", "value"),
                                     "metric,value"):
        name = row[0]
        if not name or " " in name:
            raise InputError(path, line, f"bad metric name '{name}'",
                             "use names like fsync.mean_us (no spaces)")
        yield line, name, csv_number(path, line, "value", row[1],
                                     positive=True)


def read_wal_csv(path):
    """Per-phase PostgreSQL WAL counters (differences of pg_stat_wal):
    {phase: {column: value, '_line': line}}."""
    header_text = ",".join(WAL_REQUIRED_COLUMNS)
    columns, rows = headed_rows(path, WAL_REQUIRED_COLUMNS, header_text,
                                "expected header " + header_text)
    numeric = [c for c in WAL_REQUIRED_COLUMNS + WAL_OPTIONAL_COLUMNS
               if c != "phase" and c in columns]
    wal = {}
    for line, row in rows:
        phase = phase_name_from_task(row[columns["phase"]])
        if phase in wal:
            raise InputError(path, line, f"phase '{phase}' given twice",
                             "give each phase once")
        wal[phase] = {c: csv_number(path, line, c, row[columns[c]])
                      for c in numeric}
        wal[phase]["_line"] = line
    return wal


def is_settings(doc):
    """Whether a parsed JSON document is diskio-pgphases' settings.json."""
    return isinstance(doc, dict) and doc.get("tool") == "diskio-pgphases"


def settings_wal_sync_method(path, doc):
    """The wal_sync_method diskio-pgphases ran PostgreSQL with, which is
    what its wal.csv counts."""
    method = doc.get("wal_sync_method")
    if not isinstance(method, str) or method not in WAL_SYNC_METHODS:
        raise InputError(path, None,
                         f"wal_sync_method {method!r} is not one of "
                         f"{', '.join(WAL_SYNC_METHODS)}",
                         "give a settings.json written by diskio-pgphases")
    return method
