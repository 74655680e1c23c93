-- pgTAP: 100,000 next_uuid7() values from one statement: RFC 9562 version 7
-- format, strictly increasing in call order under uuid's own order, times
-- near the clock, each millisecond's counter (rand_a) counting from 0 without
-- gaps, and random tails that look random.  That two backends draw different
-- tails is checked with real connections in t/012_uuid7_concurrency.pl.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(10);

CREATE TEMP TABLE s AS
SELECT n, clock_timestamp() AS before, next_uuid7() AS u, clock_timestamp() AS after
FROM generate_series(1, 100000) AS n;
-- the fields, decoded from the text form: unix_ts_ms 48, ver 4, rand_a 12, var 2, rand_b 62
CREATE TEMP TABLE f AS
SELECT n, u, before, after,
       ('x' || lpad(substr(u::text, 1, 8) || substr(u::text, 10, 4), 16, '0'))::bit(64)::bigint AS ms,
       substr(u::text, 15, 1) AS version,
       ('x' || substr(u::text, 16, 3))::bit(12)::int AS counter,
       substr(u::text, 20, 1) AS variant_nibble,
       substring(('x' || substr(u::text, 20, 4) || substr(u::text, 25, 12))::bit(64) FROM 3) AS tail
FROM s;

SELECT is((SELECT count(DISTINCT u)::int FROM f), 100000, '100,000 distinct values');
SELECT is((SELECT count(*)::int FROM (SELECT u <= lag(u) OVER (ORDER BY n) AS back FROM f) q WHERE back),
          0, 'strictly increasing in call order (uuid''s own < operator)');
SELECT is((SELECT count(*)::int FROM f WHERE version <> '7' OR variant_nibble NOT IN ('8', '9', 'a', 'b')),
          0, 'all version 7, variant 10');
SELECT is((SELECT count(*)::int FROM f WHERE id_time(u) <> to_timestamp(ms / 1000.0)), 0,
          'id_time is the 48-bit millisecond of the text form');
SELECT is((SELECT count(*)::int FROM f
           WHERE id_time(u) < before - interval '1 ms'
              OR id_time(u) > after + current_setting('uniqueid.max_clock_lead')::interval),
          0, 'id_time within [clock - 1 ms, clock + uniqueid.max_clock_lead]');
SELECT is((SELECT count(*)::int FROM
             (SELECT counter, row_number() OVER (PARTITION BY ms ORDER BY n) - 1 AS rank FROM f) q
           WHERE counter <> rank),
          0, 'each millisecond''s counter counts from 0 without gaps');
SELECT cmp_ok((SELECT max(c) FROM (SELECT count(*) AS c FROM f GROUP BY ms) q), '<=', 4096::bigint,
              'at most 4,096 values per millisecond');
SELECT is((SELECT count(DISTINCT tail)::int FROM f), 100000, 'the random tails are all different');
SELECT is((SELECT count(*)::int FROM f WHERE length(tail) <> 62), 0, 'the tails are 62 bits');
-- each of the 62 bits is set in 50 % of the values, give or take 1 % (6 standard deviations)
SELECT is((SELECT array_agg(i ORDER BY i) FROM
             (SELECT i FROM f, generate_series(0, 61) AS i GROUP BY i
              HAVING abs(avg(get_bit(tail, i)) - 0.5) > 0.01) q),
          NULL, 'every bit of the tails is set half of the time');

SELECT * FROM finish();
ROLLBACK;
