#!/usr/bin/env python3
"""Writes the install script sql/uniqueid--1.0.sql to standard output, or
with --upgrade the upgrade script sql/uniqueid--1.0--1.1.sql.

The 8-byte families share one C implementation (src/id64.c), so their SQL is
one text but for names: FAMILIES below describes each of them, and block()
writes its type, operators, operator classes, accessors, casts and
generator.  The other parts (sno, objectid, short codes, shard_adopt, UUID
version 7) are written by hand in tools/sql/, in the order of PARTS, and
copied as they are.

The byte-string families of 1.1 (ulid, ksuid, rsxid) share byteid.h's C
functions, so their SQL is generated the same way from BYTE_FAMILIES by
byteid_block(), after the hand-written tools/sql/upgrade-1.1.sql and
before tools/sql/typeid-1.1.sql.

Run by `make sql`; test/run.sh checks that the committed script is what this
program makes.  Released scripts are frozen: once 1.0 is out, this program
must go on making the same 1.0 text, and later changes go to upgrade scripts.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
F = "LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE"
GEN = "LANGUAGE C VOLATILE STRICT PARALLEL SAFE"

# banner: the lines under the family's rule; comment: COMMENT ON TYPE;
# timed: compares with timestamptz (all but spreadid, whose SPREAD mode
# scatters time); accessors: (SQL name, C function, result type); make_args:
# the constructor's arguments after "time"; checked: bigint -> type is a
# checked cast (a C function) rather than a plain reinterpretation;
# generator: (SQL signature, C function).
FAMILIES = [
    dict(t="shardid",
         banner=["shardid: Instagram-style 64-bit ID, time 41 . shard 13 . seq 10"],
         comment="Instagram-style ID: 41-bit ms time since 2011-08-24T21:07:01.721Z, 13-bit shard, 10-bit sequence",
         timed=True,
         accessors=[("id_shard", "shardid_shard", "integer"), ("id_seq", "shardid_seq", "integer")],
         make_args="shard integer, seq integer",
         checked=False,
         generator=("next_id(shard integer)", "next_id")),
    dict(t="snowflake",
         banner=["snowflake: Twitter's 64-bit ID, 0 . time 41 . node 10 . seq 12"],
         comment="Twitter snowflake: 41-bit ms time since 2010-11-04T01:42:54.657Z, 10-bit node, 12-bit sequence",
         timed=True,
         accessors=[("id_node", "snowflake_node", "integer"), ("id_seq", "snowflake_seq", "integer")],
         make_args="node integer, seq integer",
         checked=True,
         generator=("next_snowflake()", "next_snowflake")),
    dict(t="sonyflake",
         banner=["sonyflake: 0 . time 39 (10 ms units) . seq 8 . machine 16"],
         comment="Sonyflake: 39-bit 10 ms time since 2014-09-01, 8-bit sequence, 16-bit machine id",
         timed=True,
         accessors=[("id_seq", "sonyflake_seq", "integer"), ("id_node", "sonyflake_node", "integer")],
         make_args="seq integer, machine integer",
         checked=True,
         generator=("next_sonyflake()", "next_sonyflake")),
    dict(t="shortid",
         banner=["shortid: 60 bits, 0000 . time 42 . seq 9 . random 9, rotated base64 display"],
         comment="shortid: 60-bit ID, 42-bit ms time since 2018-03-01, 9-bit sequence, 9 random bits; base64 display form",
         timed=True,
         accessors=[("id_seq", "shortid_seq", "integer"), ("id_random", "shortid_random", "integer")],
         make_args="seq integer, random integer",
         checked=True,
         generator=("next_shortid()", "next_shortid")),
    dict(t="spreadid",
         banner=["spreadid: time 42 . seq 6 . gen 3 . mode 1 . gen 8 . cluster 4; SPREAD mode",
                 "stores the bit-reversed time, so it is not time-ordered"],
         comment="spreadid: 42-bit ms time (bit-reversed in SPREAD mode), 6-bit sequence, 11-bit generator, mode bit, 4-bit cluster",
         timed=False,
         accessors=[("id_seq", "spreadid_seq", "integer"), ("id_node", "spreadid_node", "integer"),
                    ("id_cluster", "spreadid_cluster", "integer"), ("id_mode", "spreadid_mode", "text")],
         make_args="seq integer, generator integer, cluster integer, mode text",
         checked=False,
         generator=("next_spreadid(mode text DEFAULT 'spread')", "next_spreadid")),
]

# The byte-string families of 1.1: len, the bytes; doc, the lines of the
# banner; accessors: (SQL name, C function, result type); make_args: the
# constructor's arguments after "time"; casts: (other type, C function to,
# C function from) beyond bytea; generator: (SQL name, C function).
BYTE_FAMILIES = [
    dict(t="ulid", len=16,
         banner=["ulid (the ULID spec): 16 bytes, Unix ms 48 . random 80;",
                 "text: 26 characters of Crockford's base 32"],
         comment="ULID: 48-bit Unix ms time, 80 random bits (a 16-bit counter first when generated); Crockford base-32 text",
         accessors=[("id_random", "ulid_random", "bytea")],
         make_args="random bytea",
         casts=[("uuid", "ulid_to_uuid", "ulid_from_uuid")],
         generator=("next_ulid", "next_ulid")),
    dict(t="ksuid", len=20,
         banner=["ksuid (Segment's KSUID): 20 bytes, seconds 32 since 2014-05-13 16:53:20 UTC",
                 ". payload 128; text: 27 base-62 digits"],
         comment="KSUID: 32-bit seconds since 2014-05-13T16:53:20Z, 128-bit payload; base-62 text",
         accessors=[("id_payload", "ksuid_payload", "bytea")],
         make_args="payload bytea",
         casts=[],
         generator=("next_ksuid", "next_ksuid")),
    dict(t="rsxid", len=12,
         banner=["rsxid (github.com/rs/xid; core's xid is the transaction ID): 12 bytes,",
                 "Unix seconds 32 . machine 24 . process 16 . counter 24; text: 20 base32hex"],
         comment="xid of rs/xid: 32-bit Unix seconds, 24-bit machine, 16-bit process, 24-bit counter; base32hex text",
         accessors=[("id_machine", "rsxid_machine", "integer"), ("id_process", "rsxid_process", "integer"),
                    ("id_counter", "rsxid_counter", "integer")],
         make_args="machine integer, process integer, counter integer",
         casts=[],
         generator=("next_rsxid", "next_rsxid")),
]

# the hand-written parts, after the 8-byte families
PARTS = ["sno", "objectid", "shortcode", "shard_adopt", "uuid7"]

RULE = "-" * 75

# (symbol, name, commutator, negator, restriction, join estimator)
OPS = [("=", "eq", "=", "<>", "eqsel", "eqjoinsel"), ("<>", "ne", "<>", "=", "neqsel", "neqjoinsel"),
       ("<", "lt", ">", ">=", "scalarltsel", "scalarltjoinsel"),
       ("<=", "le", ">=", ">", "scalarlesel", "scalarlejoinsel"),
       (">", "gt", "<", "<=", "scalargtsel", "scalargtjoinsel"),
       (">=", "ge", "<=", "<", "scalargesel", "scalargejoinsel")]


def operators(w, left, right, fn):
    """Writes the six comparison operators between left and right; fn(name) is the function."""
    for sym, name, com, neg, rs, js in OPS:
        extra = ", HASHES, MERGES" if sym == "=" and left == right else ""
        w(f"CREATE OPERATOR {sym} (LEFTARG = {left}, RIGHTARG = {right}, PROCEDURE = {fn(name)},\n"
          f"    COMMUTATOR = {com}, NEGATOR = {neg}, RESTRICT = {rs}, JOIN = {js}{extra});")


def tstz_functions(w, t):
    """Writes the functions comparing type t with timestamptz, both ways."""
    for left, right, cname in [(t, "timestamptz", lambda n: f"{t}_{n}_tstz"),
                               ("timestamptz", t, lambda n: f"tstz_{n}_{t}")]:
        for n in ["eq", "ne", "lt", "le", "gt", "ge", "cmp"]:
            ret = "integer" if n == "cmp" else "boolean"
            w(f"CREATE FUNCTION {cname(n)}({left}, {right}) RETURNS {ret}\n"
              f"    AS 'MODULE_PATHNAME', '{cname(n)}' {F} LEAKPROOF;")


def minmax_and_btree(t, c_smaller, c_larger):
    """min()/max() of type t (C functions c_smaller, c_larger) and its btree class."""
    return f"""-- min() and max(), answered from a btree index when there is one
