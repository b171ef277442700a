-- SPDX-License-Identifier: MIT
-- The load: base tables, orders and line items, the refresh data set RF1
-- inserts from (DBT-3 generates it into flat files beforehand), the keys and
-- indexes, VACUUM ANALYZE.  Run after quiet.sql in one psql session.
-- Parameters: {{nsupp}}, {{ncust}}, {{npart}}, {{norders}} (orders loaded) and
-- {{nnew}} (orders in the refresh data set).

INSERT INTO region SELECT i - 1, r, words(i, 30, 8) FROM unnest(ARRAY['AFRICA',
  'AMERICA','ASIA','EUROPE','MIDDLE EAST']) WITH ORDINALITY AS t(r, i);
INSERT INTO nation SELECT i - 1, n, rk, words(i, 31, 8) FROM unnest(
  ARRAY['ALGERIA','ARGENTINA','BRAZIL','CANADA','EGYPT','ETHIOPIA','FRANCE',
        'GERMANY','INDIA','INDONESIA','IRAN','IRAQ','JAPAN','JORDAN','KENYA',
        'MOROCCO','MOZAMBIQUE','PERU','CHINA','ROMANIA','SAUDI ARABIA',
        'VIETNAM','RUSSIA','UNITED KINGDOM','UNITED STATES'],
  ARRAY[0,1,1,1,4,0,3,3,2,2,4,4,2,4,0,0,0,1,2,3,4,2,3,3,1])
  WITH ORDINALITY AS t(n, rk, i);
INSERT INTO supplier
SELECT k, 'Supplier#' || lpad(k::text, 9, '0'), words(k, 40, 3), nk,
  (10 + nk) || '-' || (100 + h(k, 41, 900)) || '-' || (100 + h(k, 42, 900))
    || '-' || (1000 + h(k, 43, 9000)),
  (-99999 + h(k, 44, 1099999)) / 100.0,
  CASE WHEN h(k, 45, 200) = 0 THEN words(k, 46, 2) || ' Customer '
         || words(k, 47, 1) || ' Complaints ' || words(k, 48, 1)
       ELSE words(k, 46, 7) END
FROM generate_series(1, {{nsupp}}) AS k, LATERAL (SELECT h(k, 49, 25) AS nk) x;
INSERT INTO customer
SELECT k, 'Customer#' || lpad(k::text, 9, '0'), words(k, 50, 3), nk,
  (10 + nk) || '-' || (100 + h(k, 51, 900)) || '-' || (100 + h(k, 52, 900))
    || '-' || (1000 + h(k, 53, 9000)),
  (-99999 + h(k, 54, 1099999)) / 100.0,
  pick(ARRAY['AUTOMOBILE','BUILDING','FURNITURE','MACHINERY','HOUSEHOLD'], k, 55),
  words(k, 56, 8)
FROM generate_series(1, {{ncust}}) AS k, LATERAL (SELECT h(k, 57, 25) AS nk) x;
INSERT INTO part
SELECT k,
  (SELECT string_agg(pick(ARRAY['almond','antique','aquamarine','azure','beige',
    'bisque','black','blanched','blue','blush','brown','burlywood','chartreuse',
    'chocolate','coral','cornflower','cornsilk','cream','cyan','dark','forest',
    'frosted','gainsboro','ghost','goldenrod','green','grey','honeydew','hot',
    'indian','ivory','khaki','lace','lavender','lawn','lemon','light','lime',
    'linen','magenta','maroon','medium','metallic','midnight','mint','misty',
    'moccasin','navajo','navy','olive','orange','orchid','pale','papaya',
    'peach','peru','pink','plum','powder','puff','purple','red','rose','rosy',
    'royal','saddle','salmon','sandy','seashell','sienna','sky','slate','smoke',
    'snow','spring','steel','tan','thistle','tomato','turquoise','violet',
    'wheat','white','yellow'], k * 8 + j, 60), ' ') FROM generate_series(1, 5) j),
  'Manufacturer#' || m, 'Brand#' || m || (1 + h(k, 61, 5)),
  pick(ARRAY['STANDARD','SMALL','MEDIUM','LARGE','ECONOMY','PROMO'], k, 62) || ' '
    || pick(ARRAY['ANODIZED','BURNISHED','PLATED','POLISHED','BRUSHED'], k, 63) || ' '
    || pick(ARRAY['TIN','NICKEL','BRASS','STEEL','COPPER'], k, 64),
  1 + h(k, 65, 50),
  pick(ARRAY['SM','LG','MED','JUMBO','WRAP'], k, 66) || ' '
    || pick(ARRAY['CASE','BOX','BAG','JAR','PKG','PACK','CAN','DRUM'], k, 67),
  retailprice(k), left(words(k, 68, 3), 23)
FROM generate_series(1, {{npart}}) AS k, LATERAL (SELECT 1 + h(k, 69, 5) AS m) x;
INSERT INTO partsupp
SELECT p, suppof(p, i), 1 + h(p * 4 + i, 70, 9999),
  (100 + h(p * 4 + i, 71, 99901)) / 100.0, words(p * 4 + i, 72, 12)
FROM generate_series(1, {{npart}}) AS p, generate_series(0, 3) AS i;
INSERT INTO orders SELECT * FROM gen_orders(1, {{norders}});
INSERT INTO lineitem SELECT * FROM gen_lineitem(1, {{norders}});
-- the refresh data set (DBT-3 generates it into flat files beforehand):
-- the orders RF1 will insert, keys above the loaded ones
CREATE TABLE new_orders (LIKE orders);
CREATE TABLE new_lineitem (LIKE lineitem);
INSERT INTO new_orders SELECT * FROM gen_orders({{norders}} + 1, {{norders}} + {{nnew}});
INSERT INTO new_lineitem SELECT * FROM gen_lineitem({{norders}} + 1, {{norders}} + {{nnew}});
ALTER TABLE new_orders ADD PRIMARY KEY (o_orderkey);
CREATE INDEX i_new_l_orderkey ON new_lineitem (l_orderkey);

ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE orders ADD PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
CREATE INDEX i_n_regionkey ON nation (n_regionkey);
CREATE INDEX i_s_nationkey ON supplier (s_nationkey);
CREATE INDEX i_c_nationkey ON customer (c_nationkey);
CREATE INDEX i_ps_suppkey ON partsupp (ps_suppkey);
CREATE INDEX i_o_custkey ON orders (o_custkey);
CREATE INDEX i_o_orderdate ON orders (o_orderdate);
CREATE INDEX i_l_partkey_suppkey ON lineitem (l_partkey, l_suppkey);
CREATE INDEX i_l_shipdate ON lineitem (l_shipdate);
VACUUM ANALYZE;
