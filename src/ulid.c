/*
 * ulid.c - the 16-byte ulid type (the ULID spec): Crockford base-32 text,
 * binary I/O, byte-order comparison with abbreviated-key sort support,
 * hashing, comparison with timestamptz, the uuid and bytea casts, fields and
 * constructor; and its generator next_ulid(), on the 64-bit engine
 * (generator.h).
 *
 * Layout, most significant first: Unix milliseconds 48 . random 80.  The
 * text is the 128 bits after two zero bits, 26 characters, so its first
 * character is at most '7'; output is uppercase, input either case.  The
 * bytes are those of pgx_ulid's bytea and uuid casts, and of the spec's
 * binary form.
 */
#include "ulid.h"

#include "byteid.h"
#include "codec.h"
#include "generator.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

#define UID_ULID_BYTES 16
#define UID_ULID_TIME_BYTES 6
#define UID_ULID_TIME_MAX ((UINT64CONST(1) << 48) - 1)
#define UID_ULID_RANDOM_BYTES (UID_ULID_BYTES - UID_ULID_TIME_BYTES)
#define UID_ULID_CHARS UID_BASE32_CHARS(UID_ULID_BYTES, 2)

typedef struct UidUlid
{
	uint8		b[UID_ULID_BYTES];
} UidUlid;

StaticAssertDecl(sizeof(UidUlid) == sizeof(pg_uuid_t), "a ulid is as long as a uuid");

#define ULID_ARG(n) ((const UidUlid *) PG_GETARG_POINTER(n))

/* Compares id with the smallest ulid whose time is at or after ts. */
static int
ulid_cmp_timestamptz(const UidUlid *id, TimestampTz ts)
{
	return uid_byteid_cmp_time(id->b, UID_ULID_BYTES, UID_ULID_TIME_BYTES, ts, 0, 1000, UID_ULID_TIME_MAX);
}

/* Binary I/O, bytea casts, comparison, hashing and timestamptz operators. */
UID_BYTEID_FUNCS(ulid, UidUlid, UID_ULID_BYTES, ulid_cmp_timestamptz, 0, 1000, UID_ULID_TIME_MAX)

/* btree support 2: memcmp, with abbreviated keys of the first 8 bytes (time, 2 random bytes) */
UID_BYTEID_SORTSUPPORT(ulid, UidUlid)

PG_FUNCTION_INFO_V1(ulid_in);
/* text input: 26 Crockford base-32 characters, either case, the first at most 7 */
Datum
ulid_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	UidUlid    *id = palloc(sizeof(UidUlid));
	uid_parse_result r;

	r = uid_base32_parse(str, strlen(str), uid_crockford_upper, 1, id->b, UID_ULID_BYTES, 2);
	if (r == UID_PARSE_RANGE)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value \"%s\" is out of range for type ulid", uid_quote_input(str)),
				 errdetail("The first character of a ulid is at most 7.")));
	if (r != UID_PARSE_OK)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type ulid: \"%s\"", uid_quote_input(str)),
				 errdetail("A ulid is written as exactly 26 characters of Crockford's base 32 (0-9 and A-Z but I, L, O and U)."),
				 uid_looks_like_time(str) ?
				 errhint("To compare a ulid with a time, write the time as a timestamptz, such as timestamptz '%s'.",
						 str) : 0));
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(ulid_out);
/* text output: 26 uppercase Crockford base-32 characters */
Datum
ulid_out(PG_FUNCTION_ARGS)
{
	char	   *buf = palloc(UID_ULID_CHARS + 1);

	uid_base32_format(ULID_ARG(0)->b, UID_ULID_BYTES, uid_crockford_upper, 2, buf);
	PG_RETURN_CSTRING(buf);
}

