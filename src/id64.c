/*
 * id64.c - the 8-byte identifier types: one generic implementation of text
 * and binary I/O, comparison, hashing, sort support, time comparison,
 * construction and field access, plus thin per-type fmgr wrappers generated
 * from each type's layout descriptor; and the generators of snowflake,
 * sonyflake and shortid (shardid's is in shardid.c, spreadid's in
 * spreadid.c).
 */
#include "id64.h"

#include "generator.h"

#include "codec.h"
#include "common/hashfn.h"
#include "common/pg_prng.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

/* Bits that some field of the layout covers; any other bit must be zero. */
uint64
uid64_used_bits(const UidLayout *layout)
{
	uint64		mask = UID_FIELD_MAX(layout->time_bits) << layout->time_shift;

	for (int i = 0; i < layout->nfields; i++)
		mask |= UID_FIELD_MAX(layout->fields[i].bits) << layout->fields[i].shift;
	return mask;
}

/* Parses the display form of a layout's ID; soft errors where the caller allows. */
static Datum
uid64_in(const UidLayout *layout, const char *str, Node *escontext)
{
	uint64		v = 0;
	uid_parse_result r = UID_PARSE_SYNTAX;
	size_t		len = strlen(str);

	switch (layout->codec)
	{
		case UID_CODEC_DECIMAL:
			r = uid_decimal_parse(str, len, &v);
			break;
		case UID_CODEC_HEX:
			{
				uint8		b[8];

				r = uid_hex_parse(str, len, b, 8);
				if (r == UID_PARSE_OK)
					v = pg_ntoh64(*(uint64 *) b);
				break;
			}
		case UID_CODEC_SHORTID:
			r = uid_shortid_parse(str, len, &v);
			break;
	}
	if (r == UID_PARSE_OK && (v & ~uid64_used_bits(layout)) != 0)
		r = UID_PARSE_RANGE;
	if (r == UID_PARSE_SYNTAX)
		ereturn(escontext, (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s: \"%s\"", layout->typname, uid_quote_input(str)),
				 layout->codec == UID_CODEC_DECIMAL ?
				 errdetail("A %s is written as an unsigned decimal number without sign, spaces or leading zeros.",
						   layout->typname) :
				 layout->codec == UID_CODEC_HEX ?
				 errdetail("A %s is written as 16 hexadecimal digits.", layout->typname) :
				 errdetail("A %s is written as 4 to 10 characters of A-Z, a-z, 0-9, - and _, with no leading A beyond the fourth.",
						   layout->typname),
				 uid_looks_like_time(str) ?
				 errhint("To compare a %s with a time, write the time as a timestamptz, such as timestamptz '%s'.",
						 layout->typname, str) : 0));
	if (r == UID_PARSE_RANGE)
		ereturn(escontext, (Datum) 0,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value \"%s\" is out of range for type %s", uid_quote_input(str), layout->typname)));
	return UInt64GetDatum(v);
}

/* The display form of a layout's ID. */
static char *
uid64_out(const UidLayout *layout, uint64 v)
{
	char	   *buf = palloc(UID_TEXT_MAX + 1);

	switch (layout->codec)
	{
		case UID_CODEC_DECIMAL:
			uid_decimal_format(v, buf);
			break;
		case UID_CODEC_HEX:
			{
				uint64		be = pg_hton64(v);

				uid_hex_format((const uint8 *) &be, 8, buf);
				break;
			}
		case UID_CODEC_SHORTID:
			uid_shortid_format(v, buf);
			break;
	}
	return buf;
}

/* Checks that a 64-bit value read from outside is a valid ID of the layout. */
static uint64
uid64_checked(const UidLayout *layout, uint64 v)
{
	if ((v & ~uid64_used_bits(layout)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value %lld is out of range for type %s", (long long) v, layout->typname),
				 errdetail("Bits outside the fields of %s must be zero.", layout->typname)));
	return v;
}

/* Checks one field value for a constructor, naming the field on error. */
static uint64
uid64_check_field(const UidLayout *layout, int field, int64 value)
{
	const UidField *f = &layout->fields[field];

	return (uint64) uid_check_range(layout->typname, f->name, value, (int64) UID_FIELD_MAX(f->bits))
		<< f->shift;
}

/* Builds an ID from a time and the layout's fields in declaration order. */
static uint64
uid64_make(const UidLayout *layout, TimestampTz ts, const int64 *values)
{
	uint64		v = uid_time_units(layout, ts) << layout->time_shift;

	for (int i = 0; i < layout->nfields; i++)
		v |= uid64_check_field(layout, i, values[i]);
	return v;
}

