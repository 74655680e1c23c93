-- objectid: text and binary I/O, fields, constructor, casts, operator classes,
-- generator behaviour
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- vectors of test/vectors/objectid_vectors.tsv: MongoDB's manual example, the
-- BSON corpus, and the seconds past 2^31 that must not go negative
SELECT s, s::objectid::text = s AS round_trip, id_time(s::objectid), id_random(s::objectid),
       id_counter(s::objectid), s::objectid::bytea
FROM (VALUES ('507c7f79bcf86cd7994f6c0e'), ('56e1fc72e0c917e9c4714161'), ('000000000000000000000000'),
             ('7fffffff0000000000000000'), ('800000000000000000000000'),
             ('ffffffffffffffffffffffff')) AS t(s);
SELECT id_time('507c7f79bcf86cd7994f6c0e'::objectid) = to_timestamp(1350336377) AS manual_time,
       id_random('507c7f79bcf86cd7994f6c0e'::objectid) = x'bcf86cd799'::bigint AS manual_random,
       extract(epoch FROM id_time('ffffffffffffffffffffffff'::objectid)) AS all_ones_seconds;

-- input: 24 hex digits in either case; output lowercase; anything else 22P02
SELECT v AS input, pg_temp.try(format('SELECT %L::objectid', v)) AS result
FROM (VALUES (''), ('507c7f79bcf86cd7994f6c0'), ('507c7f79bcf86cd7994f6c0e0'),
             ('507c7f79bcf86cd7994f6c0g'), (' 507c7f79bcf86cd7994f6c0'), ('507c7f79bcf86cd7994f6c0e '),
             ('507c7f79 bcf86cd7994f6c0'), ('0x507c7f79bcf86cd7994f6c'), ('+07c7f79bcf86cd7994f6c0e'),
             ('507c7f79-bcf86cd7994f6c0'), ('507C7F79BCF86CD7994F6C0E'),
             ('507c7f79bcf86cd7994f6c0e')) AS t(v);
SELECT '507C7F79BCF86CD7994F6C0E'::objectid AS uppercase_in, 'aBcDeF0123456789AbCdEf01'::objectid AS mixed_case_in;
SELECT '507c7f79bcf86cd7994f6c0g'::objectid;
-- an untyped time literal next to an objectid is read as an objectid: the hint says so
SELECT '507c7f79bcf86cd7994f6c0e'::objectid < '2026-01-01';

-- the constructor truncates to the second and checks every field
SELECT make_objectid('2012-10-15 21:26:17.999+00', x'bcf86cd799'::bigint, 5205006) AS manual,
       id_time(make_objectid('2021-06-15 12:34:56.789+00', 0, 0)) AS truncated,
       make_objectid('1970-01-01 00:00:00+00', 0, 0) AS first,
       make_objectid('2106-02-07 06:28:15.999999+00', 1099511627775, 16777215) AS last;
SELECT make_objectid(now(), 1099511627776, 0);
SELECT make_objectid(now(), 0, 16777216);
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ('SELECT make_objectid(now(), -1, 0)'), ('SELECT make_objectid(now(), 1099511627776, 0)'),
             ('SELECT make_objectid(now(), 0, -1)'), ('SELECT make_objectid(now(), 0, 16777216)'),
             ($$SELECT make_objectid('2106-02-07 06:28:15+00', 0, 0)$$),
             ($$SELECT make_objectid('2106-02-07 06:28:16+00', 0, 0)$$),
             ($$SELECT make_objectid('1969-12-31 23:59:59.999999+00', 0, 0)$$),
             ($$SELECT make_objectid('infinity', 0, 0)$$),
             ($$SELECT make_objectid('-infinity', 0, 0)$$)) AS t(q);
SELECT make_objectid('2106-02-07 06:28:16+00', 0, 0);

