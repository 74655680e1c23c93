-- ulid, ksuid and rsxid: input errors, constructors' range checks, casts,
-- the timestamptz operators as index conditions, and the generators' order
-- within one session (typeid: test/pgtap/typeid_vectors.sql; the published
-- examples: test/pgtap/peer_vectors.sql)
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- every operator class of the new types validates, but for the btree
-- families with timestamptz members, which on purpose have no operators
-- between two times (as shardid's, test/sql/opclass.sql)
SELECT a.amname, c.opcname, amvalidate(c.oid)
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE c.opcintype IN ('ulid'::regtype, 'ksuid'::regtype, 'rsxid'::regtype, 'typeid'::regtype) ORDER BY 1, 2;

-- text input: the exact form, or 22P02 (22003 past the largest value)
SELECT t AS type, v AS input, pg_temp.try(format('SELECT %L::%s', v, t)) AS result
FROM (VALUES ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', '01arz3ndektsv4rrffq69g5fav'),
             ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAVV'),
             ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAU'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAI'),
             ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAL'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAO'),
             ('ulid', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('ulid', '80000000000000000000000000'),
             ('ulid', ''), ('ulid', ' 01ARZ3NDEKTSV4RRFFQ69G5FA'), ('ulid', '2026-01-01'),
             ('ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLOv'), ('ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLO'),
             ('ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLOv0'), ('ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLO-'),
             ('ksuid', 'aWgEPTl1tmebfsQzFP4bxwgy80V'), ('ksuid', 'aWgEPTl1tmebfsQzFP4bxwgy80W'),
             ('ksuid', 'zzzzzzzzzzzzzzzzzzzzzzzzzzz'), ('ksuid', ''),
             ('rsxid', '9m4e2mr0ui3e8a215n4g'), ('rsxid', '9M4E2MR0UI3E8A215N4G'),
             ('rsxid', '9m4e2mr0ui3e8a215n4h'), ('rsxid', '9m4e2mr0ui3e8a215n4w'),
             ('rsxid', '9m4e2mr0ui3e8a215n4'), ('rsxid', '9m4e2mr0ui3e8a215n4g0'), ('rsxid', '')) AS x(t, v);
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT '80000000000000000000000000'::ulid;
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80W'::ksuid;
SELECT '9m4e2mr0ui3e8a215n4h'::rsxid;
-- an untyped time literal next to an ID is read as one: the hint says so
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid < '2026-01-01';

-- constructors check every argument
SELECT make_ulid('2016-07-30 23:54:10.259+00', '\x6764c61efb99302bd5'::bytea);
SELECT make_ulid('2016-07-30 23:54:10.259+00', '\xd6764c61efb99302bd5b'::bytea) AS spec_example,
       make_ksuid('2017-10-10 04:00:47+00', '\xb5a1cd34b5f99d1154fb6853345c9735') AS readme_example,
       make_rsxid('2011-03-22 17:50:19+00', 6354054, 58408, 4271561) AS rs_xid_example;
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ($$SELECT make_ulid('1969-12-31 23:59:59.999+00', '\x00000000000000000000')$$),
             ($$SELECT make_ulid('infinity', '\x00000000000000000000')$$),
             ($$SELECT make_ulid(now(), '\x00')$$),
             ($$SELECT make_ksuid('2014-05-13 16:53:19+00', '\x00000000000000000000000000000000')$$),
             ($$SELECT make_ksuid('2150-06-19 23:21:36+00', '\x00000000000000000000000000000000')$$),
             ($$SELECT make_ksuid(now(), '\x0000')$$),
             ($$SELECT make_rsxid(now(), 16777216, 0, 0)$$), ($$SELECT make_rsxid(now(), 0, 65536, 0)$$),
             ($$SELECT make_rsxid(now(), 0, 0, -1)$$), ($$SELECT make_rsxid('2106-02-07 06:28:16+00', 0, 0, 0)$$)) AS t(q);
SELECT make_ksuid('2014-05-13 16:53:19+00', '\x00000000000000000000000000000000');

-- casts: bytea both ways (length-checked), ulid <-> uuid, each to timestamptz;
-- none implicit
SELECT '\x0102'::bytea::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid, '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid,
       '0ujtsYcgvSTl8PAuAdqWYSMnLOv'::ksuid::timestamptz, '9m4e2mr0ui3e8a215n4g'::rsxid::timestamptz;
SELECT castsource::regtype, casttarget::regtype, castcontext FROM pg_cast
WHERE castsource IN ('ulid'::regtype, 'ksuid'::regtype, 'rsxid'::regtype)
   OR casttarget IN ('ulid'::regtype, 'ksuid'::regtype, 'rsxid'::regtype)
