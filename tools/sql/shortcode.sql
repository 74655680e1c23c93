---------------------------------------------------------------------------
-- short codes for people
---------------------------------------------------------------------------

CREATE FUNCTION id_encode(value bigint, alphabet text DEFAULT 'base62') RETURNS text
    AS 'MODULE_PATHNAME', 'id_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- every integer type has its own, so that a literal or column matches exactly
-- (README, "Installing safely")
CREATE FUNCTION id_encode(value integer, alphabet text DEFAULT 'base62') RETURNS text
    AS 'MODULE_PATHNAME', 'id_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_encode(value smallint, alphabet text DEFAULT 'base62') RETURNS text
    AS 'MODULE_PATHNAME', 'id_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_encode(value shardid, alphabet text DEFAULT 'base62') RETURNS text
    AS 'MODULE_PATHNAME', 'id_encode_uid64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_decode(code text, alphabet text DEFAULT 'base62') RETURNS bigint
    AS 'MODULE_PATHNAME', 'id_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_decode_shardid(code text, alphabet text DEFAULT 'base62') RETURNS shardid
    AS 'MODULE_PATHNAME', 'id_decode_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lexical_add(code text, alphabet text, n bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lexical_add(code text, alphabet text, n integer) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lexical_add(code text, alphabet text, n smallint) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
