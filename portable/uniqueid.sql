-- uniqueid, SQL edition (portable/uniqueid.sql): the IDs of the uniqueid
-- extension for servers that cannot load its C library (managed
-- PostgreSQL: RDS, Aurora, Cloud SQL, Azure, Supabase, Neon...).
--
-- Installs into the schema first in search_path (current_schema()), as
-- whichever role runs it: no superuser, no library, no preload, only the
-- trusted languages sql and plpgsql.  PostgreSQL 15 or later.
--
--   psql -v ON_ERROR_STOP=1 -1 -f portable/uniqueid.sql        (or paste it)
--   psql -v ON_ERROR_STOP=1 -1 -f portable/uniqueid-remove.sql removes it
--
-- The same names, bit layouts, values and errors as the C extension for
-- shardid (IDs made before 2046), snowflake, sonyflake and version 7
-- UUIDs; what it cannot promise is in doc/portable.md.  Nothing here is a psql
-- meta-command: the file also runs in a hosted SQL editor.

DO $check$
BEGIN
    IF pg_catalog.current_schema() IS NULL THEN
        RAISE EXCEPTION 'no schema to install uniqueid''s SQL edition into'
            USING ERRCODE = 'invalid_schema_name',
                  HINT = 'Create a schema and put it first in search_path (SET search_path = myschema).';
    END IF;
    IF pg_catalog.current_setting('server_version_num')::integer OPERATOR(pg_catalog.<) 150000 THEN
        RAISE EXCEPTION 'uniqueid''s SQL edition needs PostgreSQL 15 or later'
            USING ERRCODE = 'feature_not_supported';
    END IF;
    IF pg_catalog.to_regclass(pg_catalog.quote_ident(pg_catalog.current_schema()) OPERATOR(pg_catalog.||) '.uniqueid_node') IS NOT NULL THEN
        RAISE EXCEPTION 'uniqueid''s SQL edition is already installed in schema %', pg_catalog.current_schema()
            USING ERRCODE = 'duplicate_object',
                  HINT = 'Run portable/uniqueid-remove.sql first to install it again.';
    END IF;
END
$check$;

-- While it installs, the script's names resolve in pg_catalog, then in the
-- edition's schema, and nowhere else: an operator or function another role
-- created in another schema of the caller's search_path is never bound into
-- the edition's SQL bodies, and a type another role named text, timestamptz,
-- uuid or regclass in the edition's schema never takes the place of
-- pg_catalog's in its signatures, variables and tables (search_path is the
-- schema alone: pg_catalog, not named in it, is searched first).  Set for
-- the session (a SQL editor may run each statement in a transaction of its
-- own) and restored at the end; had the script failed half-way outside one
-- transaction, `SET search_path` it again by hand.
DO $path$
BEGIN
    PERFORM pg_catalog.set_config('uniqueid_edition.search_path', pg_catalog.current_setting('search_path'), false);
    PERFORM pg_catalog.set_config('search_path', pg_catalog.quote_ident(pg_catalog.current_schema()), false);
END
$path$;

-- The edition's objects name each other with its schema, whatever the
-- search_path at install or call time: their text is completed here.
DO $types$
DECLARE
    s text := pg_catalog.quote_ident(pg_catalog.current_schema());
