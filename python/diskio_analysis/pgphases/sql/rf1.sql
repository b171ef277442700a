-- SPDX-License-Identifier: MIT
-- RF1 for one order, one transaction (one commit): the new order and its
-- line items from the refresh data set.  Parameter: {{orderkey}}.

BEGIN;
INSERT INTO orders SELECT * FROM new_orders WHERE o_orderkey = {{orderkey}};
INSERT INTO lineitem SELECT * FROM new_lineitem WHERE l_orderkey = {{orderkey}};
COMMIT;
