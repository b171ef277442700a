-- SPDX-License-Identifier: MIT
-- The counters as in counters.sql; PostgreSQL 18 counts WAL writes and
-- syncs in pg_stat_io (object 'wal').

SELECT (SELECT coalesce(sum(writes), 0) FROM pg_stat_io WHERE object = 'wal'), (SELECT coalesce(sum(fsyncs), 0) FROM pg_stat_io WHERE object = 'wal'), (SELECT coalesce(sum(write_time), 0) FROM pg_stat_io WHERE object = 'wal'), (SELECT coalesce(sum(fsync_time), 0) FROM pg_stat_io WHERE object = 'wal'), w.wal_bytes, w.wal_records, w.wal_fpi, w.wal_buffers_full, c.write_time, c.sync_time, c.num_timed, c.num_requested, c.buffers_written, (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) FROM pg_stat_wal w, pg_stat_checkpointer c;
