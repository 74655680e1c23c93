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
-- is an index range scan on the ID
ALTER OPERATOR FAMILY shardid_ops USING btree ADD
    OPERATOR 1 < (shardid, timestamptz), OPERATOR 2 <= (shardid, timestamptz),
    OPERATOR 3 = (shardid, timestamptz), OPERATOR 4 >= (shardid, timestamptz),
    OPERATOR 5 > (shardid, timestamptz),
    FUNCTION 1 shardid_cmp_tstz(shardid, timestamptz),
    OPERATOR 1 < (timestamptz, shardid), OPERATOR 2 <= (timestamptz, shardid),
    OPERATOR 3 = (timestamptz, shardid), OPERATOR 4 >= (timestamptz, shardid),
    OPERATOR 5 > (timestamptz, shardid),
    FUNCTION 1 tstz_cmp_shardid(timestamptz, shardid),
    OPERATOR 1 pg_catalog.< (timestamptz, timestamptz),
    OPERATOR 2 pg_catalog.<= (timestamptz, timestamptz),
    OPERATOR 3 pg_catalog.= (timestamptz, timestamptz),
    OPERATOR 4 pg_catalog.>= (timestamptz, timestamptz),
    OPERATOR 5 pg_catalog.> (timestamptz, timestamptz),
    FUNCTION 1 pg_catalog.timestamptz_cmp(timestamptz, timestamptz);

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
    OPERATOR 1 pg_catalog.< (timestamptz, timestamptz),
    OPERATOR 2 pg_catalog.<= (timestamptz, timestamptz),
    OPERATOR 3 pg_catalog.= (timestamptz, timestamptz),
    OPERATOR 4 pg_catalog.>= (timestamptz, timestamptz),
    OPERATOR 5 pg_catalog.> (timestamptz, timestamptz),
    FUNCTION 1 pg_catalog.timestamptz_cmp(timestamptz, timestamptz);

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
-- short codes for people
---------------------------------------------------------------------------

CREATE FUNCTION id_encode(value bigint, alphabet text DEFAULT 'base62') RETURNS text
    AS 'MODULE_PATHNAME', 'id_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_encode(value shardid, alphabet text DEFAULT 'base62') RETURNS text
    AS 'MODULE_PATHNAME', 'id_encode_uid64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_decode(code text, alphabet text DEFAULT 'base62') RETURNS bigint
    AS 'MODULE_PATHNAME', 'id_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION id_decode_shardid(code text, alphabet text DEFAULT 'base62') RETURNS shardid
    AS 'MODULE_PATHNAME', 'id_decode_shardid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lexical_add(code text, alphabet text, n bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

---------------------------------------------------------------------------
-- UUID version 7 on the core uuid type (RFC 9562)
---------------------------------------------------------------------------

CREATE FUNCTION next_uuid7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'next_uuid7' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION id_time(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uuid_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