/* ---- layout-independent functions, shared by every 8-byte type ---- */

#define UID64_ARG(n) DatumGetUInt64(PG_GETARG_DATUM(n))

PG_FUNCTION_INFO_V1(uid64_eq);
/* id = id */
Datum
uid64_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(UID64_ARG(0) == UID64_ARG(1));
}

PG_FUNCTION_INFO_V1(uid64_ne);
/* id <> id */
Datum
uid64_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(UID64_ARG(0) != UID64_ARG(1));
}

PG_FUNCTION_INFO_V1(uid64_lt);
/* id < id, unsigned */
Datum
uid64_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(UID64_ARG(0) < UID64_ARG(1));
}

PG_FUNCTION_INFO_V1(uid64_le);
/* id <= id, unsigned */
Datum
uid64_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(UID64_ARG(0) <= UID64_ARG(1));
}

PG_FUNCTION_INFO_V1(uid64_gt);
/* id > id, unsigned */
Datum
uid64_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(UID64_ARG(0) > UID64_ARG(1));
}

PG_FUNCTION_INFO_V1(uid64_ge);
/* id >= id, unsigned */
Datum
uid64_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(UID64_ARG(0) >= UID64_ARG(1));
}

PG_FUNCTION_INFO_V1(uid64_smaller);
/* min() transition: the smaller, unsigned */
Datum
uid64_smaller(PG_FUNCTION_ARGS)
{
	return UInt64GetDatum(Min(UID64_ARG(0), UID64_ARG(1)));
}

PG_FUNCTION_INFO_V1(uid64_larger);
/* max() transition: the larger, unsigned */
Datum
uid64_larger(PG_FUNCTION_ARGS)
{
	return UInt64GetDatum(Max(UID64_ARG(0), UID64_ARG(1)));
}

PG_FUNCTION_INFO_V1(uid64_cmp);
/* btree support 1: three-way unsigned comparison */
Datum
uid64_cmp(PG_FUNCTION_ARGS)
{
	uint64		a = UID64_ARG(0);
	uint64		b = UID64_ARG(1);

	PG_RETURN_INT32(a < b ? -1 : (a > b ? 1 : 0));
}

PG_FUNCTION_INFO_V1(uid64_sortsupport);
/* btree support 2: the core's unsigned datum comparator, which tuplesort specializes */
Datum
uid64_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ssup_datum_unsigned_cmp;
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(uid64_hash);
/* hash support 1: the same hash as bigint's for the same 64 bits */
Datum
uid64_hash(PG_FUNCTION_ARGS)
{
	uint64		v = UID64_ARG(0);

	return hash_uint32((uint32) (v ^ (v >> 32)));
}

PG_FUNCTION_INFO_V1(uid64_hash_extended);
/* hash support 2: seeded 64-bit hash */
Datum
uid64_hash_extended(PG_FUNCTION_ARGS)
{
	uint64		v = UID64_ARG(0);

	return hash_uint32_extended((uint32) (v ^ (v >> 32)), PG_GETARG_INT64(1));
}

PG_FUNCTION_INFO_V1(uid64_send);
/* binary output: 8 bytes, big-endian */
Datum
uid64_send(PG_FUNCTION_ARGS)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, (int64) UID64_ARG(0));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* ---- per-type wrappers ---- */

