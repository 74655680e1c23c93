#!/usr/bin/env python3
"""Prints the install-script block of an 8-byte ID type.

The 8-byte types share one C implementation (src/id64.c), so their SQL is the
same text but for names; sql/uniqueid--1.0.sql holds this script's output
for each of them (the shardid block was written by hand first and has the
same shape).  Usage: tools/gen_id64_sql.py TYPE "COMMENT" TIME_ORDERED(0|1)
  "ACCESSOR:CFUNC ..." "MAKE_ARGS" BIGINT_CHECKED(0|1)
"""
import sys

t, comment, timed, accessors, make_args, checked = sys.argv[1:7]
timed = timed == "1"
checked = checked == "1"
F = "LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE"
out = []
w = out.append
w(f"CREATE TYPE {t};\n")
w(f"CREATE FUNCTION {t}_in(cstring) RETURNS {t}\n    AS 'MODULE_PATHNAME', '{t}_in' {F};")
w(f"CREATE FUNCTION {t}_out({t}) RETURNS cstring\n    AS 'MODULE_PATHNAME', '{t}_out' {F};")
w(f"CREATE FUNCTION {t}_recv(internal) RETURNS {t}\n    AS 'MODULE_PATHNAME', '{t}_recv' {F};")
w(f"CREATE FUNCTION {t}_send({t}) RETURNS bytea\n    AS 'MODULE_PATHNAME', 'uid64_send' {F};\n")
w(f"""CREATE TYPE {t} (
    INPUT = {t}_in,
    OUTPUT = {t}_out,
    RECEIVE = {t}_recv,
    SEND = {t}_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE {t} IS '{comment}';
""")
for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
    w(f"CREATE FUNCTION {t}_{op}({t}, {t}) RETURNS boolean\n    AS 'MODULE_PATHNAME', 'uid64_{op}' {F} LEAKPROOF;")
w(f"CREATE FUNCTION {t}_cmp({t}, {t}) RETURNS integer\n    AS 'MODULE_PATHNAME', 'uid64_cmp' {F} LEAKPROOF;")
w(f"CREATE FUNCTION {t}_sortsupport(internal) RETURNS void\n    AS 'MODULE_PATHNAME', 'uid64_sortsupport' {F};")
w(f"CREATE FUNCTION {t}_hash({t}) RETURNS integer\n    AS 'MODULE_PATHNAME', 'uid64_hash' {F} LEAKPROOF;")
w(f"CREATE FUNCTION {t}_hash_extended({t}, bigint) RETURNS bigint\n    AS 'MODULE_PATHNAME', 'uid64_hash_extended' {F} LEAKPROOF;\n")

OPS = [("=", "eq", "=", "<>", "eqsel", "eqjoinsel"), ("<>", "ne", "<>", "=", "neqsel", "neqjoinsel"),
       ("<", "lt", ">", ">=", "scalarltsel", "scalarltjoinsel"), ("<=", "le", ">=", ">", "scalarlesel", "scalarlejoinsel"),
       (">", "gt", "<", "<=", "scalargtsel", "scalargtjoinsel"), (">=", "ge", "<=", "<", "scalargesel", "scalargejoinsel")]


def operators(left, right, fn):
    for sym, name, com, neg, rs, js in OPS:
        extra = ", HASHES, MERGES" if sym == "=" and left == right else ""
        w(f"CREATE OPERATOR {sym} (LEFTARG = {left}, RIGHTARG = {right}, PROCEDURE = {fn(name)},\n"
          f"    COMMUTATOR = {com}, NEGATOR = {neg}, RESTRICT = {rs}, JOIN = {js}{extra});")


