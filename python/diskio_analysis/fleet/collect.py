# SPDX-License-Identifier: MIT
"""Each host's outcome from what its session gave back, its result
written into LAB/HOST/result.json (whole or not at all, never over an
existing file unless --force), and the per-host summary."""

import base64
import io
import re
import tarfile
from dataclasses import dataclass, field

from ..errors import InputError
from ..jsonfile import json_kind, parse_json
from ..outputs import OutputError, write_output_in
from ..plainnumber import plain_number
from ..result import is_result, result_from_json
from ..textfile import MAX_INPUT_BYTES
from ..textsafe import clipped, shown
from .transport import BEGIN, EXIT_NO_TEMP, PG_BEGIN, PG_STATUS, STATUS

OK, FAILED, UNREACHABLE = "ok", "failed", "unreachable"


@dataclass
class Outcome:
    """One host's: state (ok, failed, unreachable), diskio's exit status
    (None when diskio never ran), the result text (None without one), the
    file it was written to and the one line saying why it failed."""
    host: str
    state: str
    diskio_status: int | None = None
    result_text: str | None = None
    path: str | None = None
    reason: str = ""
    # diskio-pgphases' files left out for a name it never writes
    left_out: list = field(default_factory=list)


def status_of(text):
    """A STATUS line's exit status: a plain whole number, else None."""
    value = plain_number(text.strip(), integer=True)
    return value if value is not None and 0 <= value <= 255 else None


def parse_output(lines):
    """(diskio's exit status or None, the result text or None) from one
    session's stdout lines."""
    status, result, inside = None, None, None
    for line in lines:
        if line == BEGIN:
            inside = []
        elif line.startswith(STATUS):
            status = status_of(line[len(STATUS):])
            if inside is not None:
                text = "\n".join(inside).strip()
                result = text + "\n" if text else None
            inside = None
        elif inside is not None:
            inside.append(line)
    return status, result


def parse_pgphases(lines):
    """(diskio-pgphases' exit status or None, {name: bytes} of the
    regular files of its output directory, without subdirectories) from
    one session's stdout lines; ValueError when the archive is damaged."""
    status, payload, inside = None, None, None
    for line in lines:
        if line == PG_BEGIN:
            inside = []
        elif line.startswith(PG_STATUS) and inside is not None:
            status = status_of(line[len(PG_STATUS):])
            payload, inside = "".join(inside), None
        elif inside is not None:
            inside.append(line.strip())
    files = {}
    if payload:
        data = base64.b64decode(payload, validate=True)
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for member in tar.getmembers():
                name = member.name[2:] if member.name.startswith("./") \
                    else member.name
                if not member.isfile() or not name or "/" in name or \
                        name.startswith("."):
                    continue
                files[name] = tar.extractfile(member).read()
    return status, files


def last_line(lines):
    for line in reversed(lines):
        if line.strip():
            return line.strip()
    return ""


def judge(out, pgphases=False):
    """The Outcome of one HostOutput (with pgphases, diskio-pgphases'
    too: its files in .pg_files)."""
    outcome = judge_diskio(out)
    outcome.pg_files = {}
    if not pgphases or outcome.state == UNREACHABLE:
        return outcome
    try:
        status, files = parse_pgphases(out.stdout)
    except (ValueError, tarfile.TarError):
        status, files = None, {}
        why = "its output came back damaged"
    else:
        why = last_line(out.stderr)
    outcome.pg_files = files
    if status != 0 and outcome.state == OK:
        outcome.state = FAILED
        outcome.reason = (f"diskio-pgphases: {why or 'no status came back'}"
                          if status is None else
                          f"diskio-pgphases exit status {status}: {why}")
    return outcome


