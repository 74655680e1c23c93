---------------------------------------------------------------------------
-- objectid: MongoDB's ObjectId, 12 bytes, seconds 32 (Unix epoch) . random 40
-- . counter 24, written as 24 hex digits
---------------------------------------------------------------------------

CREATE TYPE objectid;

CREATE FUNCTION objectid_in(cstring) RETURNS objectid
    AS 'MODULE_PATHNAME', 'objectid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_out(objectid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'objectid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_recv(internal) RETURNS objectid
    AS 'MODULE_PATHNAME', 'objectid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_send(objectid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'objectid_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE objectid (
    INPUT = objectid_in,
    OUTPUT = objectid_out,
    RECEIVE = objectid_recv,
    SEND = objectid_send,
    INTERNALLENGTH = 12,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE objectid IS 'objectid: 12-byte MongoDB ObjectId, 32-bit seconds since 1970-01-01, 40-bit random, 24-bit counter';

CREATE FUNCTION objectid_eq(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_ne(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_lt(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_le(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_gt(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_ge(objectid, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_cmp(objectid, objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'objectid_cmp_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'objectid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_hash(objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'objectid_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_hash_extended(objectid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'objectid_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = objectid, RIGHTARG = objectid, PROCEDURE = objectid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = objectid, RIGHTARG = objectid, PROCEDURE = objectid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = objectid, RIGHTARG = objectid, PROCEDURE = objectid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = objectid, RIGHTARG = objectid, PROCEDURE = objectid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = objectid, RIGHTARG = objectid, PROCEDURE = objectid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = objectid, RIGHTARG = objectid, PROCEDURE = objectid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE FUNCTION objectid_eq_tstz(objectid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_ne_tstz(objectid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_lt_tstz(objectid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_le_tstz(objectid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_gt_tstz(objectid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_ge_tstz(objectid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'objectid_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_cmp_tstz(objectid, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'objectid_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_objectid(timestamptz, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_objectid(timestamptz, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_objectid(timestamptz, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_objectid(timestamptz, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_objectid(timestamptz, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_objectid(timestamptz, objectid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_objectid(timestamptz, objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- two times compared as the objectids they stand for: the order of timestamptz
-- within the btree family (see the family below)
CREATE FUNCTION tstz_cmp_as_objectid(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = objectid, RIGHTARG = timestamptz, PROCEDURE = objectid_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = objectid, RIGHTARG = timestamptz, PROCEDURE = objectid_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = objectid, RIGHTARG = timestamptz, PROCEDURE = objectid_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = objectid, RIGHTARG = timestamptz, PROCEDURE = objectid_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = objectid, RIGHTARG = timestamptz, PROCEDURE = objectid_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = objectid, RIGHTARG = timestamptz, PROCEDURE = objectid_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = objectid, PROCEDURE = tstz_eq_objectid,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = objectid, PROCEDURE = tstz_ne_objectid,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = objectid, PROCEDURE = tstz_lt_objectid,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = objectid, PROCEDURE = tstz_le_objectid,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = objectid, PROCEDURE = tstz_gt_objectid,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = objectid, PROCEDURE = tstz_ge_objectid,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION objectid_smaller(objectid, objectid) RETURNS objectid
    AS 'MODULE_PATHNAME', 'objectid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_larger(objectid, objectid) RETURNS objectid
    AS 'MODULE_PATHNAME', 'objectid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(objectid) (SFUNC = objectid_smaller, STYPE = objectid, COMBINEFUNC = objectid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(objectid) (SFUNC = objectid_larger, STYPE = objectid, COMBINEFUNC = objectid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS objectid_ops DEFAULT FOR TYPE objectid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 objectid_cmp(objectid, objectid),
    FUNCTION 2 objectid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

ALTER OPERATOR FAMILY objectid_ops USING btree ADD
    OPERATOR 1 < (objectid, timestamptz), OPERATOR 2 <= (objectid, timestamptz),
    OPERATOR 3 = (objectid, timestamptz), OPERATOR 4 >= (objectid, timestamptz),
    OPERATOR 5 > (objectid, timestamptz),
    FUNCTION 1 objectid_cmp_tstz(objectid, timestamptz),
    OPERATOR 1 < (timestamptz, objectid), OPERATOR 2 <= (timestamptz, objectid),
    OPERATOR 3 = (timestamptz, objectid), OPERATOR 4 >= (timestamptz, objectid),
    OPERATOR 5 > (timestamptz, objectid),
    FUNCTION 1 tstz_cmp_objectid(timestamptz, objectid),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_objectid(timestamptz, timestamptz);

CREATE OPERATOR CLASS objectid_ops DEFAULT FOR TYPE objectid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 objectid_hash(objectid),
    FUNCTION 2 objectid_hash_extended(objectid, bigint);

CREATE OPERATOR CLASS objectid_minmax_ops DEFAULT FOR TYPE objectid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY objectid_minmax_ops USING brin ADD
    OPERATOR 1 < (objectid, timestamptz), OPERATOR 2 <= (objectid, timestamptz),
    OPERATOR 3 = (objectid, timestamptz), OPERATOR 4 >= (objectid, timestamptz),
    OPERATOR 5 > (objectid, timestamptz);

CREATE FUNCTION id_time(objectid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'objectid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_random(objectid) RETURNS bigint
    AS 'MODULE_PATHNAME', 'objectid_random' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_counter(objectid) RETURNS integer
    AS 'MODULE_PATHNAME', 'objectid_counter' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_objectid("time" timestamptz, random bigint, counter integer) RETURNS objectid
    AS 'MODULE_PATHNAME', 'make_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- and for the smaller integer types, so that a literal matches exactly
CREATE FUNCTION make_objectid("time" timestamptz, random integer, counter integer) RETURNS objectid
    AS 'MODULE_PATHNAME', 'make_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_objectid("time" timestamptz, random smallint, counter integer) RETURNS objectid
    AS 'MODULE_PATHNAME', 'make_objectid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION objectid(bytea) RETURNS objectid
    AS 'MODULE_PATHNAME', 'objectid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea(objectid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'objectid_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bytea AS objectid) WITH FUNCTION objectid(bytea);
CREATE CAST (objectid AS bytea) WITH FUNCTION bytea(objectid);
CREATE CAST (objectid AS timestamptz) WITH FUNCTION id_time(objectid);

CREATE FUNCTION next_objectid() RETURNS objectid
    AS 'MODULE_PATHNAME', 'next_objectid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
