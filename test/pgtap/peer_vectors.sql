-- pgTAP: the published examples of the ULID spec, Segment's KSUID and rs/xid
-- (test/vectors/{ulid,ksuid,rsxid}_vectors.tsv): text and bytes both ways,
-- time, fields, constructors, order; then round trips and order over many
-- values.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
CREATE TEMP TABLE uv (text text, hex text, unix_ms bigint, time_utc text, source text);
\copy uv FROM 'test/vectors/ulid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE kv (text text, hex text, ts bigint, time_utc text, source text);
\copy kv FROM 'test/vectors/ksuid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE xv (text text, hex text, ts bigint, machine int, process int, counter int, source text);
\copy xv FROM 'test/vectors/rsxid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')

SELECT plan(7 * (SELECT count(*)::int FROM uv) + 6 * (SELECT count(*)::int FROM kv)
            + 8 * (SELECT count(*)::int FROM xv) + 3 + 12 + 4);

-- ulid
SELECT is(text::ulid::text, text, format('ulid %s: text round trip', text)) FROM uv;
SELECT is(lower(text)::ulid::text, text, format('ulid %s: lowercase input reads the same', text)) FROM uv;
SELECT is(text::ulid::bytea, decode(hex, 'hex'), format('ulid %s: its bytes', text)) FROM uv;
SELECT is(decode(hex, 'hex')::ulid::text, text, format('ulid %s: from its bytes', text)) FROM uv;
SELECT is(text::ulid::uuid::text, regexp_replace(hex, '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '\1-\2-\3-\4-\5'),
          format('ulid %s: the uuid of the same 128 bits', text)) FROM uv;
SELECT is((extract(epoch FROM id_time(text::ulid)) * 1000)::bigint, unix_ms,
          format('ulid %s: id_time is %s', text, time_utc)) FROM uv;
SELECT is(make_ulid(id_time(text::ulid), id_random(text::ulid))::text, text,
          format('ulid %s: make_ulid rebuilds it', text)) FROM uv;
-- the spec's monotonic sequence is in order as text, as bytes and as ulid
SELECT is(array_agg(text ORDER BY text::ulid), array_agg(text ORDER BY hex),
          'ulid: the spec''s examples sort as their bytes') FROM uv;

-- ksuid
SELECT is(text::ksuid::text, text, format('ksuid %s: text round trip', text)) FROM kv;
SELECT is(text::ksuid::bytea, decode(hex, 'hex'), format('ksuid %s: its bytes', text)) FROM kv;
SELECT is(decode(hex, 'hex')::ksuid::text, text, format('ksuid %s: from its bytes', text)) FROM kv;
SELECT is(id_time(text::ksuid), time_utc::timestamptz, format('ksuid %s: id_time is %s', text, time_utc)) FROM kv;
SELECT is(id_payload(text::ksuid), decode(substr(hex, 9), 'hex'), format('ksuid %s: id_payload', text)) FROM kv;
SELECT is(make_ksuid(id_time(text::ksuid), id_payload(text::ksuid))::text, text,
          format('ksuid %s: make_ksuid rebuilds it', text)) FROM kv;
SELECT is(array_agg(text ORDER BY text::ksuid), array_agg(text ORDER BY text COLLATE "C"),
          'ksuid: text order is byte order') FROM kv;

-- rsxid
SELECT is(text::rsxid::text, text, format('rsxid %s: text round trip', text)) FROM xv;
SELECT is(text::rsxid::bytea, decode(hex, 'hex'), format('rsxid %s: its bytes', text)) FROM xv;
SELECT is(decode(hex, 'hex')::rsxid::text, text, format('rsxid %s: from its bytes', text)) FROM xv;
SELECT is(id_time(text::rsxid), to_timestamp(ts), format('rsxid %s: id_time', text)) FROM xv;
SELECT is(id_machine(text::rsxid), machine, format('rsxid %s: id_machine', text)) FROM xv;
SELECT is(id_process(text::rsxid), process, format('rsxid %s: id_process', text)) FROM xv;
SELECT is(id_counter(text::rsxid), counter, format('rsxid %s: id_counter', text)) FROM xv;
SELECT is(make_rsxid(to_timestamp(ts), machine, process, counter)::text, text,
          format('rsxid %s: make_rsxid rebuilds it', text)) FROM xv;
SELECT is(array_agg(text ORDER BY text::rsxid), array_agg(text ORDER BY text COLLATE "C"),
          'rsxid: text order is byte order') FROM xv;

-- many values: random bytes round-trip through text, and the type's order is
-- the order of its bytes and (ksuid, rsxid, ulid's uppercase) of its text
CREATE TEMP TABLE r AS
SELECT decode(md5(i::text) || substr(md5((i + 1)::text), 1, 8), 'hex') AS b
FROM generate_series(1, 20000) AS i;
SELECT is((SELECT count(*) FROM r WHERE substr(b, 1, 16)::ulid::text::ulid::bytea <> substr(b, 1, 16)), 0::bigint,
          'ulid: 20,000 random values round-trip through text');
SELECT is((SELECT count(*) FROM r WHERE b::ksuid::text::ksuid::bytea <> b), 0::bigint,
          'ksuid: 20,000 random values round-trip through text');
SELECT is((SELECT count(*) FROM r WHERE substr(b, 1, 12)::rsxid::text::rsxid::bytea <> substr(b, 1, 12)), 0::bigint,
          'rsxid: 20,000 random values round-trip through text');
SELECT is((SELECT count(*) FROM r WHERE length(b::ksuid::text) <> 27), 0::bigint, 'ksuid: always 27 digits');
SELECT is((SELECT array_agg(b ORDER BY substr(b, 1, 16)::ulid) FROM r), (SELECT array_agg(b ORDER BY substr(b, 1, 16)) FROM r),
          'ulid: ordered as its bytes');
SELECT is((SELECT array_agg(b ORDER BY substr(b, 1, 16)::ulid::text COLLATE "C") FROM r),
          (SELECT array_agg(b ORDER BY substr(b, 1, 16)) FROM r), 'ulid: its text sorts as its bytes');
SELECT is((SELECT array_agg(b ORDER BY b::ksuid) FROM r), (SELECT array_agg(b ORDER BY b) FROM r),
          'ksuid: ordered as its bytes');
SELECT is((SELECT array_agg(b ORDER BY b::ksuid::text COLLATE "C") FROM r), (SELECT array_agg(b ORDER BY b) FROM r),
          'ksuid: its text sorts as its bytes');
SELECT is((SELECT array_agg(b ORDER BY substr(b, 1, 12)::rsxid) FROM r), (SELECT array_agg(b ORDER BY substr(b, 1, 12)) FROM r),
          'rsxid: ordered as its bytes');
SELECT is((SELECT array_agg(b ORDER BY substr(b, 1, 12)::rsxid::text COLLATE "C") FROM r),
          (SELECT array_agg(b ORDER BY substr(b, 1, 12)) FROM r), 'rsxid: its text sorts as its bytes');
-- the hash opclass agrees with equality: equal values, equal hashes
SELECT is((SELECT count(DISTINCT b) FROM r), (SELECT count(DISTINCT b::ksuid) FROM r), 'ksuid: DISTINCT by hash or sort keeps every value');
SELECT is((SELECT count(*) FROM r WHERE ksuid_hash(b::ksuid) <> ksuid_hash(b::ksuid::text::ksuid)), 0::bigint,
          'ksuid: equal values hash alike');

-- soft input errors (PostgreSQL 16 and later): pg_input_is_valid and
-- pg_input_error_info see the error without raising it
CREATE FUNCTION pg_temp.soft(good text, bad text, t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE format('SELECT pg_input_is_valid(%L, %L)::text || '' '' || pg_input_is_valid(%L, %L)::text || '' ''
                           || (pg_input_error_info(%L, %L)).sql_error_code', good, t, bad, t, bad, t) INTO r;
    RETURN r;
END $$;
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
            THEN is(pg_temp.soft(good, bad, t), 'true false 22P02', format('%s: pg_input_is_valid and pg_input_error_info', t))
            ELSE skip('pg_input_is_valid arrived in PostgreSQL 16') END
FROM (VALUES ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU'),
             ('ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLOv', '0ujtsYcgvSTl8PAuAdqWYSMnLO'),
             ('rsxid', '9m4e2mr0ui3e8a215n4g', '9m4e2mr0ui3e8a215n4h'),
             ('typeid', 'user_01h5fskfsk4fpeqwnsyz5hj55t', 'user__01h5fskfsk4fpeqwnsyz5hj55t')) AS x(t, good, bad);

SELECT * FROM finish();
ROLLBACK;
