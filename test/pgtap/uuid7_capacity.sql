-- pgTAP: 200,000 next_uuid7() values in one statement, over the 4,096 per ms
-- capacity: strictly increasing, and the lead of the embedded time over
-- clock_timestamp() never above uniqueid.max_clock_lead (50 ms in the test
-- configuration).
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(4);

CREATE TEMP TABLE burst AS
SELECT n, next_uuid7() AS u, clock_timestamp() AS after_call
FROM generate_series(1, 200000) AS n;

SELECT is((SELECT count(DISTINCT u)::int FROM burst), 200000, '200,000 distinct values');
SELECT is((SELECT count(*)::int FROM (SELECT u <= lag(u) OVER (ORDER BY n) AS back FROM burst) s WHERE back),
          0, 'strictly increasing in call order');
SELECT cmp_ok((SELECT max(id_time(u) - after_call) FROM burst),
              '<=', current_setting('uniqueid.max_clock_lead')::interval,
              'embedded time never leads clock_timestamp() by more than uniqueid.max_clock_lead');
-- 4,096 per ms: the burst needs at least 49 milliseconds
SELECT cmp_ok((SELECT count(DISTINCT id_time(u)) FROM burst), '>=', 49::bigint,
              'the burst spans at least 200000/4096 milliseconds');

SELECT * FROM finish();
ROLLBACK;
