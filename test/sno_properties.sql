-- pgTAP: 100,000 generated sno values round trip text <-> sno <-> bytea, and
-- text order equals sno order equals time order
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(6);

CREATE TEMP TABLE s AS SELECT n, next_sno((n % 256)::int) AS id FROM generate_series(1, 100000) AS n;

SELECT is((SELECT count(DISTINCT id)::int FROM s), 100000, '100,000 distinct values');
SELECT is((SELECT count(*)::int FROM s WHERE id::text::sno <> id), 0, 'text round trip');
SELECT is((SELECT count(*)::int FROM s WHERE id::bytea::sno <> id), 0, 'bytea round trip');
SELECT is((SELECT count(*)::int FROM s WHERE id::text !~ '^[2-9a-x]{16}$'), 0, 'canonical 16-character form');
SELECT is((SELECT array_agg(n ORDER BY id) FROM s), (SELECT array_agg(n ORDER BY id::text COLLATE "C") FROM s),
          'text order equals sno order');
SELECT is((SELECT count(*)::int FROM (SELECT id <= lag(id) OVER (PARTITION BY id_meta(id) ORDER BY n) AS back FROM s) q
           WHERE back), 0,
          'strictly increasing in call order for each meta (meta sorts before the sequence)');

SELECT * FROM finish();
ROLLBACK;
