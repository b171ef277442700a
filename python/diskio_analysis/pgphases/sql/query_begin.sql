-- SPDX-License-Identifier: MIT
-- Before each query of a stream: a server-side time stamp, read back
-- from psql's output to time the query.  Parameter: {{query}}, its number.

SELECT '@@B', {{query}}, extract(epoch FROM clock_timestamp());
