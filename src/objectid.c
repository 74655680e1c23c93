/*
 * objectid.c - the 12-byte objectid type (MongoDB's ObjectId): hex text,
 * binary I/O, byte-order comparison with abbreviated-key sort support,
 * hashing, comparison with timestamptz, fields and constructor; and its
 * generator next_objectid() with its own shared-memory state.
 *
 * Layout, most significant first: seconds 32 (unsigned, Unix epoch)
 * . random 40 . counter 24.
 */
#include "objectid.h"

#include "byteid.h"
#include "clock.h"
#include "codec.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "generator.h"
#include "guc.h"
#include "dbhorizon.h"
#include "horizon.h"
#include "port/atomics.h"
#include "port/pg_bswap.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

/* objectid: 12 bytes, seconds 32 (Unix epoch) . random 40 . counter 24 */
typedef struct UidObjectid
{
	uint8		b[12];
} UidObjectid;

#define UID_OBJECTID_BYTES 12
#define UID_OBJECTID_TIME_MAX UINT64CONST(0xffffffff)
#define UID_OBJECTID_RANDOM_MAX ((INT64CONST(1) << 40) - 1)
#define UID_OBJECTID_COUNTER_MAX ((1 << 24) - 1)

#define OBJECTID_ARG(n) ((const UidObjectid *) PG_GETARG_POINTER(n))

#define OBJECTID_COUNTER_BITS 24

/*
 * The generator's shared state: the last issued (seconds << 24 | counter) on
 * a cache line of its own, and the 5 random bytes of this server start.
 */
typedef struct UidObjectidShared
{
	union
	{
		pg_atomic_uint64 state;
		char		pad[64];
	}			slot;
	uint8		random[5];
} UidObjectidShared;

static UidObjectidShared *uid_objectid = NULL;

/* Seconds since the Unix epoch for ts, truncated; 22008 outside 1970..2106. */
static uint64
objectid_time_seconds(TimestampTz ts)
{
	int64		since_epoch;

	if (TIMESTAMP_NOT_FINITE(ts) ||
		pg_add_s64_overflow(ts, UID_PG_EPOCH_UNIX_US, &since_epoch) ||
		since_epoch < 0 || since_epoch / USECS_PER_SEC > (int64) UID_OBJECTID_TIME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("timestamp out of range for type objectid: \"%s\"", timestamptz_to_str(ts)),
				 errdetail("Type objectid holds times from 1970-01-01 00:00:00+00 to 2106-02-07 06:28:15+00.")));
	return (uint64) since_epoch / USECS_PER_SEC;
}

/* Assembles an objectid from its fields (all already range-checked). */
static inline void
objectid_pack(UidObjectid *out, uint64 seconds, uint64 random, uint32 counter)
{
	uint64		hi = pg_hton64(seconds << 32 | random >> 8);
	uint32		lo = pg_hton32((uint32) (random & 0xff) << 24 | counter);

	memcpy(out->b, &hi, sizeof(hi));
	memcpy(out->b + 8, &lo, sizeof(lo));
}

/* The 32-bit seconds field of an objectid. */
static uint64
objectid_seconds(const UidObjectid *id)
{
	return (uint64) id->b[0] << 24 | (uint64) id->b[1] << 16 | (uint64) id->b[2] << 8 | id->b[3];
}

/* Compares id with the smallest objectid whose time is at or after ts. */
static int
objectid_cmp_timestamptz(const UidObjectid *id, TimestampTz ts)
{
	return uid_byteid_cmp_time(id->b, UID_OBJECTID_BYTES, 4, ts, 0, USECS_PER_SEC, UID_OBJECTID_TIME_MAX);
}

/* Binary I/O, bytea casts, comparison, hashing and timestamptz operators. */
UID_BYTEID_FUNCS(objectid, UidObjectid, UID_OBJECTID_BYTES, objectid_cmp_timestamptz,
				 0, USECS_PER_SEC, UID_OBJECTID_TIME_MAX)

PG_FUNCTION_INFO_V1(objectid_in);
/* text input: exactly 24 hex digits, either case */
Datum
objectid_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	UidObjectid *id = palloc(sizeof(UidObjectid));

	if (uid_hex_parse(str, strlen(str), id->b, UID_OBJECTID_BYTES) != UID_PARSE_OK)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type objectid: \"%s\"", uid_quote_input(str)),
				 errdetail("An objectid is written as exactly 24 hexadecimal digits."),
				 uid_looks_like_time(str) ?
				 errhint("To compare an objectid with a time, write the time as a timestamptz, such as timestamptz '%s'.",
						 str) : 0));
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(objectid_out);
/* text output: 24 lowercase hex digits */
Datum
objectid_out(PG_FUNCTION_ARGS)
{
	char	   *buf = palloc(2 * UID_OBJECTID_BYTES + 1);

	uid_hex_format(OBJECTID_ARG(0)->b, UID_OBJECTID_BYTES, buf);
	PG_RETURN_CSTRING(buf);
}

