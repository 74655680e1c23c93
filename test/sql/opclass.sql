-- shardid: operators, operator classes, and index use by time range
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';

-- every operator class validates
SELECT a.amname, c.opcname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE c.opcintype = 'shardid'::regtype ORDER BY 1, 2;

-- comparison is unsigned: 2^63 sorts after 2^63-1
SELECT '9223372036854775808'::shardid > '9223372036854775807'::shardid AS gt,
       '18446744073709551615'::shardid < '1'::shardid AS lt,
       '5'::shardid = '5'::shardid AS eq, '5'::shardid <> '6'::shardid AS ne,
       '5'::shardid <= '5'::shardid AS le, '6'::shardid >= '5'::shardid AS ge;

CREATE TABLE ids (id shardid PRIMARY KEY);
INSERT INTO ids VALUES ('0'), ('1'), ('9223372036854775807'), ('9223372036854775808'),
    ('18446744073709551615'), ('11637205501278089');
SELECT id FROM ids ORDER BY id;
SELECT id FROM ids ORDER BY id DESC LIMIT 2;
-- min and max follow the same unsigned order, through the index
SELECT min(id), max(id) FROM ids;

-- comparison with timestamptz: against the smallest ID at or after the time
SELECT make_shardid('2020-01-01 00:00:00+00', 0, 0) >= '2020-01-01 00:00:00+00'::timestamptz AS first_in,
       make_shardid('2019-12-31 23:59:59.999+00', 8191, 1023) < '2020-01-01'::timestamptz AS last_before,
       make_shardid('2020-01-01 00:00:00+00', 0, 0) = '2020-01-01'::timestamptz AS eq_bound,
       make_shardid('2020-01-01 00:00:00.001+00', 0, 0) = '2020-01-01 00:00:00.0005+00'::timestamptz AS rounds_up,
       make_shardid('2020-01-01 00:00:00.000+00', 8191, 1023) < '2020-01-01 00:00:00.0005+00'::timestamptz AS before_part_ms,
       '-infinity'::timestamptz < '0'::shardid AS minus_inf, 'infinity'::timestamptz > '18446744073709551615'::shardid AS plus_inf,
       '1900-01-01'::timestamptz <= '0'::shardid AS before_epoch;

-- Times inside one millisecond stand for one ID, so the btree family has no
-- operator between two times (core's would call them unequal, and btree
-- would drop rows): amvalidate reports that gap above.  It orders two times
-- by the IDs they stand for instead.
SELECT p.amproclefttype::regtype AS lefttype, p.amprocrighttype::regtype AS righttype, p.amproc
FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
WHERE f.opfname = 'shardid_ops' AND f.opfmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')
  AND p.amprocnum = 1 ORDER BY 1, 2;
SELECT count(*) AS operators_between_times
FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily
WHERE f.opfname = 'shardid_ops' AND o.amoplefttype = 'timestamptz'::regtype AND o.amoprighttype = 'timestamptz'::regtype;
SELECT tstz_cmp_as_shardid('2020-01-01 00:00:00.0004+00', '2020-01-01 00:00:00.001+00') AS same_ms,
       tstz_cmp_as_shardid('2020-01-01 00:00:00.001+00', '2020-01-01 00:00:00.0011+00') AS next_ms,
       tstz_cmp_as_shardid('1900-01-01', '2011-08-24 21:07:01.721+00') AS before_epoch,
       tstz_cmp_as_shardid('2090-01-01', 'infinity') AS after_range,
       tstz_cmp_as_shardid('-infinity', '1900-01-01') AS minus_inf;

-- two times of one millisecond find its first ID under every plan
CREATE TABLE tt (id shardid PRIMARY KEY);
INSERT INTO tt VALUES (make_shardid('2026-01-01 00:00:00.001+00', 0, 0));
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT * FROM tt WHERE id = '2026-01-01 00:00:00.0004+00'::timestamptz
                   AND id = '2026-01-01 00:00:00.0009+00'::timestamptz;
SELECT * FROM tt WHERE id = '2026-01-01 00:00:00.0004+00'::timestamptz
                   AND id >= '2026-01-01 00:00:00.0009+00'::timestamptz;
