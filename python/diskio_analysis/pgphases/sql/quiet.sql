-- SPDX-License-Identifier: MIT
-- The first statement of every script: only warnings and errors on stderr.

SET client_min_messages = warning;