CREATE FUNCTION {t}_smaller({t}, {t}) RETURNS {t}
    AS 'MODULE_PATHNAME', '{c_smaller}' {F};
CREATE FUNCTION {t}_larger({t}, {t}) RETURNS {t}
    AS 'MODULE_PATHNAME', '{c_larger}' {F};
CREATE AGGREGATE min({t}) (SFUNC = {t}_smaller, STYPE = {t}, COMBINEFUNC = {t}_smaller,
    SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max({t}) (SFUNC = {t}_larger, STYPE = {t}, COMBINEFUNC = {t}_larger,
    SORTOP = >, PARALLEL = SAFE);

CREATE OPERATOR CLASS {t}_ops DEFAULT FOR TYPE {t} USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 {t}_cmp({t}, {t}),
    FUNCTION 2 {t}_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);
"""


def tstz_btree_members(t):
    """The timestamptz members of type t's btree family."""
    return f"""ALTER OPERATOR FAMILY {t}_ops USING btree ADD
    OPERATOR 1 < ({t}, timestamptz), OPERATOR 2 <= ({t}, timestamptz),
    OPERATOR 3 = ({t}, timestamptz), OPERATOR 4 >= ({t}, timestamptz),
    OPERATOR 5 > ({t}, timestamptz),
    FUNCTION 1 {t}_cmp_tstz({t}, timestamptz),
    OPERATOR 1 < (timestamptz, {t}), OPERATOR 2 <= (timestamptz, {t}),
    OPERATOR 3 = (timestamptz, {t}), OPERATOR 4 >= (timestamptz, {t}),
    OPERATOR 5 > (timestamptz, {t}),
    FUNCTION 1 tstz_cmp_{t}(timestamptz, {t}),
    FUNCTION 1 (timestamptz, timestamptz) tstz_cmp_as_{t}(timestamptz, timestamptz);
"""


