-- The monitoring views (doc/monitoring.md): their rows and counters as the
-- generators drive them in this one server, the reset, and who may read
-- and reset them.  The TAP test t/057_monitoring.pl drives the counters
-- that need a server of their own (borrowing, the clock set back, a failed
-- horizon write, a released shard, a stopped synchronous standby).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS uniqueid;
RESET client_min_messages;

-- a reset returns its time, which both views show
SELECT uniqueid_stats_reset() AS reset_at \gset
SELECT count(*) FILTER (WHERE shard IS NULL) AS family_rows, bool_and(stats_reset = :'reset_at') AS reset_shown
  FROM uniqueid_catalog.uniqueid_generators;
SELECT scope, shard, stats_reset = :'reset_at' AS reset_shown, writes, write_failures
  FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server';

-- every family has a row, with the capacity of its layout per time unit;
-- the node-bearing ones show the node number in use
SELECT family, node, issued, borrows, clock_waits, ids_per_unit, unit
  FROM uniqueid_catalog.uniqueid_generators WHERE shard IS NULL ORDER BY family;

-- IDs issued are counted: this transaction's own at once, others' at their end
BEGIN;
SELECT count(next_snowflake()) FROM generate_series(1, 3);
SELECT count(next_uuid7()) FROM generate_series(1, 2);
SELECT family, issued FROM uniqueid_catalog.uniqueid_generators WHERE family IN ('snowflake', 'uuid7') ORDER BY family;
COMMIT;
SELECT count(next_sno(0)), count(next_objectid()), count(next_id()) FROM generate_series(1, 4);
SELECT family, shard, issued, state FROM uniqueid_catalog.uniqueid_generators WHERE issued > 0 ORDER BY family, shard;
-- an aborted transaction's IDs were issued all the same
BEGIN;
SELECT count(next_ulid()) FROM generate_series(1, 5);
ROLLBACK;
SELECT issued FROM uniqueid_catalog.uniqueid_generators WHERE family = 'ulid';

-- the last ID's time is the time of the last ID issued, give or take its unit
-- (and, at this rate, not ahead of the clock)
SELECT last_id_time <= id_time(next_snowflake()) AS before_next,
       last_id_time > now() - interval '1 minute' AS recent,
       lead_ms = 0 AS not_ahead
  FROM uniqueid_catalog.uniqueid_generators WHERE family = 'snowflake';

-- a logical shard used has a row of its own (this server owns every shard:
-- t/057_monitoring.pl refuses one it does not own)
-- (70,000 in one transaction: past the 16 bits a backend counts a shard's in)
SELECT count(next_id(4321)) FROM generate_series(1, 70000);
SELECT family, shard, node, issued, refused_not_owned, refused_released, refused_no_ids_left, state
  FROM uniqueid_catalog.uniqueid_generators WHERE shard = 4321;

-- the durable horizon: set, at or past the floor (NULL: no horizon before the first ID)
SELECT (floor IS NULL OR horizon >= floor) AS horizon_past_floor, horizon > now() - interval '1 minute' AS horizon_recent,
       file_writes >= writes AS every_write_timed, sync_waits, sync_waiting_since IS NULL AS not_waiting
  FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server';

-- the reset: counters back to 0, the generators and the horizon untouched
SELECT uniqueid_stats_reset() > :'reset_at' AS later;
SELECT count(*) FILTER (WHERE issued + borrows + clock_waits + refused_not_owned > 0) AS counting,
       count(*) FILTER (WHERE family = 'snowflake' AND last_id_time IS NOT NULL) AS snowflake_time_kept,
       count(*) FILTER (WHERE shard = 4321) AS used_shard_kept
  FROM uniqueid_catalog.uniqueid_generators;
SELECT writes, write_failures, file_writes, wal_flushes, horizon IS NOT NULL AS horizon_kept
  FROM uniqueid_catalog.uniqueid_durability WHERE scope = 'server';

-- Who may read and reset: like pg_stat_statements, pg_read_all_stats (and
-- so pg_monitor) reads; only superusers, and roles granted it, reset.
CREATE ROLE regress_uid_plain;
CREATE ROLE regress_uid_monitor IN ROLE pg_monitor;
SET ROLE regress_uid_plain;
\set VERBOSITY sqlstate
SELECT count(*) FROM uniqueid_catalog.uniqueid_generators;
SELECT count(*) FROM uniqueid_catalog.uniqueid_durability;
SELECT count(*) FROM uniqueid_generator_stats();
SELECT uniqueid_stats_reset();
\set VERBOSITY default
SET ROLE regress_uid_monitor;
SELECT count(*) > 0 AS reads FROM uniqueid_catalog.uniqueid_generators;
SELECT count(*) > 0 AS reads FROM uniqueid_catalog.uniqueid_durability;
\set VERBOSITY sqlstate
SELECT uniqueid_stats_reset();
\set VERBOSITY default
RESET ROLE;
GRANT EXECUTE ON FUNCTION uniqueid_stats_reset() TO regress_uid_monitor;
SET ROLE regress_uid_monitor;
SELECT uniqueid_stats_reset() IS NOT NULL AS granted_reset;
RESET ROLE;
REVOKE EXECUTE ON FUNCTION uniqueid_stats_reset() FROM regress_uid_monitor;
DROP ROLE regress_uid_plain;
DROP ROLE regress_uid_monitor;
