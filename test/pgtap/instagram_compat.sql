-- pgTAP: IDs from Instagram's published PL/pgSQL next_id (a sequence and %)
-- and from uniqueid's next_id decode alike and sort together by time.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SET LOCAL timezone = 'UTC';
SELECT plan(5);

-- the function as Instagram published it in 2011, for logical shard 5
\i test/fixtures/instagram_next_id.sql

CREATE TEMP TABLE mixed (n serial, source text, id shardid, made_at timestamptz);
-- alternate batches, 5 ms apart, so each batch has its own milliseconds
DO $$
BEGIN
    FOR b IN 1..10 LOOP
        INSERT INTO mixed (source, id, made_at)
        SELECT 'instagram', insta_next_id()::shardid, clock_timestamp() FROM generate_series(1, 20);
        PERFORM pg_sleep(0.005);
        INSERT INTO mixed (source, id, made_at)
        SELECT 'uniqueid', next_id(5), clock_timestamp() FROM generate_series(1, 20);
        PERFORM pg_sleep(0.005);
    END LOOP;
END $$;

SELECT is((SELECT count(DISTINCT id)::int FROM mixed), 400, '400 distinct IDs from both generators');
SELECT is((SELECT count(*)::int FROM mixed WHERE id_shard(id) <> 5), 0, 'both decode to shard 5');
SELECT is((SELECT count(*)::int FROM mixed
           WHERE id_time(id) > made_at OR id_time(id) < made_at - interval '50 ms'), 0,
          'both decode to the millisecond in which they were made');
-- batch order: every ID of a later batch sorts after every ID of an earlier one
SELECT is((SELECT count(*)::int FROM mixed a JOIN mixed b
           ON a.source <> b.source AND a.n < b.n AND a.id >= b.id), 0,
          'IDs of both sources sort together in creation order');
SELECT is((SELECT array_agg(n ORDER BY id) FROM mixed),
          (SELECT array_agg(n ORDER BY n) FROM mixed),
          'ORDER BY id is creation order across both generators');

SELECT * FROM finish();
ROLLBACK;
