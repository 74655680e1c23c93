-- pgTAP: 200,000 IDs of one shard in one statement, far over the 1,024 per ms
-- capacity: strictly increasing, and the lead of the embedded time over
-- clock_timestamp() never above uniqueid.max_clock_lead (50 ms in the test
-- configuration, so that the generator has to wait for the clock).
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(5);

CREATE TEMP TABLE burst AS
SELECT n, next_id(9) AS id, clock_timestamp() AS after_call
FROM generate_series(1, 200000) AS n;

SELECT is((SELECT count(DISTINCT id)::int FROM burst), 200000, '200,000 distinct IDs');
SELECT is((SELECT count(*)::int FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS back FROM burst) s WHERE back),
          0, 'strictly increasing in call order');
SELECT cmp_ok((SELECT max(id_time(id) - after_call) FROM burst),
              '<=', current_setting('uniqueid.max_clock_lead')::interval,
              'embedded time never leads clock_timestamp() by more than uniqueid.max_clock_lead');
-- the burst needed about 195 ms of IDs; with a 50 ms lead the statement had to wait
SELECT cmp_ok((SELECT max(id_time(id)) - min(id_time(id)) FROM burst), '>=', interval '190 ms',
              'the burst spans at least 200000/1024 ms of IDs');
SELECT is((SELECT count(*)::int FROM
             (SELECT id_seq(id) AS seq, row_number() OVER (PARTITION BY id_time(id) ORDER BY n) - 1 AS rank
              FROM burst) s WHERE seq <> rank),
          0, 'each millisecond is filled from seq 0 upward, without gaps');

SELECT * FROM finish();
ROLLBACK;
