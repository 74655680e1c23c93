#!/usr/bin/python3
"""Every uniqueid type through asyncpg, in text and in binary.

Inserts rows into the table ids (t/075_clients.pl makes it: one column per
type, each with its generator as default, and a serial n), reads them back,
and passes each ID back as a query parameter, first in text (what asyncpg
does out of the box with a type it has no codec for), then in binary (with
the codecs of doc/clients.md, copied below).  Every value is compared with
what the server says of the row: the ID's text form (col::text) and
id_time(col), and for binary its natural value (col::bigint, col::bytea,
the UUID, the typeid's prefix and UUID).  Connects with libpq's environment
(PGHOST, PGPORT, PGUSER, PGDATABASE); prints a TAP line per type and
format, and exits 1 if any is "not ok".
"""
import asyncio
import sys

import asyncpg

# doc/clients.md: asyncpg, binary
from uuid import UUID


async def register_uniqueid(conn):
    """Reads and writes uniqueid's types in binary on conn (uuid needs nothing)."""
    for name in ("shardid", "snowflake", "sonyflake", "shortid", "spreadid"):
        await conn.set_builtin_type_codec(name, codec_name="int8")
    for name in ("sno", "objectid", "ulid", "ksuid", "rsxid"):
        await conn.set_builtin_type_codec(name, codec_name="bytea")
    # a typeid as (prefix, UUID)
    await conn.set_type_codec(
        "typeid", format="binary",
        encoder=lambda t: t[0].encode() + t[1].bytes,
        decoder=lambda b: (b[:-16].decode(), UUID(bytes=b[-16:])))
# end of doc/clients.md


# the columns of ids (named after their types) and how each is read in binary
TYPES = [
    ("shardid", "int64"), ("snowflake", "int64"), ("sonyflake", "int64"), ("shortid", "int64"),
    ("spreadid", "int64"), ("sno", "bytes"), ("objectid", "bytes"), ("uuid", "uuid"),
    ("ulid", "bytes"), ("ksuid", "bytes"), ("rsxid", "bytes"), ("typeid", "typeid"),
]
# SQL's natural value of a column, as text, to compare a binary read with
NATURAL = {
    "int64": "{0}::bigint::text",
    "bytes": "encode({0}::bytea, 'hex')",
    "uuid": "{0}::text",
    "typeid": "typeid_prefix({0}) || ' ' || {0}::uuid",
}
ROWS = 3


def natural(kind, value):
    """A value read with the codecs above as text, written as NATURAL writes
    it; the class checked (without them, asyncpg reads a str)."""
    cls = {"int64": int, "bytes": bytes, "uuid": asyncpg.pgproto.pgproto.UUID, "typeid": tuple}[kind]
    if not isinstance(value, cls):
        return f"{type(value).__name__} (not {cls.__name__})"
    if kind == "bytes":
        return value.hex()
    if kind == "typeid":
        return f"{value[0]} {value[1]}"
    return str(value)


async def truth(conn, n):
    """What the server says of row n: per column (text, id_time, natural)."""
    cols = ", ".join(f"{t}::text, id_time({t}), {NATURAL[k].format(t)}" for t, k in TYPES)
    row = await conn.fetchrow(f"SELECT {cols} FROM ids WHERE n = $1", n)
    return {t: tuple(row[3 * i:3 * i + 3]) for i, (t, _) in enumerate(TYPES)}


async def check(conn, fmt):
    """Inserts ROWS rows and checks every ID; returns the failures by type."""
    failed = {t: None for t, _ in TYPES}
    for _ in range(ROWS):
        row = await conn.fetchrow("INSERT INTO ids DEFAULT VALUES RETURNING *")
        sql = await truth(conn, row["n"])
        for t, kind in TYPES:
            text, time, nat = sql[t]
            # (in text, a str; but the uuid, which the driver reads as a UUID)
            if fmt == "text":
                got, want = (str(row[t]) if kind == "uuid" else row[t]), text
            else:
                got, want = natural(kind, row[t]), nat
            if got != want:
                failed[t] = failed[t] or f"row {row['n']}: read {got!r}, SQL says {want!r}"
                continue
            try:
                found = [tuple(r) for r in await conn.fetch(
                    f"SELECT {t}::text, id_time({t}) FROM ids WHERE {t} = $1", row[t])]
            except asyncpg.PostgresError as e:
                found = f"an error: {e}"
            if found != [(text, time)]:
                failed[t] = failed[t] or (
                    f"row {row['n']}: {t} = $1 with {row[t]!r} found {found!r}, not [({text!r}, {time!r})]")
    return failed


async def main():
    conn = await asyncpg.connect()
    print(f"# asyncpg {asyncpg.__version__}, PostgreSQL {conn.get_settings().server_version}")
    results = [("text", await check(conn, "text"))]
    await register_uniqueid(conn)
    results.append(("binary", await check(conn, "binary")))
    await conn.close()
    i = 0
    ok = True
    for fmt, failed in results:
        for t, _ in TYPES:
            i += 1
            if failed[t]:
                print(f"not ok {i} - {t}, {fmt}: {failed[t]}")
                ok = False
            else:
                print(f"ok {i} - {t}, {fmt}: {ROWS} rows read, and found by parameter")
    print(f"1..{i}")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as e:
        print(f"not ok - {e!r}")
        raise
