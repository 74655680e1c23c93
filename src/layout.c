/*
 * layout.c - the layout descriptors of the 64-bit types, and the time and
 * field arithmetic every type shares.
 */
#include "layout.h"

#include "catalog/pg_type_d.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "mb/pg_wchar.h"

/* Instagram: time 41 (ms since 2011-08-24T21:07:01.721Z) . shard 13 . seq 10 */
const UidLayout uid_shardid_layout = {
	.typname = "shardid",
	.epoch_us = INT64CONST(1314220021721) * 1000,
	.unit_us = 1000,
	.time_shift = 23,
	.time_bits = 41,
	.codec = UID_CODEC_DECIMAL,
	.seq_field = 1,
	.nfields = 2,
	.fields = {{"shard", 10, 13}, {"seq", 0, 10}},
};

/* Twitter: 0 . time 41 (ms since 2010-11-04T01:42:54.657Z) . node 10 . seq 12 */
const UidLayout uid_snowflake_layout = {
	.typname = "snowflake",
	.epoch_us = INT64CONST(1288834974657) * 1000,
	.unit_us = 1000,
	.time_shift = 22,
	.time_bits = 41,
	.codec = UID_CODEC_DECIMAL,
	.seq_field = 1,
	.nfields = 2,
	.fields = {{"node", 12, 10}, {"seq", 0, 12}},
};

/* Sony: 0 . time 39 (10 ms units since 2014-09-01) . seq 8 . machine 16 */
const UidLayout uid_sonyflake_layout = {
	.typname = "sonyflake",
	.epoch_us = INT64CONST(1409529600000) * 1000,
	.unit_us = 10000,
	.time_shift = 24,
	.time_bits = 39,
	.codec = UID_CODEC_DECIMAL,
	.seq_field = 0,
	.nfields = 2,
	.fields = {{"seq", 16, 8}, {"machine", 0, 16}},
};

/* shortid: 0000 . time 42 (ms since 2018-03-01) . seq 9 . random 9 */
const UidLayout uid_shortid_layout = {
	.typname = "shortid",
	.epoch_us = INT64CONST(1519862400000) * 1000,
	.unit_us = 1000,
	.time_shift = 18,
	.time_bits = 42,
	.codec = UID_CODEC_SHORTID,
	.seq_field = 0,
	.nfields = 2,
	.fields = {{"seq", 9, 9}, {"random", 0, 9}},
};

/*
 * spreadid in TIME_SEQUENTIAL mode: time 42 (Unix ms) . seq 6 . generator
 * high 3 . mode 1 . generator low 8 . cluster 4.  SPREAD mode differs only in
 * the time bits (see spreadid.c); the generic code uses this descriptor for
 * text I/O and generation.
 */
const UidLayout uid_spreadid_layout = {
	.typname = "spreadid",
	.epoch_us = 0,
	.unit_us = 1000,
	.time_shift = 22,
	.time_bits = 42,
	.codec = UID_CODEC_HEX,
	.seq_field = 0,
	.nfields = 5,
	.fields = {{"seq", 16, 6}, {"generator_high", 13, 3}, {"mode", 12, 1},
	{"generator_low", 4, 8}, {"cluster", 0, 4}},
};

/*
 * The (time, counter) part of a v7 UUID as uid_generate sees it: Unix ms 48
 * . counter 12 (rand_a).  Version, variant and the random bits are placed
 * around it by next_uuid7.
 */
const UidLayout uid_uuid7_layout = {
	.typname = "uuid",
	.epoch_us = 0,
	.unit_us = 1000,
	.time_shift = 12,
	.time_bits = 48,
	.codec = UID_CODEC_HEX,
	.seq_field = 0,
	.nfields = 1,
	.fields = {{"counter", 0, 12}},
};

/*
 * The generators of the byte-string types on the 64-bit engine: the time
 * and sequence that lead each ID (the type's own file places the rest).
 * ulid: Unix ms 48 . counter 16, the first 8 of its 16 bytes.
 */
const UidLayout uid_ulid_layout = {
	.typname = "ulid",
	.epoch_us = 0,
	.unit_us = 1000,
	.time_shift = 16,
	.time_bits = 48,
	.codec = UID_CODEC_HEX,
	.seq_field = 0,
	.nfields = 1,
	.fields = {{"counter", 0, 16}},
};

