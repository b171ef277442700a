-- SPDX-License-Identifier: MIT
-- The tables and the deterministic data generator functions: every value
-- is a function of the row key through hashint8(), so the same scale factor
-- always gives the same data (on the same PostgreSQL major version).
-- Run after quiet.sql in one psql session; one statement per transaction.
-- Parameters: {{nsupp}}, {{ncust}}, {{npart}} (row counts of the scale factor)
-- and {{sf}} (the scale factor, a float literal).

-- h(k, salt, m): a deterministic pseudo-random integer in [0, m)
CREATE FUNCTION h(k bigint, salt int, m int) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (abs(hashint8(k * 1000003 + salt)::bigint) % m)::int $$;

CREATE FUNCTION pick(arr text[], k bigint, salt int) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT arr[1 + h(k, salt, array_length(arr, 1))] $$;

CREATE FUNCTION words(k bigint, salt int, n int) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT string_agg(pick(ARRAY['furiously','quickly','carefully','blithely',
  'slyly','ironic','final','regular','express','pending','bold','even','silent',
  'unusual','fluffy','daring','deposits','packages','accounts','theodolites',
  'pinto','beans','foxes','ideas','instructions','dependencies','platelets',
  'asymptotes','courts','dolphins','requests','sleep','wake','haggle','nag',
  'use','boost','affix','detect','integrate','cajole','among','above','along'],
  k * 64 + i, salt), ' ') FROM generate_series(1, n) AS i $$;

CREATE FUNCTION retailprice(p bigint) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ((90000 + ((p / 10) % 20001) + 100 * (p % 1000)) / 100.0)::numeric(15,2) $$;

-- the i-th (0..3) supplier of part p: always a partsupp row
CREATE FUNCTION suppof(p bigint, i int) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (((p - 1) + i * ({{nsupp}} / 4)) % {{nsupp}} + 1)::int $$;

CREATE TABLE region (r_regionkey int NOT NULL, r_name char(25) NOT NULL,
  r_comment varchar(152));
CREATE TABLE nation (n_nationkey int NOT NULL, n_name char(25) NOT NULL,
  n_regionkey int NOT NULL, n_comment varchar(152));
CREATE TABLE supplier (s_suppkey int NOT NULL, s_name char(25) NOT NULL,
  s_address varchar(40) NOT NULL, s_nationkey int NOT NULL,
  s_phone char(15) NOT NULL, s_acctbal numeric(15,2) NOT NULL,
  s_comment varchar(101) NOT NULL);
CREATE TABLE customer (c_custkey int NOT NULL, c_name varchar(25) NOT NULL,
  c_address varchar(40) NOT NULL, c_nationkey int NOT NULL,
  c_phone char(15) NOT NULL, c_acctbal numeric(15,2) NOT NULL,
  c_mktsegment char(10) NOT NULL, c_comment varchar(117) NOT NULL);
CREATE TABLE part (p_partkey int NOT NULL, p_name varchar(55) NOT NULL,
  p_mfgr char(25) NOT NULL, p_brand char(10) NOT NULL,
  p_type varchar(25) NOT NULL, p_size int NOT NULL,
  p_container char(10) NOT NULL, p_retailprice numeric(15,2) NOT NULL,
  p_comment varchar(23) NOT NULL);
CREATE TABLE partsupp (ps_partkey int NOT NULL, ps_suppkey int NOT NULL,
  ps_availqty int NOT NULL, ps_supplycost numeric(15,2) NOT NULL,
  ps_comment varchar(199) NOT NULL);
CREATE TABLE orders (o_orderkey bigint NOT NULL, o_custkey int NOT NULL,
  o_orderstatus char(1) NOT NULL, o_totalprice numeric(15,2) NOT NULL,
  o_orderdate date NOT NULL, o_orderpriority char(15) NOT NULL,
  o_clerk char(15) NOT NULL, o_shippriority int NOT NULL,
  o_comment varchar(79) NOT NULL);
CREATE TABLE lineitem (l_orderkey bigint NOT NULL, l_partkey int NOT NULL,
  l_suppkey int NOT NULL, l_linenumber int NOT NULL,
  l_quantity numeric(15,2) NOT NULL, l_extendedprice numeric(15,2) NOT NULL,
  l_discount numeric(15,2) NOT NULL, l_tax numeric(15,2) NOT NULL,
  l_returnflag char(1) NOT NULL, l_linestatus char(1) NOT NULL,
  l_shipdate date NOT NULL, l_commitdate date NOT NULL,
  l_receiptdate date NOT NULL, l_shipinstruct char(25) NOT NULL,
  l_shipmode char(10) NOT NULL, l_comment varchar(44) NOT NULL);

-- orders lo..hi
CREATE FUNCTION gen_orders(lo bigint, hi bigint) RETURNS SETOF orders
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT k,
  (CASE WHEN c % 3 = 0 THEN c % {{ncust}} + 1 ELSE c END)::int,
  (CASE WHEN d + 121 < date '1995-06-17' THEN 'F'
        WHEN d > date '1995-06-17' THEN 'O' ELSE 'P' END),
  (1000 + h(k, 4, 40000000) / 100.0)::numeric(15,2),
  d,
  pick(ARRAY['1-URGENT','2-HIGH','3-MEDIUM','4-NOT SPECIFIED','5-LOW'], k, 5),
  'Clerk#' || lpad((1 + h(k, 6, greatest(1, ({{sf}} * 1000)::int)))::text, 9, '0'),
  0,
  CASE WHEN h(k, 7, 100) < 2 THEN words(k, 8, 2) || ' special ' || words(k, 9, 1)
       || ' requests ' || words(k, 10, 2)
       ELSE words(k, 8, 6) END
FROM generate_series(lo, hi) AS k,
     LATERAL (SELECT 1 + h(k, 2, {{ncust}}) AS c,
                     date '1992-01-01' + h(k, 3, 2406 - 151) AS d) AS x
$$;

-- the line items of orders lo..hi (1 to 7 per order)
CREATE FUNCTION gen_lineitem(lo bigint, hi bigint) RETURNS SETOF lineitem
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT k, p, suppof(p, h(lk, 13, 4)), ln,
  q, (q * retailprice(p))::numeric(15,2),
  (h(lk, 14, 11) / 100.0)::numeric(15,2), (h(lk, 15, 9) / 100.0)::numeric(15,2),
  CASE WHEN rd <= date '1995-06-17'
       THEN (CASE WHEN h(lk, 16, 2) = 0 THEN 'R' ELSE 'A' END) ELSE 'N' END,
  CASE WHEN sd > date '1995-06-17' THEN 'O' ELSE 'F' END,
  sd, od + 30 + h(lk, 17, 61), rd,
  pick(ARRAY['DELIVER IN PERSON','COLLECT COD','NONE','TAKE BACK RETURN'], lk, 18),
  pick(ARRAY['REG AIR','AIR','RAIL','SHIP','TRUCK','MAIL','FOB'], lk, 19),
  words(lk, 20, 3)
FROM generate_series(lo, hi) AS k,
     LATERAL (SELECT date '1992-01-01' + h(k, 3, 2406 - 151) AS od) AS o,
     LATERAL generate_series(1, 1 + h(k, 1, 7)) AS ln,
     LATERAL (SELECT k * 8 + ln AS lk) AS l,
     LATERAL (SELECT 1 + h(lk, 11, {{npart}}) AS p,
                     (1 + h(lk, 12, 50))::numeric AS q,
                     od + 1 + h(lk, 21, 121) AS sd) AS a,
     LATERAL (SELECT sd + 1 + h(lk, 22, 30) AS rd) AS b
$$;
