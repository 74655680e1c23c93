/*
 * uuid7.c - UUID version 7 (RFC 9562) on PostgreSQL's core uuid type:
 * next_uuid7(), whose 48-bit millisecond and 12-bit counter come from one
 * shared-memory slot of uid_generate, and id_time(uuid), which reads the
 * time of versions 1, 6 and 7.
 */
#include "uuid7.h"

#include "generator.h"

#include "port/pg_bswap.h"
#include "datatype/timestamp.h"
#include "utils/builtins.h"
#include "utils/uuid.h"

/* 100 ns intervals from 1582-10-15 (Gregorian reform), v1 and v6's epoch, to 1970-01-01. */
#define UID_GREGORIAN_TO_UNIX_100NS INT64CONST(122192928000000000)

/* Fills u with the next version 7 UUID of this server. */
void
uid_uuid7_next(pg_uuid_t *u)
{
	uint64		tc = uid_generate(&uid_uuid7_layout, UID_SLOT_UUID7, 0);
	uint64		hi;
	uint64		lo;

	/* unix_ts_ms (48 bits), version 7, the 12-bit counter as rand_a */
	hi = (tc >> 12) << 16 | 0x7000 | (tc & 0xfff);
	/* variant 10, then 62 random bits as rand_b */
	lo = UINT64CONST(0x8000000000000000) | uid_random64() >> 2;
	hi = pg_hton64(hi);
	lo = pg_hton64(lo);
	memcpy(u->data, &hi, sizeof(hi));
	memcpy(u->data + 8, &lo, sizeof(lo));
}

/* What the engine and the views know of uuid7 (its type is the core uuid) (family.h; module.c registers it) */
const UidFamily uid_uuid7_family = {
	.stat = UID_SLOT_UUID7,
	.name = "uuid7",
	.typname = "uuid",
	.node_bearing = false,
	.layout = &uid_uuid7_layout,
};

PG_FUNCTION_INFO_V1(next_uuid7);
/* next_uuid7(): a version 7 UUID, strictly greater than every one this server issued before */
Datum
next_uuid7(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u;

	uid_require_generator("uuid");
	u = palloc(sizeof(pg_uuid_t));
	uid_uuid7_next(u);
	PG_RETURN_UUID_P(u);
}

/* The name and leading bits of a variant other than RFC 9562's, from octet 8. */
static void
uid_uuid_variant(unsigned char octet8, const char **name, const char **bits)
{
	if ((octet8 & 0x80) == 0)
	{
		*name = "NCS";
		*bits = "0";
	}
	else if ((octet8 & 0xe0) == 0xc0)
	{
		*name = "Microsoft";
		*bits = "110";
	}
	else
	{
		*name = "reserved";
		*bits = "111";
	}
}

/* Raises the error of id_time for a uuid that holds no time; `what` says why. */
pg_noreturn static void
uid_uuid_no_time(pg_uuid_t *u, const char *what, const char *detail)
{
	char	   *text = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u)));

	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("uuid \"%s\" is %s, which holds no time", text, what),
			 detail ? errdetail("%s", detail) : 0,
			 errhint("Only UUIDs of versions 1, 6 and 7 hold a time.")));
}

PG_FUNCTION_INFO_V1(uuid_time);
/*
 * id_time(uuid): the time of a version 1, 6 or 7 UUID, truncated to the
 * microsecond (v7 holds milliseconds; v1 and v6 hold 100 ns intervals since
 * 1582-10-15).
 */
Datum
uuid_time(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);
	const unsigned char *d = u->data;
	int			version = d[6] >> 4;
	uint64		hi = 0;
	int64		unix_us;
	TimestampTz ts;
	bool		nil = true,
				max = true;

	for (int i = 0; i < UUID_LEN; i++)
	{
		nil &= d[i] == 0x00;
		max &= d[i] == 0xff;
	}
	if (nil)
		uid_uuid_no_time(u, "the nil UUID", NULL);
	if (max)
		uid_uuid_no_time(u, "the max UUID", NULL);
	if ((d[8] & 0xc0) != 0x80)
	{
		const char *name,
				   *bits;

		uid_uuid_variant(d[8], &name, &bits);
		uid_uuid_no_time(u, psprintf("of the %s variant", name),
						 psprintf("Its variant bits are %s; versions exist only in RFC 9562's variant, 10.", bits));
	}

	/* the first 8 octets, big-endian */
	for (int i = 0; i < 8; i++)
		hi = hi << 8 | d[i];

	switch (version)
	{
		case 7:
			/* unix_ts_ms 48 . ver 4 . rand_a 12 */
			unix_us = (int64) (hi >> 16) * 1000;
			break;
		case 6:
		case 1:
			{
				uint64		t100ns;

				if (version == 6)
					/* time_high 32 . time_mid 16 . ver 4 . time_low 12 */
					t100ns = (hi >> 32) << 28 | ((hi >> 16) & 0xffff) << 12 | (hi & 0x0fff);
				else
					/* time_low 32 . time_mid 16 . ver 4 . time_high 12 */
					t100ns = (hi & 0x0fff) << 48 | ((hi >> 16) & 0xffff) << 32 | hi >> 32;
				/* floor to the microsecond, then from 1582-10-15 to 1970-01-01 */
				unix_us = (int64) (t100ns / 10) - UID_GREGORIAN_TO_UNIX_100NS / 10;
				break;
			}
		default:
			uid_uuid_no_time(u, psprintf("version %d", version), NULL);
			pg_unreachable();
	}

	ts = (TimestampTz) (unix_us - UID_PG_EPOCH_UNIX_US);
	if (!IS_VALID_TIMESTAMP(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("the time of uuid \"%s\" is out of range for type timestamp with time zone",
						DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u))))));
	PG_RETURN_TIMESTAMPTZ(ts);
}

PG_FUNCTION_INFO_V1(uuid7_floor);
/*
 * uuid7_floor(time): the smallest version 7 UUID whose time is at or after
 * time: its millisecond rounded up, the version and variant bits, every
 * other bit zero.  It sorts below every UUIDv7 of that millisecond and above
 * every one before it, and id_time reads it back.
 */
Datum
uuid7_floor(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = palloc0(sizeof(pg_uuid_t));
	uint64		ms = uid_floor_units("uuid", PG_GETARG_TIMESTAMPTZ(0), 0, 1000, UID_FIELD_MAX(48));
	uint64		hi = pg_hton64(ms << 16 | UINT64CONST(0x7000));

	memcpy(u->data, &hi, sizeof(hi));
	u->data[8] = 0x80;
	PG_RETURN_UUID_P(u);
}
