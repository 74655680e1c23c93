-- pgTAP: 100,000 generated sno values round trip text <-> sno <-> bytea, and
-- text order equals sno order equals time order
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(9);

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

-- sorting (abbreviated keys hold time, meta and partition below 128 in a
-- short code, and the sequence): the same order as the bytes, for values on
-- both sides of the short code's limit, with ties, in memory and on disk
CREATE TEMP TABLE m AS
SELECT make_sno(timestamptz '2026-05-01 00:00:00+00' + (n % 3) * interval '4 ms',
                (ARRAY[0, 0, 0, 1, 255])[1 + (n * 7) % 5],
                (ARRAY[0, 1, 2, 126, 127, 128, 129, 255, 256, 65535])[1 + (n * 13) % 10],
                (n::bigint * 40503 % 65536)::int, (n / 7) % 2) AS id
FROM generate_series(1, 60000) AS n;
SELECT is((SELECT array_agg(id::bytea ORDER BY id) FROM m), (SELECT array_agg(id::bytea ORDER BY id::bytea) FROM m),
          'a datum sort of 60,000 values with ties orders them as their bytes');
SET LOCAL work_mem = '64kB';
SELECT is((SELECT count(*)::int FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM m) q
           WHERE prev::bytea > id::bytea), 0,
          'an external sort (work_mem 64kB) orders them as their bytes');
SELECT is((SELECT count(*)::int FROM (SELECT id, lag(id) OVER (ORDER BY id::bytea) AS prev FROM m) q WHERE prev > id), 0,
          'the byte order is the sno order');

SELECT * FROM finish();
ROLLBACK;