/* Text I/O and binary input of one type. */
#define UID64_IO_FUNCS(T, LAYOUT) \
PG_FUNCTION_INFO_V1(T##_in); \
Datum T##_in(PG_FUNCTION_ARGS) \
{ return uid64_in(LAYOUT, PG_GETARG_CSTRING(0), UID_ESCONTEXT(fcinfo)); } \
PG_FUNCTION_INFO_V1(T##_out); \
Datum T##_out(PG_FUNCTION_ARGS) \
{ PG_RETURN_CSTRING(uid64_out(LAYOUT, UID64_ARG(0))); } \
PG_FUNCTION_INFO_V1(T##_recv); \
Datum T##_recv(PG_FUNCTION_ARGS) \
{ return UInt64GetDatum(uid64_checked(LAYOUT, \
		(uint64) pq_getmsgint64((StringInfo) PG_GETARG_POINTER(0)))); }

/* The checked bigint cast of a type with bits outside its fields. */
#define UID64_BIGINT_CAST(T, LAYOUT) \
PG_FUNCTION_INFO_V1(T##_from_bigint); \
Datum T##_from_bigint(PG_FUNCTION_ARGS) \
{ return UInt64GetDatum(uid64_checked(LAYOUT, (uint64) PG_GETARG_INT64(0))); }

/* id_time and the constructor of a type whose time field is plain. */
#define UID64_TIME_FUNCS(T, LAYOUT) \
PG_FUNCTION_INFO_V1(T##_time); \
Datum T##_time(PG_FUNCTION_ARGS) \
{ PG_RETURN_TIMESTAMPTZ(uid_units_to_timestamptz(LAYOUT, uid_get_time(LAYOUT, UID64_ARG(0)))); } \
PG_FUNCTION_INFO_V1(make_##T); \
Datum make_##T(PG_FUNCTION_ARGS) \
{ \
	int64		values[UID_MAX_FIELDS]; \
	for (int i = 0; i < (LAYOUT)->nfields; i++) \
		values[i] = PG_GETARG_INT32(i + 1); \
	return UInt64GetDatum(uid64_make(LAYOUT, PG_GETARG_TIMESTAMPTZ(0), values)); \
}

/* One comparison of an ID with a timestamptz, in both argument orders. */
#define UID64_TS_OP(T, LAYOUT, OP, EXPR) \
PG_FUNCTION_INFO_V1(T##_##OP##_tstz); \
Datum T##_##OP##_tstz(PG_FUNCTION_ARGS) \
{ int c = uid_cmp_timestamptz(LAYOUT, UID64_ARG(0), PG_GETARG_TIMESTAMPTZ(1)); PG_RETURN_BOOL(EXPR); } \
PG_FUNCTION_INFO_V1(tstz_##OP##_##T); \
Datum tstz_##OP##_##T(PG_FUNCTION_ARGS) \
{ int c = -uid_cmp_timestamptz(LAYOUT, UID64_ARG(1), PG_GETARG_TIMESTAMPTZ(0)); PG_RETURN_BOOL(EXPR); }

/*
 * The cross-type btree members with timestamptz of a time-ordered type, its
 * floor function (T_floor(ts): the smallest ID whose time is at or after ts,
 * every other field zero: the ID ts stands for in those comparisons), and
 * the order of two timestamptz values as the IDs they stand for (btree
 * support 1 for timestamptz within the type's family).
 */
#define UID64_TS_FUNCS(T, LAYOUT) \
UID64_TS_OP(T, LAYOUT, eq, c == 0) \
UID64_TS_OP(T, LAYOUT, ne, c != 0) \
UID64_TS_OP(T, LAYOUT, lt, c < 0) \
UID64_TS_OP(T, LAYOUT, le, c <= 0) \
UID64_TS_OP(T, LAYOUT, gt, c > 0) \
UID64_TS_OP(T, LAYOUT, ge, c >= 0) \
PG_FUNCTION_INFO_V1(T##_cmp_tstz); \
Datum T##_cmp_tstz(PG_FUNCTION_ARGS) \
{ PG_RETURN_INT32(uid_cmp_timestamptz(LAYOUT, UID64_ARG(0), PG_GETARG_TIMESTAMPTZ(1))); } \
PG_FUNCTION_INFO_V1(tstz_cmp_##T); \
Datum tstz_cmp_##T(PG_FUNCTION_ARGS) \
{ PG_RETURN_INT32(-uid_cmp_timestamptz(LAYOUT, UID64_ARG(1), PG_GETARG_TIMESTAMPTZ(0))); } \
PG_FUNCTION_INFO_V1(T##_floor); \
Datum T##_floor(PG_FUNCTION_ARGS) \
{ return UInt64GetDatum(uid_floor_units((LAYOUT)->typname, PG_GETARG_TIMESTAMPTZ(0), (LAYOUT)->epoch_us, \
										(LAYOUT)->unit_us, UID_FIELD_MAX((LAYOUT)->time_bits)) \
						<< (LAYOUT)->time_shift); } \
PG_FUNCTION_INFO_V1(tstz_cmp_as_##T); \
Datum tstz_cmp_as_##T(PG_FUNCTION_ARGS) \
{ PG_RETURN_INT32(uid_tstz_cmp(PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_TIMESTAMPTZ(1), (LAYOUT)->epoch_us, \
							   (LAYOUT)->unit_us, UID_FIELD_MAX((LAYOUT)->time_bits))); }

/* An accessor returning field number IDX of the layout. */
#define UID64_FIELD_FUNC(FN, LAYOUT, IDX) \
PG_FUNCTION_INFO_V1(FN); \
Datum FN(PG_FUNCTION_ARGS) \
{ PG_RETURN_INT32((int32) uid_get_field(LAYOUT, UID64_ARG(0), IDX)); }

/* shardid */
UID64_IO_FUNCS(shardid, &uid_shardid_layout)
UID64_TIME_FUNCS(shardid, &uid_shardid_layout)
UID64_TS_FUNCS(shardid, &uid_shardid_layout)
UID64_FIELD_FUNC(shardid_shard, &uid_shardid_layout, 0)
UID64_FIELD_FUNC(shardid_seq, &uid_shardid_layout, 1)

/* snowflake */
UID64_IO_FUNCS(snowflake, &uid_snowflake_layout)
UID64_BIGINT_CAST(snowflake, &uid_snowflake_layout)
UID64_TIME_FUNCS(snowflake, &uid_snowflake_layout)
UID64_TS_FUNCS(snowflake, &uid_snowflake_layout)
UID64_FIELD_FUNC(snowflake_node, &uid_snowflake_layout, 0)
UID64_FIELD_FUNC(snowflake_seq, &uid_snowflake_layout, 1)

/* sonyflake */
UID64_IO_FUNCS(sonyflake, &uid_sonyflake_layout)
UID64_BIGINT_CAST(sonyflake, &uid_sonyflake_layout)
UID64_TIME_FUNCS(sonyflake, &uid_sonyflake_layout)
UID64_TS_FUNCS(sonyflake, &uid_sonyflake_layout)
UID64_FIELD_FUNC(sonyflake_seq, &uid_sonyflake_layout, 0)
UID64_FIELD_FUNC(sonyflake_node, &uid_sonyflake_layout, 1)

/* shortid */
UID64_IO_FUNCS(shortid, &uid_shortid_layout)
UID64_BIGINT_CAST(shortid, &uid_shortid_layout)
UID64_TIME_FUNCS(shortid, &uid_shortid_layout)
UID64_TS_FUNCS(shortid, &uid_shortid_layout)
UID64_FIELD_FUNC(shortid_seq, &uid_shortid_layout, 0)
UID64_FIELD_FUNC(shortid_random, &uid_shortid_layout, 1)

/* spreadid: I/O here, the time-dependent parts in spreadid.c */
UID64_IO_FUNCS(spreadid, &uid_spreadid_layout)

/* ---- generators ---- */

PG_FUNCTION_INFO_V1(next_snowflake);
/* next_snowflake(): node is this server's node number (below 1024) */
Datum
next_snowflake(PG_FUNCTION_ARGS)
{
	int			node;

	uid_require_generator("snowflake");
	node = uid_node_for("snowflake", "node", 10);
	return UInt64GetDatum(uid_generate_node(&uid_snowflake_layout, UID_SLOT_SNOWFLAKE, (uint64) node << 12));
}

PG_FUNCTION_INFO_V1(next_sonyflake);
/* next_sonyflake(): machine id is this server's node number */
Datum
next_sonyflake(PG_FUNCTION_ARGS)
{
	int			machine;

	uid_require_generator("sonyflake");
	machine = uid_node_for("sonyflake", "machine id", 16);
	return UInt64GetDatum(uid_generate_node(&uid_sonyflake_layout, UID_SLOT_SONYFLAKE, (uint64) machine));
}

PG_FUNCTION_INFO_V1(next_shortid);
/* next_shortid(): 9 random bits per ID (uid_random64) */
Datum
next_shortid(PG_FUNCTION_ARGS)
{
	uid_require_generator("shortid");
	return UInt64GetDatum(uid_generate(&uid_shortid_layout, UID_SLOT_SHORTID, uid_random64() & 511));
}

/* What the engine and the views know of snowflake (family.h; module.c registers it) */
const UidFamily uid_snowflake_family = {
	.stat = UID_SLOT_SNOWFLAKE,
	.name = "snowflake",
	.typname = "snowflake",
	.node_bearing = true,
	.layout = &uid_snowflake_layout,
};

/* What the engine and the views know of sonyflake (family.h; module.c registers it) */
const UidFamily uid_sonyflake_family = {
	.stat = UID_SLOT_SONYFLAKE,
	.name = "sonyflake",
	.typname = "sonyflake",
	.node_bearing = true,
	.layout = &uid_sonyflake_layout,
};

/* What the engine and the views know of shortid (family.h; module.c registers it) */
const UidFamily uid_shortid_family = {
	.stat = UID_SLOT_SHORTID,
	.name = "shortid",
	.typname = "shortid",
	.node_bearing = false,
	.layout = &uid_shortid_layout,
};
