-- uniqueid 1.2 -> 1.3: the ID of a time for every time-ordered type, and
-- the time of an ID written as text: partition bounds for tables
-- partitioned by the time inside their ID (doc/partitioning.md), and the
-- time encoder and decoder pg_partman takes for uuid and text columns.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.3'" to load this file. \quit

-- doc/uuid7.md of 1.0 to 1.2 asked users to write uuid7_floor(t timestamptz)
-- RETURNS uuid themselves, in SQL.  The extension's comes now, with the same
-- values; a function of that signature in the extension's schema that is
-- not the extension's stops the update (or the install) with nothing
-- changed, saying what to do: it is the user's, and is never dropped here.
-- (Every comparison names pg_catalog's operator: the schema is on the
-- search path, and another role could put an operator there.)
DO $$
DECLARE
    f pg_catalog.oid := pg_catalog.to_regprocedure('@extschema@.uuid7_floor(timestamptz)');
BEGIN
    IF f IS NOT NULL AND NOT EXISTS (
        SELECT FROM pg_catalog.pg_depend d
        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
          AND d.objid OPERATOR(pg_catalog.=) f AND d.deptype OPERATOR(pg_catalog.=) 'e') THEN
        RAISE EXCEPTION 'function %.uuid7_floor(timestamptz) already exists', '@extschema@'
            USING ERRCODE = 'duplicate_function',
                  DETAIL = 'uniqueid 1.3 adds uuid7_floor(timestamptz) returning uuid; this one is not the '
                           'extension''s (doc/uuid7.md of uniqueid 1.0 to 1.2 had users write one).',
                  HINT = 'If it is that one, drop it (and, first, the objects that use it, to create them again '
                         'afterwards) and run the command again: the extension''s gives the same values. '
                         'Otherwise rename it.';
    END IF;
END $$;

-- TYPE_floor(time): the smallest ID of TYPE whose time is at or after time
-- (time rounded up to the type's unit, every other field zero): the ID that
-- `id >= time` compares with, so `id >= TYPE_floor(t)` selects the same
-- rows as `id >= t`.  22008 for a time outside the type's.
CREATE FUNCTION shardid_floor("time" timestamptz) RETURNS shardid
    AS 'MODULE_PATHNAME', 'shardid_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_floor("time" timestamptz) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'snowflake_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sonyflake_floor("time" timestamptz) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'sonyflake_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shortid_floor("time" timestamptz) RETURNS shortid
    AS 'MODULE_PATHNAME', 'shortid_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_floor("time" timestamptz) RETURNS sno
    AS 'MODULE_PATHNAME', 'sno_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_floor("time" timestamptz) RETURNS objectid
    AS 'MODULE_PATHNAME', 'objectid_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_floor("time" timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_floor("time" timestamptz) RETURNS ksuid
    AS 'MODULE_PATHNAME', 'ksuid_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION rsxid_floor("time" timestamptz) RETURNS rsxid
    AS 'MODULE_PATHNAME', 'rsxid_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- the smallest version 7 UUID of the time: xxxxxxxx-xxxx-7000-8000-000000000000
CREATE FUNCTION uuid7_floor("time" timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid7_floor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- a typeid's order is its prefix's, then its UUID's: the floor is per prefix
CREATE FUNCTION typeid_floor(prefix text, "time" timestamptz) RETURNS typeid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN make_typeid(prefix, uuid7_floor("time"));

-- TYPE_text_time(text): id_time of an ID stored as text in TYPE's text form,
-- for tables that keep IDs in text columns (and pg_partman's time decoder,
-- which is always given text).  The text's errors are TYPE's input errors.
CREATE FUNCTION shardid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::shardid);
CREATE FUNCTION snowflake_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::snowflake);
CREATE FUNCTION sonyflake_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::sonyflake);
CREATE FUNCTION shortid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::shortid);
CREATE FUNCTION sno_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::sno);
CREATE FUNCTION objectid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::objectid);
CREATE FUNCTION ulid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::ulid);
CREATE FUNCTION ksuid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::ksuid);
CREATE FUNCTION rsxid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::rsxid);
CREATE FUNCTION typeid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::typeid);
-- a version 1, 6 or 7 UUID (id_time(uuid))
CREATE FUNCTION uuid_text_time(id text) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id_time(id::uuid);
