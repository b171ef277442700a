-- SPDX-License-Identifier: MIT
-- The cumulative WAL and checkpoint counters, one row; the columns are
-- stats.COUNTERS in order (the last: the database's commits).  PostgreSQL 14 to 16: pg_stat_wal and pg_stat_bgwriter.

SELECT w.wal_write, w.wal_sync, w.wal_write_time, w.wal_sync_time, w.wal_bytes, w.wal_records, w.wal_fpi, w.wal_buffers_full, b.checkpoint_write_time, b.checkpoint_sync_time, b.checkpoints_timed, b.checkpoints_req, b.buffers_checkpoint, (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) FROM pg_stat_wal w, pg_stat_bgwriter b;
