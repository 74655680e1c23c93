-- pgTAP: 100,000 next_objectid() values: distinct, strictly increasing in call
-- order, round trips text <-> objectid <-> bytea, text order equals objectid
-- order, one random part for the whole server start, times near the clock
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(9);

CREATE TEMP TABLE s AS
SELECT n, clock_timestamp() AS before, next_objectid() AS id, clock_timestamp() AS after
FROM generate_series(1, 100000) AS n;

SELECT is((SELECT count(DISTINCT id)::int FROM s), 100000, '100,000 distinct values');
SELECT is((SELECT count(*)::int FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM s) q WHERE back), 0,
          'strictly increasing in call order');
SELECT is((SELECT count(*)::int FROM s WHERE id::text::objectid <> id), 0, 'text round trip');
SELECT is((SELECT count(*)::int FROM s WHERE id::bytea::objectid <> id), 0, 'bytea round trip');
SELECT is((SELECT count(*)::int FROM s WHERE id::text !~ '^[0-9a-f]{24}$'), 0, 'canonical form: 24 lowercase hex digits');
SELECT is((SELECT array_agg(n ORDER BY id) FROM s), (SELECT array_agg(n ORDER BY id::text COLLATE "C") FROM s),
          'text order equals objectid order');
SELECT is((SELECT count(DISTINCT id_random(id))::int FROM s), 1,
          'one random part for every ID of this server start');
SELECT is((SELECT count(*)::int FROM s
           WHERE make_objectid(id_time(id), id_random(id), id_counter(id)) <> id), 0,
          'make_objectid rebuilds every ID from its fields');
SELECT is((SELECT count(*)::int FROM s
           WHERE id_time(id) < date_trunc('second', before)
              OR id_time(id) > after + current_setting('uniqueid.max_clock_lead')::interval), 0,
          'id_time between the clock before the call and the lead limit after it');

SELECT * FROM finish();
ROLLBACK;
