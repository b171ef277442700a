# SPDX-License-Identifier: MIT
"""What PostgreSQL counted of each kind of sync a phase made (the WAL
model's bases), read from one wal.csv row and diskio-pgphases'
settings.json: how many, where the count comes from, PostgreSQL's own
time for them, and which diskio latency one of them costs.

  wal_commit      WAL flushes on the commit path (client backends)
  wal_background  WAL flushes by the WAL writer (background)
  segment_switch  syncs of new WAL segment files (a segment filled up)
  checkpoint      the checkpoints' data-file fsyncs (background)

A basis PostgreSQL (or the runner) did not count is "not measured", with
the reason and the counter that would measure it; a time PostgreSQL did
not take (track_wal_io_timing off) is "not measured" too, never 0 s."""

from ..inputs import WAL_SYNC_METHODS

BASES = ("wal_commit", "wal_background", "segment_switch", "checkpoint")
BACKGROUND = ("wal_background", "checkpoint")
# The checkpointer and the creation of a WAL segment call fsync() whatever
# wal_sync_method says (pg_fsync).
FSYNC_MODE = "fsync"


def basis(count=None, source=None, mode=None, pg_time_s=None,
          pg_time_note=None, not_measured=None, estimated=False,
          caveat=None, pg_time_column=None):
    """One basis of one phase: count (None: not measured, the reason in
    not_measured), where the count comes from (and a caveat about it),
    the diskio mode whose latency one sync costs, and PostgreSQL's own
    time (None: not measured, the reason in pg_time_note) and the wal.csv
    column it comes from."""
    return {"count": count, "count_source": source, "estimated": estimated,
            "caveat": caveat, "mode": mode, "pg_time_s": pg_time_s,
            "pg_time_column": pg_time_column,
            "pg_time_note": pg_time_note, "not_measured": not_measured,
            "background": False}


def wal_time_s(row, column, count, settings):
    """PostgreSQL's time for count WAL writes or flushes (ms column), or
    (None, why) when it did not take it."""
    if settings is not None and settings.track_wal_io_timing is False:
        return None, "not measured: track_wal_io_timing was off"
    value = row.get(column)
    if value is None:
        return None, f"not measured: wal.csv has no {column}"
    timed = settings is not None and settings.track_wal_io_timing
    if value == 0 and count and not timed:
        return None, (f"not measured: {column} is 0 for {count:g} "
                      "operations (track_wal_io_timing off?)")
    return value / 1000.0, None


def wal_bases(row, method, settings):
    """wal_commit and wal_background."""
    mode, count_column, time_column = WAL_SYNC_METHODS[method]
    total = row[count_column]
    split = "wal_sync_commit" in row and count_column == "wal_sync"
    if split:
        commit_count = min(row["wal_sync_commit"], total)
        time_s, note = wal_time_s(row, "wal_sync_commit_time_ms",
                                  commit_count, settings)
        commit = basis(commit_count, "wal_sync_commit", mode, time_s, note,
                       pg_time_column="wal_sync_commit_time_ms")
        rest = total - commit_count
        total_time, total_note = wal_time_s(row, time_column, total, settings)
        rest_time = None if total_time is None or time_s is None \
            else max(total_time - time_s, 0.0)
        background = basis(rest, f"{count_column} - wal_sync_commit", mode,
                           rest_time, None if rest_time is not None
                           else total_note or note,
                           pg_time_column=time_column)
    else:
        time_s, note = wal_time_s(row, time_column, total, settings)
        commit = basis(total, count_column, mode, time_s, note, caveat=(
            None if count_column == "wal_write" else
            "all WAL flushes: the WAL writer's are counted on the commit "
            "path"), pg_time_column=time_column)
        background = basis(
            mode=mode, not_measured=(
                "the sync happens in each WAL write (open_*): on the commit "
                "path" if count_column == "wal_write" else
                "wal.csv has no wal_sync_commit (pg_stat_io, PostgreSQL 18): "
                "the WAL writer's flushes are counted on the commit path"))
    background["background"] = True
    return commit, background


def segment_basis(row, settings):
    """segment_switch: counted (wal_segment_switches), else estimated as
    wal_bytes / wal_segment_size, else not measured."""
    if "wal_segment_switches" in row:
        return basis(row["wal_segment_switches"], "wal_segment_switches",
                     FSYNC_MODE, pg_time_note="not timed by PostgreSQL")
    size = settings.wal_segment_size if settings is not None else None
    if size:
        return basis(row["wal_bytes"] / size, "wal_bytes / wal_segment_size",
                     FSYNC_MODE, pg_time_note="not timed by PostgreSQL",
                     estimated=True, caveat=f"estimated: every "
                     f"{size} bytes of WAL fill a segment")
    return basis(mode=FSYNC_MODE, not_measured=(
        "wal.csv has no wal_segment_switches and settings.json no "
        "wal_segment_size"), pg_time_note="not timed by PostgreSQL")


def checkpoint_basis(row):
    """checkpoint: the files the checkpoints synced (server log) and their
    sync time (pg_stat_bgwriter / pg_stat_checkpointer)."""
    time_ms = row.get("checkpoint_sync_time_ms")
    time_s = None if time_ms is None else time_ms / 1000.0
    note = None if time_ms is not None else \
        "not measured: wal.csv has no checkpoint_sync_time_ms"
    files = row.get("checkpoint_sync_files")
    if files is not None:
        result = basis(files, "checkpoint_sync_files", FSYNC_MODE, time_s,
                       note, pg_time_column="checkpoint_sync_time_ms")
    else:
        result = basis(mode=FSYNC_MODE, pg_time_s=time_s, pg_time_note=note,
                       not_measured="wal.csv has no checkpoint_sync_files "
                       "(log_checkpoints' \"sync files=\")")
    result["background"] = True
    return result


def phase_bases(row, method, settings):
    """{basis name: basis} for one wal.csv row."""
    commit, background = wal_bases(row, method, settings)
    return {"wal_commit": commit, "wal_background": background,
            "segment_switch": segment_basis(row, settings),
            "checkpoint": checkpoint_basis(row)}
