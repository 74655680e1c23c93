-- uniqueid 1.2 -> 1.3: the ID of a time for every time-ordered type, and
-- the time of an ID written as text: partition bounds for tables
-- partitioned by the time inside their ID (doc/partitioning.md), and the
-- time encoder and decoder pg_partman takes for uuid and text columns.

\echo Use "ALTER EXTENSION uniqueid UPDATE TO '1.3'" to load this file. \quit

-- doc/uuid7.md of 1.0 to 1.2 asked users to write uuid7_floor(t timestamptz)
-- RETURNS uuid themselves, in SQL, with the values of the one below.  Such
-- a function in the extension's schema is dropped, so that the update can
-- create the extension's; where something depends on it, or it returns
-- another type, the update stops with nothing changed, saying what to do.
DO $$
DECLARE
    f regprocedure := to_regprocedure('@extschema@.uuid7_floor(timestamptz)');
    fname text := f::text;
BEGIN
    IF f IS NULL OR EXISTS (SELECT FROM pg_catalog.pg_depend
                            WHERE classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND objid = f AND deptype = 'e') THEN
        RETURN;
    END IF;
    IF (SELECT prorettype FROM pg_catalog.pg_proc WHERE oid = f) <> 'pg_catalog.uuid'::pg_catalog.regtype THEN
        RAISE EXCEPTION 'function % already exists', f
            USING ERRCODE = 'duplicate_function',
                  DETAIL = 'uniqueid 1.3 adds uuid7_floor(timestamptz) returning uuid; this one returns '
                           || (SELECT prorettype::pg_catalog.regtype FROM pg_catalog.pg_proc WHERE oid = f)::text || '.',
                  HINT = 'Rename or drop that function, then run ALTER EXTENSION uniqueid UPDATE again.';
    END IF;
    BEGIN
        EXECUTE pg_catalog.format('DROP FUNCTION %s', f);
    EXCEPTION WHEN dependent_objects_still_exist THEN
        RAISE EXCEPTION 'function % cannot be replaced by uniqueid''s: other objects depend on it', f
            USING ERRCODE = 'dependent_objects_still_exist',
                  DETAIL = (SELECT pg_catalog.string_agg(pg_catalog.pg_describe_object(classid, objid, objsubid), ', ')
                            FROM pg_catalog.pg_depend
                            WHERE refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND refobjid = f),
                  HINT = 'uniqueid 1.3 provides uuid7_floor(timestamptz) with the same values: drop those objects, '
                         'run ALTER EXTENSION uniqueid UPDATE, and create them again.';
    END;
    RAISE WARNING 'function % (from doc/uuid7.md) is replaced by uniqueid''s own, which gives the same values', fname;
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
