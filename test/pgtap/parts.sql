-- pgTAP: id_parts(id), every field of an ID in one row, for every type.
-- Against the published conformance vectors (test/vectors/): each row's
-- parts are the fields the vector lists.  Against generated IDs of every
-- type: the parts are what the accessors give, and the type's make_*
-- function rebuilds the ID from them.  Then uuids of every kind (versions
-- with and without a time, other variants, nil), typeids, NULL, and the
-- functions' properties.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
CREATE TEMP TABLE shv (id text, time_utc timestamptz, shard int, seq int, note text);
\copy shv FROM 'test/vectors/shardid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE sf (scheme text, id numeric, unix_ms bigint, time_utc text, fields text, note text, source text);
\copy sf FROM 'test/vectors/snowflake_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE sony (time_utc text, unix_ns numeric, seq int, machine int, expected_id text, time_units bigint,
                        error text, source text);
\copy sony FROM 'test/vectors/sonyflake_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE sv (storage_int numeric, display text, display_len int, seq int, random int, time_utc timestamptz,
                      note text, source text);
\copy sv FROM 'test/vectors/shortid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE rv (mode text, ms bigint, seq int, generator int, cluster int, id_hex text, source text);
\copy rv FROM 'test/vectors/spreadid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE snv (name text, bytes_hex text, encoded text, unix_ns numeric, time_utc timestamptz, meta int,
                       partition int, seq int, tick int, source text);