operators(t, t, lambda n: f"{t}_{n}")
w("")
if timed:
    w(f"-- comparison with timestamptz: id OP t compares id with the smallest {t}\n-- whose time is at or after t")
    for left, right, cname in [(t, "timestamptz", lambda n: f"{t}_{n}_tstz"), ("timestamptz", t, lambda n: f"tstz_{n}_{t}")]:
        for n in ["eq", "ne", "lt", "le", "gt", "ge", "cmp"]:
            ret = "integer" if n == "cmp" else "boolean"
            w(f"CREATE FUNCTION {cname(n)}({left}, {right}) RETURNS {ret}\n    AS 'MODULE_PATHNAME', '{cname(n)}' {F} LEAKPROOF;")
    w(f"-- two times compared as the {t}s they stand for: the order of timestamptz\n-- within the btree family (see the family below)")
    w(f"CREATE FUNCTION tstz_cmp_as_{t}(timestamptz, timestamptz) RETURNS integer\n    AS 'MODULE_PATHNAME', 'tstz_cmp_as_{t}' {F} LEAKPROOF;")
    w("")
    operators(t, "timestamptz", lambda n: f"{t}_{n}_tstz")
    operators("timestamptz", t, lambda n: f"tstz_{n}_{t}")
    w("")
w(f"""-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION {t}_smaller({t}, {t}) RETURNS {t}
    AS 'MODULE_PATHNAME', 'uid64_smaller' {F};
CREATE FUNCTION {t}_larger({t}, {t}) RETURNS {t}
    AS 'MODULE_PATHNAME', 'uid64_larger' {F};
CREATE AGGREGATE min({t}) (SFUNC = {t}_smaller, STYPE = {t}, COMBINEFUNC = {t}_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max({t}) (SFUNC = {t}_larger, STYPE = {t}, COMBINEFUNC = {t}_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS {t}_ops DEFAULT FOR TYPE {t} USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 {t}_cmp({t}, {t}),
    FUNCTION 2 {t}_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);
""")
if timed:
    w(f"""ALTER OPERATOR FAMILY {t}_ops USING btree ADD
    OPERATOR 1 < ({t}, timestamptz), OPERATOR 2 <= ({t}, timestamptz),
    OPERATOR 3 = ({t}, timestamptz), OPERATOR 4 >= ({t}, timestamptz),
    OPERATOR 5 > ({t}, timestamptz),
    FUNCTION 1 {t}_cmp_tstz({t}, timestamptz),
    OPERATOR 1 < (timestamptz, {t}), OPERATOR 2 <= (timestamptz, {t}),
    OPERATOR 3 = (timestamptz, {t}), OPERATOR 4 >= (timestamptz, {t}),
    OPERATOR 5 > (timestamptz, {t}),
    FUNCTION 1 tstz_cmp_{t}(timestamptz, {t}),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_{t}(timestamptz, timestamptz);
""")
w(f"""CREATE OPERATOR CLASS {t}_ops DEFAULT FOR TYPE {t} USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 {t}_hash({t}),
    FUNCTION 2 {t}_hash_extended({t}, bigint);

CREATE OPERATOR CLASS {t}_minmax_ops DEFAULT FOR TYPE {t} USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);
""")
if timed:
    w(f"""ALTER OPERATOR FAMILY {t}_minmax_ops USING brin ADD
    OPERATOR 1 < ({t}, timestamptz), OPERATOR 2 <= ({t}, timestamptz),
    OPERATOR 3 = ({t}, timestamptz), OPERATOR 4 >= ({t}, timestamptz),
    OPERATOR 5 > ({t}, timestamptz);
""")
w(f"-- time and fields\nCREATE FUNCTION id_time({t}) RETURNS timestamptz\n    AS 'MODULE_PATHNAME', '{t}_time' {F};")
for acc in accessors.split():
    name, cfn, ret = acc.split(":")
    w(f"CREATE FUNCTION {name}({t}) RETURNS {ret}\n    AS 'MODULE_PATHNAME', '{cfn}' {F};")
w(f"CREATE FUNCTION make_{t}(\"time\" timestamptz, {make_args}) RETURNS {t}\n    AS 'MODULE_PATHNAME', 'make_{t}' {F};\n")
w("-- casts: the 64 bits reinterpreted; no implicit casts")
w(f"CREATE CAST ({t} AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;")
if checked:
    w(f"CREATE FUNCTION {t}(bigint) RETURNS {t}\n    AS 'MODULE_PATHNAME', '{t}_from_bigint' {F};")
    w(f"CREATE CAST (bigint AS {t}) WITH FUNCTION {t}(bigint);")
else:
    w(f"CREATE CAST (bigint AS {t}) WITHOUT FUNCTION;")
w(f"CREATE CAST ({t} AS timestamptz) WITH FUNCTION id_time({t});")
print("\n".join(out))
