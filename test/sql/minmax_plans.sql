-- min() and max() of an ID column are answered from its btree index.  The
-- plan's InitPlan lines differ between versions: minmax_plans.out is 15's
-- (and 16's), minmax_plans_1.out 17's and 18's.
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
CREATE TABLE mm_shardid (id shardid PRIMARY KEY);
INSERT INTO mm_shardid VALUES ('0'), ('9223372036854775807'), ('9223372036854775808'), ('18446744073709551615');
CREATE TABLE mm_objectid (id objectid PRIMARY KEY);
INSERT INTO mm_objectid
SELECT make_objectid('2026-01-01'::timestamptz + n * interval '1 s', n, n) FROM generate_series(1, 100) n;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT max(id) FROM mm_shardid;
EXPLAIN (COSTS OFF) SELECT min(id) FROM mm_objectid;
-- and they are the ends of the type's order
SELECT max(id) AS max_shardid FROM mm_shardid;
SELECT min(id) AS min_objectid, id_time(min(id)) FROM mm_objectid;
RESET enable_seqscan;
DROP TABLE mm_shardid, mm_objectid;