\copy snv FROM 'test/vectors/sno_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE ov (hex text, timestamp_s bigint, time_utc timestamptz, random5_hex text, counter int, source text);
\copy ov FROM 'test/vectors/objectid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE xv (text text, hex text, ts bigint, machine int, process int, counter int, source text);
\copy xv FROM 'test/vectors/rsxid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE kv (text text, hex text, ts bigint, time_utc timestamptz, source text);
\copy kv FROM 'test/vectors/ksuid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
CREATE TEMP TABLE uv (text text, hex text, unix_ms bigint, time_utc timestamptz, source text);
\copy uv FROM 'test/vectors/ulid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')
\set valid `cat test/vectors/typeid_valid.json`
CREATE TEMP TABLE tv AS SELECT e->>'typeid' AS typeid, e->>'prefix' AS prefix, (e->>'uuid')::uuid AS uuid
FROM jsonb_array_elements(:'valid'::jsonb) AS e;
-- the shortid rows below 2^60 (the type's range)
DELETE FROM sv WHERE storage_int >= 2::numeric ^ 60;

-- generated IDs of every type, 100 of each
CREATE TEMP TABLE g AS
SELECT next_id(7) AS a, next_snowflake() AS b, next_sonyflake() AS c, next_shortid() AS d,
       next_spreadid() AS e, next_spreadid('time') AS e2, next_sno(9) AS f, next_objectid() AS h, next_ulid() AS i,
       next_ksuid() AS j, next_rsxid() AS k, next_uuid7() AS l, next_typeid('user') AS m
FROM generate_series(1, 100);

SELECT plan(
    (SELECT count(*)::int FROM shv) + (SELECT count(*)::int FROM sf WHERE scheme = 'twitter')
  + (SELECT count(*)::int FROM sony WHERE error IS NULL) + (SELECT count(*)::int FROM sv)
  + (SELECT count(*)::int FROM rv) + (SELECT count(*)::int FROM snv) + (SELECT count(*)::int FROM ov)
  + (SELECT count(*)::int FROM xv) + (SELECT count(*)::int FROM kv) + (SELECT count(*)::int FROM uv)
  + (SELECT count(*)::int FROM tv)
  + 12 * 2 + 7 + 2 + 2);

-- the vectors: each ID's parts are the fields its source lists
SELECT is(to_jsonb(id_parts(id::shardid)), jsonb_build_object('time', time_utc, 'shard', shard, 'seq', seq),
          format('shardid %s: id_parts', id)) FROM shv;
SELECT is(to_jsonb(id_parts(id::text::snowflake)),
          jsonb_build_object('time', time_utc::timestamptz,
                             'node', (substring(fields FROM 'dc=(\d+)'))::int * 32 + (substring(fields FROM 'worker=(\d+)'))::int,
                             'seq', (substring(fields FROM 'seq=(\d+)'))::int),
          format('snowflake %s: id_parts (node is datacenter and worker)', id)) FROM sf WHERE scheme = 'twitter';
SELECT is(to_jsonb(id_parts(expected_id::sonyflake)),
          jsonb_build_object('time', timestamptz '2014-09-01 00:00:00+00' + time_units * interval '10 ms',
                             'seq', seq, 'machine', machine),
          format('sonyflake %s: id_parts', expected_id)) FROM sony WHERE error IS NULL;
SELECT is(to_jsonb(id_parts(display::shortid)), jsonb_build_object('time', time_utc, 'seq', seq, 'random', random),
          format('shortid %s: id_parts', display)) FROM sv;
SELECT is(to_jsonb(id_parts(id_hex::spreadid)),
          jsonb_build_object('time', timestamptz 'epoch' + ms * interval '1 ms', 'seq', seq, 'generator', generator,
                             'cluster', cluster, 'mode', CASE mode WHEN 'SPREAD' THEN 'spread' ELSE 'time' END),
          format('spreadid %s: id_parts', id_hex)) FROM rv;
SELECT is(to_jsonb(id_parts(encoded::sno)),
          jsonb_build_object('time', time_utc, 'meta', meta, 'partition', partition, 'seq', seq, 'tick', tick),
          format('sno %s: id_parts', encoded)) FROM snv;
SELECT is(to_jsonb(id_parts(hex::objectid)),
          jsonb_build_object('time', timestamptz 'epoch' + timestamp_s * interval '1 s',
                             'random', ('x' || lpad(random5_hex, 16, '0'))::bit(64)::bigint, 'counter', counter),
          format('objectid %s: id_parts', hex)) FROM ov;
SELECT is(to_jsonb(id_parts(text::rsxid)),
          jsonb_build_object('time', timestamptz 'epoch' + ts * interval '1 s', 'machine', machine,
                             'process', process, 'counter', counter),
          format('rsxid %s: id_parts', text)) FROM xv;
SELECT is(to_jsonb(id_parts(text::ksuid)),
          jsonb_build_object('time', time_utc, 'payload', decode(substr(hex, 9), 'hex')),
          format('ksuid %s: id_parts (the payload is the 16 bytes after the time)', text)) FROM kv;
SELECT is(to_jsonb(id_parts(text::ulid)),
          jsonb_build_object('time', timestamptz 'epoch' + (unix_ms / 1000) * interval '1 s' + (unix_ms % 1000) * interval '1 ms', 'random', decode(substr(hex, 13), 'hex')),
          format('ulid %s: id_parts (random is the 10 bytes after the time)', text)) FROM uv;
SELECT is(to_jsonb(id_parts(typeid::typeid)) - 'time', jsonb_build_object('prefix', prefix, 'uuid', uuid),
          format('typeid %s: id_parts', typeid)) FROM tv;

-- generated IDs: the parts are the accessors' values, and make_* rebuilds the ID
SELECT is(count(*) FILTER (WHERE (p.time, p.shard, p.seq) IS NOT DISTINCT FROM (id_time(a), id_shard(a), id_seq(a))),
          100::bigint, 'shardid: id_parts is id_time, id_shard, id_seq') FROM g, id_parts(a) p;
SELECT is(count(*) FILTER (WHERE make_shardid(p.time, p.shard, p.seq) = a), 100::bigint, 'shardid: make_shardid(parts) is the ID')
FROM g, id_parts(a) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.node, p.seq) IS NOT DISTINCT FROM (id_time(b), id_node(b), id_seq(b))),
          100::bigint, 'snowflake: id_parts is id_time, id_node, id_seq') FROM g, id_parts(b) p;
