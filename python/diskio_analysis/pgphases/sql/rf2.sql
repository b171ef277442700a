-- SPDX-License-Identifier: MIT
-- RF2 for one order, one transaction: delete an old order and its line items.
-- Parameter: {{orderkey}}.

BEGIN;
DELETE FROM lineitem WHERE l_orderkey = {{orderkey}};
DELETE FROM orders WHERE o_orderkey = {{orderkey}};
COMMIT;
