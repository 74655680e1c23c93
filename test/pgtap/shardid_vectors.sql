-- pgTAP: every row of test/vectors/shardid_vectors.tsv (time, shard, seq, text round trip)
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
CREATE TEMP TABLE v (id_text text, time_utc text, shard int, seq int, note text);
\copy v FROM 'test/vectors/shardid_vectors.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER true, QUOTE E'\x01')

SELECT plan(1 + 5 * (SELECT count(*)::int FROM v));

SELECT is((SELECT count(*)::int FROM v), 5, 'all shardid vectors loaded');

SELECT is(id_time(id_text::shardid), time_utc::timestamptz, format('id_time of %s (%s)', id_text, note))
FROM v;
SELECT is(id_shard(id_text::shardid), shard, format('id_shard of %s', id_text)) FROM v;
SELECT is(id_seq(id_text::shardid), seq, format('id_seq of %s', id_text)) FROM v;
SELECT is(make_shardid(time_utc::timestamptz, shard, seq)::text, id_text,
          format('make_shardid builds %s', id_text)) FROM v;
SELECT is(id_text::shardid::text, id_text, format('text round trip of %s', id_text)) FROM v;

SELECT * FROM finish();
ROLLBACK;
