/*
 * uniqueid.h - the internal header: layout descriptors and the entry points
 * shared between the files of src/.
 */
#ifndef UNIQUEID_H
#define UNIQUEID_H

#include "compat.h"

#include "fmgr.h"
#include "port/atomics.h"
#include "storage/lwlock.h"
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

/* Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
#define UID_PG_EPOCH_UNIX_US INT64CONST(946684800000000)

/* Largest value of a field of the given width. */
#define UID_FIELD_MAX(bits) ((bits) >= 64 ? PG_UINT64_MAX : (UINT64CONST(1) << (bits)) - 1)

/* sno: 10 bytes, time 39 (4 ms since 2010-01-01) . tick 1 . meta 8 . partition 16 . seq 16 */
typedef struct UidSno
{
	uint8		b[10];
} UidSno;

#define UID_SNO_EPOCH_US INT64CONST(1262304000000000)
#define UID_SNO_UNIT_US 4000
#define UID_SNO_TIME_MAX ((UINT64CONST(1) << 39) - 1)

/* sno.c */
extern uint64 uid_sno_time_units(TimestampTz ts);
extern void uid_sno_pack(UidSno *out, uint64 units, int tick, int meta, int partition, int seq);

/* spreadid.c */
extern uint64 uid_spreadid_fixed_bits(int generator, int cluster, bool spread);
extern uint64 uid_spreadid_spread(uint64 v);
extern bool uid_spreadid_mode_is_spread(text *mode);

/* objectid: 12 bytes, seconds 32 (Unix epoch) . random 40 . counter 24 */
typedef struct UidObjectid
{
	uint8		b[12];
} UidObjectid;

#define UID_OBJECTID_BYTES 12
#define UID_OBJECTID_TIME_MAX UINT64CONST(0xffffffff)
#define UID_OBJECTID_RANDOM_MAX ((INT64CONST(1) << 40) - 1)
#define UID_OBJECTID_COUNTER_MAX ((1 << 24) - 1)

/* objectid.c */
extern void uid_objectid_shmem_request(void);
extern void uid_objectid_shmem_startup(void);

/* layout.c */
extern uint64 uid_time_units(const UidLayout *layout, TimestampTz ts);
extern TimestampTz uid_units_to_timestamptz(const UidLayout *layout, uint64 units);
extern uint64 uid_get_time(const UidLayout *layout, uint64 id);
extern uint64 uid_get_field(const UidLayout *layout, uint64 id, int field);
extern int64 uid_check_range(const char *typname, const char *name, int64 value, int64 max);
extern int64 uid_getarg_integer(FunctionCallInfo fcinfo, int argno);
extern bool uid_looks_like_time(const char *str);
extern int	uid_tstz_ceil_units(TimestampTz ts, int64 epoch_us, int64 unit_us, uint64 time_max,
								uint64 *units);
extern int	uid_tstz_cmp(TimestampTz a, TimestampTz b, int64 epoch_us, int64 unit_us, uint64 time_max);
extern int	uid_cmp_timestamptz(const UidLayout *layout, uint64 id, TimestampTz ts);

/* generator.c; slot numbers below UID_SLOT_UUID7 belong to shardid's shards */
#define UID_SLOT_UUID7 UID_NSHARDS
extern void uid_shmem_request(void);
extern void uid_require_generator(const char *typname);
extern void uid_shmem_startup(void);
extern uint64 uid_generate(const UidLayout *layout, uint32 slot, uint64 node_bits);
extern void uid_generate_sno(UidSno *out, int meta);
extern int64 uid_clock_high_water(int64 now_us);
extern int64 uid_mono_us(void);
extern void uid_require_generator(const char *typname);
extern void uid_wait(int64 wait_us);

/*
 * WAL resource manager id of uniqueid's horizon records, from the custom
 * range (128..255); a standby replaying them needs uniqueid preloaded.
 */
#define UID_RMGR_ID 201

/* horizon.c */
extern void uid_horizon_shmem_request(void);
extern void uid_horizon_shmem_startup(void);
extern void uid_horizon_register_rmgr(void);
/* The horizon's shared state (horizon.c); read inline on every generated ID. */
typedef struct UidHorizonShared
{
	pg_atomic_uint64 horizon_ms;	/* durable: no ID issued at or past it */
	pg_atomic_uint64 floor_ms;	/* every ID from now on is at or past it */
	pg_atomic_uint64 floor_mono_us; /* monotonic clock when the floor was set */
	pg_atomic_uint32 floor_passed;	/* the clock has caught up with the floor */
	LWLock	   *lock;			/* serializes advances and the floor's setting */
} UidHorizonShared;

extern UidHorizonShared *uid_horizon;
extern uint64 uid_horizon_floor_slow(uint64 now_ms, bool *passed);
extern uint64 uid_horizon_cover_slow(uint64 end_ms);

/*
 * UID_BENCH_NO_HORIZON, defined only by bench/horizon_ab.sh, builds a
 * generator without the horizon's fast paths below (and so without any
 * durability), to measure what they cost.  Never define it for real use.
 *
 * The fast paths keep what they learn in backend-local statics (one copy per
 * file that uses them), which is safe because the floor, once the clock has
 * passed it, never moves until the server restarts (a crash restarts every
 * backend too), and the horizon only rises.
 */

/*
 * The earliest time (Unix ms) an ID may have, given the clock's reading
 * now_ms.
 */
static inline uint64
uid_horizon_floor(uint64 now_ms)
{
#ifdef UID_BENCH_NO_HORIZON
	return 0;
#else
	static bool passed = false;
	static uint64 floor_ms;

	if (likely(passed))
		return floor_ms;
	floor_ms = uid_horizon_floor_slow(now_ms, &passed);
	return floor_ms;
#endif
}

/*
 * Makes an ID whose time unit ends at end_ms (Unix ms, exclusive) durable
 * within the horizon (fast path: it is).
 */
static inline void
uid_horizon_cover(uint64 end_ms)
{
#ifndef UID_BENCH_NO_HORIZON
	static uint64 covered_to = 0;	/* the horizon, or a little less */

	if (unlikely(end_ms > covered_to))
		covered_to = uid_horizon_cover_slow(end_ms);
#endif
}

/* guc.c */
extern int	uid_max_clock_lead_ms;
extern void uid_define_gucs(void);
extern bool uid_shard_owned(int shard);
extern const char *uid_shards_setting(void);
extern int	uid_node;
extern int	uid_sno_sequence_min;
extern int	uid_sno_sequence_max;
extern int	uid_cluster;
#define UID_NSHARDS 8192

#endif							/* UNIQUEID_H */
