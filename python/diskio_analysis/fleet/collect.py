# SPDX-License-Identifier: MIT
"""Each host's outcome from what its session gave back, its result
written into LAB/HOST/result.json (whole or not at all, never over an
existing file unless --force), and the per-host summary."""

import json
import os
from dataclasses import dataclass

from ..outputs import OutputError, make_output_dir, write_output_file
from .transport import BEGIN, EXIT_NO_TEMP, STATUS

OK, FAILED, UNREACHABLE = "ok", "failed", "unreachable"


@dataclass
class Outcome:
    """One host's: state (ok, failed, unreachable), diskio's exit status
    (None when diskio never ran), the result text (None without one), the
    file it was written to and the one line saying why it failed."""
    host: str
    state: str
    diskio_status: int = None
    result_text: str = None
    path: str = None
    reason: str = ""


def parse_output(lines):
    """(diskio's exit status or None, the result text or None) from one
    session's stdout lines."""
    status, result, inside = None, None, None
    for line in lines:
        if line == BEGIN:
            inside = []
        elif line.startswith(STATUS):
            try:
                status = int(line[len(STATUS):].strip())
            except ValueError:
                status = None
            if inside is not None:
                text = "\n".join(inside).strip()
                result = text + "\n" if text else None
            inside = None
        elif inside is not None:
            inside.append(line)
    return status, result


def last_line(lines):
    for line in reversed(lines):
        if line.strip():
            return line.strip()
    return ""


def judge(out):
    """The Outcome of one HostOutput."""
    status, text = parse_output(out.stdout)
    why = last_line(out.stderr)
    if status is None:
        if out.timed_out:
            return Outcome(out.host, UNREACHABLE, reason=why or
                           "no answer within the timeout")
        if out.exit_status == EXIT_NO_TEMP:
            return Outcome(out.host, FAILED, reason="cannot make a "
                           f"temporary directory on the host: {why}")
        if out.exit_status not in (None, 255):
            return Outcome(out.host, FAILED, reason=f"remote command exit "
                           f"status {out.exit_status}: {why}")
        return Outcome(out.host, UNREACHABLE, reason=why or
                       "the session ended before diskio ran")
    if text is not None:
        try:
            json.loads(text)
        except ValueError:
            return Outcome(out.host, FAILED, status, reason="the result "
                           "came back damaged (not JSON)")
    if status != 0:
        return Outcome(out.host, FAILED, status, text,
                       reason=f"diskio exit status {status}: {why}")
    if text is None:
        return Outcome(out.host, FAILED, status, reason="diskio wrote no "
                       "result")
    return Outcome(out.host, OK, status, text)


def host_dir(lab, host):
    return os.path.join(lab, host)


def save(lab, outcome, force=False):
    """The host's result into LAB/HOST/result.json; a partial result of a
    failed run is kept too (diskio's exit status 1 writes one).  An
    output that cannot be written turns the host into a failure."""
    if outcome.result_text is None:
        return outcome
    path = os.path.join(host_dir(lab, outcome.host), "result.json")
    try:
        make_output_dir(host_dir(lab, outcome.host), "--lab")
        write_output_file(path, outcome.result_text, option="--lab",
                          force=force)
    except OutputError as err:
        outcome.state, outcome.reason = FAILED, str(err)
        return outcome
    outcome.path = path
    return outcome


def summary(outcomes):
    """The per-host lines printed at the end, then one totals line."""
    width = max(len(o.host) for o in outcomes)
    lines = []
    for o in outcomes:
        if o.state == OK:
            text = f"ok         {o.path}"
        elif o.state == FAILED:
            text = f"failed     {o.reason}"
            if o.path:
                text += f" (partial result kept: {o.path})"
        else:
            text = f"unreachable {o.reason}"
        lines.append(f"  {o.host:<{width}}  {text}")
    counts = {s: sum(1 for o in outcomes if o.state == s)
              for s in (OK, FAILED, UNREACHABLE)}
    lines.append(f"{counts[OK]} ok, {counts[FAILED]} failed, "
                 f"{counts[UNREACHABLE]} unreachable of {len(outcomes)} "
                 "hosts")
    return "\n".join(lines) + "\n"


def exit_status(outcomes):
    """0 when every host gave its result, 1 otherwise."""
    return 0 if all(o.state == OK for o in outcomes) else 1
