/* uniqueid 1.0: ID types, their operators and operator classes, and generators */

\echo Use "CREATE EXTENSION uniqueid" to load this file. \quit

---------------------------------------------------------------------------
-- shardid: Instagram-style 64-bit ID, time 41 . shard 13 . seq 10
---------------------------------------------------------------------------

CREATE TYPE shardid;

CREATE FUNCTION shardid_in(cstring) RETURNS shardid
    AS 'MODULE_PATHNAME', 'shardid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shardid_out(shardid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'shardid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shardid_recv(internal) RETURNS shardid
    AS 'MODULE_PATHNAME', 'shardid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shardid_send(shardid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'uid64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE shardid (
    INPUT = shardid_in,
    OUTPUT = shardid_out,
    RECEIVE = shardid_recv,
    SEND = shardid_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE shardid IS 'Instagram-style ID: 41-bit ms time since 2011-08-24T21:07:01.721Z, 13-bit shard, 10-bit sequence';

CREATE FUNCTION shardid_eq(shardid, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_ne(shardid, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_lt(shardid, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_le(shardid, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_gt(shardid, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_ge(shardid, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_cmp(shardid, shardid) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'uid64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shardid_hash(shardid) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_hash_extended(shardid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'uid64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = shardid, RIGHTARG = shardid, PROCEDURE = shardid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = shardid, RIGHTARG = shardid, PROCEDURE = shardid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = shardid, RIGHTARG = shardid, PROCEDURE = shardid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = shardid, RIGHTARG = shardid, PROCEDURE = shardid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = shardid, RIGHTARG = shardid, PROCEDURE = shardid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = shardid, RIGHTARG = shardid, PROCEDURE = shardid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest shardid
-- whose time is at or after t
CREATE FUNCTION shardid_eq_tstz(shardid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shardid_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_ne_tstz(shardid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shardid_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_lt_tstz(shardid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shardid_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_le_tstz(shardid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shardid_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_gt_tstz(shardid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shardid_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_ge_tstz(shardid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shardid_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shardid_cmp_tstz(shardid, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'shardid_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_shardid(timestamptz, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_shardid(timestamptz, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_shardid(timestamptz, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_shardid(timestamptz, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_shardid(timestamptz, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_shardid(timestamptz, shardid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_shardid(timestamptz, shardid) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- two times compared as the shardids they stand for: the order of timestamptz
-- within the btree family (see the family below)
CREATE FUNCTION tstz_cmp_as_shardid(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = shardid, RIGHTARG = timestamptz, PROCEDURE = shardid_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = shardid, RIGHTARG = timestamptz, PROCEDURE = shardid_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = shardid, RIGHTARG = timestamptz, PROCEDURE = shardid_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = shardid, RIGHTARG = timestamptz, PROCEDURE = shardid_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = shardid, RIGHTARG = timestamptz, PROCEDURE = shardid_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = shardid, RIGHTARG = timestamptz, PROCEDURE = shardid_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = shardid, PROCEDURE = tstz_eq_shardid,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = shardid, PROCEDURE = tstz_ne_shardid,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = shardid, PROCEDURE = tstz_lt_shardid,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = shardid, PROCEDURE = tstz_le_shardid,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = shardid, PROCEDURE = tstz_gt_shardid,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = shardid, PROCEDURE = tstz_ge_shardid,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION shardid_smaller(shardid, shardid) RETURNS shardid
    AS 'MODULE_PATHNAME', 'uid64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shardid_larger(shardid, shardid) RETURNS shardid
    AS 'MODULE_PATHNAME', 'uid64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(shardid) (SFUNC = shardid_smaller, STYPE = shardid, COMBINEFUNC = shardid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(shardid) (SFUNC = shardid_larger, STYPE = shardid, COMBINEFUNC = shardid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS shardid_ops DEFAULT FOR TYPE shardid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 shardid_cmp(shardid, shardid),
    FUNCTION 2 shardid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

-- the family also holds the timestamptz members, so that a range of times
-- is an index range scan on the ID.  A time stands for the smallest ID at or
-- after it, so different times can stand for the same ID: the family orders
-- times as those IDs (tstz_cmp_as_shardid) and has no operators between two
-- times, as core's would tell btree such times are unequal.
ALTER OPERATOR FAMILY shardid_ops USING btree ADD
    OPERATOR 1 < (shardid, timestamptz), OPERATOR 2 <= (shardid, timestamptz),
    OPERATOR 3 = (shardid, timestamptz), OPERATOR 4 >= (shardid, timestamptz),
    OPERATOR 5 > (shardid, timestamptz),
    FUNCTION 1 shardid_cmp_tstz(shardid, timestamptz),
    OPERATOR 1 < (timestamptz, shardid), OPERATOR 2 <= (timestamptz, shardid),
    OPERATOR 3 = (timestamptz, shardid), OPERATOR 4 >= (timestamptz, shardid),
    OPERATOR 5 > (timestamptz, shardid),
    FUNCTION 1 tstz_cmp_shardid(timestamptz, shardid),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_shardid(timestamptz, timestamptz);

CREATE OPERATOR CLASS shardid_ops DEFAULT FOR TYPE shardid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 shardid_hash(shardid),
    FUNCTION 2 shardid_hash_extended(shardid, bigint);

CREATE OPERATOR CLASS shardid_minmax_ops DEFAULT FOR TYPE shardid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY shardid_minmax_ops USING brin ADD
    OPERATOR 1 < (shardid, timestamptz), OPERATOR 2 <= (shardid, timestamptz),
    OPERATOR 3 = (shardid, timestamptz), OPERATOR 4 >= (shardid, timestamptz),
    OPERATOR 5 > (shardid, timestamptz);

-- time and fields
CREATE FUNCTION id_time(shardid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'shardid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_shard(shardid) RETURNS integer
    AS 'MODULE_PATHNAME', 'shardid_shard' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_seq(shardid) RETURNS integer
    AS 'MODULE_PATHNAME', 'shardid_seq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_shardid("time" timestamptz, shard integer, seq integer) RETURNS shardid
    AS 'MODULE_PATHNAME', 'make_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts: the 64 bits reinterpreted; no implicit casts
CREATE CAST (shardid AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (bigint AS shardid) WITHOUT FUNCTION;
CREATE CAST (shardid AS timestamptz) WITH FUNCTION id_time(shardid);

-- the generator
CREATE FUNCTION next_id(shard integer) RETURNS shardid
    AS 'MODULE_PATHNAME', 'next_id' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- snowflake: Twitter's 64-bit ID, 0 . time 41 . node 10 . seq 12
-- (generated by tools/gen_id64_sql.py)
---------------------------------------------------------------------------

CREATE TYPE snowflake;

CREATE FUNCTION snowflake_in(cstring) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'snowflake_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_out(snowflake) RETURNS cstring
    AS 'MODULE_PATHNAME', 'snowflake_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_recv(internal) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'snowflake_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_send(snowflake) RETURNS bytea
    AS 'MODULE_PATHNAME', 'uid64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE snowflake (
    INPUT = snowflake_in,
    OUTPUT = snowflake_out,
    RECEIVE = snowflake_recv,
    SEND = snowflake_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE snowflake IS 'Twitter snowflake: 41-bit ms time since 2010-11-04T01:42:54.657Z, 10-bit node, 12-bit sequence';

CREATE FUNCTION snowflake_eq(snowflake, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_ne(snowflake, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_lt(snowflake, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_le(snowflake, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_gt(snowflake, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_ge(snowflake, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_cmp(snowflake, snowflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'uid64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_hash(snowflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_hash_extended(snowflake, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'uid64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = snowflake, RIGHTARG = snowflake, PROCEDURE = snowflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = snowflake, RIGHTARG = snowflake, PROCEDURE = snowflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = snowflake, RIGHTARG = snowflake, PROCEDURE = snowflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = snowflake, RIGHTARG = snowflake, PROCEDURE = snowflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = snowflake, RIGHTARG = snowflake, PROCEDURE = snowflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = snowflake, RIGHTARG = snowflake, PROCEDURE = snowflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest snowflake
-- whose time is at or after t
CREATE FUNCTION snowflake_eq_tstz(snowflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'snowflake_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_ne_tstz(snowflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'snowflake_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_lt_tstz(snowflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'snowflake_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_le_tstz(snowflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'snowflake_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_gt_tstz(snowflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'snowflake_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_ge_tstz(snowflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'snowflake_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION snowflake_cmp_tstz(snowflake, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'snowflake_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_snowflake(timestamptz, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_snowflake(timestamptz, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_snowflake(timestamptz, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_snowflake(timestamptz, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_snowflake(timestamptz, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_snowflake(timestamptz, snowflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_snowflake(timestamptz, snowflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- two times compared as the snowflakes they stand for: the order of timestamptz
-- within the btree family (see the family below)
CREATE FUNCTION tstz_cmp_as_snowflake(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = snowflake, RIGHTARG = timestamptz, PROCEDURE = snowflake_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = snowflake, RIGHTARG = timestamptz, PROCEDURE = snowflake_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = snowflake, RIGHTARG = timestamptz, PROCEDURE = snowflake_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = snowflake, RIGHTARG = timestamptz, PROCEDURE = snowflake_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = snowflake, RIGHTARG = timestamptz, PROCEDURE = snowflake_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = snowflake, RIGHTARG = timestamptz, PROCEDURE = snowflake_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = snowflake, PROCEDURE = tstz_eq_snowflake,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = snowflake, PROCEDURE = tstz_ne_snowflake,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = snowflake, PROCEDURE = tstz_lt_snowflake,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = snowflake, PROCEDURE = tstz_le_snowflake,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = snowflake, PROCEDURE = tstz_gt_snowflake,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = snowflake, PROCEDURE = tstz_ge_snowflake,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION snowflake_smaller(snowflake, snowflake) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'uid64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_larger(snowflake, snowflake) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'uid64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(snowflake) (SFUNC = snowflake_smaller, STYPE = snowflake, COMBINEFUNC = snowflake_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(snowflake) (SFUNC = snowflake_larger, STYPE = snowflake, COMBINEFUNC = snowflake_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS snowflake_ops DEFAULT FOR TYPE snowflake USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 snowflake_cmp(snowflake, snowflake),
    FUNCTION 2 snowflake_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

ALTER OPERATOR FAMILY snowflake_ops USING btree ADD
    OPERATOR 1 < (snowflake, timestamptz), OPERATOR 2 <= (snowflake, timestamptz),
    OPERATOR 3 = (snowflake, timestamptz), OPERATOR 4 >= (snowflake, timestamptz),
    OPERATOR 5 > (snowflake, timestamptz),
    FUNCTION 1 snowflake_cmp_tstz(snowflake, timestamptz),
    OPERATOR 1 < (timestamptz, snowflake), OPERATOR 2 <= (timestamptz, snowflake),
    OPERATOR 3 = (timestamptz, snowflake), OPERATOR 4 >= (timestamptz, snowflake),
    OPERATOR 5 > (timestamptz, snowflake),
    FUNCTION 1 tstz_cmp_snowflake(timestamptz, snowflake),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_snowflake(timestamptz, timestamptz);

CREATE OPERATOR CLASS snowflake_ops DEFAULT FOR TYPE snowflake USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 snowflake_hash(snowflake),
    FUNCTION 2 snowflake_hash_extended(snowflake, bigint);

CREATE OPERATOR CLASS snowflake_minmax_ops DEFAULT FOR TYPE snowflake USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY snowflake_minmax_ops USING brin ADD
    OPERATOR 1 < (snowflake, timestamptz), OPERATOR 2 <= (snowflake, timestamptz),
    OPERATOR 3 = (snowflake, timestamptz), OPERATOR 4 >= (snowflake, timestamptz),
    OPERATOR 5 > (snowflake, timestamptz);

-- time and fields
CREATE FUNCTION id_time(snowflake) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_node(snowflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'snowflake_node' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_seq(snowflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'snowflake_seq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_snowflake("time" timestamptz, node integer, seq integer) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'make_snowflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts: the 64 bits reinterpreted; no implicit casts
CREATE CAST (snowflake AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE FUNCTION snowflake(bigint) RETURNS snowflake
    AS 'MODULE_PATHNAME', 'snowflake_from_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS snowflake) WITH FUNCTION snowflake(bigint);
CREATE CAST (snowflake AS timestamptz) WITH FUNCTION id_time(snowflake);

CREATE FUNCTION next_snowflake() RETURNS snowflake
    AS 'MODULE_PATHNAME', 'next_snowflake' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- sonyflake: 0 . time 39 (10 ms units) . seq 8 . machine 16
-- (generated by tools/gen_id64_sql.py)
---------------------------------------------------------------------------

CREATE TYPE sonyflake;

CREATE FUNCTION sonyflake_in(cstring) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'sonyflake_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sonyflake_out(sonyflake) RETURNS cstring
    AS 'MODULE_PATHNAME', 'sonyflake_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sonyflake_recv(internal) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'sonyflake_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sonyflake_send(sonyflake) RETURNS bytea
    AS 'MODULE_PATHNAME', 'uid64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE sonyflake (
    INPUT = sonyflake_in,
    OUTPUT = sonyflake_out,
    RECEIVE = sonyflake_recv,
    SEND = sonyflake_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE sonyflake IS 'Sonyflake: 39-bit 10 ms time since 2014-09-01, 8-bit sequence, 16-bit machine id';

CREATE FUNCTION sonyflake_eq(sonyflake, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_ne(sonyflake, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_lt(sonyflake, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_le(sonyflake, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_gt(sonyflake, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_ge(sonyflake, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_cmp(sonyflake, sonyflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'uid64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sonyflake_hash(sonyflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_hash_extended(sonyflake, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'uid64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = sonyflake, RIGHTARG = sonyflake, PROCEDURE = sonyflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = sonyflake, RIGHTARG = sonyflake, PROCEDURE = sonyflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = sonyflake, RIGHTARG = sonyflake, PROCEDURE = sonyflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = sonyflake, RIGHTARG = sonyflake, PROCEDURE = sonyflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = sonyflake, RIGHTARG = sonyflake, PROCEDURE = sonyflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = sonyflake, RIGHTARG = sonyflake, PROCEDURE = sonyflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest sonyflake
-- whose time is at or after t
CREATE FUNCTION sonyflake_eq_tstz(sonyflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sonyflake_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_ne_tstz(sonyflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sonyflake_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_lt_tstz(sonyflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sonyflake_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_le_tstz(sonyflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sonyflake_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_gt_tstz(sonyflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sonyflake_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_ge_tstz(sonyflake, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sonyflake_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sonyflake_cmp_tstz(sonyflake, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'sonyflake_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_sonyflake(timestamptz, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_sonyflake(timestamptz, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_sonyflake(timestamptz, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_sonyflake(timestamptz, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_sonyflake(timestamptz, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_sonyflake(timestamptz, sonyflake) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_sonyflake(timestamptz, sonyflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- two times compared as the sonyflakes they stand for: the order of timestamptz
-- within the btree family (see the family below)
CREATE FUNCTION tstz_cmp_as_sonyflake(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = sonyflake, RIGHTARG = timestamptz, PROCEDURE = sonyflake_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = sonyflake, RIGHTARG = timestamptz, PROCEDURE = sonyflake_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = sonyflake, RIGHTARG = timestamptz, PROCEDURE = sonyflake_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = sonyflake, RIGHTARG = timestamptz, PROCEDURE = sonyflake_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = sonyflake, RIGHTARG = timestamptz, PROCEDURE = sonyflake_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = sonyflake, RIGHTARG = timestamptz, PROCEDURE = sonyflake_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = sonyflake, PROCEDURE = tstz_eq_sonyflake,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = sonyflake, PROCEDURE = tstz_ne_sonyflake,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = sonyflake, PROCEDURE = tstz_lt_sonyflake,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = sonyflake, PROCEDURE = tstz_le_sonyflake,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = sonyflake, PROCEDURE = tstz_gt_sonyflake,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = sonyflake, PROCEDURE = tstz_ge_sonyflake,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION sonyflake_smaller(sonyflake, sonyflake) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'uid64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sonyflake_larger(sonyflake, sonyflake) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'uid64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(sonyflake) (SFUNC = sonyflake_smaller, STYPE = sonyflake, COMBINEFUNC = sonyflake_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(sonyflake) (SFUNC = sonyflake_larger, STYPE = sonyflake, COMBINEFUNC = sonyflake_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS sonyflake_ops DEFAULT FOR TYPE sonyflake USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 sonyflake_cmp(sonyflake, sonyflake),
    FUNCTION 2 sonyflake_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

ALTER OPERATOR FAMILY sonyflake_ops USING btree ADD
    OPERATOR 1 < (sonyflake, timestamptz), OPERATOR 2 <= (sonyflake, timestamptz),
    OPERATOR 3 = (sonyflake, timestamptz), OPERATOR 4 >= (sonyflake, timestamptz),
    OPERATOR 5 > (sonyflake, timestamptz),
    FUNCTION 1 sonyflake_cmp_tstz(sonyflake, timestamptz),
    OPERATOR 1 < (timestamptz, sonyflake), OPERATOR 2 <= (timestamptz, sonyflake),
    OPERATOR 3 = (timestamptz, sonyflake), OPERATOR 4 >= (timestamptz, sonyflake),
    OPERATOR 5 > (timestamptz, sonyflake),
    FUNCTION 1 tstz_cmp_sonyflake(timestamptz, sonyflake),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_sonyflake(timestamptz, timestamptz);

CREATE OPERATOR CLASS sonyflake_ops DEFAULT FOR TYPE sonyflake USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 sonyflake_hash(sonyflake),
    FUNCTION 2 sonyflake_hash_extended(sonyflake, bigint);

CREATE OPERATOR CLASS sonyflake_minmax_ops DEFAULT FOR TYPE sonyflake USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY sonyflake_minmax_ops USING brin ADD
    OPERATOR 1 < (sonyflake, timestamptz), OPERATOR 2 <= (sonyflake, timestamptz),
    OPERATOR 3 = (sonyflake, timestamptz), OPERATOR 4 >= (sonyflake, timestamptz),
    OPERATOR 5 > (sonyflake, timestamptz);

-- time and fields
CREATE FUNCTION id_time(sonyflake) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'sonyflake_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_seq(sonyflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'sonyflake_seq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_node(sonyflake) RETURNS integer
    AS 'MODULE_PATHNAME', 'sonyflake_machine' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_sonyflake("time" timestamptz, seq integer, machine integer) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'make_sonyflake' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts: the 64 bits reinterpreted; no implicit casts
CREATE CAST (sonyflake AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE FUNCTION sonyflake(bigint) RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'sonyflake_from_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS sonyflake) WITH FUNCTION sonyflake(bigint);
CREATE CAST (sonyflake AS timestamptz) WITH FUNCTION id_time(sonyflake);

CREATE FUNCTION next_sonyflake() RETURNS sonyflake
    AS 'MODULE_PATHNAME', 'next_sonyflake' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- shortid: 60 bits, 0000 . time 42 . seq 9 . random 9, rotated base64 display
-- (generated by tools/gen_id64_sql.py)
---------------------------------------------------------------------------

CREATE TYPE shortid;

CREATE FUNCTION shortid_in(cstring) RETURNS shortid
    AS 'MODULE_PATHNAME', 'shortid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shortid_out(shortid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'shortid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shortid_recv(internal) RETURNS shortid
    AS 'MODULE_PATHNAME', 'shortid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shortid_send(shortid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'uid64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE shortid (
    INPUT = shortid_in,
    OUTPUT = shortid_out,
    RECEIVE = shortid_recv,
    SEND = shortid_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE shortid IS 'shortid: 60-bit ID, 42-bit ms time since 2018-03-01, 9-bit sequence, 9 random bits; base64 display form';

CREATE FUNCTION shortid_eq(shortid, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_ne(shortid, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_lt(shortid, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_le(shortid, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_gt(shortid, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_ge(shortid, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_cmp(shortid, shortid) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'uid64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shortid_hash(shortid) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_hash_extended(shortid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'uid64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = shortid, RIGHTARG = shortid, PROCEDURE = shortid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = shortid, RIGHTARG = shortid, PROCEDURE = shortid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = shortid, RIGHTARG = shortid, PROCEDURE = shortid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = shortid, RIGHTARG = shortid, PROCEDURE = shortid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = shortid, RIGHTARG = shortid, PROCEDURE = shortid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = shortid, RIGHTARG = shortid, PROCEDURE = shortid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- comparison with timestamptz: id OP t compares id with the smallest shortid
-- whose time is at or after t
CREATE FUNCTION shortid_eq_tstz(shortid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shortid_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_ne_tstz(shortid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shortid_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_lt_tstz(shortid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shortid_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_le_tstz(shortid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shortid_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_gt_tstz(shortid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shortid_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_ge_tstz(shortid, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'shortid_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION shortid_cmp_tstz(shortid, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'shortid_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_shortid(timestamptz, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_shortid(timestamptz, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_shortid(timestamptz, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_shortid(timestamptz, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_shortid(timestamptz, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_shortid(timestamptz, shortid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_shortid(timestamptz, shortid) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- two times compared as the shortids they stand for: the order of timestamptz
-- within the btree family (see the family below)
CREATE FUNCTION tstz_cmp_as_shortid(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = shortid, RIGHTARG = timestamptz, PROCEDURE = shortid_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = shortid, RIGHTARG = timestamptz, PROCEDURE = shortid_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = shortid, RIGHTARG = timestamptz, PROCEDURE = shortid_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = shortid, RIGHTARG = timestamptz, PROCEDURE = shortid_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = shortid, RIGHTARG = timestamptz, PROCEDURE = shortid_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = shortid, RIGHTARG = timestamptz, PROCEDURE = shortid_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = shortid, PROCEDURE = tstz_eq_shortid,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = shortid, PROCEDURE = tstz_ne_shortid,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = shortid, PROCEDURE = tstz_lt_shortid,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = shortid, PROCEDURE = tstz_le_shortid,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = shortid, PROCEDURE = tstz_gt_shortid,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = shortid, PROCEDURE = tstz_ge_shortid,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION shortid_smaller(shortid, shortid) RETURNS shortid
    AS 'MODULE_PATHNAME', 'uid64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION shortid_larger(shortid, shortid) RETURNS shortid
    AS 'MODULE_PATHNAME', 'uid64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(shortid) (SFUNC = shortid_smaller, STYPE = shortid, COMBINEFUNC = shortid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(shortid) (SFUNC = shortid_larger, STYPE = shortid, COMBINEFUNC = shortid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS shortid_ops DEFAULT FOR TYPE shortid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 shortid_cmp(shortid, shortid),
    FUNCTION 2 shortid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

ALTER OPERATOR FAMILY shortid_ops USING btree ADD
    OPERATOR 1 < (shortid, timestamptz), OPERATOR 2 <= (shortid, timestamptz),
    OPERATOR 3 = (shortid, timestamptz), OPERATOR 4 >= (shortid, timestamptz),
    OPERATOR 5 > (shortid, timestamptz),
    FUNCTION 1 shortid_cmp_tstz(shortid, timestamptz),
    OPERATOR 1 < (timestamptz, shortid), OPERATOR 2 <= (timestamptz, shortid),
    OPERATOR 3 = (timestamptz, shortid), OPERATOR 4 >= (timestamptz, shortid),
    OPERATOR 5 > (timestamptz, shortid),
    FUNCTION 1 tstz_cmp_shortid(timestamptz, shortid),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_shortid(timestamptz, timestamptz);

CREATE OPERATOR CLASS shortid_ops DEFAULT FOR TYPE shortid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 shortid_hash(shortid),
    FUNCTION 2 shortid_hash_extended(shortid, bigint);

CREATE OPERATOR CLASS shortid_minmax_ops DEFAULT FOR TYPE shortid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY shortid_minmax_ops USING brin ADD
    OPERATOR 1 < (shortid, timestamptz), OPERATOR 2 <= (shortid, timestamptz),
    OPERATOR 3 = (shortid, timestamptz), OPERATOR 4 >= (shortid, timestamptz),
    OPERATOR 5 > (shortid, timestamptz);

-- time and fields
CREATE FUNCTION id_time(shortid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'shortid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_seq(shortid) RETURNS integer
    AS 'MODULE_PATHNAME', 'shortid_seq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_random(shortid) RETURNS integer
    AS 'MODULE_PATHNAME', 'shortid_random' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_shortid("time" timestamptz, seq integer, random integer) RETURNS shortid
    AS 'MODULE_PATHNAME', 'make_shortid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts: the 64 bits reinterpreted; no implicit casts
CREATE CAST (shortid AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE FUNCTION shortid(bigint) RETURNS shortid
    AS 'MODULE_PATHNAME', 'shortid_from_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS shortid) WITH FUNCTION shortid(bigint);
CREATE CAST (shortid AS timestamptz) WITH FUNCTION id_time(shortid);

CREATE FUNCTION next_shortid() RETURNS shortid
    AS 'MODULE_PATHNAME', 'next_shortid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- spreadid: time 42 . seq 6 . gen 3 . mode 1 . gen 8 . cluster 4; SPREAD mode
-- stores the bit-reversed time, so it is not time-ordered
-- (generated by tools/gen_id64_sql.py)
---------------------------------------------------------------------------

CREATE TYPE spreadid;

CREATE FUNCTION spreadid_in(cstring) RETURNS spreadid
    AS 'MODULE_PATHNAME', 'spreadid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spreadid_out(spreadid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'spreadid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spreadid_recv(internal) RETURNS spreadid
    AS 'MODULE_PATHNAME', 'spreadid_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spreadid_send(spreadid) RETURNS bytea
    AS 'MODULE_PATHNAME', 'uid64_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE spreadid (
    INPUT = spreadid_in,
    OUTPUT = spreadid_out,
    RECEIVE = spreadid_recv,
    SEND = spreadid_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE spreadid IS 'spreadid: 42-bit ms time (bit-reversed in SPREAD mode), 6-bit sequence, 11-bit generator, mode bit, 4-bit cluster';

CREATE FUNCTION spreadid_eq(spreadid, spreadid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_ne(spreadid, spreadid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_lt(spreadid, spreadid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_le(spreadid, spreadid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_gt(spreadid, spreadid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_ge(spreadid, spreadid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'uid64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_cmp(spreadid, spreadid) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'uid64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spreadid_hash(spreadid) RETURNS integer
    AS 'MODULE_PATHNAME', 'uid64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION spreadid_hash_extended(spreadid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'uid64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = spreadid, RIGHTARG = spreadid, PROCEDURE = spreadid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = spreadid, RIGHTARG = spreadid, PROCEDURE = spreadid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = spreadid, RIGHTARG = spreadid, PROCEDURE = spreadid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = spreadid, RIGHTARG = spreadid, PROCEDURE = spreadid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = spreadid, RIGHTARG = spreadid, PROCEDURE = spreadid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = spreadid, RIGHTARG = spreadid, PROCEDURE = spreadid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION spreadid_smaller(spreadid, spreadid) RETURNS spreadid
    AS 'MODULE_PATHNAME', 'uid64_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spreadid_larger(spreadid, spreadid) RETURNS spreadid
    AS 'MODULE_PATHNAME', 'uid64_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(spreadid) (SFUNC = spreadid_smaller, STYPE = spreadid, COMBINEFUNC = spreadid_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(spreadid) (SFUNC = spreadid_larger, STYPE = spreadid, COMBINEFUNC = spreadid_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS spreadid_ops DEFAULT FOR TYPE spreadid USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 spreadid_cmp(spreadid, spreadid),
    FUNCTION 2 spreadid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS spreadid_ops DEFAULT FOR TYPE spreadid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 spreadid_hash(spreadid),
    FUNCTION 2 spreadid_hash_extended(spreadid, bigint);

CREATE OPERATOR CLASS spreadid_minmax_ops DEFAULT FOR TYPE spreadid USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

-- time and fields
CREATE FUNCTION id_time(spreadid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'spreadid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_seq(spreadid) RETURNS integer
    AS 'MODULE_PATHNAME', 'spreadid_seq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_node(spreadid) RETURNS integer
    AS 'MODULE_PATHNAME', 'spreadid_generator' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_cluster(spreadid) RETURNS integer
    AS 'MODULE_PATHNAME', 'spreadid_cluster' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_mode(spreadid) RETURNS text
    AS 'MODULE_PATHNAME', 'spreadid_mode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_spreadid("time" timestamptz, seq integer, generator integer, cluster integer, mode text) RETURNS spreadid
    AS 'MODULE_PATHNAME', 'make_spreadid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- casts: the 64 bits reinterpreted; no implicit casts
CREATE CAST (spreadid AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (bigint AS spreadid) WITHOUT FUNCTION;
CREATE CAST (spreadid AS timestamptz) WITH FUNCTION id_time(spreadid);

CREATE FUNCTION next_spreadid(mode text DEFAULT 'spread') RETURNS spreadid
    AS 'MODULE_PATHNAME', 'next_spreadid' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- sno: 10 bytes, time 39 (4 ms) . tick 1 . meta 8 . partition 16 . seq 16,
-- written as 16 characters of base32
---------------------------------------------------------------------------

CREATE TYPE sno;

CREATE FUNCTION sno_in(cstring) RETURNS sno
    AS 'MODULE_PATHNAME', 'sno_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_out(sno) RETURNS cstring
    AS 'MODULE_PATHNAME', 'sno_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_recv(internal) RETURNS sno
    AS 'MODULE_PATHNAME', 'sno_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_send(sno) RETURNS bytea
    AS 'MODULE_PATHNAME', 'sno_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE sno (
    INPUT = sno_in,
    OUTPUT = sno_out,
    RECEIVE = sno_recv,
    SEND = sno_send,
    INTERNALLENGTH = 10,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE sno IS 'sno: 10-byte ID, 39-bit 4 ms time since 2010-01-01, tick-tock bit, 8-bit meta, 16-bit partition, 16-bit sequence';

CREATE FUNCTION sno_eq(sno, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_ne(sno, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_lt(sno, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_le(sno, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_gt(sno, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_ge(sno, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_cmp(sno, sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_cmp_fn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'sno_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_hash(sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_hash_extended(sno, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'sno_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE FUNCTION sno_eq_tstz(sno, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_eq_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_ne_tstz(sno, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_ne_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_lt_tstz(sno, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_lt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_le_tstz(sno, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_le_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_gt_tstz(sno, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_gt_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_ge_tstz(sno, timestamptz) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sno_ge_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION sno_cmp_tstz(sno, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_cmp_tstz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_eq_sno(timestamptz, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_eq_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ne_sno(timestamptz, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ne_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_lt_sno(timestamptz, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_lt_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_le_sno(timestamptz, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_le_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_gt_sno(timestamptz, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_gt_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_ge_sno(timestamptz, sno) RETURNS boolean
    AS 'MODULE_PATHNAME', 'tstz_ge_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tstz_cmp_sno(timestamptz, sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- two times compared as the snos they stand for: the order of timestamptz
-- within the btree family (see the family below)
CREATE FUNCTION tstz_cmp_as_sno(timestamptz, timestamptz) RETURNS integer
    AS 'MODULE_PATHNAME', 'tstz_cmp_as_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = sno, RIGHTARG = timestamptz, PROCEDURE = sno_eq_tstz,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = sno, RIGHTARG = timestamptz, PROCEDURE = sno_ne_tstz,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = sno, RIGHTARG = timestamptz, PROCEDURE = sno_lt_tstz,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = sno, RIGHTARG = timestamptz, PROCEDURE = sno_le_tstz,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = sno, RIGHTARG = timestamptz, PROCEDURE = sno_gt_tstz,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = sno, RIGHTARG = timestamptz, PROCEDURE = sno_ge_tstz,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR = (LEFTARG = timestamptz, RIGHTARG = sno, PROCEDURE = tstz_eq_sno,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR <> (LEFTARG = timestamptz, RIGHTARG = sno, PROCEDURE = tstz_ne_sno,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = timestamptz, RIGHTARG = sno, PROCEDURE = tstz_lt_sno,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = timestamptz, RIGHTARG = sno, PROCEDURE = tstz_le_sno,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = timestamptz, RIGHTARG = sno, PROCEDURE = tstz_gt_sno,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = timestamptz, RIGHTARG = sno, PROCEDURE = tstz_ge_sno,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION sno_smaller(sno, sno) RETURNS sno
    AS 'MODULE_PATHNAME', 'sno_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_larger(sno, sno) RETURNS sno
    AS 'MODULE_PATHNAME', 'sno_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(sno) (SFUNC = sno_smaller, STYPE = sno, COMBINEFUNC = sno_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(sno) (SFUNC = sno_larger, STYPE = sno, COMBINEFUNC = sno_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS sno_ops DEFAULT FOR TYPE sno USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 sno_cmp(sno, sno),
    FUNCTION 2 sno_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

ALTER OPERATOR FAMILY sno_ops USING btree ADD
    OPERATOR 1 < (sno, timestamptz), OPERATOR 2 <= (sno, timestamptz),
    OPERATOR 3 = (sno, timestamptz), OPERATOR 4 >= (sno, timestamptz),
    OPERATOR 5 > (sno, timestamptz),
    FUNCTION 1 sno_cmp_tstz(sno, timestamptz),
    OPERATOR 1 < (timestamptz, sno), OPERATOR 2 <= (timestamptz, sno),
    OPERATOR 3 = (timestamptz, sno), OPERATOR 4 >= (timestamptz, sno),
    OPERATOR 5 > (timestamptz, sno),
    FUNCTION 1 tstz_cmp_sno(timestamptz, sno),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_sno(timestamptz, timestamptz);

CREATE OPERATOR CLASS sno_ops DEFAULT FOR TYPE sno USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 sno_hash(sno),
    FUNCTION 2 sno_hash_extended(sno, bigint);

CREATE OPERATOR CLASS sno_minmax_ops DEFAULT FOR TYPE sno USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

ALTER OPERATOR FAMILY sno_minmax_ops USING brin ADD
    OPERATOR 1 < (sno, timestamptz), OPERATOR 2 <= (sno, timestamptz),
    OPERATOR 3 = (sno, timestamptz), OPERATOR 4 >= (sno, timestamptz),
    OPERATOR 5 > (sno, timestamptz);

CREATE FUNCTION id_time(sno) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'sno_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_meta(sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_meta' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_partition(sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_partition' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_seq(sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_seq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_tick(sno) RETURNS integer
    AS 'MODULE_PATHNAME', 'sno_tick' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_sno("time" timestamptz, meta integer, partition integer, seq integer,
                         tick integer DEFAULT 0) RETURNS sno
    AS 'MODULE_PATHNAME', 'make_sno' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION sno(bytea) RETURNS sno
    AS 'MODULE_PATHNAME', 'sno_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea(sno) RETURNS bytea
    AS 'MODULE_PATHNAME', 'sno_to_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bytea AS sno) WITH FUNCTION sno(bytea);
CREATE CAST (sno AS bytea) WITH FUNCTION bytea(sno);
CREATE CAST (sno AS timestamptz) WITH FUNCTION id_time(sno);

CREATE FUNCTION next_sno(meta integer DEFAULT 0) RETURNS sno
    AS 'MODULE_PATHNAME', 'next_sno' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

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

---------------------------------------------------------------------------
-- moving a logical shard between servers
---------------------------------------------------------------------------

CREATE FUNCTION shard_adopt(shard integer, last shardid) RETURNS void
    AS 'MODULE_PATHNAME', 'shard_adopt' LANGUAGE C VOLATILE STRICT;
REVOKE EXECUTE ON FUNCTION shard_adopt(integer, shardid) FROM PUBLIC;

---------------------------------------------------------------------------
-- UUID version 7 on the core uuid type (RFC 9562)
---------------------------------------------------------------------------

CREATE FUNCTION next_uuid7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'next_uuid7' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION id_time(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uuid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
