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
