-- SPDX-License-Identifier: MIT
-- The server's version string, for settings.json.

SELECT version();
