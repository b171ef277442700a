-- SPDX-License-Identifier: MIT
-- PostgreSQL 15 and later: make this backend's statistics visible before
-- the counters are read.

SELECT pg_stat_force_next_flush();