SELECT is(count(*) FILTER (WHERE make_snowflake(p.time, p.node, p.seq) = b), 100::bigint,
          'snowflake: make_snowflake(parts) is the ID') FROM g, id_parts(b) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.seq, p.machine) IS NOT DISTINCT FROM (id_time(c), id_seq(c), id_node(c))),
          100::bigint, 'sonyflake: id_parts is id_time, id_seq, id_node') FROM g, id_parts(c) p;
SELECT is(count(*) FILTER (WHERE make_sonyflake(p.time, p.seq, p.machine) = c), 100::bigint,
          'sonyflake: make_sonyflake(parts) is the ID') FROM g, id_parts(c) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.seq, p.random) IS NOT DISTINCT FROM (id_time(d), id_seq(d), id_random(d))),
          100::bigint, 'shortid: id_parts is id_time, id_seq, id_random') FROM g, id_parts(d) p;
SELECT is(count(*) FILTER (WHERE make_shortid(p.time, p.seq, p.random) = d), 100::bigint,
          'shortid: make_shortid(parts) is the ID') FROM g, id_parts(d) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.seq, p.generator, p.cluster, p.mode)
                                 IS NOT DISTINCT FROM (id_time(x), id_seq(x), id_node(x), id_cluster(x), id_mode(x))),
          200::bigint, 'spreadid (both modes): id_parts is id_time, id_seq, id_node, id_cluster, id_mode')
FROM g, LATERAL (VALUES (e), (e2)) AS v(x), id_parts(x) p;
SELECT is(count(*) FILTER (WHERE make_spreadid(p.time, p.seq, p.generator, p.cluster, p.mode) = x), 200::bigint,
          'spreadid (both modes): make_spreadid(parts) is the ID')
FROM g, LATERAL (VALUES (e), (e2)) AS v(x), id_parts(x) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.meta, p.partition, p.seq, p.tick)
                                 IS NOT DISTINCT FROM (id_time(f), id_meta(f), id_partition(f), id_seq(f), id_tick(f))),
          100::bigint, 'sno: id_parts is id_time, id_meta, id_partition, id_seq, id_tick') FROM g, id_parts(f) p;
SELECT is(count(*) FILTER (WHERE make_sno(p.time, p.meta, p.partition, p.seq, p.tick) = f), 100::bigint,
          'sno: make_sno(parts) is the ID') FROM g, id_parts(f) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.random, p.counter) IS NOT DISTINCT FROM (id_time(h), id_random(h), id_counter(h))),
          100::bigint, 'objectid: id_parts is id_time, id_random, id_counter') FROM g, id_parts(h) p;
SELECT is(count(*) FILTER (WHERE make_objectid(p.time, p.random, p.counter) = h), 100::bigint,
          'objectid: make_objectid(parts) is the ID') FROM g, id_parts(h) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.random) IS NOT DISTINCT FROM (id_time(i), id_random(i))),
          100::bigint, 'ulid: id_parts is id_time, id_random') FROM g, id_parts(i) p;
SELECT is(count(*) FILTER (WHERE make_ulid(p.time, p.random) = i), 100::bigint, 'ulid: make_ulid(parts) is the ID')
FROM g, id_parts(i) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.payload) IS NOT DISTINCT FROM (id_time(j), id_payload(j))),
          100::bigint, 'ksuid: id_parts is id_time, id_payload') FROM g, id_parts(j) p;
SELECT is(count(*) FILTER (WHERE make_ksuid(p.time, p.payload) = j), 100::bigint, 'ksuid: make_ksuid(parts) is the ID')
FROM g, id_parts(j) p;
SELECT is(count(*) FILTER (WHERE (p.time, p.machine, p.process, p.counter)
                                 IS NOT DISTINCT FROM (id_time(k), id_machine(k), id_process(k), id_counter(k))),
          100::bigint, 'rsxid: id_parts is id_time, id_machine, id_process, id_counter') FROM g, id_parts(k) p;
SELECT is(count(*) FILTER (WHERE make_rsxid(p.time, p.machine, p.process, p.counter) = k), 100::bigint,
          'rsxid: make_rsxid(parts) is the ID') FROM g, id_parts(k) p;