/* ksuid: seconds 32 since 2014-05-13 16:53:20 UTC . counter 32, the first 8 of its 20 bytes */
const UidLayout uid_ksuid_layout = {
	.typname = "ksuid",
	.epoch_us = INT64CONST(1400000000) * 1000000,
	.unit_us = 1000000,
	.time_shift = 32,
	.time_bits = 32,
	.codec = UID_CODEC_HEX,
	.seq_field = 0,
	.nfields = 1,
	.fields = {{"counter", 0, 32}},
};

/* rsxid: Unix seconds 32 . counter 24 (bytes 0-3 and 9-11 of its 12) */
const UidLayout uid_rsxid_layout = {
	.typname = "rsxid",
	.epoch_us = 0,
	.unit_us = 1000000,
	.time_shift = 24,
	.time_bits = 32,
	.codec = UID_CODEC_HEX,
	.seq_field = 0,
	.nfields = 1,
	.fields = {{"counter", 0, 24}},
};

/*
 * The error of a time outside what a type holds: units of unit_us from
 * epoch_us up to time_max.
 */
pg_noreturn static void
uid_time_out_of_range(const char *typname, TimestampTz ts, int64 epoch_us, int64 unit_us, uint64 time_max)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("timestamp out of range for type %s: \"%s\"", typname, timestamptz_to_str(ts)),
			 errdetail("Type %s holds times from %s to %s.", typname,
					   pstrdup(timestamptz_to_str((TimestampTz) (epoch_us - UID_PG_EPOCH_UNIX_US))),
					   pstrdup(timestamptz_to_str((TimestampTz) (epoch_us + (int64) time_max * unit_us
																 - UID_PG_EPOCH_UNIX_US))))));
}

/*
 * Time units since the layout's epoch for ts, truncated to the unit.  Raises
 * datetime_field_overflow when ts is outside what the layout can hold.
 */
uint64
uid_time_units(const UidLayout *layout, TimestampTz ts)
{
	int64		since_epoch;
	uint64		units;

	if (TIMESTAMP_NOT_FINITE(ts) ||
		pg_add_s64_overflow(ts, UID_PG_EPOCH_UNIX_US - layout->epoch_us, &since_epoch) ||
		since_epoch < 0 ||
		(units = (uint64) since_epoch / layout->unit_us) > UID_FIELD_MAX(layout->time_bits))
		uid_time_out_of_range(layout->typname, ts, layout->epoch_us, layout->unit_us,
							  UID_FIELD_MAX(layout->time_bits));
	return units;
}

/*
 * The time value of the smallest ID of a type whose time is at or after ts,
 * ts rounded up to the unit (uid_tstz_ceil_units): the ID each comparison of
 * the type with ts stands for, and the time field of its floor function
 * (shardid_floor(ts) and the others).  Raises datetime_field_overflow when
 * ts is before the type's first time or past the start of its last unit, so
 * that a floor is always an ID whose own time is at or after ts.
 */
uint64
uid_floor_units(const char *typname, TimestampTz ts, int64 epoch_us, int64 unit_us, uint64 time_max)
{
	uint64		units = 0;

	/* (uid_tstz_ceil_units takes every time up to the epoch for unit 0) */
	if (uid_tstz_ceil_units(ts, epoch_us, unit_us, time_max, &units) != 0 ||
		ts < (TimestampTz) (epoch_us - UID_PG_EPOCH_UNIX_US))
		uid_time_out_of_range(typname, ts, epoch_us, unit_us, time_max);
	return units;
}

/* uid_check_range's error: value is outside 0..max. */
void
uid_out_of_range(const char *typname, const char *name, int64 value, int64 max)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("%s " INT64_FORMAT " is out of range for type %s", name, value, typname),
			 errdetail("Valid values of %s are 0 to " INT64_FORMAT ".", name, max)));
}

/*
 * Argument argno of a function declared for smallint, integer and bigint
 * alike (overloads that let a literal or column of any of them match an
 * extension function exactly), as a bigint.
 */
int64
uid_getarg_integer(FunctionCallInfo fcinfo, int argno)
{
	switch (get_fn_expr_argtype(fcinfo->flinfo, argno))
	{
		case INT2OID:
			return PG_GETARG_INT16(argno);
		case INT4OID:
			return PG_GETARG_INT32(argno);
		case INT8OID:
			return PG_GETARG_INT64(argno);
		default:
			elog(ERROR, "argument %d is not of an integer type", argno + 1);
	}
	return 0;					/* keep the compiler quiet */
}