PG_FUNCTION_INFO_V1(ulid_time);
/* id_time(ulid): the millisecond the ID was made in */
Datum
ulid_time(PG_FUNCTION_ARGS)
{
	uint64		ms = uid_byteid_uint(ULID_ARG(0)->b, UID_ULID_TIME_BYTES);

	PG_RETURN_TIMESTAMPTZ((TimestampTz) ((int64) ms * 1000 - UID_PG_EPOCH_UNIX_US));
}

PG_FUNCTION_INFO_V1(ulid_random);
/* id_random(ulid): the 80 bits after the time, as 10 bytes */
Datum
ulid_random(PG_FUNCTION_ARGS)
{
	return uid_byteid_part(ULID_ARG(0)->b, UID_ULID_TIME_BYTES, UID_ULID_RANDOM_BYTES);
}

PG_FUNCTION_INFO_V1(make_ulid);
/* make_ulid(time, random bytea): the ulid of a time (to the ms) and 10 random bytes */
Datum
make_ulid(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	bytea	   *random = PG_GETARG_BYTEA_PP(1);
	UidUlid    *id = palloc(sizeof(UidUlid));
	uint64		ms = uid_time_units(&uid_ulid_layout, ts);
	uint64		hi = pg_hton64(ms << 16);

	if (VARSIZE_ANY_EXHDR(random) != UID_ULID_RANDOM_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("invalid length for the random part of a ulid: %d bytes", (int) VARSIZE_ANY_EXHDR(random)),
				 errdetail("The random part of a ulid is exactly %d bytes.", UID_ULID_RANDOM_BYTES)));
	memcpy(id->b, &hi, UID_ULID_TIME_BYTES);
	memcpy(id->b + UID_ULID_TIME_BYTES, VARDATA_ANY(random), UID_ULID_RANDOM_BYTES);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(ulid_floor);
/* ulid_floor(time): the smallest ulid whose time is at or after time */
Datum
ulid_floor(PG_FUNCTION_ARGS)
{
	UidUlid    *id = palloc(sizeof(UidUlid));

	uid_byteid_floor(id->b, UID_ULID_BYTES, UID_ULID_TIME_BYTES, "ulid", PG_GETARG_TIMESTAMPTZ(0),
					 0, 1000, UID_ULID_TIME_MAX);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(ulid_to_uuid);
/* uuid(ulid): the same 128 bits */
Datum
ulid_to_uuid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = palloc(sizeof(pg_uuid_t));

	memcpy(u->data, ULID_ARG(0)->b, UID_ULID_BYTES);
	PG_RETURN_UUID_P(u);
}

PG_FUNCTION_INFO_V1(ulid_from_uuid);
/* ulid(uuid): the same 128 bits */
Datum
ulid_from_uuid(PG_FUNCTION_ARGS)
{
	UidUlid    *id = palloc(sizeof(UidUlid));

	memcpy(id->b, PG_GETARG_UUID_P(0)->data, UID_ULID_BYTES);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(next_ulid);
/*
 * next_ulid(): the next ulid of this server, strictly greater than every one
 * it issued before: the millisecond and a 16-bit counter (the first two
 * bytes after the time, which keep the order within a millisecond) from one
 * shared-memory slot of uid_generate, then 64 random bits.
 */
Datum
next_ulid(PG_FUNCTION_ARGS)
{
	UidUlid    *id;
	uint64		hi;
	uint64		lo;

	uid_require_generator("ulid");
	hi = pg_hton64(uid_generate(&uid_ulid_layout, UID_SLOT_ULID, 0));
	lo = uid_random64();
	id = palloc(sizeof(UidUlid));
	memcpy(id->b, &hi, sizeof(hi));
	memcpy(id->b + 8, &lo, sizeof(lo));
	PG_RETURN_POINTER(id);
}

/* What the engine and the views know of ulid (family.h; module.c registers it) */
const UidFamily uid_ulid_family = {
	.stat = UID_SLOT_ULID,
	.name = "ulid",
	.typname = "ulid",
	.node_bearing = false,
	.layout = &uid_ulid_layout,
};