-- bytea casts are explicit and length-checked
SELECT '\x507c7f79bcf86cd7994f6c0e'::bytea::objectid;
SELECT '\x507c7f79bcf86cd7994f6c'::bytea::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x507c7f79bcf86cd7994f6c0e00'::bytea::objectid;
\echo :LAST_ERROR_SQLSTATE
SELECT ''::bytea::objectid;
SELECT castsource::regtype, casttarget::regtype, castcontext FROM pg_cast
WHERE castsource = 'objectid'::regtype OR casttarget = 'objectid'::regtype ORDER BY castsource::regtype::text, casttarget::regtype::text;
SELECT '507c7f79bcf86cd7994f6c0e'::objectid::timestamptz AS cast_to_time;

-- binary send is the 12 bytes
SELECT objectid_send('507c7f79bcf86cd7994f6c0e');

-- operator classes
SELECT a.amname, c.opcname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE c.opcintype = 'objectid'::regtype ORDER BY 1, 2;

-- byte order: seconds (unsigned) first, then random, then counter
SELECT o FROM (VALUES ('800000000000000000000000'::objectid), ('7fffffffffffffffffffffff'),
                      ('507c7f79bcf86cd7994f6c0f'), ('507c7f79bcf86cd7994f6c0e'),
                      ('507c7f7a0000000000000000'), ('507c7f79bcf86cd7994f6c0e'),
                      ('ffffffff0000000000000000'), ('507c7f79bcf86cd7a0000000'),
                      ('000000000000000000000001')) AS t(o)
ORDER BY o;
SELECT '800000000000000000000000'::objectid > '7fffffffffffffffffffffff'::objectid AS gt,
       '507c7f79bcf86cd7994f6c0e'::objectid = '507C7F79BCF86CD7994F6C0E'::objectid AS eq,
       '507c7f79bcf86cd7994f6c0e'::objectid <> '507c7f79bcf86cd7994f6c0f'::objectid AS ne,
       '507c7f79bcf86cd7994f6c0e'::objectid <= '507c7f79bcf86cd7994f6c0e'::objectid AS le,
       '507c7f79bcf86cd7994f6c0e'::objectid < '507c7f79bcf86cd7994f6c0f'::objectid AS lt,
       '507c7f79bcf86cd7994f6c0f'::objectid >= '507c7f79bcf86cd7994f6c0e'::objectid AS ge;
-- sorting (abbreviated keys of the first 8 bytes, ties broken by the rest) agrees with text order
SELECT bool_and(a = b) AS sort_equals_text_order
FROM (SELECT row_number() OVER (ORDER BY o) AS r, o AS a FROM (
        SELECT make_objectid(timestamptz '2020-01-01' + (n % 7) * interval '1 s', (n * 7919) % 5, n % 11) AS o
        FROM generate_series(1, 5000) n) s) x
JOIN (SELECT row_number() OVER (ORDER BY o::text COLLATE "C") AS r, o AS b FROM (
        SELECT make_objectid(timestamptz '2020-01-01' + (n % 7) * interval '1 s', (n * 7919) % 5, n % 11) AS o
        FROM generate_series(1, 5000) n) s) y USING (r);

-- comparison with timestamptz: against the smallest objectid at or after the time
SELECT make_objectid('2020-01-01 00:00:00+00', 0, 0) >= timestamptz '2020-01-01 00:00:00+00' AS first_in,
       make_objectid('2019-12-31 23:59:59+00', 1099511627775, 16777215) < timestamptz '2020-01-01' AS last_before,
       make_objectid('2020-01-01 00:00:00+00', 0, 0) = timestamptz '2020-01-01' AS eq_bound,
       make_objectid('2020-01-01 00:00:00+00', 0, 1) > timestamptz '2020-01-01' AS gt_bound,
       -- a fractional second rounds up: the second that started before it is below
       make_objectid('2020-01-01 00:00:00+00', 5, 5) < timestamptz '2020-01-01 00:00:00.5' AS rounds_up,
       make_objectid('2020-01-01 00:00:01+00', 0, 0) = timestamptz '2020-01-01 00:00:00.5' AS eq_next_second,
       timestamptz '2020-01-01' <= make_objectid('2020-01-01 00:00:00+00', 0, 0) AS commuted,
       timestamptz '2020-01-01' <> make_objectid('2020-01-01 00:00:00+00', 0, 7) AS ne;
