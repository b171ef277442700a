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
from dataclasses import dataclass

from .errors import InputError
from .jsonfile import MISSING, JsonFile, json_value_text
from .metrics import MAX_VALUE, MIN_POSITIVE
from .modes import syncs, wal_sync_method_modes
from .plainnumber import plain_number
from .textfile import MAX_STRING_CHARS, read_text
from .textsafe import clipped

# PostgreSQL wal_sync_method -> (diskio mode whose mean latency one WAL
# flush costs, wal.csv column counting those flushes, column with
# PostgreSQL's own time for them), from the mode table (modes.py).  A
# mode without a sync call (open_*) syncs inside the write, so the writes
# are what must be counted.
WAL_SYNC_METHODS = {
    method: (mode, "wal_sync", "wal_sync_time_ms") if syncs(mode)
    else (mode, "wal_write", "wal_write_time_ms")
    for method, mode in wal_sync_method_modes().items()}

WAL_REQUIRED_COLUMNS = ("phase", "wal_write", "wal_sync", "wal_write_time_ms",
                        "wal_sync_time_ms", "wal_bytes")
# Optional: the checkpoints' times (pg_stat_bgwriter/pg_stat_checkpointer)
# and the files they synced (server log); the WAL flushes made on the
# commit path by client backends and their time (pg_stat_io, object 'wal',
# PostgreSQL 18: the rest of wal_sync is background, the WAL writer's);
# the WAL segment switches (segment numbers of pg_current_wal_lsn() before
# and after the phase).  A column left out, or a cell left empty, is "not
# measured", never 0.
WAL_OPTIONAL_COLUMNS = ("checkpoint_write_time_ms", "checkpoint_sync_time_ms",
                        "checkpoint_sync_files", "wal_sync_commit",
                        "wal_sync_commit_time_ms", "wal_segment_switches",
                        "xact_commit")
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
            long = [cell for cell in row if len(cell) > MAX_STRING_CHARS]
            if long:
                raise InputError(path, line, f"a field of {len(long[0])} "
                                 f"characters, longer than the "
                                 f"{MAX_STRING_CHARS} any name or number "
                                 "these tools read may be",
                                 "check that this is the file you meant")
            rows.append((line, [cell.strip() for cell in row]))
    except csv.Error as err:
        raise InputError(path, reader.line_num, f"malformed CSV: {err}",
                         "fix the quoting on that line")
    return rows


def csv_number(path, line, column, text, positive=False):
    """A finite number within bounds: > 0 for times and metrics (positive),
    >= 0 for counters."""
    value = plain_number(text)
    if value is None:
        raise InputError(path, line, f"{column} '{clipped(text)}' is not a "
                         "number", "write a plain decimal number in ASCII "
                         "digits (1500, 2.5, 1e-3)")
    value = float(value)
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


def tolerant(rows, parse, skipped):
    """parse(line, row) of each (line, row), as it comes.  Strict (skipped
    None, the default): a row parse refuses ends the read with its
    InputError.  Lenient (skipped a list, --lenient): the refusal, which
    names FILE:LINE, goes into skipped and the other rows are kept."""
    for line, row in rows:
        try:
            value = parse(line, row)
        except InputError as err:
            if skipped is None:
                raise
            skipped.append(f"{err}; row skipped (--lenient)")
            continue
        yield value


def check_width(path, line, row, width):
    if len(row) != width:
        raise InputError(path, line, f"{len(row)} fields, header has {width}",
                         "give every row the header's columns")


def headed_rows(path, required, header_text, expected):
    """The header's columns, its width and the rows after it; header_text
    is what the header should be, expected what an empty file should
    hold."""
    rows = read_csv_rows(path)
    if not rows:
        raise InputError(path, 1, "empty file", expected)
    line, header = rows[0]
    columns = header_index(path, line, header, required, header_text)
    return columns, len(header), rows[1:]


def read_q_time_csv(path, skipped=None):
    """The DBT-3 kit's q_time.csv: yields (line, phase, seconds)."""
    columns, width, rows = headed_rows(path, ("task_name", "seconds"),
                                       Q_TIME_HEADER, f"expected header "
                                       f"{Q_TIME_HEADER} and one row per task")

    def parse(line, row):
        check_width(path, line, row, width)
        seconds_text = row[columns["seconds"]]
        if not seconds_text:
            raise InputError(path, line, "empty seconds",
                             "the task did not finish; rerun it or remove "
                             "the row")
        seconds = csv_number(path, line, "seconds", seconds_text,
                             positive=True)
        return line, phase_name_from_task(row[columns["task_name"]]), seconds
    return tolerant(rows, parse, skipped)


def two_column_rows(path, header):
    """Rows of a name,value file whose header line (header) is optional."""
    rows = read_csv_rows(path)
    if rows and [c.lower() for c in rows[0][1][:2]] == list(header):
        rows = rows[1:]
    return rows


def check_two_columns(path, line, row, what):
    if len(row) != 2:
        raise InputError(path, line, f"{len(row)} fields, expected 2",
                         f"write lines as {what}")


def read_phases_csv(path, skipped=None):
    """A plain phase,seconds file (header optional): yields (line, phase,
    seconds)."""
    def parse(line, row):
        check_two_columns(path, line, row, "phase,seconds")
        seconds = csv_number(path, line, "seconds", row[1], positive=True)
        return line, row[0].lower(), seconds
    return tolerant(two_column_rows(path, ("phase", "seconds")), parse,
                    skipped)


