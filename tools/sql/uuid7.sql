---------------------------------------------------------------------------
-- UUID version 7 on the core uuid type (RFC 9562)
---------------------------------------------------------------------------

CREATE FUNCTION next_uuid7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'next_uuid7' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION id_time(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uuid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
