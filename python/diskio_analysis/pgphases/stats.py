# SPDX-License-Identifier: MIT
"""The per-phase counters: cumulative WAL and checkpoint counters read
from the server (pg_stat_wal, pg_stat_bgwriter or pg_stat_checkpointer,
pg_stat_io from PostgreSQL 18, by the version-suffixed SQL files) and the
files the checkpoints synced, from the server log; a phase's counters are
the difference of two snapshots."""

import re
import time

from . import sql

STATS_PAUSE_S = 1.0
# The columns of counters*.sql, in order.
COUNTERS = ["wal_write", "wal_sync", "wal_write_time_ms", "wal_sync_time_ms",
            "wal_bytes", "wal_records", "wal_fpi", "wal_buffers_full",
            "checkpoint_write_time_ms", "checkpoint_sync_time_ms",
            "checkpoints_timed", "checkpoints_req", "buffers_checkpoint",
            "xact_commit"]
# log_checkpoints: "checkpoint complete: ... sync files=14, longest=..."
SYNC_FILES_RE = re.compile(r"checkpoint complete:.*\bsync files=(\d+)")


def snapshot_script(version_num):
    """The psql script that reads the counters from a server of
    version_num; its last output line is the counters' row."""
    flush = sql.versioned("stats_flush", version_num)
    return sql.script(*([sql.load(flush)] if flush else [])
                      + [sql.load(sql.versioned("counters", version_num))])


def parse_counters(output):
    """The counters from psql's output of snapshot_script() (-A -t)."""
    vals = output.strip().splitlines()[-1].split("|")
    return {k: float(x) for k, x in zip(COUNTERS, vals)}


def snapshot(cluster):
    """Cumulative WAL and checkpoint counters, after letting the
    background processes report."""
    time.sleep(STATS_PAUSE_S)
    snap = parse_counters(cluster.psql(snapshot_script(cluster.pg_version_num),
                                       "statistics", capture=True))
    snap["checkpoint_sync_files"] = float(checkpoint_sync_files(cluster.log_file))
    return snap


def checkpoint_sync_files(log_file):
    """Files fsync()ed by all checkpoints so far, from the server log
    (log_checkpoints): PostgreSQL counts them nowhere else, and without a
    count the checkpoint's sync time cannot be split into syncs x
    latency."""
    total = 0
    try:
        with open(log_file, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = SYNC_FILES_RE.search(line)
                if m:
                    total += int(m.group(1))
    except OSError:
        pass
    return total


def delta(before, after):
    """A phase's counters: after - before, key by key (the keys that
    start with _ are not counters)."""
    return {k: after[k] - before[k] for k in after if not k.startswith("_")}
