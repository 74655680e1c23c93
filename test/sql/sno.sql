-- sno: text and binary I/O, fields, constructor, casts, operator classes,
-- generator errors
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- the published example and both ends
SELECT s, s::sno::text = s AS round_trip, id_time(s::sno), id_meta(s::sno), id_partition(s::sno),
       id_seq(s::sno), id_tick(s::sno), s::sno::bytea
FROM (VALUES ('2222222222222222'), ('brpk4q72xwf2m63l'), ('xxxxxxxxxxxxxxxx')) AS t(s);

-- strict input: 16 characters of the alphabet, lowercase only
SELECT v AS input, pg_temp.try(format('SELECT %L::sno', v)) AS result
FROM (VALUES (''), ('123'), ('brpk4q72xwf2m63'), ('brpk4q72xwf2m63ll'), ('BRPK4Q72XWF2M63L'),
             ('brpk4q72xwf2m63!'), ('yyyyyyyyyyyyyyyy'), ('0000000000000000'), ('1111111111111111'),
             (' brpk4q72xwf2m63'), ('brpk4q72xwf2m63l')) AS t(v);
SELECT 'BRPK4Q72XWF2M63L'::sno;

-- the constructor truncates to 4 ms and checks every field
SELECT make_sno('2021-06-15 12:34:56.789+00', 255, 65535, 65520) AS truncated,
       id_time(make_sno('2021-06-15 12:34:56.789+00', 255, 65535, 65520)) AS time,
       make_sno('2010-01-01 00:00:00+00', 0, 0, 0, 1) AS with_tick;
SELECT make_sno(now(), 256, 0, 0);
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ('SELECT make_sno(now(), -1, 0, 0)'), ('SELECT make_sno(now(), 0, 65536, 0)'),
             ('SELECT make_sno(now(), 0, 0, 65536)'), ('SELECT make_sno(now(), 0, 0, 0, 2)'),
             ($$SELECT make_sno('2079-09-07 15:47:35.548+00', 0, 0, 0)$$),
             ($$SELECT make_sno('2079-09-07 15:47:35.552+00', 0, 0, 0)$$),
             ($$SELECT make_sno('2009-12-31 23:59:59.996+00', 0, 1, 0)$$),
             ($$SELECT make_sno('infinity', 0, 0, 0)$$)) AS t(q);
SELECT make_sno('2079-09-07 15:47:35.552+00', 0, 0, 0);

-- bytea casts are explicit and length-checked
SELECT '\x4e6f2160a0ff9a0a1033'::bytea::sno;
SELECT '\x4e6f2160a0ff9a0a10'::bytea::sno;
\echo :LAST_ERROR_SQLSTATE
SELECT '\x4e6f2160a0ff9a0a103300'::bytea::sno;
SELECT castsource::regtype, casttarget::regtype, castcontext FROM pg_cast
WHERE castsource = 'sno'::regtype OR casttarget = 'sno'::regtype ORDER BY castsource::regtype::text, casttarget::regtype::text;

-- binary send is the 10 bytes
SELECT sno_send('brpk4q72xwf2m63l');

-- operator classes
SELECT a.amname, c.opcname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE c.opcintype = 'sno'::regtype ORDER BY 1, 2;

-- byte order: time first, then tick, meta, partition, seq
SELECT s FROM (VALUES (make_sno('2020-01-01', 0, 0, 1)), (make_sno('2020-01-01', 0, 0, 0, 1)),
                      (make_sno('2020-01-01', 1, 0, 0)), (make_sno('2020-01-01', 0, 1, 0)),
                      (make_sno('2019-12-31', 255, 65535, 65535, 1)), (make_sno('2020-01-01', 0, 0, 0))) AS t(s)
ORDER BY s;

-- time ranges through the primary key
CREATE TABLE sno_events (id sno PRIMARY KEY);
INSERT INTO sno_events
SELECT make_sno(t, 0, p, 0) FROM generate_series('2025-12-30'::timestamptz, '2026-02-02', '1 hour') AS t,
    generate_series(0, 3) AS p;
ANALYZE sno_events;
SELECT count(*) FROM sno_events WHERE id >= timestamptz '2026-01-01' AND id < timestamptz '2026-02-01';
SELECT min(id), max(id), id_time(min(id)), id_time(max(id)) FROM sno_events;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM sno_events WHERE id >= timestamptz '2026-01-01' AND id < timestamptz '2026-02-01';
RESET enable_bitmapscan;
SET enable_indexscan = off;
CREATE INDEX sno_events_brin ON sno_events USING brin (id);
ALTER TABLE sno_events DROP CONSTRAINT sno_events_pkey;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sno_events WHERE id >= timestamptz '2026-01-31';
SELECT count(*) FROM sno_events WHERE id >= timestamptz '2026-01-31';
RESET enable_seqscan;
RESET enable_indexscan;
CREATE INDEX sno_events_hash ON sno_events USING hash (id);
SELECT count(*) FROM sno_events a JOIN sno_events b USING (id);

-- the generator
SELECT id_partition(next_sno()) AS partition, id_meta(next_sno(7)) AS meta,
       id_time(next_sno()) BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '1 second' AS recent;
SELECT next_sno(256);
\echo :LAST_ERROR_SQLSTATE
SELECT next_sno(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT proname, provolatile, proparallel FROM pg_proc
WHERE proname IN ('next_sno', 'make_sno')
   OR (proname IN ('id_time', 'id_tick', 'id_meta', 'id_partition', 'id_seq') AND proargtypes[0] = 'sno'::regtype)
ORDER BY 1;