/* btree support 2: memcmp, with abbreviated keys of the first 8 bytes (seconds, 4 random bytes) */
UID_BYTEID_SORTSUPPORT(objectid, UidObjectid)

PG_FUNCTION_INFO_V1(objectid_time);
/* id_time(objectid): the second the ID was made in */
Datum
objectid_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ((TimestampTz) ((int64) objectid_seconds(OBJECTID_ARG(0)) * USECS_PER_SEC
										 - UID_PG_EPOCH_UNIX_US));
}

PG_FUNCTION_INFO_V1(objectid_random);
/* id_random(objectid): the 40-bit random field */
Datum
objectid_random(PG_FUNCTION_ARGS)
{
	const UidObjectid *id = OBJECTID_ARG(0);
	int64		v = 0;

	for (int i = 4; i < 9; i++)
		v = v << 8 | id->b[i];
	PG_RETURN_INT64(v);
}

PG_FUNCTION_INFO_V1(objectid_counter);
/* id_counter(objectid): the 24-bit counter */
Datum
objectid_counter(PG_FUNCTION_ARGS)
{
	const UidObjectid *id = OBJECTID_ARG(0);

	PG_RETURN_INT32(id->b[9] << 16 | id->b[10] << 8 | id->b[11]);
}

PG_FUNCTION_INFO_V1(make_objectid);
/* make_objectid(time, random smallint|integer|bigint, counter) */
Datum
make_objectid(PG_FUNCTION_ARGS)
{
	UidObjectid *id = palloc(sizeof(UidObjectid));
	uint64		seconds = objectid_time_seconds(PG_GETARG_TIMESTAMPTZ(0));
	int64		random = uid_getarg_integer(fcinfo, 1);
	int32		counter = PG_GETARG_INT32(2);

	uid_check_range("objectid", "random", random, UID_OBJECTID_RANDOM_MAX);
	uid_check_range("objectid", "counter", counter, UID_OBJECTID_COUNTER_MAX);
	objectid_pack(id, seconds, (uint64) random, (uint32) counter);
	PG_RETURN_POINTER(id);
}

/* shmem_request_hook work: reserve the generator's state. */
void
uid_objectid_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidObjectidShared));
}

/*
 * shmem_startup_hook work (AddinShmemInitLock held): on first use, the 5
 * random bytes of this server start and a counter starting at a random value.
 */
void
uid_objectid_shmem_startup(void)
{
	bool		found;

	uid_objectid = ShmemInitStruct("uniqueid objectid", sizeof(UidObjectidShared), &found);
	if (!found)
	{
		uint8		start[3];
		uint32		counter;

		if (!pg_strong_random(uid_objectid->random, sizeof(uid_objectid->random)) ||
			!pg_strong_random(start, sizeof(start)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate random values for objectid")));
		counter = (uint32) start[0] << 16 | (uint32) start[1] << 8 | start[2];
		/* second 0 is before any clock reading: the first ID gets counter `start` */
		pg_atomic_init_u64(&uid_objectid->slot.state,
						   (uint64) ((counter - 1) & UID_OBJECTID_COUNTER_MAX));
	}
}

/* The error of next_objectid for a clock outside objectid's range. */
pg_noreturn static void
objectid_clock_out_of_range(int64 now_us)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("the clock is outside the time range of type objectid"),
			 errdetail("The server's clock reads %s.",
					   timestamptz_to_str(now_us - UID_PG_EPOCH_UNIX_US))));
}

/* The error of next_objectid past its last second (2106-02-07 06:28:15 UTC). */
pg_noreturn static void
objectid_no_ids_left(void)
{
	uid_stat_refused(UID_STAT_OBJECTID, UID_REFUSED_NO_IDS_LEFT);
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("type objectid has no IDs left after 2106-02-07 06:28:15+00")));
}

/*
 * The counter would wrap within the slot's second t - 1: second t is
 * borrowed.  Returns false after waiting for the clock when that would put
 * the slot more than uniqueid.max_clock_lead ahead of it (*waited_from: the
 * monotonic clock at the call's first wait); else how far ahead second t
 * starts in *lead_us.
 */
static pg_noinline bool
objectid_borrow(uint64 t, int64 now_us, int64 *lead_us, int64 *waited_from)
{
	if (t > UID_OBJECTID_TIME_MAX)
		objectid_no_ids_left();
	*lead_us = (int64) t * USECS_PER_SEC - uid_clock_high_water(now_us);
	if (*lead_us <= (int64) uid_max_clock_lead_ms * 1000)
		return true;
	/* over capacity: wait for the clock, interruptibly */
	if (*waited_from == 0)
		*waited_from = uid_mono_us();
	uid_wait(*lead_us - (int64) uid_max_clock_lead_ms * 1000);
	return false;
}

/* The statistics of a borrowed second, or of a call that waited: out of line. */
static pg_noinline void
objectid_count(int64 lead_us, int64 waited_from)
{
	if (lead_us > 0)
		uid_stat_borrow(UID_STAT_OBJECTID, USECS_PER_SEC, lead_us);
	if (waited_from != 0)
		uid_stat_wait(UID_STAT_OBJECTID, uid_mono_us() - waited_from);
}