BEGIN
    EXECUTE pg_catalog.replace($sql$
---------------------------------------------------------------------------
-- errors, as the C extension raises them
---------------------------------------------------------------------------

-- 22003: a field of an ID outside 0..max (make_shardid's shard, ...)
CREATE FUNCTION @S@.uniqueid_out_of_range(typname text, field text, value bigint, max bigint)
RETURNS bigint LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION '% % is out of range for type %', field, value, typname
        USING ERRCODE = 'numeric_value_out_of_range',
              DETAIL = pg_catalog.format('Valid values of %s are 0 to %s.', field, max);
END
$$;

-- 22008: a time outside what a type holds, first to last.  The times in
-- ISO style, in the session's time zone, whatever its DateStyle, as the C
-- extension prints them (timestamptz_to_str)
CREATE FUNCTION @S@.uniqueid_time_out_of_range(typname text, t timestamptz, first timestamptz, last timestamptz)
RETURNS bigint LANGUAGE plpgsql STABLE PARALLEL SAFE
SET datestyle = 'ISO'
AS $$
BEGIN
    IF typname OPERATOR(pg_catalog.=) 'shardid' AND t OPERATOR(pg_catalog.>) last
       AND t OPERATOR(pg_catalog.<) timestamptz '2081-04-30 12:54:37.273+00' THEN
        RAISE EXCEPTION 'timestamp out of range for type %: "%"', typname, t
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = pg_catalog.format('Type %s holds times from %s to %s.', typname, first, last),
                  HINT = 'The SQL edition''s shardid ends where the top bit of a bigint would be set; the C extension''s runs to 2081.';
    END IF;
    RAISE EXCEPTION 'timestamp out of range for type %: "%"', typname, t
        USING ERRCODE = 'datetime_field_overflow',
              DETAIL = pg_catalog.format('Type %s holds times from %s to %s.', typname, first, last);
END
$$;

-- 22003: a bigint that is no ID of the type (its top bit set).  STRICT: a
-- NULL is a value of the domains, as of the C types, and passes their check
CREATE FUNCTION @S@.uniqueid_not_an_id(typname text, value bigint)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION 'value % is out of range for type %', value, typname
        USING ERRCODE = 'numeric_value_out_of_range',
              DETAIL = CASE WHEN typname OPERATOR(pg_catalog.=) 'shardid'
                            THEN 'The SQL edition''s shardid holds the IDs made before 2046, whose top bit is clear.'
                            ELSE pg_catalog.format('Bits outside the fields of %s must be zero.', typname) END;
END
$$;

---------------------------------------------------------------------------
-- time arithmetic, exact to the microsecond
---------------------------------------------------------------------------

-- milliseconds since 1970-01-01 UTC, with their fraction (t finite)
CREATE FUNCTION @S@.uniqueid_unix_ms(t timestamptz) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN EXTRACT(epoch FROM pg_catalog.timezone('UTC', t)) OPERATOR(pg_catalog.*) 1000::numeric;

-- the time `ms` milliseconds after 1970-01-01 UTC (ms >= 0)
CREATE FUNCTION @S@.uniqueid_unix_time(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC', timestamp '1970-01-01 00:00:00'
       OPERATOR(pg_catalog.+) pg_catalog.make_interval(days => (ms OPERATOR(pg_catalog./) 86400000::bigint)::integer,
                                                       secs => (ms OPERATOR(pg_catalog.%) 86400000::bigint)::double precision
                                                               OPERATOR(pg_catalog./) 1000.0::double precision));

---------------------------------------------------------------------------
-- the types: domains over bigint whose values are the C types' bit for bit
---------------------------------------------------------------------------

-- Instagram: time 41 (ms since 2011-08-24T21:07:01.721Z) . shard 13 . seq 10,
-- for the IDs made before 2046-05-12 (the top bit clear)
CREATE DOMAIN shardid AS bigint
    CONSTRAINT shardid_before_2046 CHECK (VALUE OPERATOR(pg_catalog.>=) 0 OR @S@.uniqueid_not_an_id('shardid', VALUE));
COMMENT ON DOMAIN shardid IS 'uniqueid SQL edition: Instagram''s 64-bit shard IDs made before 2046';

-- Twitter: 0 . time 41 (ms since 2010-11-04T01:42:54.657Z) . node 10 . seq 12
CREATE DOMAIN snowflake AS bigint
    CONSTRAINT snowflake_top_bit_clear CHECK (VALUE OPERATOR(pg_catalog.>=) 0 OR @S@.uniqueid_not_an_id('snowflake', VALUE));
COMMENT ON DOMAIN snowflake IS 'uniqueid SQL edition: Twitter''s snowflake IDs';

-- Sony: 0 . time 39 (10 ms units since 2014-09-01) . seq 8 . machine 16
CREATE DOMAIN sonyflake AS bigint
    CONSTRAINT sonyflake_top_bit_clear CHECK (VALUE OPERATOR(pg_catalog.>=) 0 OR @S@.uniqueid_not_an_id('sonyflake', VALUE));
COMMENT ON DOMAIN sonyflake IS 'uniqueid SQL edition: Sony''s sonyflake IDs';

---------------------------------------------------------------------------
-- decoding
---------------------------------------------------------------------------

CREATE FUNCTION @S@.id_time(shardid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @S@.uniqueid_unix_time(($1::bigint OPERATOR(pg_catalog.>>) 23) OPERATOR(pg_catalog.+) 1314220021721);
CREATE FUNCTION @S@.id_shard(shardid) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (($1::bigint OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 8191::bigint)::integer;
CREATE FUNCTION @S@.id_seq(shardid) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ($1::bigint OPERATOR(pg_catalog.&) 1023::bigint)::integer;
CREATE FUNCTION @S@.id_parts(id shardid, OUT "time" timestamptz, OUT shard integer, OUT seq integer)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @S@.id_time(id), @S@.id_shard(id), @S@.id_seq(id);
END;

CREATE FUNCTION @S@.id_time(snowflake) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @S@.uniqueid_unix_time(($1::bigint OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.+) 1288834974657);
CREATE FUNCTION @S@.id_node(snowflake) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (($1::bigint OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.&) 1023::bigint)::integer;
CREATE FUNCTION @S@.id_seq(snowflake) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ($1::bigint OPERATOR(pg_catalog.&) 4095::bigint)::integer;
CREATE FUNCTION @S@.id_parts(id snowflake, OUT "time" timestamptz, OUT node integer, OUT seq integer)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @S@.id_time(id), @S@.id_node(id), @S@.id_seq(id);
END;

CREATE FUNCTION @S@.id_time(sonyflake) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @S@.uniqueid_unix_time((($1::bigint OPERATOR(pg_catalog.>>) 24) OPERATOR(pg_catalog.*) 10::bigint) OPERATOR(pg_catalog.+) 1409529600000);
CREATE FUNCTION @S@.id_seq(sonyflake) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (($1::bigint OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 255::bigint)::integer;
CREATE FUNCTION @S@.id_node(sonyflake) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ($1::bigint OPERATOR(pg_catalog.&) 65535::bigint)::integer;
CREATE FUNCTION @S@.id_parts(id sonyflake, OUT "time" timestamptz, OUT seq integer, OUT machine integer)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT @S@.id_time(id), @S@.id_seq(id), @S@.id_node(id);
END;

-- id_time(uuid): the time of a version 1, 6 or 7 UUID, truncated to the
-- microsecond; 22023 for any other
CREATE FUNCTION @S@.id_time(uuid) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    hex text := pg_catalog.replace($1::text, '-', '');
    hi bigint := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(hex, 1, 16))::bit(64)::bigint;
    octet8 integer := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(hex, 17, 2))::bit(8)::integer;
    version integer := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(hex, 13, 1))::bit(4)::integer;
    what text;
    detail text;
    t100ns numeric;
    unix_us numeric;
BEGIN
    IF hex OPERATOR(pg_catalog.=) '00000000000000000000000000000000' THEN
        what := 'the nil UUID';
    ELSIF hex OPERATOR(pg_catalog.=) 'ffffffffffffffffffffffffffffffff' THEN
        what := 'the max UUID';
    ELSIF (octet8 OPERATOR(pg_catalog.&) 192) OPERATOR(pg_catalog.<>) 128 THEN
        IF (octet8 OPERATOR(pg_catalog.&) 128) OPERATOR(pg_catalog.=) 0 THEN
            what := 'of the NCS variant';
            detail := 'Its variant bits are 0; versions exist only in RFC 9562''s variant, 10.';
        ELSIF (octet8 OPERATOR(pg_catalog.&) 224) OPERATOR(pg_catalog.=) 192 THEN
            what := 'of the Microsoft variant';
            detail := 'Its variant bits are 110; versions exist only in RFC 9562''s variant, 10.';
        ELSE
            what := 'of the reserved variant';
            detail := 'Its variant bits are 111; versions exist only in RFC 9562''s variant, 10.';
        END IF;
    ELSIF version OPERATOR(pg_catalog.<>) ALL ('{1,6,7}'::integer[]) THEN
        what := pg_catalog.format('version %s', version);
    END IF;
    IF detail IS NOT NULL THEN
        RAISE EXCEPTION 'uuid "%" is %, which holds no time', $1, what
            USING ERRCODE = 'invalid_parameter_value', DETAIL = detail,
                  HINT = 'Only UUIDs of versions 1, 6 and 7 hold a time.';
    ELSIF what IS NOT NULL THEN
        RAISE EXCEPTION 'uuid "%" is %, which holds no time', $1, what
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Only UUIDs of versions 1, 6 and 7 hold a time.';
    END IF;
    IF version OPERATOR(pg_catalog.=) 7 THEN
        -- unix_ts_ms 48 . ver 4 . rand_a 12
        unix_us := ((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 281474976710655)::numeric
                   OPERATOR(pg_catalog.*) 1000::numeric;
    ELSE
        -- hi as unsigned
        IF version OPERATOR(pg_catalog.=) 6 THEN
            -- time_high 32 . time_mid 16 . ver 4 . time_low 12
            t100ns := (((hi OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295)::numeric
                       OPERATOR(pg_catalog.*) 268435456::numeric)
                      OPERATOR(pg_catalog.+) (((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 65535::bigint)
                                              OPERATOR(pg_catalog.*) 4096::bigint)::numeric
                      OPERATOR(pg_catalog.+) (hi OPERATOR(pg_catalog.&) 4095::bigint)::numeric;
        ELSE
            -- time_low 32 . time_mid 16 . ver 4 . time_high 12
            t100ns := ((hi OPERATOR(pg_catalog.&) 4095::bigint)::numeric OPERATOR(pg_catalog.*) 281474976710656::numeric)
                      OPERATOR(pg_catalog.+) (((hi OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 65535::bigint)::numeric
                                              OPERATOR(pg_catalog.*) 4294967296::numeric)
                      OPERATOR(pg_catalog.+) ((hi OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295)::numeric;
        END IF;
        -- floor to the microsecond, then from 1582-10-15 to 1970-01-01
        unix_us := pg_catalog.div(t100ns, 10::numeric) OPERATOR(pg_catalog.-) 12219292800000000::numeric;
    END IF;
    -- (from 1582 to 10889: always a timestamptz)
    RETURN pg_catalog.timezone('UTC', timestamp '1970-01-01 00:00:00' OPERATOR(pg_catalog.+) pg_catalog.make_interval(
        days => pg_catalog.div(unix_us, 86400000000::numeric)::integer,
        secs => (pg_catalog.mod(unix_us, 86400000000::numeric) OPERATOR(pg_catalog./) 1000000::numeric)::double precision));
END
$$;

-- id_parts(uuid): its version where its variant is RFC 9562's (else NULL),
-- and its time where the version holds one (else NULL)
CREATE FUNCTION @S@.id_parts(id uuid, OUT version integer, OUT "time" timestamptz)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
    SELECT v, CASE WHEN v OPERATOR(pg_catalog.=) ANY ('{1,6,7}'::integer[]) THEN @S@.id_time(id) END
    FROM (SELECT CASE WHEN (pg_catalog.get_byte(b, 8) OPERATOR(pg_catalog.>>) 6) OPERATOR(pg_catalog.=) 2
                      THEN pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.>>) 4 END
          FROM pg_catalog.uuid_send(id) AS b) AS x(v);
END;

---------------------------------------------------------------------------
-- making IDs from their fields, and the floors of a time
---------------------------------------------------------------------------

-- units of unit_ms ms since epoch_ms of t, truncated; 22008 outside 0..time_max
CREATE FUNCTION @S@.uniqueid_time_units(typname text, t timestamptz, epoch_ms bigint, time_max bigint,
                                     unit_ms integer DEFAULT 1)
RETURNS bigint LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isfinite(t)
                 AND @S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.>=) epoch_ms::numeric
                 AND ((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)
                     OPERATOR(pg_catalog.<) (time_max OPERATOR(pg_catalog.+) 1::bigint)::numeric
            THEN pg_catalog.floor((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)::bigint
            ELSE @S@.uniqueid_time_out_of_range(typname, t, @S@.uniqueid_unix_time(epoch_ms),
                                            @S@.uniqueid_unix_time(epoch_ms OPERATOR(pg_catalog.+) (time_max OPERATOR(pg_catalog.*) unit_ms::bigint))) END;

-- the time field of the smallest ID at or after t (t rounded up to the
-- unit); 22008 before the epoch or past the start of the last unit
CREATE FUNCTION @S@.uniqueid_floor_units(typname text, t timestamptz, epoch_ms bigint, time_max bigint,
                                     unit_ms integer DEFAULT 1)
RETURNS bigint LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isfinite(t)
                 AND @S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.>=) epoch_ms::numeric
                 AND pg_catalog.ceil((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)
                     OPERATOR(pg_catalog.<=) time_max::numeric
            THEN pg_catalog.ceil((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)::bigint
            ELSE @S@.uniqueid_time_out_of_range(typname, t, @S@.uniqueid_unix_time(epoch_ms),
                                            @S@.uniqueid_unix_time(epoch_ms OPERATOR(pg_catalog.+) (time_max OPERATOR(pg_catalog.*) unit_ms::bigint))) END;

-- TYPE_floor(time): the smallest ID whose time is at or after time
CREATE FUNCTION @S@.shardid_floor("time" timestamptz) RETURNS shardid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @S@.uniqueid_floor_units('shardid', "time", 1314220021721, 1099511627775) OPERATOR(pg_catalog.<<) 23;
CREATE FUNCTION @S@.snowflake_floor("time" timestamptz) RETURNS snowflake
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @S@.uniqueid_floor_units('snowflake', "time", 1288834974657, 2199023255551) OPERATOR(pg_catalog.<<) 22;
CREATE FUNCTION @S@.sonyflake_floor("time" timestamptz) RETURNS sonyflake
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @S@.uniqueid_floor_units('sonyflake', "time", 1409529600000, 549755813887, 10) OPERATOR(pg_catalog.<<) 24;
-- the smallest version 7 UUID of the time: xxxxxxxx-xxxx-7000-8000-000000000000
CREATE FUNCTION @S@.uuid7_floor("time" timestamptz) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.lpad(pg_catalog.to_hex((@S@.uniqueid_floor_units('uuid', "time", 0, 281474976710655) OPERATOR(pg_catalog.<<) 16)
                                          OPERATOR(pg_catalog.|) 28672::bigint), 16, '0')
        OPERATOR(pg_catalog.||) '8000000000000000')::uuid;

---------------------------------------------------------------------------
-- id OP timestamptz: id OP the smallest ID at or after the time, inlined
-- so that the key's btree index serves it
---------------------------------------------------------------------------

-- the ID a time stands for, as the C extension's comparisons have it: 0 up
-- to the epoch, the largest bigint past the last millisecond (every ID is
-- below), -1 for -infinity (every ID is above)
CREATE FUNCTION @S@.uniqueid_time_point(t timestamptz, epoch_ms bigint, time_max bigint, shift integer,
                                     unit_ms integer DEFAULT 1)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN t OPERATOR(pg_catalog.=) '-infinity'::timestamptz THEN (-1)::bigint
            WHEN t OPERATOR(pg_catalog.=) 'infinity'::timestamptz THEN 9223372036854775807
            WHEN @S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.<=) epoch_ms::numeric THEN 0::bigint
            WHEN pg_catalog.ceil((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)
                 OPERATOR(pg_catalog.>) time_max::numeric THEN 9223372036854775807
            ELSE pg_catalog.ceil((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)::bigint
                 OPERATOR(pg_catalog.<<) shift END;

-- the greatest bigint below that ID (the largest bigint again past the last
-- millisecond): id >= t is id > this
CREATE FUNCTION @S@.uniqueid_time_below(t timestamptz, epoch_ms bigint, time_max bigint, shift integer,
                                     unit_ms integer DEFAULT 1)
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN t OPERATOR(pg_catalog.<>) 'infinity'::timestamptz
                 AND (@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.<=) epoch_ms::numeric
                      OR pg_catalog.ceil((@S@.uniqueid_unix_ms(t) OPERATOR(pg_catalog.-) epoch_ms::numeric) OPERATOR(pg_catalog./) unit_ms::numeric)
                         OPERATOR(pg_catalog.<=) time_max::numeric)
            THEN @S@.uniqueid_time_point(t, epoch_ms, time_max, shift, unit_ms) OPERATOR(pg_catalog.-) 1::bigint
            ELSE 9223372036854775807 END;

CREATE FUNCTION @S@.uniqueid_shardid_lt(id shardid, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.<=) @S@.uniqueid_time_below(t, 1314220021721, 1099511627775, 23);
CREATE FUNCTION @S@.uniqueid_shardid_le(id shardid, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.<=) @S@.uniqueid_time_point(t, 1314220021721, 1099511627775, 23);
CREATE FUNCTION @S@.uniqueid_shardid_gt(id shardid, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.>) @S@.uniqueid_time_point(t, 1314220021721, 1099511627775, 23);
CREATE FUNCTION @S@.uniqueid_shardid_ge(id shardid, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.>) @S@.uniqueid_time_below(t, 1314220021721, 1099511627775, 23);

CREATE FUNCTION @S@.uniqueid_snowflake_lt(id snowflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.<=) @S@.uniqueid_time_below(t, 1288834974657, 2199023255551, 22);
CREATE FUNCTION @S@.uniqueid_snowflake_le(id snowflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.<=) @S@.uniqueid_time_point(t, 1288834974657, 2199023255551, 22);
CREATE FUNCTION @S@.uniqueid_snowflake_gt(id snowflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.>) @S@.uniqueid_time_point(t, 1288834974657, 2199023255551, 22);
CREATE FUNCTION @S@.uniqueid_snowflake_ge(id snowflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.>) @S@.uniqueid_time_below(t, 1288834974657, 2199023255551, 22);

CREATE FUNCTION @S@.uniqueid_sonyflake_lt(id sonyflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.<=) @S@.uniqueid_time_below(t, 1409529600000, 549755813887, 24, 10);
CREATE FUNCTION @S@.uniqueid_sonyflake_le(id sonyflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.<=) @S@.uniqueid_time_point(t, 1409529600000, 549755813887, 24, 10);
CREATE FUNCTION @S@.uniqueid_sonyflake_gt(id sonyflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.>) @S@.uniqueid_time_point(t, 1409529600000, 549755813887, 24, 10);
CREATE FUNCTION @S@.uniqueid_sonyflake_ge(id sonyflake, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id::bigint OPERATOR(pg_catalog.>) @S@.uniqueid_time_below(t, 1409529600000, 549755813887, 24, 10);

CREATE OPERATOR < (LEFTARG = shardid, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_shardid_lt);
CREATE OPERATOR <= (LEFTARG = shardid, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_shardid_le);
CREATE OPERATOR > (LEFTARG = shardid, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_shardid_gt);
CREATE OPERATOR >= (LEFTARG = shardid, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_shardid_ge);
CREATE OPERATOR < (LEFTARG = snowflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_snowflake_lt);
CREATE OPERATOR <= (LEFTARG = snowflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_snowflake_le);
CREATE OPERATOR > (LEFTARG = snowflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_snowflake_gt);
CREATE OPERATOR >= (LEFTARG = snowflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_snowflake_ge);
CREATE OPERATOR < (LEFTARG = sonyflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_sonyflake_lt);
CREATE OPERATOR <= (LEFTARG = sonyflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_sonyflake_le);
CREATE OPERATOR > (LEFTARG = sonyflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_sonyflake_gt);
CREATE OPERATOR >= (LEFTARG = sonyflake, RIGHTARG = timestamptz, FUNCTION = @S@.uniqueid_sonyflake_ge);
$sql$, '@S@', s);
END
$types$;

---------------------------------------------------------------------------
-- the generators' state, in what PostgreSQL makes durable
---------------------------------------------------------------------------

-- This database's node number (the C extension's uniqueid.node): one row.
-- A copy of the database (a branch, a restored snapshot) must take another
-- before it generates: uniqueid_set_node(n).
CREATE TABLE uniqueid_node (
    node integer NOT NULL CONSTRAINT uniqueid_node_range CHECK (node OPERATOR(pg_catalog.>=) 0 AND node OPERATOR(pg_catalog.<=) 65535)
);
CREATE UNIQUE INDEX uniqueid_node_one_row ON uniqueid_node ((true));
INSERT INTO uniqueid_node VALUES (0);
COMMENT ON TABLE uniqueid_node IS 'uniqueid SQL edition: this database''s node number (one row; uniqueid_set_node)';

-- The logical shards this database generates shardids for, each with its
-- state: a sequence holding the last (ms since the epoch << 10 | seq) issued.
CREATE TABLE uniqueid_shard (
    shard integer PRIMARY KEY CONSTRAINT uniqueid_shard_range CHECK (shard OPERATOR(pg_catalog.>=) 0 AND shard OPERATOR(pg_catalog.<=) 8191),
    state regclass NOT NULL
);
COMMENT ON TABLE uniqueid_shard IS 'uniqueid SQL edition: the logical shards this database owns, and their state';

-- snowflake's state: (ms since its epoch << 12 | seq); sonyflake's: (10 ms
-- units since its epoch << 8 | seq); uuid7's: (Unix ms << 12 | counter)
CREATE SEQUENCE uniqueid_snowflake_state MINVALUE 0 MAXVALUE 9007199254740991 START 0 NO CYCLE;
CREATE SEQUENCE uniqueid_sonyflake_state MINVALUE 0 MAXVALUE 140737488355327 START 0 NO CYCLE;
CREATE SEQUENCE uniqueid_uuid7_state MINVALUE 0 MAXVALUE 1152921504606846975 START 0 NO CYCLE;

-- The next value of a generator's state, at least `floor` (the clock's
-- millisecond, its seq 0), under an advisory lock of the state held for the
-- nextval and setval only: every taker of the state is in one order, so
-- values never repeat and never go back; a used-up millisecond carries
-- into the next (nextval), a clock set back leaves the state where it is.
--
-- The lock is a transaction-level lock taken in a subtransaction that is
-- always rolled back (the RAISE of 'UIDP0' below, caught at once): the
-- rollback releases it, whether the block ends normally, by an error or by
-- a cancel, at any instant, and nothing has to run to release it.  The
-- sequence's nextval and setval are not undone by the rollback, and v, a
-- PL/pgSQL variable, keeps its value.  Another session holding the lock
-- longer than 10 s (which a generator never does: it holds it for
-- microseconds) is 55P03, naming the state and the holder.
CREATE FUNCTION uniqueid_advance(state regclass, floor bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT
AS $$
DECLARE
    -- key 1: 'uidp'; key 2: the state's oid
    k integer := state::oid::integer;
    v bigint;
    waiting boolean := false;
    bound text;
    holders text;
BEGIN
    BEGIN
        IF NOT pg_catalog.pg_try_advisory_xact_lock(1969841264, k) THEN
            waiting := true;
            IF pg_catalog.current_setting('lock_timeout') OPERATOR(pg_catalog.=) '0' THEN
                -- (undone with the subtransaction)
                PERFORM pg_catalog.set_config('lock_timeout', '10s', true);
            END IF;
            bound := pg_catalog.current_setting('lock_timeout');
            PERFORM pg_catalog.pg_advisory_xact_lock(1969841264, k);
            waiting := false;
        END IF;
        v := pg_catalog.nextval(state);
        IF v OPERATOR(pg_catalog.<) floor THEN
            v := pg_catalog.setval(state, floor);
        END IF;
        RAISE SQLSTATE 'UIDP0';
    EXCEPTION
        WHEN SQLSTATE 'UIDP0' THEN
            NULL;
        WHEN lock_not_available THEN
            IF NOT waiting THEN
                RAISE;
            END IF;
            SELECT pg_catalog.string_agg(l.pid::text, ', ') INTO holders FROM pg_catalog.pg_locks l
             WHERE l.locktype OPERATOR(pg_catalog.=) 'advisory' AND l.granted
               AND l.classid OPERATOR(pg_catalog.=) 1969841264::oid AND l.objid OPERATOR(pg_catalog.=) k::oid
               AND l.objsubid OPERATOR(pg_catalog.=) 2::smallint;
            RAISE EXCEPTION 'generator state % is locked by another session', state
                USING ERRCODE = 'lock_not_available',
                      DETAIL = pg_catalog.format('Waited %s for advisory lock (1969841264, %s), held by process %s; a generator holds it for microseconds only.',
                                                 bound, k, coalesce(holders, '(none now)')),
                      HINT = 'A session that took that lock itself (pg_advisory_lock) holds it until it releases it or ends.';
    END;
    RETURN v;
END
$$;

-- The generators name the edition's tables and sequences with its schema,
-- whatever the caller's search_path: their text is completed here.
DO $generators$
DECLARE
    s text := pg_catalog.quote_ident(pg_catalog.current_schema());
BEGIN
    EXECUTE pg_catalog.replace($sql$
-- make_shardid(time, shard, seq), make_snowflake(time, node, seq): an ID from its
-- fields, each range-checked as the C extension checks them
CREATE FUNCTION @S@.make_shardid("time" timestamptz, shard integer, seq integer) RETURNS @S@.shardid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $f$
DECLARE
    -- the time first, as the C extension checks it
    units bigint := @S@.uniqueid_time_units('shardid', "time", 1314220021721, 1099511627775);
BEGIN
    IF shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) 8191 THEN
        PERFORM @S@.uniqueid_out_of_range('shardid', 'shard', shard, 8191);
    END IF;
    IF seq OPERATOR(pg_catalog.<) 0 OR seq OPERATOR(pg_catalog.>) 1023 THEN
        PERFORM @S@.uniqueid_out_of_range('shardid', 'seq', seq, 1023);
    END IF;
    RETURN (units OPERATOR(pg_catalog.<<) 23)
           OPERATOR(pg_catalog.|) (shard::bigint OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) seq::bigint;
END
$f$;

CREATE FUNCTION @S@.make_snowflake("time" timestamptz, node integer, seq integer) RETURNS @S@.snowflake
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $f$
DECLARE
    -- the time first, as the C extension checks it
    units bigint := @S@.uniqueid_time_units('snowflake', "time", 1288834974657, 2199023255551);
BEGIN
    IF node OPERATOR(pg_catalog.<) 0 OR node OPERATOR(pg_catalog.>) 1023 THEN
        PERFORM @S@.uniqueid_out_of_range('snowflake', 'node', node, 1023);
    END IF;
    IF seq OPERATOR(pg_catalog.<) 0 OR seq OPERATOR(pg_catalog.>) 4095 THEN
        PERFORM @S@.uniqueid_out_of_range('snowflake', 'seq', seq, 4095);
    END IF;
    RETURN (units OPERATOR(pg_catalog.<<) 22)
           OPERATOR(pg_catalog.|) (node::bigint OPERATOR(pg_catalog.<<) 12) OPERATOR(pg_catalog.|) seq::bigint;
END
$f$;

CREATE FUNCTION @S@.make_sonyflake("time" timestamptz, seq integer, machine integer) RETURNS @S@.sonyflake
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $f$
DECLARE
    -- the time first, as the C extension checks it
    units bigint := @S@.uniqueid_time_units('sonyflake', "time", 1409529600000, 549755813887, 10);
BEGIN
    IF seq OPERATOR(pg_catalog.<) 0 OR seq OPERATOR(pg_catalog.>) 255 THEN
        PERFORM @S@.uniqueid_out_of_range('sonyflake', 'seq', seq, 255);
    END IF;
    IF machine OPERATOR(pg_catalog.<) 0 OR machine OPERATOR(pg_catalog.>) 65535 THEN
        PERFORM @S@.uniqueid_out_of_range('sonyflake', 'machine', machine, 65535);
    END IF;
    RETURN (units OPERATOR(pg_catalog.<<) 24)
           OPERATOR(pg_catalog.|) (seq::bigint OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) machine::bigint;
END
$f$;

-- uniqueid_set_node(node): this database's node number, from now on; the
-- shard of the same number (below 8192) becomes its own (next_id()).
CREATE FUNCTION @S@.uniqueid_set_node(node integer) RETURNS integer
LANGUAGE plpgsql VOLATILE STRICT
AS $f$
BEGIN
    IF node OPERATOR(pg_catalog.<) 0 OR node OPERATOR(pg_catalog.>) 65535 THEN
        RAISE EXCEPTION 'node % is out of range', node
            USING ERRCODE = 'invalid_parameter_value', DETAIL = 'Valid values of node are 0 to 65535.';
    END IF;
    UPDATE @S@.uniqueid_node SET node = uniqueid_set_node.node;
    IF node OPERATOR(pg_catalog.<) 8192 THEN
        PERFORM @S@.uniqueid_own_shards(node, node);
    END IF;
    RETURN node;
END
$f$;

-- uniqueid_own_shards(first, last): the logical shards first..last become
-- this database's, each with its state (the C extension's uniqueid.shards):
-- a shard owned before continues its sequence, kept when it was disowned,
-- so its IDs never step back; returns how many were new.
CREATE FUNCTION @S@.uniqueid_own_shards(first integer, last integer DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql VOLATILE
AS $f$
DECLARE
    n integer := 0;
    st regclass;
BEGIN
    last := coalesce(last, first);
    IF first OPERATOR(pg_catalog.<) 0 OR first OPERATOR(pg_catalog.>) 8191 THEN
        PERFORM @S@.uniqueid_out_of_range('shardid', 'shard', first, 8191);
    END IF;
    IF last OPERATOR(pg_catalog.<) 0 OR last OPERATOR(pg_catalog.>) 8191 THEN
        PERFORM @S@.uniqueid_out_of_range('shardid', 'shard', last, 8191);
    END IF;
    FOR i IN first..last LOOP
        CONTINUE WHEN EXISTS (SELECT FROM @S@.uniqueid_shard x WHERE x.shard OPERATOR(pg_catalog.=) i);
        st := pg_catalog.to_regclass(pg_catalog.format('@S@.%I', pg_catalog.format('uniqueid_shard_%s_state', i)));
        IF st IS NULL THEN
            EXECUTE pg_catalog.format('CREATE SEQUENCE @S@.%I MINVALUE 0 MAXVALUE 1125899906842623 START 0 NO CYCLE',
                                      pg_catalog.format('uniqueid_shard_%s_state', i));
            st := pg_catalog.format('@S@.%I', pg_catalog.format('uniqueid_shard_%s_state', i))::regclass;
        END IF;
        INSERT INTO @S@.uniqueid_shard VALUES (i, st);
        n := n OPERATOR(pg_catalog.+) 1;
    END LOOP;
    RETURN n;
END
$f$;

-- uniqueid_disown_shards(first, last): shards first..last are no longer
-- this database's (a copy gives back its original's); returns how many.
-- Their state stays (the sequence, at its high-water mark): owned again, a
-- shard goes on above every ID it made, and uniqueid_high_water() counts it.
CREATE FUNCTION @S@.uniqueid_disown_shards(first integer, last integer DEFAULT NULL) RETURNS integer
LANGUAGE plpgsql VOLATILE
AS $f$
DECLARE
    r record;
    n integer := 0;
BEGIN
    FOR r IN DELETE FROM @S@.uniqueid_shard x
              WHERE x.shard OPERATOR(pg_catalog.>=) first AND x.shard OPERATOR(pg_catalog.<=) coalesce(last, first)
             RETURNING x.state LOOP
        n := n OPERATOR(pg_catalog.+) 1;
    END LOOP;
    RETURN n;
END
$f$;

-- the node number of this database, checked against a field of `bits` bits
CREATE FUNCTION @S@.uniqueid_node_for(typname text, field text, bits integer) RETURNS integer
LANGUAGE plpgsql STABLE
AS $f$
DECLARE
    n integer;
BEGIN
    SELECT x.node INTO n FROM @S@.uniqueid_node x;
    IF n IS NULL OR n OPERATOR(pg_catalog.>=) (1 OPERATOR(pg_catalog.<<) bits) THEN
        RAISE EXCEPTION 'node % does not fit the %-bit % of type %', n, bits, field, typname
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('Set the node to 0..%s with uniqueid_set_node() in databases that generate %s values.',
                                           (1 OPERATOR(pg_catalog.<<) bits) OPERATOR(pg_catalog.-) 1, typname);
    END IF;
    RETURN n;
END
$f$;

-- uniqueid_high_water(): the millisecond after the latest that any
-- generator of the edition has reached in this database: every ID it made
-- has an earlier time.  The C extension continues above every one of them
-- after uniqueid_raise_horizon(uniqueid_high_water()) (doc/portable.md).
CREATE FUNCTION @S@.uniqueid_high_water() RETURNS timestamptz
LANGUAGE plpgsql VOLATILE
AS $f$
DECLARE
    ms bigint;
    v bigint;
    st regclass;
BEGIN
    SELECT q.last_value INTO v FROM @S@.uniqueid_uuid7_state q;
    ms := v OPERATOR(pg_catalog.>>) 12;
    SELECT q.last_value INTO v FROM @S@.uniqueid_snowflake_state q;
    ms := GREATEST(ms, (v OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.+) 1288834974657);
    SELECT q.last_value INTO v FROM @S@.uniqueid_sonyflake_state q;
    ms := GREATEST(ms, ((v OPERATOR(pg_catalog.>>) 8) OPERATOR(pg_catalog.*) 10::bigint) OPERATOR(pg_catalog.+) 1409529600009);
    -- every shard's state, owned now or before
    FOR st IN SELECT c.oid::regclass FROM pg_catalog.pg_class c
               WHERE c.relnamespace OPERATOR(pg_catalog.=) '@S@'::regnamespace
                 AND c.relkind OPERATOR(pg_catalog.=) 'S'::"char"
                 AND c.relname OPERATOR(pg_catalog.~) '^uniqueid_shard_[0-9]+_state$'::text LOOP
        EXECUTE pg_catalog.format('SELECT last_value FROM %s', st) INTO v;
        ms := GREATEST(ms, (v OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.+) 1314220021721);
    END LOOP;
    RETURN @S@.uniqueid_unix_time(ms OPERATOR(pg_catalog.+) 1::bigint);
END
$f$;

-- (The generators read the clock's millisecond since their epoch as
-- floor(EXTRACT(epoch FROM clock_timestamp()) * 1000) - epoch, exact, and
-- leave uniqueid_time_units to raise the error outside the type's times.)

-- next_id(shard): the next shardid of a logical shard this database owns
CREATE FUNCTION @S@.next_id(shard integer) RETURNS @S@.shardid
LANGUAGE plpgsql VOLATILE STRICT
AS $f$
DECLARE
    st regclass;
    ms bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000::numeric)::bigint
                 OPERATOR(pg_catalog.-) 1314220021721;
    c bigint;
BEGIN
    IF shard OPERATOR(pg_catalog.<) 0 OR shard OPERATOR(pg_catalog.>) 8191 THEN
        PERFORM @S@.uniqueid_out_of_range('shardid', 'shard', shard, 8191);
    END IF;
    SELECT x.state INTO st FROM @S@.uniqueid_shard x WHERE x.shard OPERATOR(pg_catalog.=) next_id.shard;
    IF st IS NULL THEN
        RAISE EXCEPTION 'shard % is not owned by this database', shard
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'uniqueid_shard lists the shards this database owns.',
                  HINT = pg_catalog.format('Generate IDs for shard %s where it is owned, or run SELECT uniqueid_own_shards(%s).', shard, shard);
    END IF;
    IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 1099511627775 THEN
        PERFORM @S@.uniqueid_time_units('shardid', pg_catalog.clock_timestamp(), 1314220021721, 1099511627775);
    END IF;
    c := @S@.uniqueid_advance(st, ms OPERATOR(pg_catalog.<<) 10);
    RETURN ((c OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.<<) 23) OPERATOR(pg_catalog.|) (shard::bigint OPERATOR(pg_catalog.<<) 10)
           OPERATOR(pg_catalog.|) (c OPERATOR(pg_catalog.&) 1023::bigint);
END
$f$;

-- next_id(): the next shardid of this database's own shard, its node number
CREATE FUNCTION @S@.next_id() RETURNS @S@.shardid
LANGUAGE sql VOLATILE
RETURN @S@.next_id(@S@.uniqueid_node_for('shardid', 'shard', 13));

-- next_snowflake(): the next snowflake of this database's node
CREATE FUNCTION @S@.next_snowflake() RETURNS @S@.snowflake
LANGUAGE plpgsql VOLATILE
AS $f$
DECLARE
    n bigint;
    ms bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000::numeric)::bigint
                 OPERATOR(pg_catalog.-) 1288834974657;
    c bigint;
BEGIN
    SELECT x.node INTO n FROM @S@.uniqueid_node x;
    IF n IS NULL OR n OPERATOR(pg_catalog.>) 1023 THEN
        PERFORM @S@.uniqueid_node_for('snowflake', 'node', 10);
    END IF;
    IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 2199023255551 THEN
        PERFORM @S@.uniqueid_time_units('snowflake', pg_catalog.clock_timestamp(), 1288834974657, 2199023255551);
    END IF;
    c := @S@.uniqueid_advance('@S@.uniqueid_snowflake_state', ms OPERATOR(pg_catalog.<<) 12);
    RETURN ((c OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) (n OPERATOR(pg_catalog.<<) 12)
           OPERATOR(pg_catalog.|) (c OPERATOR(pg_catalog.&) 4095::bigint);
END
$f$;


-- next_sonyflake(): the next sonyflake of this database's node (its machine
-- id).  256 a 10 ms unit: past them it goes on into the next unit, ahead of
-- the clock, without waiting for it (with no monotonic clock, a wait could
-- not tell its own lead from the clock set back)
CREATE FUNCTION @S@.next_sonyflake() RETURNS @S@.sonyflake
LANGUAGE plpgsql VOLATILE
AS $f$
DECLARE
    n bigint;
    u bigint := pg_catalog.floor(((EXTRACT(epoch FROM pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000::numeric)
                                  OPERATOR(pg_catalog.-) 1409529600000::numeric) OPERATOR(pg_catalog./) 10::numeric)::bigint;
    c bigint;
BEGIN
    SELECT x.node INTO n FROM @S@.uniqueid_node x;
    IF n IS NULL THEN
        PERFORM @S@.uniqueid_node_for('sonyflake', 'machine', 16);
    END IF;
    IF u OPERATOR(pg_catalog.<) 0 OR u OPERATOR(pg_catalog.>) 549755813887 THEN
        PERFORM @S@.uniqueid_time_units('sonyflake', pg_catalog.clock_timestamp(), 1409529600000, 549755813887, 10);
    END IF;
    c := @S@.uniqueid_advance('@S@.uniqueid_sonyflake_state', u OPERATOR(pg_catalog.<<) 8);
    RETURN ((c OPERATOR(pg_catalog.>>) 8) OPERATOR(pg_catalog.<<) 24)
           OPERATOR(pg_catalog.|) ((c OPERATOR(pg_catalog.&) 255::bigint) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) n;
END
$f$;
-- next_uuid7(): a version 7 UUID, strictly greater than every one this
-- database issued before: Unix ms 48, version 7, a 12-bit counter (rand_a),
-- variant 10 and 62 random bits
CREATE FUNCTION @S@.next_uuid7() RETURNS uuid
LANGUAGE plpgsql VOLATILE
AS $f$
DECLARE
    ms bigint := pg_catalog.floor(EXTRACT(epoch FROM pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000::numeric)::bigint;
    c bigint;
BEGIN
    IF ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 281474976710655 THEN
        PERFORM @S@.uniqueid_time_units('uuid', pg_catalog.clock_timestamp(), 0, 281474976710655);
    END IF;
    c := @S@.uniqueid_advance('@S@.uniqueid_uuid7_state', ms OPERATOR(pg_catalog.<<) 12);
    RETURN (pg_catalog.lpad(pg_catalog.to_hex(((c OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.<<) 16)
                                              OPERATOR(pg_catalog.|) 28672::bigint OPERATOR(pg_catalog.|) (c OPERATOR(pg_catalog.&) 4095::bigint)),
                            16, '0')
            OPERATOR(pg_catalog.||) pg_catalog.right(pg_catalog.replace(pg_catalog.gen_random_uuid()::text, '-', ''), 16))::uuid;
END
$f$;
$sql$, '@S@', s);
    EXECUTE pg_catalog.format('SELECT %s.uniqueid_own_shards(0)', s);
END
$generators$;

-- the caller's search_path again
DO $path$
BEGIN
    PERFORM pg_catalog.set_config('search_path', pg_catalog.current_setting('uniqueid_edition.search_path'), false);
    PERFORM pg_catalog.set_config('uniqueid_edition.search_path', '', false);
END
$path$;
