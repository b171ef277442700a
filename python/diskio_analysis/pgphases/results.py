# SPDX-License-Identifier: MIT
"""The result files: q_time.csv (the DBT-3 kit's format), wal.csv (the
per-phase counters), settings.json and settings.csv (what was run, where
and how), and the server log's copy.  A result file that exists is never
overwritten, none is left half-written, and one that cannot be written
does not keep the others from being written."""

import csv
import errno
import io
import json
import os
import socket
import stat

from .. import __version__
from . import PROG, interference, progress
from .safefiles import NotOwned, open_owned

RESULT_FILES = ["q_time.csv", "wal.csv", "settings.csv", "settings.json",
                "interference.csv", "rounds.csv", "postgres.log"]
ROUNDS_HEADER = ["task_name", "round", "seconds"]
QTIME_HEADER = ["task_name", "s_time", "e_time", "diff_time", "seconds"]
WAL_HEADER = ["phase", "wal_write", "wal_sync", "wal_write_time_ms",
              "wal_sync_time_ms", "wal_bytes", "checkpoint_write_time_ms",
              "checkpoint_sync_time_ms", "checkpoint_sync_files", "xact_commit"]


def fmt_ts(dt):
    return dt.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (dt.microsecond // 1000)


def fmt_diff(seconds):
    ms = int(round(seconds * 1000))
    h, rest = divmod(ms, 3600 * 1000)
    m, rest = divmod(rest, 60 * 1000)
    s, ms = divmod(rest, 1000)
    return "%02d:%02d:%02d.%03d" % (h, m, s, ms)


def log_name(round_no):
    """The server log's copy of round round_no (from 1)."""
    return "postgres.log" if round_no == 1 else "postgres.round%d.log" % round_no


def existing(out, rounds=1):
    """The result files already in out, an OutputDir (a symlink counts,
    dangling or not: nothing is ever written through one)."""
    names = RESULT_FILES + [log_name(r) for r in range(2, rounds + 1)]
    return [f for f in names if out.lstat(f) is not None]


def qtime_row(name, t0, t1, sec):
    return [name, fmt_ts(t0), fmt_ts(t1), fmt_diff(sec), "%.6f" % sec]


def wal_row(name, d):
    return [name, "%d" % d["wal_write"], "%d" % d["wal_sync"],
            "%.3f" % d["wal_write_time_ms"], "%.3f" % d["wal_sync_time_ms"],
            "%d" % d["wal_bytes"], "%.3f" % d["checkpoint_write_time_ms"],
            "%.3f" % d["checkpoint_sync_time_ms"],
            "%d" % d["checkpoint_sync_files"], "%d" % d["xact_commit"]]


def settings(run, complete):
    """settings.json's record of a run (command.Run): the options, the
    server and how the run ended."""
    a, cluster, work = run.args, run.cluster, run.workload
    return {
        "tool": PROG, "tool_version": __version__,
        "kind": "DBT-3-style (not a TPC-H or DBT-3 result)",
        "complete": complete,
        "error": run.error,
        "interrupted_by_signal": run.interrupted_by,
        "start_time": run.start_time.isoformat(timespec="seconds"),
        "hostname": socket.gethostname(),
        "scale_factor": work.sf,
        "orders": work.norders,
        "streams": a.streams,
        "refresh_size": work.refresh,
        "commit_every": work.commit_every,
        "refresh_commits": work.commits,
        "wal_sync_method": a.wal_sync_method,
        "shared_buffers": a.shared_buffers,
        "postgresql_version": cluster.pg_version,
        "postgresql_version_num": cluster.pg_version_num,
        "pg_bindir": cluster.bindir,
        "directory": os.path.realpath(a.directory),
        "data_dir": cluster.data_dir,
        "run_as": cluster.run_as.pw_name,
        "preload": cluster.preload,
        "delay_us": a.delay_us if cluster.preload else None,
        "preload_verified": cluster.preload_verified,
        "server_settings": cluster.server_settings,
        "phase_counters": {n: d for n, d in work.walrows},
        # how many sessions committed in each task (the WAL model's
        # concurrency: diskio --pattern wal --jobs N), the commit probe's
        # commits per session, and the rounds (q_time.csv and wal.csv
        # hold each task's median over them, rounds.csv every round)
        "phase_committers": dict(work.committers),
        "commit_probe": work.probe or None,
        "rounds": getattr(run, "rounds_done", 1),
        "round_spread": getattr(run, "round_spread", None),
    }


def settings_rows(record):
    """settings.csv's name,value rows: the server settings flattened to
    server.NAME, the phase counters left to settings.json and wal.csv."""
    for k, v in record.items():
        if k == "server_settings":
            for sk, sv in sorted(v.items()):
                yield ["server." + sk, sv]
        elif k not in ("phase_counters", "phase_committers", "round_spread"):
            yield [k, "" if v is None else v]


def csv_text(header, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


class NotWritten(Exception):
    """Result files that could not be written: failed, (name, reason)
    pairs; written, the names of those that were."""

    def __init__(self, failed, written):
        super().__init__("; ".join("%s: %s" % f for f in failed))
        self.failed, self.written = failed, written


def reason(err):
    """Why put() failed, for a message."""
    if err.errno == errno.EEXIST:
        return "appeared during the run; left as it is"
    return err.strerror or str(err)


def put(out, name, data, mode=0o666):
    """A new file name in out (an OutputDir) holding data (text, bytes or
    a binary file to copy), whole, or no file at all: written without a
    name (O_TMPFILE) and linked in with linkat(), which never replaces a
    name, a symlink included; where the filesystem has no unnamed files,
    under a random temporary name beside it (O_EXCL), linked in from its
    descriptor, and that name removed only while it is still the file
    written.  All by out's descriptor, never by path (outdir.py).  mode
    less the umask; an OSError names the file's path, never a
    temporary."""
    out.write(name, data, mode=mode)


def write(out, tasks, walrows, record, ifrrows=None, round_rows=None):
    """Write the result files into out (an OutputDir), each whole or not
    at all, each whatever happened to the others: interference.csv when
    ifrrows are given, rounds.csv (task_name,round,seconds) when
    round_rows are.  NotWritten says which could not be written, and
    why."""
    files = [
        ("q_time.csv", csv_text(QTIME_HEADER, [qtime_row(*t) for t in tasks])),
        ("wal.csv", csv_text(WAL_HEADER, [wal_row(name, d) for name, d in walrows])),
        ("settings.json", json.dumps(record, indent=2, sort_keys=False) + "\n"),
        ("settings.csv", csv_text(["name", "value"], settings_rows(record))),
    ]
    if ifrrows is not None:
        # what else the machine did during each phase (interference.py)
        files.append(("interference.csv", csv_text(
            interference.HEADER,
            [interference.csv_row(name, f) for name, f in ifrrows])))
    if round_rows:
        files.append(("rounds.csv", csv_text(
            ROUNDS_HEADER, [[name, r, "%.6f" % sec] for name, r, sec in round_rows])))
    written, failed = [], []
    for name, text in files:
        try:
            put(out, name, text)
        except OSError as err:
            failed.append((name, reason(err)))
        else:
            written.append(name)
    if failed:
        raise NotWritten(failed, written)


def copy_log(log_file, out, name="postgres.log", owner=None):
    """Keep the server log beside the results (as name in out, an
    OutputDir), as put() writes a result
    (never over a file, never through a symlink, whole or not at all),
    with the log's own permissions or fewer.  The log is read only if it
    is a regular file with one link owned by owner (default: the runner,
    who made it): a symlink or hard link planted at its name is never
    followed.  A failure must not hide the run's own outcome: a server
    log that does not exist is skipped quietly, one that cannot be kept
    is said on stderr."""
    owner = os.geteuid() if owner is None else owner
    dest = out.name(name)
    try:
        fd = open_owned(log_file, owner)
    except NotOwned as err:
        progress("the server log was not kept: %s: %s" % (log_file, err.strerror))
        return
    except OSError:
        return
    with os.fdopen(fd, "rb") as src:
        try:
            put(out, name, src, stat.S_IMODE(os.fstat(fd).st_mode) & 0o666)
        except OSError as err:
            progress("the server log was not kept: %s: %s" % (dest, reason(err)))
