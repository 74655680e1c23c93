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


from ids_common import ROWS, TYPES, as_natural, found_failure, read_failure, report, truth_by_type, truth_sql


def natural(kind, value):
    """A value read with the codecs above as text (without them, asyncpg
    reads a str)."""
    return as_natural(kind, value,
                      {"int64": int, "bytes": bytes, "uuid": asyncpg.pgproto.pgproto.UUID, "typeid": tuple},
                      lambda v: (v[0], v[1]))


async def check(conn, fmt):
    """Inserts ROWS rows and checks every ID; returns the failures by type."""
    failed = {t: None for t, _ in TYPES}
    for _ in range(ROWS):
        row = await conn.fetchrow("INSERT INTO ids DEFAULT VALUES RETURNING *")
        sql = truth_by_type(await conn.fetchrow(truth_sql("$1"), row["n"]))
        for t, kind in TYPES:
            why = read_failure(fmt, kind, t, row, sql, natural)
            if why is None:
                try:
                    found = [tuple(r) for r in await conn.fetch(
                        f"SELECT {t}::text, id_time({t}) FROM ids WHERE {t} = $1", row[t])]
                except asyncpg.PostgresError as e:
                    found = f"an error: {e}"
                why = found_failure(t, "$1", row, sql, found)
            failed[t] = failed[t] or why
    return failed


async def main():
    conn = await asyncpg.connect()
    print(f"# asyncpg {asyncpg.__version__}, PostgreSQL {conn.get_settings().server_version}")
    results = [("text", await check(conn, "text"))]
    await register_uniqueid(conn)
    results.append(("binary", await check(conn, "binary")))
    await conn.close()
    return report(results)


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as e:
        print(f"not ok - {e!r}")
        raise
