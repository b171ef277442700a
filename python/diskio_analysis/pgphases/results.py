# SPDX-License-Identifier: MIT
"""The result files: q_time.csv (the DBT-3 kit's format), wal.csv (the
per-phase counters), settings.json and settings.csv (what was run, where
and how), and the server log's copy.  A result file that exists is never
overwritten, and none is left half-written."""

import csv
import io
import json
import os
import shutil
import socket

from .. import __version__
from . import PROG, progress

RESULT_FILES = ["q_time.csv", "wal.csv", "settings.csv", "settings.json",
                "rounds.csv", "postgres.log"]
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
    """The result files already in out (a symlink counts, dangling or not:
    nothing is ever written through one)."""
    names = RESULT_FILES + [log_name(r) for r in range(2, rounds + 1)]
    return [f for f in names if os.path.lexists(os.path.join(out, f))]


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


def put(path, text):
    """path holds text whole, or does not exist: written under a temporary
    name beside it and linked into place (link() refuses an existing name,
    links included, so nothing is ever overwritten or written through a
    symlink); a file that could not be finished is removed, not left
    truncated."""
    temp = "%s.tmp.%d" % (path, os.getpid())
    try:
        with open(temp, "x") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.link(temp, path)
    finally:
        if os.path.lexists(temp):
            os.unlink(temp)


def write(out, tasks, walrows, record, round_rows=None):
    """Write the result files into out (created if need be), each whole
    or not at all; rounds.csv (task_name,round,seconds) when round_rows
    are given.  The OSError of a file that could not be written carries
    .written, the names of those that were."""
    os.makedirs(out, exist_ok=True)
    files = [
        ("q_time.csv", csv_text(QTIME_HEADER, [qtime_row(*t) for t in tasks])),
        ("wal.csv", csv_text(WAL_HEADER, [wal_row(name, d) for name, d in walrows])),
        ("settings.json", json.dumps(record, indent=2, sort_keys=False) + "\n"),
        ("settings.csv", csv_text(["name", "value"], settings_rows(record))),
    ]
    if round_rows:
        files.append(("rounds.csv", csv_text(
            ROUNDS_HEADER, [[name, r, "%.6f" % sec] for name, r, sec in round_rows])))
    written = []
    for name, text in files:
        try:
            put(os.path.join(out, name), text)
        except OSError as err:
            err.filename = err.filename or os.path.join(out, name)
            err.written = written
            raise
        written.append(name)


def copy_log(log_file, out, name="postgres.log"):
    """Keep the server log beside the results: created with O_EXCL, which
    refuses any file at the name, a symlink (dangling or not) included, so
    that nothing is written through a link planted there or over another
    run's log.  A failure must not hide the run's own outcome: a server
    log that does not exist is skipped quietly, one that cannot be kept is
    said on stderr."""
    try:
        src = open(log_file, "rb")
    except OSError:
        return
    dest = os.path.join(out, name)
    with src:
        try:
            with open(dest, "xb") as dst:
                shutil.copyfileobj(src, dst)
        except OSError as err:
            progress("the server log was not kept: %s: %s (another run's "
                     "output directory?)" % (dest, err.strerror))
