-- floor: TYPE_floor(time), the smallest ID of each time-ordered type whose
-- time is at or after time, and TYPE_text_time(text), the time of an ID
-- written as text: round trips against id_time and the comparison
-- operators, the ends of each type's range, NULL, and bad input
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\i :abs_srcdir/sql/include/try.sql

-- every type's floor, its text decoder and its unit
CREATE TEMP TABLE fam (typ text, unit interval, first timestamptz, last timestamptz);
INSERT INTO fam VALUES
    ('shardid', '1 ms', '2011-08-24 21:07:01.721', '2081-04-30 12:54:37.272'),
    ('snowflake', '1 ms', '2010-11-04 01:42:54.657', '2080-07-10 17:30:30.208'),
    ('sonyflake', '10 ms', '2014-09-01', '2188-11-16 03:28:58.87'),
    ('shortid', '1 ms', '2018-03-01', '2157-07-13 07:35:11.103'),
    ('sno', '4 ms', '2010-01-01', '2079-09-07 15:47:35.548'),
    ('objectid', '1 s', '1970-01-01', '2106-02-07 06:28:15'),
    ('ulid', '1 ms', '1970-01-01', '10889-08-02 05:31:50.655'),
    ('ksuid', '1 s', '2014-05-13 16:53:20', '2150-06-19 23:21:35'),
    ('rsxid', '1 s', '1970-01-01', '2106-02-07 06:28:15'),
    ('uuid', '1 ms', '1970-01-01', '10889-08-02 05:31:50.655');
CREATE FUNCTION pg_temp.floor_fn(typ text) RETURNS text LANGUAGE sql
    RETURN CASE typ WHEN 'uuid' THEN 'uuid7_floor' ELSE typ || '_floor' END;

-- the times: on a unit, a microsecond past one, a microsecond before one
CREATE TEMP TABLE times AS
SELECT typ, unit, t
FROM fam, LATERAL (VALUES (timestamptz '2026-12-01 00:00:00'),
                          (timestamptz '2026-12-01 00:00:00.000001'),
                          (timestamptz '2026-12-01 00:00:00.999999')) AS v(t);

-- the floor's own time is the first start of a unit at or after t: at t or
-- less than a unit past it; and its text form, read back by the type's
-- text decoder, gives the same time
CREATE FUNCTION pg_temp.check_floor(typ text, unit interval, t timestamptz)
RETURNS TABLE (floor_time timestamptz, at_or_after boolean, within_unit boolean, text_time_agrees boolean)
LANGUAGE plpgsql AS $$
DECLARE
    f text;
BEGIN
    EXECUTE format('SELECT %s($1)::text', pg_temp.floor_fn(typ)) INTO f USING t;
    EXECUTE format('SELECT id_time($1::%I)', typ) INTO floor_time USING f;
    at_or_after := floor_time >= t;
    within_unit := floor_time - t < unit;
    EXECUTE format('SELECT %I($1) = $2', typ || '_text_time') INTO text_time_agrees USING f, floor_time;
    RETURN NEXT;
END $$;
SELECT typ, t, c.*
FROM times, LATERAL pg_temp.check_floor(typ, unit, t) c
ORDER BY typ, t;

-- on a unit boundary the floor is the ID the constructor makes with every
-- other field zero
SELECT make_snowflake(t, 0, 0) = snowflake_floor(t) AS snowflake, make_sonyflake(t, 0, 0) = sonyflake_floor(t) AS sonyflake,
       make_shortid(t, 0, 0) = shortid_floor(t) AS shortid, make_sno(t, 0, 0, 0) = sno_floor(t) AS sno,
       make_objectid(t, 0, 0) = objectid_floor(t) AS objectid, make_ulid(t, '\x00000000000000000000') = ulid_floor(t) AS ulid,
       make_ksuid(t, '\x00000000000000000000000000000000') = ksuid_floor(t) AS ksuid,
       make_rsxid(t, 0, 0, 0) = rsxid_floor(t) AS rsxid
