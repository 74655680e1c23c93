-- pgTAP: snowflake, sonyflake, shortid and spreadid over many values: text
-- and bigint round trips, the constructor rebuilds every value, sort order
-- is time order (not for spreadid's SPREAD mode), and generated values are
-- distinct and, for the time-ordered layouts, strictly increasing.
\set QUIET on
SET client_min_messages = warning;
BEGIN;
SELECT plan(25);

-- 100,000 valid values of each type from pseudo-random 64-bit patterns
CREATE TEMP TABLE r AS SELECT hashint8extended(n, 5) AS h FROM generate_series(1::bigint, 100000) n;
CREATE TEMP TABLE v AS SELECT
    (h & x'7fffffffffffffff'::bigint)::snowflake AS sf,
    (h & x'7fffffffffffffff'::bigint)::sonyflake AS sy,
    (h & x'0fffffffffffffff'::bigint)::shortid AS si,
    h::spreadid AS sp
FROM r;

SELECT is((SELECT count(*)::int FROM v WHERE sf::text::snowflake <> sf OR sf::bigint::snowflake <> sf), 0, 'snowflake: text and bigint round trips');
SELECT is((SELECT count(*)::int FROM v WHERE sy::text::sonyflake <> sy OR sy::bigint::sonyflake <> sy), 0, 'sonyflake: text and bigint round trips');
SELECT is((SELECT count(*)::int FROM v WHERE si::text::shortid <> si OR si::bigint::shortid <> si), 0, 'shortid: text and bigint round trips');
SELECT is((SELECT count(*)::int FROM v WHERE sp::text::spreadid <> sp OR sp::bigint::spreadid <> sp), 0, 'spreadid: text and bigint round trips');
SELECT is((SELECT count(*)::int FROM v WHERE make_snowflake(id_time(sf), id_node(sf), id_seq(sf)) <> sf), 0, 'make_snowflake rebuilds every value');
SELECT is((SELECT count(*)::int FROM v WHERE make_sonyflake(id_time(sy), id_seq(sy), id_node(sy)) <> sy), 0, 'make_sonyflake rebuilds every value');
SELECT is((SELECT count(*)::int FROM v WHERE make_shortid(id_time(si), id_seq(si), id_random(si)) <> si), 0, 'make_shortid rebuilds every value');
SELECT is((SELECT count(*)::int FROM v WHERE make_spreadid(id_time(sp), id_seq(sp), id_node(sp), id_cluster(sp), id_mode(sp)) <> sp), 0,
          'make_spreadid rebuilds every value, both modes');
SELECT ok((SELECT count(DISTINCT id_mode(sp)) = 2 FROM v), 'the sample has spreadids of both modes');
SELECT is((SELECT count(*)::int FROM v WHERE si::text !~ '^[A-Za-z0-9_-]{4,10}$'), 0, 'shortid display form is 4 to 10 characters');
SELECT is((SELECT count(*)::int FROM v WHERE sp::text !~ '^[0-9a-f]{16}$'), 0, 'spreadid text is 16 lowercase hex digits');
SELECT is((SELECT array_agg(sf ORDER BY sf)::text FROM v), (SELECT array_agg(sf ORDER BY id_time(sf), id_node(sf), id_seq(sf))::text FROM v),
          'snowflake order is (time, node, seq)');
SELECT is((SELECT array_agg(sy ORDER BY sy)::text FROM v), (SELECT array_agg(sy ORDER BY id_time(sy), id_seq(sy), id_node(sy))::text FROM v),
          'sonyflake order is (time, seq, machine)');
SELECT is((SELECT array_agg(si ORDER BY si)::text FROM v), (SELECT array_agg(si ORDER BY id_time(si), id_seq(si), id_random(si))::text FROM v),
          'shortid order is (time, seq, random)');
SELECT is((SELECT array_agg(sp ORDER BY sp)::text FROM v WHERE id_mode(sp) = 'time'),
          (SELECT array_agg(sp ORDER BY id_time(sp), id_seq(sp), sp::bigint & 65535)::text FROM v WHERE id_mode(sp) = 'time'),
          'spreadid in time mode sorts by time');

-- generated values
CREATE TEMP TABLE g AS SELECT n, next_snowflake() AS sf, next_sonyflake() AS sy, next_shortid() AS si,
    next_spreadid('time') AS spt, next_spreadid() AS sps, clock_timestamp() AS t
FROM generate_series(1, 20000) n;
SELECT is((SELECT count(*)::int FROM (SELECT sf <= lag(sf) OVER (ORDER BY n) AS b FROM g) s WHERE b), 0, 'next_snowflake strictly increasing');
SELECT is((SELECT count(*)::int FROM (SELECT sy <= lag(sy) OVER (ORDER BY n) AS b FROM g) s WHERE b), 0, 'next_sonyflake strictly increasing');
SELECT is((SELECT count(*)::int FROM (SELECT si <= lag(si) OVER (ORDER BY n) AS b FROM g) s WHERE b), 0, 'next_shortid strictly increasing');
SELECT is((SELECT count(*)::int FROM (SELECT spt <= lag(spt) OVER (ORDER BY n) AS b FROM g) s WHERE b), 0, 'next_spreadid(''time'') strictly increasing');
SELECT is((SELECT count(DISTINCT sps)::int FROM g), 20000, 'next_spreadid() (spread) distinct');
SELECT ok((SELECT count(DISTINCT sps::bigint >> 56) > 100 AND count(DISTINCT spt::bigint >> 56) = 1 FROM g),
          'spread mode scatters IDs of the same second over the key space (their top byte varies), time mode does not');
SELECT is((SELECT count(*)::int FROM g WHERE id_time(sps) > t + current_setting('uniqueid.max_clock_lead')::interval
           OR id_time(sps) < t - interval '1 minute'), 0,
          'spread mode IDs still decode to their time');
SELECT ok((SELECT count(DISTINCT id_random(si)) > 400 FROM g), 'shortid random bits vary (more than 400 of 512 values seen)');
SELECT is((SELECT count(*)::int FROM g WHERE id_node(sf) <> current_setting('uniqueid.node')::int
           OR id_node(sy) <> current_setting('uniqueid.node')::int OR id_node(spt) <> current_setting('uniqueid.node')::int
           OR id_cluster(spt) <> current_setting('uniqueid.cluster')::int), 0,
          'generators embed uniqueid.node and uniqueid.cluster');
SELECT is((SELECT count(*)::int FROM g WHERE id_time(sy) > t + current_setting('uniqueid.max_clock_lead')::interval
           OR id_time(sy) < t - interval '1 minute' OR extract(milliseconds FROM id_time(sy))::numeric % 10 <> 0), 0,
          'sonyflake times are 10 ms units, within the lead of the clock (256 per 10 ms: 20,000 borrow ahead)');

SELECT * FROM finish();
ROLLBACK;
