-- SPDX-License-Identifier: MIT
-- The counters as in counters.sql; PostgreSQL 17 moved the checkpoint
-- counters to pg_stat_checkpointer.

SELECT w.wal_write, w.wal_sync, w.wal_write_time, w.wal_sync_time, w.wal_bytes, w.wal_records, w.wal_fpi, w.wal_buffers_full, c.write_time, c.sync_time, c.num_timed, c.num_requested, c.buffers_written, (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) FROM pg_stat_wal w, pg_stat_checkpointer c;