FROM (VALUES (timestamptz '2026-12-01')) AS v(t);

-- the floor is what `id OP time` compares with: equal to t, above the ID
-- just before it (one unit earlier with every other field at its maximum),
-- for every type with timestamptz operators
SELECT make_shardid(t, 0, 0) = shardid_floor(t) AS shardid_is_make,
       shardid_floor(t) = t AS shardid_eq, make_shardid(t - interval '1 ms', 8191, 1023) < t AS shardid_below,
       snowflake_floor(t) = t AS snowflake_eq, make_snowflake(t - interval '1 ms', 1023, 4095) < t AS snowflake_below,
       sonyflake_floor(t) = t AS sonyflake_eq, make_sonyflake(t - interval '10 ms', 255, 65535) < t AS sonyflake_below,
       shortid_floor(t) = t AS shortid_eq, make_shortid(t - interval '1 ms', 511, 511) < t AS shortid_below,
       sno_floor(t) = t AS sno_eq, make_sno(t - interval '4 ms', 255, 65535, 65535, 1) < t AS sno_below,
       objectid_floor(t) = t AS objectid_eq, make_objectid(t - interval '1 s', 1099511627775, 16777215) < t AS objectid_below,
       ulid_floor(t) = t AS ulid_eq, make_ulid(t - interval '1 ms', '\xffffffffffffffffffff') < t AS ulid_below,
       ksuid_floor(t) = t AS ksuid_eq, make_ksuid(t - interval '1 s', '\xffffffffffffffffffffffffffffffff') < t AS ksuid_below,
       rsxid_floor(t) = t AS rsxid_eq, make_rsxid(t - interval '1 s', 16777215, 65535, 16777215) < t AS rsxid_below
FROM (VALUES (timestamptz '2026-12-01')) AS v(t) \gx

-- a microsecond past a unit: the floor is the next unit's, which `>= t`
-- agrees with (the constructor truncates instead: make_* is the floor only
-- on a unit boundary)
SELECT shardid_floor(t) AS shardid, make_shardid(t, 0, 0) AS make_shardid,
       shardid_floor(t) = t AS eq, make_shardid(t, 0, 0) < t AS make_is_below
FROM (VALUES (timestamptz '2026-12-01 00:00:00.000001')) AS v(t);

-- the values themselves: the time field, every other bit zero
SELECT shardid_floor(t), snowflake_floor(t), sonyflake_floor(t), shortid_floor(t), sno_floor(t),
       objectid_floor(t), ulid_floor(t), ksuid_floor(t), rsxid_floor(t), uuid7_floor(t),
       typeid_floor('user', t)
FROM (VALUES (timestamptz '2026-12-01')) AS v(t) \gx

-- uuid7_floor is a version 7 UUID below every UUIDv7 of its millisecond and
-- above every one before; id_time reads it back
SELECT uuid7_floor(t) < '01a22ee6-b000-7000-8000-000000000001'::uuid AS below_its_ms,
       uuid7_floor(t) > '01a22ee6-afff-7fff-bfff-ffffffffffff'::uuid AS above_the_ms_before,
       id_time(uuid7_floor(t)) = t AS round_trip
FROM (VALUES (timestamptz '2026-12-01')) AS v(t);