def judge_diskio(out):
    """The Outcome of one HostOutput, as far as diskio goes.  Why a host
    failed is its own last line (diskio's message, ssh's), whatever the
    engine; the engine's word on the session only where the host said
    nothing, and for a timeout, which the engine tells."""
    status, text = parse_output(out.stdout)
    engine = getattr(out, "engine", None) or []
    why = last_line(out.stderr) or last_line(engine)
    if getattr(out, "too_large", False):
        return Outcome(out.host, FAILED, status, reason=why)
    if status is None:
        if out.timed_out:
            return Outcome(out.host, UNREACHABLE, reason=last_line(engine)
                           or why or "no answer within the timeout")
        if out.exit_status == EXIT_NO_TEMP:
            return Outcome(out.host, FAILED, reason="cannot make a "
                           f"temporary directory on the host: {why}")
        if out.exit_status not in (None, 255):
            return Outcome(out.host, FAILED, reason=f"remote command exit "
                           f"status {out.exit_status}: {why}")
        return Outcome(out.host, UNREACHABLE, reason=why or
                       "the session ended before diskio ran")
    if text is not None:
        damage = reply_damage(out.host, text)
        if damage:
            return Outcome(out.host, FAILED, status, reason="the result "
                           f"came back damaged ({damage})")
    if status != 0:
        return Outcome(out.host, FAILED, status, text,
                       reason=f"diskio exit status {status}: {why}")
    if text is None:
        return Outcome(out.host, FAILED, status, reason="diskio wrote no "
                       "result")
    return Outcome(out.host, OK, status, text)


def reply_damage(host, text):
    """What is wrong with a host's result, or None when it is a diskio
    result that every reader takes: UTF-8 text of at most MAX_INPUT_BYTES
    (as any input file), JSON nested no deeper than a reader can follow,
    a result object by the schema (result.py reads it as it would read
    the file in the lab)."""
    if len(text) > MAX_INPUT_BYTES:
        return f"more than {MAX_INPUT_BYTES >> 20} MiB"
    if re.search("[\ud800-\udfff]", text):
        return "not UTF-8 text"
    name = f"{host}:result.json"
    try:
        doc = parse_json(name, text)
        if not is_result(doc):
            return (f"{json_kind(doc)}, not a diskio result object "
                    '(no "schema": "diskio-result")')
        result_from_json(name, text, doc)
    except InputError as err:
        where = "" if err.line is None else f"line {err.line}: "
        return f"{where}{err.what}"
    return None


# The names of the files diskio-pgphases writes (q_time.csv, wal.csv,
# settings.json...): a file by any other name is left out, so no name a
# host chose (a quote, a backquote, a control character, a '<') reaches
# the lab.
PG_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}", re.ASCII)


# names diskio-fleet writes itself in LAB/HOST: a file of diskio-pgphases
# by one of these names is not taken
OWN_NAMES = ("result.json", "diskio.log")


def save(directory, outcome, force=False):
    """The host's result into LAB/HOST/result.json (directory: LAB/HOST,
    an OutputDir; a partial result of a failed run too: diskio's exit
    status 1 writes one) and the files of its diskio-pgphases beside it,
    each by the directory's descriptor.  An output that cannot be written
    turns the host into a failure."""
    pg_files = {}
    for name, data in getattr(outcome, "pg_files", {}).items():
        if name in OWN_NAMES:
            continue
        if PG_FILE_NAME.fullmatch(name):
            pg_files[name] = data
        else:
            outcome.left_out.append(name)
    if outcome.result_text is None and not pg_files:
        return outcome
    try:
        if outcome.result_text is not None:
            outcome.path = write_output_in(directory, "result.json",
                                           outcome.result_text,
                                           option="--lab", force=force)
        for name, data in sorted(pg_files.items()):
            write_output_in(directory, name, data, option="--lab",
                            force=force)
    except OutputError as err:
        outcome.state, outcome.reason = FAILED, str(err)
    return outcome


def summary(outcomes):
    """The per-host lines printed at the end, then one totals line; a
    host's name and what its session said (a remote line) as shown()."""
    width = max(len(shown(o.host)) for o in outcomes)
    lines = []
    for o in outcomes:
        if o.state == OK:
            text = f"ok         {o.path}"
            if o.left_out:
                text += (f" ({len(o.left_out)} diskio-pgphases file(s) "
                         "left out: a name it never writes, such as "
                         f"'{clipped(o.left_out[0])}')")
        elif o.state == FAILED:
            text = f"failed     {o.reason}"
            if o.path:
                text += f" (partial result kept: {o.path})"
        else:
            text = f"unreachable {o.reason}"
        lines.append(f"  {shown(o.host):<{width}}  {shown(text)}")
    counts = {s: sum(1 for o in outcomes if o.state == s)
              for s in (OK, FAILED, UNREACHABLE)}
    lines.append(f"{counts[OK]} ok, {counts[FAILED]} failed, "
                 f"{counts[UNREACHABLE]} unreachable of {len(outcomes)} "
                 "hosts")
    return "\n".join(lines) + "\n"


def exit_status(outcomes):
    """0 when every host gave its result, 1 otherwise."""
    return 0 if all(o.state == OK for o in outcomes) else 1
