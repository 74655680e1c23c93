/*
 * layout.h - how an ID type lays out its time and fields: the descriptors of
 * the 64-bit layouts (layout.c), and the time and field arithmetic every
 * type shares.
 */
#ifndef UNIQUEID_LAYOUT_H
#define UNIQUEID_LAYOUT_H

#include "compat.h"

#include "fmgr.h"
#include "utils/timestamp.h"

/* How a 64-bit layout writes itself as text. */
typedef enum UidCodec
{
	UID_CODEC_DECIMAL,			/* unsigned decimal */
	UID_CODEC_HEX,				/* 16 hex digits, output lowercase */
	UID_CODEC_SHORTID			/* shortid's rotated base64 */
} UidCodec;

/* One bit field of an identifier, other than its time. */
typedef struct UidField
{
	const char *name;			/* as the constructor's argument names it */
	uint8		shift;			/* position of the least significant bit */
	uint8		bits;
} UidField;

#define UID_MAX_FIELDS 5

/*
 * Everything the generic code needs to know about a 64-bit layout: one of
 * these per type, the way contrib/isn drives its types from one table.
 */
typedef struct UidLayout
{
	const char *typname;
	int64		epoch_us;		/* Unix time of time value 0, microseconds */
	int64		unit_us;		/* length of one time unit, microseconds */
	uint8		time_shift;
	uint8		time_bits;
	UidCodec	codec;
	int			seq_field;		/* index in fields[] of the sequence */
	int			nfields;
	UidField	fields[UID_MAX_FIELDS];
} UidLayout;

extern const UidLayout uid_shardid_layout;
extern const UidLayout uid_snowflake_layout;
extern const UidLayout uid_sonyflake_layout;
extern const UidLayout uid_shortid_layout;
extern const UidLayout uid_spreadid_layout;
extern const UidLayout uid_uuid7_layout;
extern const UidLayout uid_ulid_layout;
extern const UidLayout uid_ksuid_layout;
extern const UidLayout uid_rsxid_layout;

/* Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
#define UID_PG_EPOCH_UNIX_US INT64CONST(946684800000000)

/* Largest value of a field of the given width. */
#define UID_FIELD_MAX(bits) ((bits) >= 64 ? PG_UINT64_MAX : (UINT64CONST(1) << (bits)) - 1)

extern uint64 uid_time_units(const UidLayout *layout, TimestampTz ts);
extern uint64 uid_floor_units(const char *typname, TimestampTz ts, int64 epoch_us, int64 unit_us,
							  uint64 time_max);
extern TimestampTz uid_units_to_timestamptz(const UidLayout *layout, uint64 units);
extern uint64 uid_get_time(const UidLayout *layout, uint64 id);
extern uint64 uid_get_field(const UidLayout *layout, uint64 id, int field);
pg_noreturn extern void uid_out_of_range(const char *typname, const char *name, int64 value, int64 max);
extern int64 uid_getarg_integer(FunctionCallInfo fcinfo, int argno);
extern bool uid_looks_like_time(const char *str);
extern const char *uid_quote_input(const char *str);
extern int	uid_tstz_ceil_units(TimestampTz ts, int64 epoch_us, int64 unit_us, uint64 time_max,
								uint64 *units);
extern int	uid_tstz_cmp(TimestampTz a, TimestampTz b, int64 epoch_us, int64 unit_us, uint64 time_max);
extern int	uid_cmp_timestamptz(const UidLayout *layout, uint64 id, TimestampTz ts);

/*
 * Errors out unless 0 <= value <= max: a constructor's or generator's
 * argument `name` of type typname.  Returns value.  Inline, its error out of
 * line: generators check their arguments on every ID.
 */
static inline int64
uid_check_range(const char *typname, const char *name, int64 value, int64 max)
{
	if (unlikely(value < 0 || value > max))
		uid_out_of_range(typname, name, value, max);
	return value;
}

#endif							/* UNIQUEID_LAYOUT_H */