/*
 * Whether bad text input of an ID type looks like a date or time: an untyped
 * time literal compared with an ID is read as an ID (README, "Finding rows by
 * time"), and its error then hints at writing a timestamptz.
 */
bool
uid_looks_like_time(const char *str)
{
	return strchr(str, ':') != NULL || (str[0] != '\0' && strchr(str + 1, '-') != NULL);
}

/* The timestamptz at which time unit `units` of the layout begins. */
TimestampTz
uid_units_to_timestamptz(const UidLayout *layout, uint64 units)
{
	return (TimestampTz) (layout->epoch_us + (int64) units * layout->unit_us
						  - UID_PG_EPOCH_UNIX_US);
}

/* The time field of id. */
uint64
uid_get_time(const UidLayout *layout, uint64 id)
{
	return (id >> layout->time_shift) & UID_FIELD_MAX(layout->time_bits);
}

/* Field number `field` of id. */
uint64
uid_get_field(const UidLayout *layout, uint64 id, int field)
{
	const UidField *f = &layout->fields[field];

	return (id >> f->shift) & UID_FIELD_MAX(f->bits);
}

/*
 * Where ts falls among the IDs of a layout whose time value counts units of
 * unit_us from epoch_us up to time_max: -1 below every ID (-infinity), 1
 * above every ID (past the layout's last unit, or infinity), else 0 with
 * *units the time value of the smallest ID whose time is at or after ts,
 * which is ts rounded up to the unit (0 for every time up to the epoch).
 *
 * This is the meaning of every ID-versus-timestamptz comparison: ts stands
 * for that smallest ID.  Several times stand for the same ID, so two
 * timestamptz values that differ may compare as equal IDs: uid_tstz_cmp
 * orders times this way for the btree operator families.
 */
int
uid_tstz_ceil_units(TimestampTz ts, int64 epoch_us, int64 unit_us, uint64 time_max,
					uint64 *units)
{
	int64		since_epoch;

	if (TIMESTAMP_IS_NOBEGIN(ts))
		return -1;
	if (TIMESTAMP_IS_NOEND(ts) ||
		pg_add_s64_overflow(ts, UID_PG_EPOCH_UNIX_US - epoch_us, &since_epoch))
		return 1;
	*units = since_epoch <= 0 ? 0 : ((uint64) since_epoch + unit_us - 1) / unit_us;
	return *units > time_max ? 1 : 0;
}

/*
 * Compares two times as the IDs they stand for (uid_tstz_ceil_units): the
 * order of timestamptz within a btree family of such a layout.
 */
int
uid_tstz_cmp(TimestampTz a, TimestampTz b, int64 epoch_us, int64 unit_us, uint64 time_max)
{
	uint64		ua = 0,
				ub = 0;
	int			ca = uid_tstz_ceil_units(a, epoch_us, unit_us, time_max, &ua);
	int			cb = uid_tstz_ceil_units(b, epoch_us, unit_us, time_max, &ub);

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (ca != 0)
		return 0;
	return ua < ub ? -1 : (ua > ub ? 1 : 0);
}

/*
 * Compares id with the smallest ID of the layout whose time is at or after
 * ts: the meaning of every id-versus-timestamptz operator.
 */
int
uid_cmp_timestamptz(const UidLayout *layout, uint64 id, TimestampTz ts)
{
	uint64		units = 0;
	uint64		bound;

	switch (uid_tstz_ceil_units(ts, layout->epoch_us, layout->unit_us,
								UID_FIELD_MAX(layout->time_bits), &units))
	{
		case -1:
			return 1;
		case 1:
			return -1;
	}
	bound = units << layout->time_shift;
	return id < bound ? -1 : (id > bound ? 1 : 0);
}

/* Inputs longer than this are quoted in messages by their first bytes only. */
#define UID_QUOTE_MAX 64

/*
 * An input to quote in a message: itself, or, when it is long, its first
 * UID_QUOTE_MAX bytes (whole characters) and how long it was, so that a
 * huge bad value does not fill the message and the server log.
 */
const char *
uid_quote_input(const char *str)
{
	int			len = (int) strlen(str);

	if (len <= UID_QUOTE_MAX)
		return str;
	return psprintf("%.*s...(%d bytes in all)", pg_mbcliplen(str, len, UID_QUOTE_MAX), str, len);
}