-- an array of such times finds the row once, not once per time
EXPLAIN (COSTS OFF) SELECT * FROM tt
WHERE id = ANY (ARRAY['2026-01-01 00:00:00.0004+00', '2026-01-01 00:00:00.0009+00']::timestamptz[]);
SELECT * FROM tt
WHERE id = ANY (ARRAY['2026-01-01 00:00:00.0004+00', '2026-01-01 00:00:00.0009+00']::timestamptz[]);
-- the one unsupported form: an inequality against an array of times through
-- the btree index (README, "Finding rows by time")
DO $$
BEGIN
    PERFORM * FROM tt WHERE id < ANY (ARRAY['2026-01-01 00:00:00.0004+00'::timestamptz]);
    RAISE NOTICE 'no error';
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'error %: %', SQLSTATE, regexp_replace(SQLERRM, '[0-9]+', 'N', 'g');
END $$;
-- and as a sequential scan
RESET enable_seqscan;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tt WHERE id = '2026-01-01 00:00:00.0004+00'::timestamptz;
SELECT * FROM tt WHERE id = '2026-01-01 00:00:00.0004+00'::timestamptz
                   AND id = '2026-01-01 00:00:00.0009+00'::timestamptz;
SELECT * FROM tt WHERE id < ANY (ARRAY['2026-01-01 00:00:00.0009+00'::timestamptz]);
RESET enable_bitmapscan;
RESET enable_indexscan;
DROP TABLE tt;

-- a month of IDs, one per hour and shard; half-open ranges find exactly the month
CREATE TABLE events (id shardid PRIMARY KEY, shard int);
INSERT INTO events
SELECT make_shardid(t, s, 0), s
FROM generate_series('2025-12-30'::timestamptz, '2026-02-02', '1 hour') AS t, generate_series(0, 3) AS s;
ANALYZE events;
SELECT count(*), min(id_time(id)), max(id_time(id))
FROM events WHERE id >= '2026-01-01'::timestamptz AND id < '2026-02-01'::timestamptz;
SELECT count(*) FROM events WHERE id_time(id) >= '2026-01-01' AND id_time(id) < '2026-02-01';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF)
SELECT * FROM events WHERE id >= '2026-01-01'::timestamptz AND id < '2026-02-01'::timestamptz;
-- a literal compared with the ID is taken as a timestamptz when written as one
EXPLAIN (COSTS OFF)
SELECT * FROM events WHERE id >= '2026-01-01 00:00+00'::timestamptz AND '2026-02-01'::timestamptz > id;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- hash index and hash joins
CREATE INDEX events_hash ON events USING hash (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id = '11637205501278089';
RESET enable_seqscan;
SELECT count(*) FROM events a JOIN events b USING (id);
SELECT shardid_hash('5') = shardid_hash('5') AS same,
       shardid_hash_extended('5', 0) <> shardid_hash_extended('5', 1) AS seeded;

-- BRIN minmax, by ID and by time
CREATE INDEX events_brin ON events USING brin (id);
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= '2026-01-01'::timestamptz;
SELECT count(*) FROM events WHERE id >= '2026-01-31'::timestamptz;
RESET enable_seqscan;
RESET enable_indexscan;

-- deduplication is allowed (btequalimage)
SELECT opcname, amproc::regproc FROM pg_amproc p JOIN pg_opclass c ON c.opcfamily = p.amprocfamily
WHERE c.opcname = 'shardid_ops' AND p.amprocnum = 4 AND c.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree');

-- sorting many values agrees with unsigned order (checked through numeric)
CREATE FUNCTION pg_temp.u(shardid) RETURNS numeric LANGUAGE sql IMMUTABLE
    AS $$ SELECT $1::bigint::numeric + CASE WHEN $1::bigint < 0 THEN 18446744073709551616 ELSE 0 END $$;
SELECT count(*) AS ids, count(*) FILTER (WHERE pg_temp.u(prev) >= pg_temp.u(id)) AS out_of_order
FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev
      FROM (SELECT (x * 7919 * 1000003)::shardid AS id FROM generate_series(-50000::bigint, 50000) x) s) q;