def read_metrics_csv(path, skipped=None):
    """metric,value lines (header optional) for figures from elsewhere:
    yields (line, metric, value)."""
    def parse(line, row):
        check_two_columns(path, line, row, "metric,value")
        name = row[0]
        if not name or " " in name:
            raise InputError(path, line, f"bad metric name '{name}'",
                             "use names like fsync.mean_us (no spaces)")
        return line, name, csv_number(path, line, "value", row[1],
                                      positive=True)
    return tolerant(two_column_rows(path, ("metric", "value")), parse,
                    skipped)


def read_wal_csv(path, skipped=None):
    """Per-phase PostgreSQL WAL counters (differences of pg_stat_wal):
    {phase: {column: value, '_line': line}}.  Optional columns the file
    does not have are absent from the rows: not measured."""
    header_text = ",".join(WAL_REQUIRED_COLUMNS)
    columns, width, rows = headed_rows(path, WAL_REQUIRED_COLUMNS,
                                       header_text,
                                       "expected header " + header_text)
    numeric = [c for c in WAL_REQUIRED_COLUMNS + WAL_OPTIONAL_COLUMNS
               if c != "phase" and c in columns]
    wal = {}

    def parse(line, row):
        check_width(path, line, row, width)
        phase = phase_name_from_task(row[columns["phase"]])
        if phase in wal:
            raise InputError(path, line, f"phase '{phase}' given twice",
                             "give each phase once")
        values = {c: csv_number(path, line, c, row[columns[c]])
                  for c in numeric if row[columns[c]] != ""}
        missing = [c for c in WAL_REQUIRED_COLUMNS[1:] if c not in values]
        if missing:
            raise InputError(path, line, f"empty {', '.join(missing)}",
                             "give every required counter (0 when none)")
        values["_line"] = line
        return phase, values
    for phase, values in tolerant(rows, parse, skipped):
        wal[phase] = values
    return wal


def is_settings(doc):
    """Whether a parsed JSON document is diskio-pgphases' settings.json."""
    return isinstance(doc, dict) and doc.get("tool") == "diskio-pgphases"


@dataclass
class PgSettings:
    """What diskio-pgphases' settings.json says about its run."""
    path: str
    wal_sync_method: str
    complete: bool = True
    error: str | None = None
    track_wal_io_timing: bool | None = None  # None: not recorded
    wal_segment_size: int | None = None  # bytes; None: not recorded
    # phase (diskio-correlate's name) -> sessions that committed in it
    # (phase_committers); absent phases committed from one session
    phase_committers: dict | None = None
    # phase -> its rounds' spread, (max - min) / median (round_spread)
    round_spread: dict | None = None

    def committers(self, phase):
        """How many sessions committed in phase (1 when not recorded)."""
        return (self.phase_committers or {}).get(phase, 1)


PG_UNITS = {"B": 1, "kB": 1024, "8kB": 8192, "MB": 1 << 20, "GB": 1 << 30}


def pg_setting_bytes(text):
    """'16777216 B' or '16 MB' (a setting and its unit, as pgphases records
    them from pg_settings) in bytes; None when not a size."""
    match = re.fullmatch(r"\s*([0-9]{1,15})\s*(B|kB|8kB|MB|GB)?\s*", str(text),
                         re.ASCII)
    if not match:
        return None
    return int(match.group(1)) * PG_UNITS[match.group(2) or "B"]


def read_settings(path, doc):
    """The PgSettings of a parsed settings.json."""
    server = doc.get("server_settings")
    server = server if isinstance(server, dict) else {}
    timing = server.get("track_wal_io_timing")
    error = JsonFile(path, "give a settings.json written by "
                     "diskio-pgphases").get_string(doc, "", "error",
                                                   optional=True) \
        if isinstance(doc.get("error"), str) else None
    committers = doc.get("phase_committers")
    spread = doc.get("round_spread")
    return PgSettings(
        path, settings_wal_sync_method(path, doc),
        complete=doc.get("complete") is not False,
        error=error,
        track_wal_io_timing=None if not isinstance(timing, str)
        else timing.strip() == "on",
        wal_segment_size=pg_setting_bytes(server.get("wal_segment_size", "")),
        phase_committers={
            phase_name_from_task(task): n for task, n in committers.items()
            if isinstance(n, int) and not isinstance(n, bool) and n >= 1}
        if isinstance(committers, dict) else None,
        round_spread={
            phase_name_from_task(task): s["spread"] for task, s in spread.items()
            if isinstance(s, dict) and isinstance(s.get("spread"), (int, float))
            and not isinstance(s.get("spread"), bool)}
        if isinstance(spread, dict) else None)


def settings_wal_sync_method(path, doc):
    """The wal_sync_method diskio-pgphases ran PostgreSQL with, which is
    what its wal.csv counts."""
    method = doc.get("wal_sync_method", MISSING)
    if not isinstance(method, str) or method not in WAL_SYNC_METHODS:
        raise InputError(path, None,
                         f"wal_sync_method is {json_value_text(method)}, "
                         f"expected one of {', '.join(WAL_SYNC_METHODS)}",
                         "give a settings.json written by diskio-pgphases")
    return method
