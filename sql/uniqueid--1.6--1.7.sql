-- uniqueid 1.6 -> 1.7: what the generators and the durable horizon report,
-- for monitoring (doc/monitoring.md): the views uniqueid_generators and
-- uniqueid_durability, and uniqueid_stats_reset().  Like pg_stat_statements:
-- readable by pg_read_all_stats (so pg_monitor), reset by superusers and
-- the roles they grant it to.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.7'" to load this file. \quit

-- One row per family, and per logical shard of shardid in use: the IDs
-- issued since the start or reset, the last ID's time and its lead over the
-- clock now, the time units borrowed ahead of the clock (how many, their
-- length, the furthest ahead one started), the calls that waited for the
-- clock, the calls refused (by reason), and the layout's capacity per
-- time unit.
CREATE FUNCTION uniqueid_generator_stats(
    OUT family text, OUT shard integer, OUT node integer,
    OUT issued bigint, OUT last_id_time timestamptz, OUT lead_ms double precision,
    OUT borrows bigint, OUT borrowed_ms double precision, OUT max_lead_ms double precision,
    OUT clock_waits bigint, OUT clock_wait_ms double precision, OUT max_clock_wait_ms double precision,
    OUT refused_no_ids_left bigint, OUT refused_not_owned bigint, OUT refused_released bigint,
    OUT refused_no_node bigint,
    OUT ids_per_unit bigint, OUT unit interval, OUT state text, OUT stats_reset timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uniqueid_generator_stats' LANGUAGE C STRICT VOLATILE;

CREATE VIEW uniqueid_generators AS
    SELECT * FROM uniqueid_generator_stats();

-- The durable state: a row for the server (its horizon, the floor fixed at
-- startup, its writes, the time spent writing and fsyncing the state file,
-- flushing the WAL and waiting for the synchronous standbys, the wait under
-- way, and the clock's steps back), and one per logical shard with a
-- horizon of its own.
CREATE FUNCTION uniqueid_durability_stats(
    OUT scope text, OUT shard integer, OUT horizon timestamptz, OUT floor timestamptz,
    OUT written_at timestamptz, OUT writes bigint, OUT write_failures bigint,
    OUT file_writes bigint, OUT file_write_ms double precision, OUT file_write_max_ms double precision,
    OUT wal_flushes bigint, OUT wal_flush_ms double precision, OUT wal_flush_max_ms double precision,
    OUT sync_waits bigint, OUT sync_wait_ms double precision, OUT sync_wait_max_ms double precision,
    OUT sync_waiting_since timestamptz,
    OUT clock_steps_back bigint, OUT clock_step_back_max_ms double precision,
    OUT clock_stepped_back_at timestamptz, OUT stats_reset timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uniqueid_durability_stats' LANGUAGE C STRICT VOLATILE;

CREATE VIEW uniqueid_durability AS
    SELECT * FROM uniqueid_durability_stats();

-- Every counter of both views back to 0; returns the time of the reset.
CREATE FUNCTION uniqueid_stats_reset() RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uniqueid_stats_reset' LANGUAGE C STRICT VOLATILE;

REVOKE ALL ON FUNCTION uniqueid_generator_stats(), uniqueid_durability_stats(),
    uniqueid_stats_reset() FROM PUBLIC;
REVOKE ALL ON uniqueid_generators, uniqueid_durability FROM PUBLIC;
GRANT EXECUTE ON FUNCTION uniqueid_generator_stats(), uniqueid_durability_stats() TO pg_read_all_stats;
GRANT SELECT ON uniqueid_generators, uniqueid_durability TO pg_read_all_stats;
