
---------------------------------------------------------------------------
-- typeid (jetify's TypeID spec 0.3): a type prefix and a UUID, written
-- prefix_suffix; ordered by prefix, then UUID
---------------------------------------------------------------------------

CREATE TYPE typeid;

CREATE FUNCTION typeid_in(cstring) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_out(typeid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'typeid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_recv(internal) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_send(typeid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'typeid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- a varlena of 16 to 79 bytes after its header; STORAGE main gives it the
-- 1-byte header on disk (plain would keep 4 and align them), and the
-- functions read it packed and free what they copy
CREATE TYPE typeid (
    INPUT = typeid_in,
    OUTPUT = typeid_out,
    RECEIVE = typeid_recv,
    SEND = typeid_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = main
);
COMMENT ON TYPE typeid IS 'TypeID: a type prefix of up to 63 letters and underscores and a UUID (normally version 7); text prefix_suffix, the suffix in lowercase Crockford base 32';

CREATE FUNCTION typeid_eq(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_ne(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_lt(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_le(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_gt(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_ge(typeid, typeid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'typeid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_cmp(typeid, typeid) RETURNS integer
    AS 'MODULE_PATHNAME', 'typeid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'typeid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_hash(typeid) RETURNS integer
    AS 'MODULE_PATHNAME', 'typeid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION typeid_hash_extended(typeid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'typeid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = typeid, RIGHTARG = typeid, PROCEDURE = typeid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION typeid_smaller(typeid, typeid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_larger(typeid, typeid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'typeid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(typeid) (SFUNC = typeid_smaller, STYPE = typeid, COMBINEFUNC = typeid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(typeid) (SFUNC = typeid_larger, STYPE = typeid, COMBINEFUNC = typeid_larger,
    SORTOP = >, PARALLEL = SAFE);

-- no timestamptz members: the prefix leads the order, so the IDs of a time
-- range are not one range of the index (within one prefix they are; index
-- id_time(id) for time ranges across prefixes)
CREATE OPERATOR CLASS typeid_ops DEFAULT FOR TYPE typeid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 typeid_cmp(typeid, typeid),
    FUNCTION 2 typeid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS typeid_ops DEFAULT FOR TYPE typeid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 typeid_hash(typeid),
    FUNCTION 2 typeid_hash_extended(typeid, bigint);

CREATE OPERATOR CLASS typeid_minmax_ops DEFAULT FOR TYPE typeid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

-- the prefix, the UUID and its time
CREATE FUNCTION typeid_prefix(typeid) RETURNS text
    AS 'MODULE_PATHNAME', 'typeid_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid(typeid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'typeid_to_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (typeid AS uuid) WITH FUNCTION uuid(typeid);
CREATE FUNCTION id_time(typeid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'typeid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (typeid AS timestamptz) WITH FUNCTION id_time(typeid);
CREATE FUNCTION make_typeid(prefix text, id uuid) RETURNS typeid
    AS 'MODULE_PATHNAME', 'make_typeid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- the generator: a typeid of the prefix around next_uuid7()
CREATE FUNCTION next_typeid(prefix text) RETURNS typeid
    AS 'MODULE_PATHNAME', 'next_typeid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
