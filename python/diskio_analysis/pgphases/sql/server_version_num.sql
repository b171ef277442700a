-- SPDX-License-Identifier: MIT
-- The server's version as a number, for the version-suffixed statistics files.

SHOW server_version_num;