SELECT is(count(*) FILTER (WHERE (p.version, p.time) IS NOT DISTINCT FROM (7, id_time(l))),
          100::bigint, 'uuid from next_uuid7: id_parts is version 7 and id_time') FROM g, id_parts(l) p;
SELECT is(count(*) FILTER (WHERE uuid7_floor(p.time) <= l AND l < uuid7_floor(p.time + interval '1 ms')), 100::bigint,
          'uuid from next_uuid7: its parts'' time is the millisecond it lies in') FROM g, id_parts(l) p;
SELECT is(count(*) FILTER (WHERE (p.prefix, p.uuid, p.time) IS NOT DISTINCT FROM (typeid_prefix(m), uuid(m), id_time(m))),
          100::bigint, 'typeid: id_parts is typeid_prefix, uuid, id_time') FROM g, id_parts(m) p;
SELECT is(count(*) FILTER (WHERE make_typeid(p.prefix, p.uuid) = m), 100::bigint, 'typeid: make_typeid(parts) is the ID')
FROM g, id_parts(m) p;

-- uuids of every kind: a time only where the version holds one, a version
-- only in RFC 9562's variant; never id_time's error
SELECT is(to_jsonb(id_parts(gen_random_uuid())), '{"version": 4, "time": null}', 'uuid version 4: no time, no error');
SELECT is(to_jsonb(id_parts('c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid)),
          '{"version": 1, "time": "2022-02-22T19:22:22+00:00"}', 'uuid version 1 (RFC 9562''s example): its time');
SELECT is(to_jsonb(id_parts('1ec9414c-232a-6b00-b3c8-9f6bdeced846'::uuid)),
          '{"version": 6, "time": "2022-02-22T19:22:22+00:00"}', 'uuid version 6 (RFC 9562''s example): its time');
SELECT is(to_jsonb(id_parts('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid)),
          '{"version": 7, "time": "2022-02-22T19:22:22+00:00"}', 'uuid version 7 (RFC 9562''s example): its time');
SELECT is(to_jsonb(id_parts('017f22e2-79b0-7cc3-c8c4-dc0c0c07398f'::uuid)), '{"version": null, "time": null}',
          'a uuid of another variant (Microsoft''s, 110): no version, no time, no error');
SELECT is(to_jsonb(id_parts('00000000-0000-0000-0000-000000000000'::uuid)), '{"version": null, "time": null}',
          'the nil uuid: no version, no time');
SELECT is(to_jsonb(id_parts('user_00000000000000000000000000'::typeid)),
          '{"prefix": "user", "uuid": "00000000-0000-0000-0000-000000000000", "time": null}',
          'a typeid of the nil uuid: its prefix and uuid, no time');

-- NULL in, NULL out; in FROM beside a table
SELECT is(id_parts(NULL::shardid)::text, NULL, 'id_parts(NULL) is NULL (STRICT)');
SELECT is((SELECT count(*) FROM g, id_parts(a) p WHERE p.time IS NULL OR p.shard <> 7), 0::bigint,
          'id_parts in FROM, LATERAL to a table: every row has its parts');

-- the functions: one per type, each IMMUTABLE, STRICT, PARALLEL SAFE
SELECT is((SELECT count(*)::int FROM pg_proc WHERE proname = 'id_parts'
              AND provolatile = 'i' AND proisstrict AND proparallel = 's'), 12,
          'id_parts: 12 of them, all IMMUTABLE STRICT PARALLEL SAFE');
SELECT is((SELECT array_agg(t ORDER BY t) FROM pg_proc, format_type(proargtypes[0], NULL) AS t WHERE proname = 'id_parts'),
          ARRAY['ksuid', 'objectid', 'rsxid', 'shardid', 'shortid', 'sno', 'snowflake', 'sonyflake', 'spreadid',
                'typeid', 'ulid', 'uuid'],
          'id_parts exists for every type');

SELECT * FROM finish();
ROLLBACK;
