-- uuid7: id_time(uuid) on RFC 9562's test vectors and at the ends of each
-- version's range, the error for every UUID that holds no time, and the
-- format of next_uuid7's values
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- RFC 9562's test vectors (appendix A.1, A.5, A.6): one instant,
-- 2022-02-22 19:22:22 UTC, in versions 1, 6 and 7, each with no fraction
SELECT u AS vector, id_time(u), id_time(u) = timestamptz '2022-02-22 19:22:22+00' AS exact,
       to_char(id_time(u), 'US') AS microseconds
FROM (VALUES ('C232AB00-9414-11EC-B3C8-9F6BDECED846'::uuid),
             ('1EC9414C-232A-6B00-B3C8-9F6BDECED846'::uuid),
             ('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid)) AS t(u);

-- v1 and v6 count 100 ns: truncated to the microsecond (7 -> 0 us, 15 -> 1 us,
-- 9999999 -> 999999 us); the variant bits 10 may be followed by anything
SELECT u, id_time(u)
FROM (VALUES ('C232AB07-9414-11EC-B3C8-9F6BDECED846'::uuid), ('1EC9414C-232A-6B07-B3C8-9F6BDECED846'::uuid),
             ('C232AB0F-9414-11EC-B3C8-9F6BDECED846'::uuid), ('1EC9414C-232A-6B0F-B3C8-9F6BDECED846'::uuid),
             ('C2CB417F-9414-11EC-8000-000000000000'::uuid), ('1EC9414C-2CB4-617F-BFFF-FFFFFFFFFFFF'::uuid)) AS t(u);

-- v7 holds milliseconds; its counter (rand_a) and random bits do not change the time
SELECT u, id_time(u)
FROM (VALUES ('017F22E2-79B0-7000-8000-000000000000'::uuid), ('017F22E2-79B0-7FFF-BFFF-FFFFFFFFFFFF'::uuid),
             ('017F22E2-79B1-7000-8000-000000000000'::uuid), ('017F22E2-7D97-7000-8000-000000000000'::uuid)) AS t(u);

-- the ends of each range: v1/v6 from 1582-10-15 over 2^60 x 100 ns,
-- v7 from 1970-01-01 over 2^48 ms
SELECT u, id_time(u)
FROM (VALUES ('00000000-0000-1000-8000-000000000000'::uuid), ('FFFFFFFF-FFFF-1FFF-BFFF-FFFFFFFFFFFF'::uuid),
             ('00000000-0000-6000-8000-000000000000'::uuid), ('FFFFFFFF-FFFF-6FFF-BFFF-FFFFFFFFFFFF'::uuid),
             ('00000000-0000-7000-8000-000000000000'::uuid), ('FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF'::uuid)) AS t(u);
-- 2024-07-01 12:34:56.7890123 UTC in v1 and v6, and its millisecond in v7
SELECT id_time('52F87CCB-37A6-11EF-8000-000000000000'::uuid) AS v1,
       id_time('1EF37A65-2F87-6CCB-8000-000000000000'::uuid) AS v6,
       id_time('01906E4A-8895-7000-8000-000000000000'::uuid) AS v7;

-- every other version, and the nil and max UUIDs, hold no time: 22023
SELECT u, pg_temp.try(format('SELECT id_time(%L::uuid)', u)) AS result
FROM (VALUES ('919108F7-52D1-4320-9BAC-F847DB4148A8'),   -- RFC 9562 A.3, version 4
             ('5DF41881-3AED-3515-88A7-2F4A814CF09E'),   -- A.2, version 3
             ('2ED6657D-E927-568B-95E1-2665A8AEA6A2'),   -- A.4, version 5
             ('2489E9AD-2EE2-8E00-8EC9-32D5F69181C0'),   -- A.6, version 8
             ('000003E8-9414-21EC-B3C8-9F6BDECED846'),   -- version 2 (DCE security)
             ('C232AB00-9414-01EC-B3C8-9F6BDECED846'),   -- version 0
             ('C232AB00-9414-91EC-B3C8-9F6BDECED846'),
             ('C232AB00-9414-F1EC-B3C8-9F6BDECED846'),
             ('00000000-0000-0000-0000-000000000000'),   -- nil
             ('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')    -- max
            ) AS t(u);
-- versions 1, 6, 7 of the other variants hold no time either: 22023 naming the variant
SELECT u, pg_temp.try(format('SELECT id_time(%L::uuid)', u)) AS result
FROM (VALUES ('C232AB00-9414-11EC-33C8-9F6BDECED846'),   -- NCS (0xxx)
             ('1EC9414C-232A-6B00-73C8-9F6BDECED846'),   -- NCS
             ('017F22E2-79B0-7CC3-D8C4-DC0C0C07398F'),   -- Microsoft (110x)
             ('017F22E2-79B0-7CC3-E8C4-DC0C0C07398F'),   -- reserved (111x)
             ('00000000-0000-0000-0000-000000000001'),   -- nearly nil: NCS
             ('FFFFFFFF-FFFF-7FFF-FFFF-FFFFFFFFFFFF')    -- nearly max: reserved
            ) AS t(u);
-- the whole report, once for a version and once for a variant
SELECT id_time('919108f7-52d1-4320-9bac-f847db4148a8'::uuid);
\echo :LAST_ERROR_SQLSTATE
SELECT id_time('017F22E2-79B0-7CC3-D8C4-DC0C0C07398F'::uuid);
\echo :LAST_ERROR_SQLSTATE
-- id_time is overloaded (shardid, sno, uuid): an untyped literal needs its type
SELECT id_time('017F22E2-79B0-7CC3-98C4-DC0C0C07398F');
-- gen_random_uuid() makes version 4
SELECT left(pg_temp.try('SELECT id_time(gen_random_uuid())'), 5) AS random_uuid;
SELECT id_time(NULL::uuid) IS NULL AS null_time;

-- next_uuid7: version 7, variant 10, time near the clock, strictly increasing
CREATE TEMP TABLE g AS
SELECT n, clock_timestamp() AS before, next_uuid7() AS u, clock_timestamp() AS after
FROM generate_series(1, 10000) AS n;
SELECT count(*) AS uuids, count(DISTINCT u) AS distinct_uuids,
       bool_and(substr(u::text, 15, 1) = '7') AS version_7,
       bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_10,
       bool_and(u::text ~ '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$') AS canonical
FROM g;
SELECT bool_and(ok) AS strictly_increasing
FROM (SELECT u > lag(u) OVER (ORDER BY n) AS ok FROM g) s WHERE ok IS NOT NULL;
SELECT bool_and(id_time(u) >= date_trunc('milliseconds', before)
                AND id_time(u) <= after + current_setting('uniqueid.max_clock_lead')::interval) AS times_near_clock
FROM g;

-- as a primary key default: insertion order is key order
CREATE TABLE uuid7_events (id uuid PRIMARY KEY DEFAULT next_uuid7(), n int);
INSERT INTO uuid7_events (n) SELECT n FROM generate_series(1, 1000) n;
SELECT count(DISTINCT id) AS ids,
       (SELECT array_agg(n ORDER BY id) FROM uuid7_events) = (SELECT array_agg(n ORDER BY n) FROM uuid7_events) AS key_order
FROM uuid7_events;
DROP TABLE uuid7_events;

-- the generator is volatile and parallel safe; id_time(uuid) immutable and strict
SELECT p.oid::regprocedure AS function, provolatile, proparallel, proisstrict, prorettype::regtype
FROM pg_proc p
WHERE p.oid IN ('next_uuid7()'::regprocedure, 'id_time(uuid)'::regprocedure)
ORDER BY p.proname;