def hash_and_brin(t):
    """Type t's hash and BRIN minmax classes."""
    return f"""CREATE OPERATOR CLASS {t}_ops DEFAULT FOR TYPE {t} USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 {t}_hash({t}),
    FUNCTION 2 {t}_hash_extended({t}, bigint);

CREATE OPERATOR CLASS {t}_minmax_ops DEFAULT FOR TYPE {t} USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);
"""


def tstz_brin_members(t):
    """The timestamptz members of type t's BRIN family."""
    return f"""ALTER OPERATOR FAMILY {t}_minmax_ops USING brin ADD
    OPERATOR 1 < ({t}, timestamptz), OPERATOR 2 <= ({t}, timestamptz),
    OPERATOR 3 = ({t}, timestamptz), OPERATOR 4 >= ({t}, timestamptz),
    OPERATOR 5 > ({t}, timestamptz);
"""


def block(fam):
    """The install-script text of one 8-byte family."""
    t = fam["t"]
    out = []
    w = out.append

    w(RULE)
    for line in fam["banner"]:
        w(f"-- {line}")
    w("-- (generated by tools/gen_sql.py)")
    w(RULE + "\n")
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
COMMENT ON TYPE {t} IS '{fam["comment"]}';
""")
    for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
        w(f"CREATE FUNCTION {t}_{op}({t}, {t}) RETURNS boolean\n    AS 'MODULE_PATHNAME', 'uid64_{op}' {F} LEAKPROOF;")
    w(f"CREATE FUNCTION {t}_cmp({t}, {t}) RETURNS integer\n    AS 'MODULE_PATHNAME', 'uid64_cmp' {F} LEAKPROOF;")
    w(f"CREATE FUNCTION {t}_sortsupport(internal) RETURNS void\n    AS 'MODULE_PATHNAME', 'uid64_sortsupport' {F};")
    w(f"CREATE FUNCTION {t}_hash({t}) RETURNS integer\n    AS 'MODULE_PATHNAME', 'uid64_hash' {F} LEAKPROOF;")
    w(f"CREATE FUNCTION {t}_hash_extended({t}, bigint) RETURNS bigint\n"
      f"    AS 'MODULE_PATHNAME', 'uid64_hash_extended' {F} LEAKPROOF;\n")
    operators(w, t, t, lambda n: f"{t}_{n}")
    w("")
    if fam["timed"]:
        w(f"-- comparison with timestamptz: id OP t compares id with the smallest {t}\n"
          "-- whose time is at or after t")
        tstz_functions(w, t)
        w(f"-- two times compared as the {t}s they stand for: the order of timestamptz\n"
          "-- within the btree family (see the family below)")
        w(f"CREATE FUNCTION tstz_cmp_as_{t}(timestamptz, timestamptz) RETURNS integer\n"
          f"    AS 'MODULE_PATHNAME', 'tstz_cmp_as_{t}' {F} LEAKPROOF;")
        w("")
        operators(w, t, "timestamptz", lambda n: f"{t}_{n}_tstz")
        operators(w, "timestamptz", t, lambda n: f"tstz_{n}_{t}")
        w("")
    w(minmax_and_btree(t, "uid64_smaller", "uid64_larger"))
    if fam["timed"]:
        w(f"""-- the family also holds the timestamptz members, so that a range of times
