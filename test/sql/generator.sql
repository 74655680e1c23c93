-- next_id(shard): single-backend behaviour and every error with its SQLSTATE
-- (on any server with uniqueid preloaded, whatever its uniqueid.* settings,
-- as long as it owns shards 0, 5, 6, 4000 and 8191, as the default "all" does)
CREATE EXTENSION IF NOT EXISTS uniqueid;
SET timezone = 'UTC';

-- 10,000 IDs of one shard in one statement: strictly increasing, right shard,
-- each time between the clock before the call and the lead limit after it
CREATE TEMP TABLE g AS
SELECT n, clock_timestamp() AS before, next_id(5) AS id, clock_timestamp() AS t FROM generate_series(1, 10000) AS n;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(id_shard(id) = 5) AS all_shard_5
FROM g;
SELECT bool_and(ok) AS strictly_increasing
FROM (SELECT id > lag(id) OVER (ORDER BY n) AS ok FROM g) s WHERE ok IS NOT NULL;
SELECT bool_and(id_time(id) >= date_trunc('milliseconds', before)
                AND id_time(id) <= t + current_setting('uniqueid.max_clock_lead')::interval) AS times_near_clock
FROM g;

-- every shard has its own sequence: the first ID of a new millisecond is seq 0
SELECT id_seq(next_id(6)) < 1024 AS seq_in_range, id_shard(next_id(8191)) AS last_shard,
       id_shard(next_id(0)) AS first_shard;

-- as a column default
CREATE TABLE photos (id shardid PRIMARY KEY DEFAULT next_id(5), caption text);
INSERT INTO photos (caption) SELECT 'p' || n FROM generate_series(1, 1000) n;
SELECT count(*), count(DISTINCT id), bool_and(id_shard(id) = 5) FROM photos;
SELECT bool_and(ok) AS insert_order_is_id_order
FROM (SELECT id > lag(id) OVER (ORDER BY substr(caption, 2)::int) AS ok FROM photos) s WHERE ok IS NOT NULL;
-- and in a bigint column, through the assignment cast
CREATE TABLE legacy_photos (id bigint PRIMARY KEY DEFAULT next_id(5));
INSERT INTO legacy_photos DEFAULT VALUES;
SELECT id_shard(id::shardid) FROM legacy_photos;

-- next_id(): this server's own shard, numbered uniqueid.node (0 here)
SELECT id_shard(next_id()) AS own_shard, next_id() < next_id() AS increasing;
-- NULL shard: NULL, no error
SELECT next_id(NULL) IS NULL AS null_shard;

-- errors
SELECT next_id(-1);
\echo :LAST_ERROR_SQLSTATE
SELECT next_id(8192);
\echo :LAST_ERROR_SQLSTATE
-- (a shard this server does not own: t/051_shards.pl, on a server configured for it)

-- generators are volatile and parallel safe; extractors immutable
SELECT proname, provolatile, proparallel, proisstrict FROM pg_proc
WHERE proname IN ('next_id', 'make_shardid')
   OR (proname IN ('id_time', 'id_shard', 'id_seq') AND proargtypes[0] = 'shardid'::regtype)
ORDER BY 1;

-- shard_adopt: the next IDs of an adopted shard exceed the last one it had
-- elsewhere, even when that one is ahead of this server's clock
CREATE TEMP TABLE adopted AS SELECT make_shardid(clock_timestamp() + interval '2 seconds', 4000, 17) AS last;
SELECT shard_adopt(4000, last) FROM adopted;
-- (the first ID continues from last, not from this server's clock 2 s behind;
-- whether it shares last's millisecond depends on how long this takes)
SELECT n > last AS greater, id_time(n) - id_time(last) < interval '1 second' AS continues_from_last
FROM adopted, LATERAL (SELECT next_id(4000) AS n) g;
-- a last ID of another shard, a bad shard, a non-superuser
SELECT shard_adopt(4001, make_shardid('2020-01-01 00:00+00', 4000, 17));
\echo :LAST_ERROR_SQLSTATE
SELECT shard_adopt(9000, make_shardid('2020-01-01 00:00+00', 4000, 17));
\echo :LAST_ERROR_SQLSTATE
-- the horizon only moves forward: a last ID more than an hour ahead is refused
\set VERBOSITY sqlstate
SELECT shard_adopt(4000, make_shardid(now() + interval '2 hours', 4000, 0));
\set VERBOSITY default
CREATE ROLE uid_plain;
GRANT SELECT ON adopted TO uid_plain;
SET ROLE uid_plain;
SELECT shard_adopt(4000, last) FROM adopted;
\echo :LAST_ERROR_SQLSTATE
SELECT shard_release(4000);
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP TABLE adopted;
DROP ROLE uid_plain;

-- shard_release: the shard's generation ends here, and the last ID it gave
-- comes back (the same again if asked twice); shard_adopt resumes it
CREATE TABLE released AS SELECT next_id(8190) AS last_made;
SELECT shard_release(8190) = last_made AS returns_last FROM released;
SELECT next_id(8190);
SELECT shard_release(8190) = last_made AS same_again FROM released;
SELECT shard_adopt(8190, shard_release(8190));
SELECT next_id(8190) > last_made AS resumed_above FROM released;
SELECT shard_release(8192);
\echo :LAST_ERROR_SQLSTATE
DROP TABLE released;

-- the cluster functions need Citus; the shard list reads uniqueid.shards' syntax
SELECT * FROM uniqueid_check_nodes();
\echo :LAST_ERROR_SQLSTATE
SELECT uniqueid_move_shard(5, 'elsewhere', 5432);
\echo :LAST_ERROR_SQLSTATE
SELECT array_agg(s) FROM uniqueid_owned_shards(' 0-3, 10,12 - 13') s;
SELECT count(*) FROM uniqueid_owned_shards('ALL');
SELECT count(*) FROM uniqueid_owned_shards('');
