-- SPDX-License-Identifier: MIT
-- The server settings recorded in settings.csv and settings.json, as
-- name|setting|unit lines.

SELECT name, setting, coalesce(unit, '') FROM pg_settings WHERE name IN ('wal_sync_method', 'synchronous_commit', 'fsync', 'track_wal_io_timing', 'shared_buffers', 'full_page_writes', 'wal_level', 'wal_buffers', 'wal_writer_delay', 'wal_writer_flush_after', 'wal_segment_size', 'commit_delay', 'checkpoint_timeout', 'max_wal_size', 'checkpoint_flush_after', 'autovacuum', 'jit', 'listen_addresses', 'server_version', 'data_checksums', 'block_size') ORDER BY name;