-- typeid: per prefix (a typeid's order is its prefix's, then its UUID's)
SELECT typeid_floor('user', t) AS floor, id_time(typeid_floor('user', t)) AS id_time,
       typeid_text_time(typeid_floor('user', t)::text) AS text_time,
       typeid_prefix(typeid_floor('', t)) = '' AS empty_prefix,
       typeid_floor('user', t) < make_typeid('user', '01a22ee6-b000-7000-8000-000000000001') AS below_its_ms,
       typeid_floor('user', t) > make_typeid('user', '01a22ee6-afff-7fff-bfff-ffffffffffff') AS above_the_ms_before,
       typeid_floor('user', t) > make_typeid('team', '01a22ee6-b000-7000-8000-000000000001') AS above_other_prefix
FROM (VALUES (timestamptz '2026-12-01')) AS v(t);
SELECT pg_temp.try($$SELECT typeid_floor('User', '2026-12-01')$$);

-- the ends of each range: the first time gives the type's smallest ID; the
-- start of the last unit its last floor; a microsecond either side and
-- infinity are 22008, naming the time and the type's range
SELECT typ, pg_temp.try(format('SELECT %s(%L)', pg_temp.floor_fn(typ), first)) AS at_first,
       pg_temp.try(format('SELECT %s(%L)', pg_temp.floor_fn(typ), last)) AS at_last
FROM fam ORDER BY typ;
SELECT shardid_floor('2011-08-24 21:07:01.721')::bigint, ulid_floor('1970-01-01'), uuid7_floor('1970-01-01'),
       sno_floor('2010-01-01'), ksuid_floor('2014-05-13 16:53:20');
SELECT id_time(shardid_floor('2081-04-30 12:54:37.272')), id_time(uuid7_floor('10889-08-02 05:31:50.655'));
SELECT typ, pg_temp.try(format('SELECT %s(%L)', pg_temp.floor_fn(typ), first - interval '1 microsecond')) AS before_first
FROM fam ORDER BY typ;
SELECT typ, pg_temp.try(format('SELECT %s(%L)', pg_temp.floor_fn(typ), last + interval '1 microsecond')) AS past_last
FROM fam ORDER BY typ;
SELECT pg_temp.try($$SELECT shardid_floor('infinity')$$), pg_temp.try($$SELECT uuid7_floor('-infinity')$$),
       pg_temp.try($$SELECT typeid_floor('user', '-infinity')$$);
SELECT ksuid_floor('2014-05-13 16:53:19');

-- NULL in, NULL out (pg_partman requires it of its encoders and decoders)
SELECT shardid_floor(NULL) IS NULL AS a, uuid7_floor(NULL) IS NULL AS b, typeid_floor(NULL, now()) IS NULL AS c,
       typeid_floor('user', NULL) IS NULL AS d, ulid_text_time(NULL) IS NULL AS e, uuid_text_time(NULL) IS NULL AS f;

-- a text decoder's bad input is its type's input error
SELECT pg_temp.try($$SELECT ulid_text_time('01ARZ3NDEKTSV4RRFFQ69G5FAVX')$$);
SELECT pg_temp.try($$SELECT uuid_text_time('not a uuid')$$);
SELECT pg_temp.try($$SELECT snowflake_text_time('-1')$$);
-- uuid_text_time reads versions 1, 6 and 7, and nothing else
SELECT uuid_text_time('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS v1,
       pg_temp.try($$SELECT uuid_text_time('6ba7b810-9dad-41d1-80b4-00c04fd430c8')$$) AS v4;

-- all of them IMMUTABLE, STRICT and PARALLEL SAFE, so they can be partition
-- bounds, index expressions and pg_partman's encoders
SELECT p.oid::regprocedure AS function
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'uniqueid'
WHERE (p.proname LIKE '%\_floor' OR p.proname LIKE '%\_text\_time')
  AND (p.provolatile <> 'i' OR NOT p.proisstrict OR p.proparallel <> 's')
ORDER BY 1;
SELECT count(*) AS floors_and_decoders
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'uniqueid'
WHERE p.proname LIKE '%\_floor' OR p.proname LIKE '%\_text\_time';
-- a floor folds to a constant in a plan
CREATE TEMP TABLE folded (id shardid, u uuid);
EXPLAIN (COSTS OFF) SELECT * FROM folded WHERE id >= shardid_floor('2026-12-01') AND u < uuid7_floor('2027-01-01');
