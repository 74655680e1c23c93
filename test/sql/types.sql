-- shardid: text I/O, time and fields, the constructor, and bad input
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';

-- canonical text round trips, including both ends of the unsigned range
SELECT v::shardid, v::shardid::text = v AS round_trip
FROM (VALUES ('0'), ('1'), ('11637205501278089'), ('9223372036854775807'),
             ('9223372036854775808'), ('18446744073709551615')) AS t(v);

-- fields of Instagram's worked example
SELECT id_time(i), id_shard(i), id_seq(i), i::timestamptz AS cast_time
FROM (SELECT '11637205501278089'::shardid AS i) s;

-- the constructor inverts the accessors, truncating time to the millisecond
SELECT make_shardid('2011-09-09 22:28:04.721999+00', 1341, 905);
SELECT make_shardid('2011-08-24 21:07:01.721+00', 0, 0) AS epoch,
       make_shardid('2081-04-30 12:54:37.272+00', 8191, 1023) AS last;

-- bad text: 22P02 for malformed text, 22003 for values past 2^64-1
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql
SELECT v AS input, pg_temp.try(format('SELECT %L::shardid', v)) AS result
FROM (VALUES (''), (' 1'), ('1 '), (' '), ('+1'), ('-1'), ('12a'), ('abc'), ('0x10'),
             ('007'), ('00'), ('1.0'), ('1e3'), (E'1\n'), ('１'),
             ('18446744073709551615'), ('18446744073709551616'), ('99999999999999999999'),
             ('99999999999999999999999'), ('000000000000000000001')) AS t(v);
-- the full report of one of them
SELECT '12a'::shardid;
-- an untyped time literal next to a shardid is read as a shardid: the hint says what to write
SELECT make_shardid(now(), 1, 1) >= '2026-01-01';
SELECT make_shardid('2026-01-02', 1, 1) >= timestamptz '2026-01-01' AS typed_literal_works;

-- constructor range checks: 22003 naming the field, 22008 for the time
SELECT make_shardid(now(), 8192, 0);
SELECT q, pg_temp.try(q) AS result
FROM (VALUES ('SELECT make_shardid(now(), -1, 0)'), ('SELECT make_shardid(now(), 0, 1024)'),
             ('SELECT make_shardid(now(), 0, -1)'),
             ($$SELECT make_shardid('2011-08-24 21:07:01.720+00', 0, 0)$$),
             ($$SELECT make_shardid('2081-04-30 12:54:37.273+00', 0, 0)$$),
             ($$SELECT make_shardid('infinity', 0, 0)$$),
             ($$SELECT make_shardid('-infinity', 0, 0)$$)) AS t(q);
SELECT make_shardid('2081-04-30 12:54:37.273+00', 0, 0);

-- NULL in, NULL out
SELECT id_time(NULL::shardid) IS NULL AS null_time, make_shardid(NULL, 1, 1) IS NULL AS null_make;

-- a long bad input is quoted by its first 64 bytes and its length only
SELECT repeat('9', 1000)::shardid;
SELECT repeat('x', 500)::sno;
SELECT (repeat('é', 100) || 'Z')::objectid;
