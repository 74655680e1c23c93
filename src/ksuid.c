/*
 * ksuid.c - the 20-byte ksuid type (Segment's KSUID): base-62 text, binary
 * I/O, byte-order comparison with abbreviated-key sort support, hashing,
 * comparison with timestamptz, the bytea casts, fields and constructor; and
 * its generator next_ksuid(), on the 64-bit engine (generator.h).
 *
 * Layout, most significant first: seconds 32 since 2014-05-13 16:53:20 UTC
 * (Unix time 1400000000) . payload 128.  The text is the 160-bit number in
 * exactly 27 base-62 digits (0-9, A-Z, a-z), zero-padded, so that text order
 * is byte order.
 */
#include "ksuid.h"

#include "byteid.h"
#include "codec.h"
#include "generator.h"
#include "utils/builtins.h"

#define UID_KSUID_TIME_BYTES 4
#define UID_KSUID_TIME_MAX UINT64CONST(0xffffffff)
#define UID_KSUID_PAYLOAD_BYTES (UID_KSUID_BYTES - UID_KSUID_TIME_BYTES)
#define UID_KSUID_EPOCH_US (INT64CONST(1400000000) * USECS_PER_SEC)

typedef struct UidKsuid
{
	uint8		b[UID_KSUID_BYTES];
} UidKsuid;

#define KSUID_ARG(n) ((const UidKsuid *) PG_GETARG_POINTER(n))

/* Compares id with the smallest ksuid whose time is at or after ts. */
static int
ksuid_cmp_timestamptz(const UidKsuid *id, TimestampTz ts)
{
	return uid_byteid_cmp_time(id->b, UID_KSUID_BYTES, UID_KSUID_TIME_BYTES, ts,
							   UID_KSUID_EPOCH_US, USECS_PER_SEC, UID_KSUID_TIME_MAX);
}

/* Binary I/O, bytea casts, comparison, hashing and timestamptz operators. */
UID_BYTEID_FUNCS(ksuid, UidKsuid, UID_KSUID_BYTES, ksuid_cmp_timestamptz,
				 UID_KSUID_EPOCH_US, USECS_PER_SEC, UID_KSUID_TIME_MAX)

/* btree support 2: memcmp, with abbreviated keys of the first 8 bytes (time, 4 payload bytes) */
UID_BYTEID_SORTSUPPORT(ksuid, UidKsuid)

PG_FUNCTION_INFO_V1(ksuid_in);
/* text input: exactly 27 base-62 digits */
Datum
ksuid_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	UidKsuid   *id = palloc(sizeof(UidKsuid));
	uid_parse_result r = uid_ksuid_parse(str, strlen(str), id->b);

	if (r == UID_PARSE_RANGE)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value \"%s\" is out of range for type ksuid", uid_quote_input(str)),
				 errdetail("The greatest ksuid is aWgEPTl1tmebfsQzFP4bxwgy80V.")));
	if (r != UID_PARSE_OK)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type ksuid: \"%s\"", uid_quote_input(str)),
				 errdetail("A ksuid is written as exactly 27 base-62 digits (0-9, A-Z, a-z)."),
				 uid_looks_like_time(str) ?
				 errhint("To compare a ksuid with a time, write the time as a timestamptz, such as timestamptz '%s'.",
						 str) : 0));
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(ksuid_out);
/* text output: 27 base-62 digits */
Datum
ksuid_out(PG_FUNCTION_ARGS)
{
	char	   *buf = palloc(UID_KSUID_CHARS + 1);

	uid_ksuid_format(KSUID_ARG(0)->b, buf);
	PG_RETURN_CSTRING(buf);
}

PG_FUNCTION_INFO_V1(ksuid_time);
/* id_time(ksuid): the second the ID was made in */
Datum
ksuid_time(PG_FUNCTION_ARGS)
{
	uint64		s = uid_byteid_uint(KSUID_ARG(0)->b, UID_KSUID_TIME_BYTES);

	PG_RETURN_TIMESTAMPTZ((TimestampTz) (UID_KSUID_EPOCH_US + (int64) s * USECS_PER_SEC - UID_PG_EPOCH_UNIX_US));
}

PG_FUNCTION_INFO_V1(ksuid_payload);
/* id_payload(ksuid): the 128 bits after the time, as 16 bytes */
Datum
ksuid_payload(PG_FUNCTION_ARGS)
{
	return uid_byteid_part(KSUID_ARG(0)->b, UID_KSUID_TIME_BYTES, UID_KSUID_PAYLOAD_BYTES);
}

PG_FUNCTION_INFO_V1(make_ksuid);
/* make_ksuid(time, payload bytea): the ksuid of a time (to the second) and 16 payload bytes */
Datum
make_ksuid(PG_FUNCTION_ARGS)
{
	TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
	bytea	   *payload = PG_GETARG_BYTEA_PP(1);
	UidKsuid   *id = palloc(sizeof(UidKsuid));
	uint32		s = pg_hton32((uint32) uid_time_units(&uid_ksuid_layout, ts));

	if (VARSIZE_ANY_EXHDR(payload) != UID_KSUID_PAYLOAD_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_LENGTH_MISMATCH),
				 errmsg("invalid length for the payload of a ksuid: %d bytes", (int) VARSIZE_ANY_EXHDR(payload)),
				 errdetail("The payload of a ksuid is exactly %d bytes.", UID_KSUID_PAYLOAD_BYTES)));
	memcpy(id->b, &s, sizeof(s));
	memcpy(id->b + UID_KSUID_TIME_BYTES, VARDATA_ANY(payload), UID_KSUID_PAYLOAD_BYTES);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(ksuid_floor);
/* ksuid_floor(time): the smallest ksuid whose time is at or after time */
Datum
ksuid_floor(PG_FUNCTION_ARGS)
{
	UidKsuid   *id = palloc(sizeof(UidKsuid));

	uid_byteid_floor(id->b, UID_KSUID_BYTES, UID_KSUID_TIME_BYTES, "ksuid", PG_GETARG_TIMESTAMPTZ(0),
					 UID_KSUID_EPOCH_US, USECS_PER_SEC, UID_KSUID_TIME_MAX);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(next_ksuid);
/*
 * next_ksuid(): the next ksuid of this server, strictly greater than every
 * one it issued before: the second and a 32-bit counter (the first four
 * payload bytes, which keep the order within a second) from one
 * shared-memory slot of uid_generate, then 96 random bits.
 */
Datum
next_ksuid(PG_FUNCTION_ARGS)
{
	UidKsuid   *id;
	uint64		hi;
	uint64		r1;
	uint32		r2;

	uid_require_generator("ksuid");
	hi = pg_hton64(uid_generate(&uid_ksuid_layout, UID_SLOT_KSUID, 0));
	r1 = uid_random64();
	r2 = (uint32) uid_random64();
	id = palloc(sizeof(UidKsuid));
	memcpy(id->b, &hi, sizeof(hi));
	memcpy(id->b + 8, &r1, sizeof(r1));
	memcpy(id->b + 16, &r2, sizeof(r2));
	PG_RETURN_POINTER(id);
}

/* What the engine and the views know of ksuid (family.h; module.c registers it) */
const UidFamily uid_ksuid_family = {
	.stat = UID_SLOT_KSUID,
	.name = "ksuid",
	.typname = "ksuid",
	.node_bearing = false,
	.layout = &uid_ksuid_layout,
};