ORDER BY castsource::regtype::text, casttarget::regtype::text;

-- a range of times is an index range scan on the ID
CREATE TABLE pf (u ulid PRIMARY KEY, k ksuid UNIQUE, x rsxid UNIQUE);
INSERT INTO pf SELECT make_ulid(t, substr(decode(md5(i::text), 'hex'), 1, 10)),
                      make_ksuid(t, decode(md5(i::text), 'hex')),
                      make_rsxid(t, 1, 2, i)
FROM generate_series(1, 2000) AS i, LATERAL (SELECT timestamptz '2026-01-01' + i * interval '1 minute' AS t) AS s;
ANALYZE pf;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pf WHERE u >= timestamptz '2026-01-01 10:00' AND u < timestamptz '2026-01-01 11:00';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pf WHERE k >= timestamptz '2026-01-01 10:00';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pf WHERE x < timestamptz '2026-01-01 10:00';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT count(*) FILTER (WHERE u >= timestamptz '2026-01-01 10:00' AND u < timestamptz '2026-01-01 11:00') AS u_hour,
       count(*) FILTER (WHERE k >= timestamptz '2026-01-01 10:00' AND k < timestamptz '2026-01-01 11:00') AS k_hour,
       count(*) FILTER (WHERE x >= timestamptz '2026-01-01 10:00' AND x < timestamptz '2026-01-01 11:00') AS x_hour,
       count(*) FILTER (WHERE id_time(u) >= '2026-01-01 10:00' AND id_time(u) < '2026-01-01 11:00') AS by_time
FROM pf;
SELECT min(u) = (SELECT u FROM pf ORDER BY u LIMIT 1) AS min_ok, max(k) = (SELECT k FROM pf ORDER BY k DESC LIMIT 1) AS max_ok
FROM pf;
DROP TABLE pf;

-- the generators: strictly increasing in one session, time near the clock,
-- the machine field from uniqueid.node
SELECT bool_and(a < b) AS ulid_increasing FROM (SELECT u AS a, lead(u) OVER (ORDER BY i) AS b
    FROM (SELECT i, next_ulid() AS u FROM generate_series(1, 10000) AS i) AS s) AS p WHERE b IS NOT NULL;
SELECT bool_and(a < b) AS ksuid_increasing FROM (SELECT u AS a, lead(u) OVER (ORDER BY i) AS b
    FROM (SELECT i, next_ksuid() AS u FROM generate_series(1, 10000) AS i) AS s) AS p WHERE b IS NOT NULL;
SELECT bool_and(a < b) AS rsxid_increasing FROM (SELECT u AS a, lead(u) OVER (ORDER BY i) AS b
    FROM (SELECT i, next_rsxid() AS u FROM generate_series(1, 10000) AS i) AS s) AS p WHERE b IS NOT NULL;
SELECT abs(extract(epoch FROM id_time(next_ulid()) - clock_timestamp())) < 5 AS ulid_now,
       abs(extract(epoch FROM id_time(next_ksuid()) - clock_timestamp())) < 5 AS ksuid_now,
       abs(extract(epoch FROM id_time(next_rsxid()) - clock_timestamp())) < 5 AS rsxid_now,
       id_machine(next_rsxid()) = current_setting('uniqueid.node')::int AS rsxid_machine_is_node,
       id_process(next_rsxid()) = (SELECT system_identifier & 65535 FROM pg_control_system()) AS rsxid_process;

-- 20,000 generated values of each: text round trips, and a binary COPY
-- round trip (psql writes and reads the file); typeid's binary form
CREATE TABLE gen AS SELECT i, next_ulid() AS u, next_ksuid() AS k, next_rsxid() AS x, next_typeid('user') AS t
FROM generate_series(1, 20000) AS i;
SELECT count(*) FILTER (WHERE u::text::ulid <> u) AS ulid_text, count(*) FILTER (WHERE k::text::ksuid <> k) AS ksuid_text,
       count(*) FILTER (WHERE x::text::rsxid <> x) AS rsxid_text, count(*) FILTER (WHERE t::text::typeid <> t) AS typeid_text
FROM gen;
CREATE TABLE gen_back (LIKE gen);
\copy gen TO 'results/peer_families.bin' WITH (FORMAT binary)
\copy gen_back FROM 'results/peer_families.bin' WITH (FORMAT binary)
SELECT count(*) AS rows_back, count(*) FILTER (WHERE g.u = b.u AND g.k = b.k AND g.x = b.x AND g.t = b.t) AS same
FROM gen AS g JOIN gen_back AS b USING (i);
SELECT typeid_send('user_01h5fskfsk4fpeqwnsyz5hj55t') AS typeid_binary;
DROP TABLE gen, gen_back;
