-- uniqueid 1.1 -> 1.2: the horizon kept in each database, carried by
-- pg_upgrade, pg_dump and (PostgreSQL 19) logical replication of sequences.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.2'" to load this file. \quit

-- The server's horizon as this database last relied on it, in Unix ms: every
-- ID made here has a time below it.  The generators raise it in place (never
-- nextval() or setval() it yourself: a value set lower is raised again, a
-- value set higher moves every generator of the server up to it).
CREATE SEQUENCE uniqueid_horizon_ms MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE uniqueid_horizon_ms IS
    'uniqueid''s horizon in this database (Unix ms); raised by the generators, carried by pg_upgrade and pg_dump';
-- The same for the logical shards adopted ahead of the clock (shard_adopt):
-- the greatest of their own horizons that IDs made here relied on.
CREATE SEQUENCE uniqueid_shard_horizon_ms MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE uniqueid_shard_horizon_ms IS
    'uniqueid''s greatest adopted-shard horizon in this database (Unix ms); raised by the generators, carried by pg_upgrade and pg_dump';
-- pg_dump dumps their values, after CREATE EXTENSION
SELECT pg_catalog.pg_extension_config_dump('uniqueid_horizon_ms', '');
SELECT pg_catalog.pg_extension_config_dump('uniqueid_shard_horizon_ms', '');

CREATE FUNCTION uniqueid_horizon() RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uniqueid_horizon' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uniqueid_horizon() IS
    'the server''s durable horizon: every ID it has issued lies below it';

CREATE FUNCTION uniqueid_raise_horizon(at timestamptz) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uniqueid_raise_horizon' LANGUAGE C VOLATILE STRICT;
REVOKE EXECUTE ON FUNCTION uniqueid_raise_horizon(timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION uniqueid_raise_horizon(timestamptz) IS
    'every generator of this server continues at or after the given time (raise-only; superuser)';

-- The IDs made here before this update lie below the server's horizon:
-- uniqueid_horizon() records it in the sequence (where the server
-- generates; elsewhere the first ID made here does).
DO $$
BEGIN
    PERFORM uniqueid_horizon();
EXCEPTION WHEN object_not_in_prerequisite_state OR read_only_sql_transaction
    OR configuration_limit_exceeded OR lock_not_available THEN
    NULL;
END
$$;