-- is an index range scan on the ID.  A time stands for the smallest ID at or
-- after it, so different times can stand for the same ID: the family orders
-- times as those IDs (tstz_cmp_as_{t}) and has no operators between two
-- times, as core's would tell btree such times are unequal.
""" + tstz_btree_members(t))
    w(hash_and_brin(t))
    if fam["timed"]:
        w(tstz_brin_members(t))
    w(f"-- time and fields\nCREATE FUNCTION id_time({t}) RETURNS timestamptz\n    AS 'MODULE_PATHNAME', '{t}_time' {F};")
    for name, cfn, ret in fam["accessors"]:
        w(f"CREATE FUNCTION {name}({t}) RETURNS {ret}\n    AS 'MODULE_PATHNAME', '{cfn}' {F};")
    w(f"CREATE FUNCTION make_{t}(\"time\" timestamptz, {fam['make_args']}) RETURNS {t}\n"
      f"    AS 'MODULE_PATHNAME', 'make_{t}' {F};\n")
    w("-- casts: the 64 bits reinterpreted; no implicit casts")
    w(f"CREATE CAST ({t} AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;")
    if fam["checked"]:
        w(f"CREATE FUNCTION {t}(bigint) RETURNS {t}\n    AS 'MODULE_PATHNAME', '{t}_from_bigint' {F};")
        w(f"CREATE CAST (bigint AS {t}) WITH FUNCTION {t}(bigint);")
    else:
        w(f"CREATE CAST (bigint AS {t}) WITHOUT FUNCTION;")
    w(f"CREATE CAST ({t} AS timestamptz) WITH FUNCTION id_time({t});\n")
    sig, cfn = fam["generator"]
    w(f"-- the generator\nCREATE FUNCTION {sig} RETURNS {t}\n    AS 'MODULE_PATHNAME', '{cfn}' {GEN};\n")
    return "\n".join(out)


def byteid_block(fam):
    """The upgrade-script text of one byte-string family (byteid.h)."""
    t = fam["t"]
    out = []
    w = out.append

    w("\n" + RULE)
    for line in fam["banner"]:
        w(f"-- {line}")
    w("-- (generated by tools/gen_sql.py)")
    w(RULE + "\n")
    w(f"CREATE TYPE {t};\n")
    for fn, args, ret in [("in", "cstring", t), ("out", t, "cstring"), ("recv", "internal", t), ("send", t, "bytea")]:
        w(f"CREATE FUNCTION {t}_{fn}({args}) RETURNS {ret}\n    AS 'MODULE_PATHNAME', '{t}_{fn}' {F};")
    w(f"""
