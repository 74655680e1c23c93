#!/usr/bin/python3
"""Every uniqueid type through psycopg 3, in text and in binary.

Inserts rows into the table ids (t/075_clients.pl makes it: one column per
type, each with its generator as default, and a serial n), reads them back,
and passes each ID back as a query parameter, first in text (what psycopg
does out of the box), then in binary (with the loaders and dumpers of
doc/clients.md, copied below).  Every value is compared with what the
server says of the row: the ID's text form (col::text) and id_time(col),
and for binary its natural value (col::bigint, col::bytea, the UUID, the
typeid's prefix and UUID).  Connects with libpq's environment (PGHOST,
PGPORT, PGUSER, PGDATABASE); prints a TAP line per type and format, and
exits 1 if any is "not ok".
"""
import sys

import psycopg

# doc/clients.md: psycopg, binary
from typing import NamedTuple
from uuid import UUID

from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo


class Id64(int):
    """An 8-byte ID (shardid, snowflake, sonyflake, shortid, spreadid): its int64."""


class IdBytes(bytes):
    """The bytes of a sno, objectid, ulid, ksuid or rsxid."""


class Typeid(NamedTuple):
    prefix: str
    uuid: UUID


class Id64Loader(Loader):
    format = Format.BINARY

    def load(self, data):
        return Id64(int.from_bytes(data, "big", signed=True))


class IdBytesLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return IdBytes(data)


class TypeidLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return Typeid(bytes(data[:-16]).decode(), UUID(bytes=bytes(data[-16:])))


# no oid: the server takes the parameter's type from the query
class Id64Dumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return obj.to_bytes(8, "big", signed=True)


class IdBytesDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return bytes(obj)


class TypeidDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj):
        return obj.prefix.encode() + obj.uuid.bytes


def register_uniqueid(conn):
    """Reads and writes uniqueid's types in binary on conn (uuid needs nothing)."""
    for names, loader in (
        (("shardid", "snowflake", "sonyflake", "shortid", "spreadid"), Id64Loader),
        (("sno", "objectid", "ulid", "ksuid", "rsxid"), IdBytesLoader),
        (("typeid",), TypeidLoader),
    ):
        for name in names:
            conn.adapters.register_loader(TypeInfo.fetch(conn, name).oid, loader)
    conn.adapters.register_dumper(Id64, Id64Dumper)
    conn.adapters.register_dumper(IdBytes, IdBytesDumper)
    conn.adapters.register_dumper(Typeid, TypeidDumper)
# end of doc/clients.md


from ids_common import ROWS, TYPES, as_natural, found_failure, read_failure, report, truth_by_type, truth_sql


def natural(kind, value):
    """A value read in binary as text (the class of a loader above: what
    psycopg made of a binary value)."""
    return as_natural(kind, value, {"int64": Id64, "bytes": IdBytes, "uuid": UUID, "typeid": Typeid},
                      lambda v: (v.prefix, v.uuid))


def check(conn, fmt, cur, param):
    """Inserts ROWS rows through cur and checks every ID; returns the failures by type."""
    failed = {t: None for t, _ in TYPES}
    for _ in range(ROWS):
        cur.execute("INSERT INTO ids DEFAULT VALUES RETURNING *")
        row = dict(zip([d.name for d in cur.description], cur.fetchone()))
        sql = truth_by_type(conn.execute(truth_sql("%s"), [row["n"]]).fetchone())
        for t, kind in TYPES:
            why = read_failure(fmt, kind, t, row, sql, natural)
            if why is None:
                try:
                    cur.execute(f"SELECT {t}::text, id_time({t}) FROM ids WHERE {t} = {param}", [row[t]])
                    found = cur.fetchall()
                except psycopg.Error as e:
                    found = f"an error: {e}"
                why = found_failure(t, param, row, sql, found)
            failed[t] = failed[t] or why
    return failed


def main():
    conn = psycopg.connect("", autocommit=True)
    print(f"# psycopg {psycopg.__version__} (libpq {psycopg.pq.version()}), "
          f"PostgreSQL {conn.info.parameter_status('server_version')}")
    results = [("text", check(conn, "text", conn.cursor(), "%t"))]
    register_uniqueid(conn)
    results.append(("binary", check(conn, "binary", conn.cursor(binary=True), "%b")))
    return report(results)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:
        print(f"not ok - {e!r}")
        raise
