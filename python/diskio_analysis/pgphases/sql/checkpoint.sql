-- SPDX-License-Identifier: MIT
-- The end of the load phase: write everything the load dirtied.

CHECKPOINT;