/*
 * Issues the next objectid: strictly increasing (seconds, counter) pairs from
 * one lock-free slot.  The counter runs on across seconds (+1, wrapping
 * freely when the second changes); when it would wrap within the slot's
 * second, the slot borrows the next second while the lead over the highest
 * clock reading seen stays within uniqueid.max_clock_lead, else waits.  A
 * clock behind the slot changes nothing: the slot counts on from its own time.
 * A clock behind the floor: the slot goes on from the second that ends past
 * it, perhaps after a wait (uid_horizon_floor_wait).  The rare cases are out
 * of line, so that this inlines lean into its caller.
 */
static pg_attribute_always_inline void
objectid_generate(UidObjectid *out)
{
	pg_atomic_uint64 *state = &uid_objectid->slot.state;
	const uint64 counter_mask = UID_OBJECTID_COUNTER_MAX;
	int64		waited_from = 0;
	int64		floor_waited_from = 0;

	for (;;)
	{
		int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
		uint64		old = pg_atomic_read_u64(state);
		uint64		now_s,
					floor_s,
					t,
					counter;

		if (unlikely(now_us < 0 || (now_s = (uint64) now_us / USECS_PER_SEC) > UID_OBJECTID_TIME_MAX))
			objectid_clock_out_of_range(now_us);
		/* never below what this server may have issued before it started: the second that ends past the floor */
		floor_s = uid_horizon_floor((uint64) now_us / 1000) / 1000;
		now_s = Max(now_s, floor_s);
		/* a floor past 2106 (a clock that was there once) leaves no second to issue */
		if (unlikely(now_s > UID_OBJECTID_TIME_MAX))
			objectid_no_ids_left();

		do
		{
			int64		lead_us = 0;

			t = old >> OBJECTID_COUNTER_BITS;
			counter = old & counter_mask;
			if (now_s > t)
			{
				/* a new second from the clock (or the floor, near enough the clock): the counter runs on */
				if (unlikely(floor_s == now_s) &&
					uid_horizon_floor_wait((now_s + 1) * 1000, USECS_PER_SEC, now_us, &floor_waited_from))
					break;
				t = now_s;
				counter = (counter + 1) & counter_mask;
				(void) uid_clock_high_water(now_us);
			}
			else if (likely(counter < counter_mask))
				counter++;
			else
			{
				/* the counter would wrap within the second: borrow the next */
				t++;
				counter = 0;
				if (!objectid_borrow(t, now_us, &lead_us, &waited_from))
					break;
			}
			if (pg_atomic_compare_exchange_u64(state, &old, t << OBJECTID_COUNTER_BITS | counter))
			{
				if (unlikely(lead_us > 0 || waited_from != 0))
				{
					objectid_count(lead_us, waited_from);
					waited_from = 0;
				}
				/* the end of second t (a horizon carried meanwhile: made again, above it) */
				if (uid_horizon_cover((t + 1) * 1000, 1000))
					break;
				objectid_pack(out, t, 0, (uint32) counter);
				memcpy(out->b + 4, uid_objectid->random, sizeof(uid_objectid->random));
				return;
			}
		} while (true);
	}
}

/* The Unix time (us) of the second of the last objectid issued; 0 if none. */
static int64
objectid_last_us(void)
{
	uint64		t = pg_atomic_read_u64(&uid_objectid->slot.state) >> OBJECTID_COUNTER_BITS;

	return (int64) t * USECS_PER_SEC;
}

/* The IDs of a second: the counter's values */
static uint64
objectid_per_unit(void)
{
	return UINT64CONST(1) << OBJECTID_COUNTER_BITS;
}

/* What the engine and the views know of objectid (family.h; module.c registers it) */
const UidFamily uid_objectid_family = {
	.stat = UID_STAT_OBJECTID,
	.name = "objectid",
	.typname = "objectid",
	.node_bearing = false,
	.last_us = objectid_last_us,
	.per_unit = objectid_per_unit,
	.unit_us = USECS_PER_SEC,
};

PG_FUNCTION_INFO_V1(objectid_floor);
/* objectid_floor(time): the smallest objectid whose time is at or after time */
Datum
objectid_floor(PG_FUNCTION_ARGS)
{
	UidObjectid *id = palloc(sizeof(UidObjectid));

	uid_byteid_floor(id->b, UID_OBJECTID_BYTES, 4, "objectid", PG_GETARG_TIMESTAMPTZ(0),
					 0, USECS_PER_SEC, UID_OBJECTID_TIME_MAX);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(next_objectid);
/* next_objectid(): the next objectid of this server start */
Datum
next_objectid(PG_FUNCTION_ARGS)
{
	UidObjectid *id;

	uid_require_generator("objectid");
	id = palloc(sizeof(UidObjectid));
	objectid_generate(id);
	uid_stat_issued_family(UID_STAT_OBJECTID);
	PG_RETURN_POINTER(id);
}
