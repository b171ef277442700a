-- SPDX-License-Identifier: MIT
-- RF1 for the orders {{first}} to {{last}}, one transaction (one commit): the
-- new orders and their line items from the refresh data set.  The kit's RF1
-- is this for all of its SF x 1500 orders at once; --commit-every runs it
-- once per that many orders.

BEGIN;
INSERT INTO orders SELECT * FROM new_orders
  WHERE o_orderkey BETWEEN {{first}} AND {{last}};
INSERT INTO lineitem SELECT * FROM new_lineitem
  WHERE l_orderkey BETWEEN {{first}} AND {{last}};
COMMIT;
