-- SPDX-License-Identifier: MIT
-- After each query of a stream: the time stamp that ends it.
-- Parameter: {{query}}, the query's number.

SELECT '@@E', {{query}}, extract(epoch FROM clock_timestamp());