CREATE TYPE {t} (
    INPUT = {t}_in,
    OUTPUT = {t}_out,
    RECEIVE = {t}_recv,
    SEND = {t}_send,
    INTERNALLENGTH = {fam["len"]},
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE {t} IS '{fam["comment"]}';
""")
    for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
        w(f"CREATE FUNCTION {t}_{op}({t}, {t}) RETURNS boolean\n    AS 'MODULE_PATHNAME', '{t}_{op}' {F} LEAKPROOF;")
    w(f"CREATE FUNCTION {t}_cmp({t}, {t}) RETURNS integer\n    AS 'MODULE_PATHNAME', '{t}_cmp_fn' {F} LEAKPROOF;")
    w(f"CREATE FUNCTION {t}_sortsupport(internal) RETURNS void\n    AS 'MODULE_PATHNAME', '{t}_sortsupport' {F};")
    w(f"CREATE FUNCTION {t}_hash({t}) RETURNS integer\n    AS 'MODULE_PATHNAME', '{t}_hash' {F} LEAKPROOF;")
    w(f"CREATE FUNCTION {t}_hash_extended({t}, bigint) RETURNS bigint\n"
      f"    AS 'MODULE_PATHNAME', '{t}_hash_extended' {F} LEAKPROOF;\n")
    operators(w, t, t, lambda n: f"{t}_{n}")
    w(f"\n-- comparison with timestamptz: id OP t compares id with the smallest {t}\n"
      "-- whose time is at or after t")
    tstz_functions(w, t)
    w(f"CREATE FUNCTION tstz_cmp_as_{t}(timestamptz, timestamptz) RETURNS integer\n"
      f"    AS 'MODULE_PATHNAME', 'tstz_cmp_as_{t}' {F} LEAKPROOF;\n")
    operators(w, t, "timestamptz", lambda n: f"{t}_{n}_tstz")
    operators(w, "timestamptz", t, lambda n: f"tstz_{n}_{t}")
    w("\n" + minmax_and_btree(t, f"{t}_smaller", f"{t}_larger"))
    w("-- the timestamptz members, as for the 8-byte families (a range of times is\n"
      "-- an index range scan on the ID)\n" + tstz_btree_members(t))
    w(hash_and_brin(t))
    w(tstz_brin_members(t))
    w(f"""-- time and fields
CREATE FUNCTION id_time({t}) RETURNS timestamptz
    AS 'MODULE_PATHNAME', '{t}_time' {F};""")
    for name, cfn, ret in fam["accessors"]:
        w(f"CREATE FUNCTION {name}({t}) RETURNS {ret}\n    AS 'MODULE_PATHNAME', '{cfn}' {F};")
    w(f"CREATE FUNCTION make_{t}(\"time\" timestamptz, {fam['make_args']}) RETURNS {t}\n"
      f"    AS 'MODULE_PATHNAME', 'make_{t}' {F};\n")
    w("-- casts, all explicit (implicit ones would make operators ambiguous)")
    w(f"CREATE FUNCTION {t}(bytea) RETURNS {t}\n    AS 'MODULE_PATHNAME', '{t}_from_bytea' {F};")
    w(f"CREATE FUNCTION bytea({t}) RETURNS bytea\n    AS 'MODULE_PATHNAME', '{t}_to_bytea' {F};")
    w(f"CREATE CAST (bytea AS {t}) WITH FUNCTION {t}(bytea);")
    w(f"CREATE CAST ({t} AS bytea) WITH FUNCTION bytea({t});")
    for other, to_fn, from_fn in fam["casts"]:
        w(f"CREATE FUNCTION {t}({other}) RETURNS {t}\n    AS 'MODULE_PATHNAME', '{from_fn}' {F};")
        w(f"CREATE FUNCTION {other}({t}) RETURNS {other}\n    AS 'MODULE_PATHNAME', '{to_fn}' {F};")
        w(f"CREATE CAST ({other} AS {t}) WITH FUNCTION {t}({other});")
        w(f"CREATE CAST ({t} AS {other}) WITH FUNCTION {other}({t});")
    w(f"CREATE CAST ({t} AS timestamptz) WITH FUNCTION id_time({t});\n")
    name, cfn = fam["generator"]
    w(f"-- the generator\nCREATE FUNCTION {name}() RETURNS {t}\n    AS 'MODULE_PATHNAME', '{cfn}' {GEN};")
    return "\n".join(out) + "\n"


def upgrade_1_1():
    """The upgrade script from 1.0 to 1.1."""
    with open(os.path.join(HERE, "sql", "upgrade-1.1.sql")) as f:
        text = f.read()
    text += "".join(byteid_block(fam) for fam in BYTE_FAMILIES)
    with open(os.path.join(HERE, "sql", "typeid-1.1.sql")) as f:
        return text + f.read()


def script():
    """The whole install script."""
    text = ("/* uniqueid 1.0: ID types, their operators and operator classes, and generators */\n\n"
            "\\echo Use \"CREATE EXTENSION uniqueid\" to load this file. \\quit\n\n")
    text += "\n".join(block(fam) for fam in FAMILIES)
    for part in PARTS:
        with open(os.path.join(HERE, "sql", part + ".sql")) as f:
            text += "\n" + f.read()
    return text


if __name__ == "__main__":
    import sys
    print(upgrade_1_1() if sys.argv[1:] == ["--upgrade"] else script(), end="")
