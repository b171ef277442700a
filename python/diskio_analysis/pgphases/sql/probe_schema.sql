-- SPDX-License-Identifier: MIT
-- The commit probe's table: small rows with a primary key, as the
-- small-insert commit diskio's --wal-bytes default was measured with.

CREATE TABLE commit_probe (id bigserial PRIMARY KEY, v text);
