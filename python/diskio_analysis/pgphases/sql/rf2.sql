-- SPDX-License-Identifier: MIT
-- RF2 for the orders {{first}} to {{last}}, one transaction: delete old
-- orders and their line items (line items first, as the kit does).  The
-- kit's RF2 is this for all of its SF x 1500 orders at once; --commit-every
-- runs it once per that many orders.

BEGIN;
DELETE FROM lineitem WHERE l_orderkey BETWEEN {{first}} AND {{last}};
DELETE FROM orders WHERE o_orderkey BETWEEN {{first}} AND {{last}};
COMMIT;
