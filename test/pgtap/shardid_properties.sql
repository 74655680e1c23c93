-- pgTAP: properties of shardid over many values: round trips through text,
-- bigint and the constructor; order of IDs is order of time, then shard, then seq
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
SELECT plan(7);

-- 200,000 pseudo-random 64-bit patterns spread over the whole unsigned range
CREATE TEMP TABLE r AS
SELECT hashint8extended(n, 42)::shardid AS id
FROM generate_series(1::bigint, 200000) AS n;

SELECT is((SELECT count(*)::int FROM r WHERE id::text::shardid <> id), 0,
          'text output parses back to the same value for 200,000 values');
SELECT is((SELECT count(*)::int FROM r WHERE id::bigint::shardid <> id), 0,
          'bigint cast round trips for 200,000 values');
SELECT is((SELECT count(*)::int FROM r
           WHERE make_shardid(id_time(id), id_shard(id), id_seq(id)) <> id), 0,
          'make_shardid(id_time, id_shard, id_seq) rebuilds every value');
SELECT is((SELECT count(*)::int FROM r WHERE id::text !~ '^(0|[1-9][0-9]{0,19})$'), 0,
          'output is canonical unsigned decimal');
SELECT ok((SELECT count(*) FROM r WHERE id::bigint < 0) > 50000,
          'the sample reaches past the sign bit');

-- sorting by ID equals sorting by (time, shard, seq)
SELECT is((SELECT array_agg(id ORDER BY id) FROM r),
          (SELECT array_agg(id ORDER BY id_time(id), id_shard(id), id_seq(id)) FROM r),
          'ORDER BY id is ORDER BY time, shard, seq');
-- and a btree built over them agrees with a sort
CREATE INDEX ON r (id);
SET LOCAL enable_seqscan = off;
SELECT is((SELECT array_agg(id) FROM (SELECT id FROM r ORDER BY id) s),
          (SELECT array_agg(id ORDER BY id_time(id), id_shard(id), id_seq(id)) FROM r),
          'index order is time order');

SELECT * FROM finish();
ROLLBACK;
