"""What test/clients/psycopg_ids.py and asyncpg_ids.py share: the columns of
the table ids, the SQL that gives each one's natural value, the checks of a
value read, and the TAP report."""

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


def truth_sql(placeholder):
    """The query of what the server says of a row (per column: text,
    id_time, natural), its n as the parameter placeholder."""
    cols = ", ".join(f"{t}::text, id_time({t}), {NATURAL[k].format(t)}" for t, k in TYPES)
    return f"SELECT {cols} FROM ids WHERE n = {placeholder}"


def truth_by_type(row):
    """That query's row, per column."""
    return {t: tuple(row[3 * i:3 * i + 3]) for i, (t, _) in enumerate(TYPES)}


def as_natural(kind, value, classes, typeid_parts):
    """A value read in binary, as text written as NATURAL writes it; the
    name of its class if it is not the one classes[kind] expects."""
    cls = classes[kind]
    if not isinstance(value, cls):
        return f"{type(value).__name__} (not {cls.__name__})"
    if kind == "bytes":
        return value.hex()
    if kind == "typeid":
        prefix, uuid = typeid_parts(value)
        return f"{prefix} {uuid}"
    return str(value)


def read_failure(fmt, kind, t, row, sql, natural):
    """Why the value of column t in row (read in format fmt) is not what the
    server says (sql, from truth_by_type), or None."""
    text, _, nat = sql[t]
    # (in text, a str; but the uuid, which the driver reads as a UUID)
    if fmt == "text":
        got, want = (str(row[t]) if kind == "uuid" else row[t]), text
    else:
        got, want = natural(kind, row[t]), nat
    return None if got == want else f"row {row['n']}: read {got!r}, SQL says {want!r}"


def found_failure(t, param, row, sql, found):
    """Why the rows that `t = param` found with row[t] are not that row, or None."""
    text, time, _ = sql[t]
    if found == [(text, time)]:
        return None
    return f"row {row['n']}: {t} = {param} with {row[t]!r} found {found!r}, not [({text!r}, {time!r})]"


def report(results):
    """Prints a TAP line per type and format of results ([(format, failures
    by type)]); returns the exit status."""
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