SELECT '000000000000000000000000'::objectid >= timestamptz '-infinity' AS above_minus_infinity,
       'ffffffffffffffffffffffff'::objectid < timestamptz 'infinity' AS below_infinity,
       '000000000000000000000000'::objectid = timestamptz '1960-01-01' AS before_1970_is_the_first,
       'ffffffffffffffffffffffff'::objectid < timestamptz '2106-02-07 06:28:16+00' AS after_the_last;

-- time ranges through the primary key
CREATE TABLE objectid_events (id objectid PRIMARY KEY);
INSERT INTO objectid_events
SELECT make_objectid(t, r, 0) FROM generate_series('2025-12-30'::timestamptz, '2026-02-02', '1 hour') AS t,
    generate_series(0, 3) AS r;
ANALYZE objectid_events;
SELECT count(*) FROM objectid_events WHERE id >= timestamptz '2026-01-01' AND id < timestamptz '2026-02-01';
SELECT min(id), max(id), id_time(min(id)), id_time(max(id)) FROM objectid_events;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM objectid_events WHERE id >= timestamptz '2026-01-01' AND id < timestamptz '2026-02-01';
RESET enable_bitmapscan;
SET enable_indexscan = off;
CREATE INDEX objectid_events_brin ON objectid_events USING brin (id);
ALTER TABLE objectid_events DROP CONSTRAINT objectid_events_pkey;
EXPLAIN (COSTS OFF) SELECT count(*) FROM objectid_events WHERE id >= timestamptz '2026-01-31';
SELECT count(*) FROM objectid_events WHERE id >= timestamptz '2026-01-31';
RESET enable_seqscan;
RESET enable_indexscan;
CREATE INDEX objectid_events_hash ON objectid_events USING hash (id);
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM objectid_events a JOIN objectid_events b USING (id);
SELECT count(*) FROM objectid_events a JOIN objectid_events b USING (id);
RESET enable_mergejoin;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM objectid_events WHERE id = make_objectid('2026-01-15 12:00+00', 3, 0);
SELECT id, id_time(id), id_random(id) FROM objectid_events WHERE id = make_objectid('2026-01-15 12:00+00', 3, 0);
RESET enable_seqscan;
RESET enable_bitmapscan;

-- the generator: one random part per server start, a counter that counts on
CREATE TEMP TABLE g AS
SELECT n, clock_timestamp() AS before, next_objectid() AS id, clock_timestamp() AS after
FROM generate_series(1, 10000) AS n;
SELECT count(DISTINCT id) AS distinct_ids, count(DISTINCT id_random(id)) AS random_parts,
       bool_and(id_random(id) BETWEEN 0 AND 1099511627775) AS random_in_range
FROM g;
SELECT bool_and(ok) AS strictly_increasing
FROM (SELECT id > lag(id) OVER (ORDER BY n) AS ok FROM g) s WHERE ok IS NOT NULL;
-- the counter steps by one (mod 2^24) from call to call, across seconds too,
-- unless a borrowed second restarted it at 0
SELECT bool_and(id_counter(id) = (lag + 1) % 16777216) AS counter_counts_on
FROM (SELECT id, lag(id_counter(id)) OVER (ORDER BY n) AS lag FROM g) s WHERE lag IS NOT NULL;
SELECT bool_and(id_time(id) >= date_trunc('second', before)
                AND id_time(id) <= after + current_setting('uniqueid.max_clock_lead')::interval) AS times_near_clock
FROM g;
-- as a column default
CREATE TABLE docs (id objectid PRIMARY KEY DEFAULT next_objectid(), body text);
INSERT INTO docs (body) SELECT 'd' || n FROM generate_series(1, 1000) n;
SELECT count(*), count(DISTINCT id), bool_and(id_random(id) = (SELECT id_random(id) FROM g LIMIT 1)) AS same_random
FROM docs;
-- (without shared_preload_libraries, 55000, and during recovery, 25006: t/052_no_generation.pl)
SELECT proname, provolatile, proparallel, proisstrict FROM pg_proc
WHERE proname IN ('next_objectid', 'make_objectid', 'objectid_in', 'objectid_cmp')
   OR (proname IN ('id_time', 'id_random', 'id_counter') AND proargtypes[0] = 'objectid'::regtype)
ORDER BY 1;
