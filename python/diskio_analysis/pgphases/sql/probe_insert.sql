-- SPDX-License-Identifier: MIT
-- One commit of the commit probe: a small insert, in its own transaction
-- (pgbench runs this script once per transaction).

INSERT INTO commit_probe (v) VALUES ('small row');
