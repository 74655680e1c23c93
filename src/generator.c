/*
 * generator.c - the ID generators: per-identity state in shared memory, one
 * 64-bit atomic word per slot packing (time, sequence), advanced by a
 * compare-and-swap loop without locks.
 */
#include "uniqueid.h"

#include <time.h>

#include "access/xlog.h"
#include "common/pg_prng.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"

/* Slot numbers: one per logical shard of shardid, then uuid7's (uniqueid.h), then one per other family. */
#define UID_SLOT_SHARDID 0
StaticAssertDecl(UID_SLOT_UUID7 == UID_SLOT_SHARDID + UID_NSHARDS, "uuid7's slot follows the shards'");
#define UID_SLOT_SNOWFLAKE (UID_SLOT_UUID7 + 1)
#define UID_SLOT_SONYFLAKE (UID_SLOT_SNOWFLAKE + 1)
#define UID_SLOT_SHORTID (UID_SLOT_SONYFLAKE + 1)
#define UID_SLOT_SPREADID (UID_SLOT_SHORTID + 1)
#define UID_NSLOTS (UID_SLOT_SPREADID + 1)

/*
 * One generator's state on its own cache line, so shards do not contend.
 * adopt_ms, when not 0, is the time of the last ID a shard had on the server
 * it was moved from (shard_adopt): until this server's clock reaches it,
 * carried forward by the monotonic clock from adopt_mono_us, it stands in for
 * the clock.
 */
typedef struct UidSlot
{
	pg_atomic_uint64 state;		/* last issued (time << seq_bits | seq) */
	pg_atomic_uint64 adopt_ms;
	pg_atomic_uint64 adopt_mono_us;
	char		pad[64 - 3 * sizeof(pg_atomic_uint64)];
} UidSlot;

/*
 * sno's slot packs time 39 . lead 8 . tick 1 . seq 16, where lead is how many
 * units the slot's time is ahead of the highest wall-clock unit that has
 * reached it (time - lead is that reading: below it, the clock went back).
 * safe_time is the highest time issued with the other tick, changed only
 * when the tick flips, under the spinlock.
 */
#define SNO_LEAD_SHIFT 17
#define SNO_LEAD_MAX 255
#define SNO_TICK_SHIFT 16
#define SNO_TIME_SHIFT 25

typedef struct UidShared
{
	UidSlot		clock_offset;	/* highest (wall clock - monotonic clock) seen, us, an int64 */
	UidSlot		slots[UID_NSLOTS];
	UidSlot		sno;			/* sno's (time, lead, tick, seq) */
	uint64		sno_safe_time;	/* protected by sno_flip_lock */
	slock_t		sno_flip_lock;
} UidShared;

static UidShared *uid_shared = NULL;

/* shmem_request_hook work: reserve the shared state. */
void
uid_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidShared));
	uid_horizon_shmem_request();
	uid_objectid_shmem_request();
}

/* shmem_startup_hook work: attach to (and on first use, zero) the shared state. */
void
uid_shmem_startup(void)
{
	bool		found;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	uid_shared = ShmemInitStruct("uniqueid", sizeof(UidShared), &found);
	if (!found)
	{
		pg_atomic_init_u64(&uid_shared->clock_offset.state, 0);
		for (int i = 0; i < UID_NSLOTS; i++)
		{
			pg_atomic_init_u64(&uid_shared->slots[i].state, 0);
			pg_atomic_init_u64(&uid_shared->slots[i].adopt_ms, 0);
			pg_atomic_init_u64(&uid_shared->slots[i].adopt_mono_us, 0);
		}
		pg_atomic_init_u64(&uid_shared->sno.state, 0);
		pg_atomic_init_u64(&uid_shared->sno.adopt_ms, 0);
		pg_atomic_init_u64(&uid_shared->sno.adopt_mono_us, 0);
		uid_shared->sno_safe_time = 0;
		SpinLockInit(&uid_shared->sno_flip_lock);
	}
	uid_horizon_shmem_startup();
	uid_objectid_shmem_startup();
	LWLockRelease(AddinShmemInitLock);
}

/* Errors out unless this server can generate IDs of the named type now. */
void
uid_require_generator(const char *typname)
{
	if (uid_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uniqueid must be loaded via shared_preload_libraries to generate %s values",
						typname),
				 errhint("Add uniqueid to shared_preload_libraries in postgresql.conf and restart the server.")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot generate %s values during recovery", typname),
				 errhint("Generate IDs on the primary server.")));
}

/* The monotonic clock, in microseconds. */
int64
uid_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * The highest wall-clock reading seen so far, carried forward by the
 * monotonic clock since it was read: with now_us the current wall-clock
 * reading, returns max over all readings of (reading + time elapsed since).
 * A clock set back therefore leaves this estimate of the present where it
 * was, still advancing in real time.
 */
int64
uid_clock_high_water(int64 now_us)
{
	int64		mono_us = uid_mono_us();
	int64		offset = now_us - mono_us;
	uint64		seen;

	seen = pg_atomic_read_u64(&uid_shared->clock_offset.state);
	while (offset > (int64) seen)
	{
		if (pg_atomic_compare_exchange_u64(&uid_shared->clock_offset.state, &seen, (uint64) offset))
			return now_us;
	}
	/*
	 * The two clocks are read one after the other, so the offset jitters by
	 * microseconds: below a millisecond, the difference is that, not a clock
	 * set back, and the reading itself is the better estimate.
	 */
	return mono_us + (int64) seen - now_us < 1000 ? now_us : mono_us + (int64) seen;
}

/* Sleeps up to 10 ms of the given wait, then serves interrupts. */
void
uid_wait(int64 wait_us)
{
	pg_usleep(Min(Max(wait_us, 100), 10000));
	CHECK_FOR_INTERRUPTS();
}

/*
 * An adopted slot's stand-in for the clock: the adopted time carried
 * forward by the monotonic clock; 0, and the adoption forgotten, once the
 * wall clock (now_us) has caught up with it.
 */
static int64
uid_adopted_now(UidSlot *slot, int64 now_us)
{
	uint64		adopt_ms = pg_atomic_read_u64(&slot->adopt_ms);
	int64		at_us;

	pg_read_barrier();
	at_us = (int64) adopt_ms * 1000 + uid_mono_us() - (int64) pg_atomic_read_u64(&slot->adopt_mono_us);
	if (adopt_ms != 0 && now_us < at_us)
		return at_us;
	if (adopt_ms != 0)
		pg_atomic_compare_exchange_u64(&slot->adopt_ms, &adopt_ms, 0);
	return 0;
}

/* Errors out: a generator's time would pass the last of its layout, `last`. */
static void
uid_no_ids_left(const char *typname, TimestampTz last)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("type %s has no IDs left after %s", typname, timestamptz_to_str(last))));
}

/* The first time unit of a layout that starts at or after Unix time ms. */
static inline uint64
uid_units_from_ms(int64 epoch_us, int64 unit_us, uint64 ms)
{
	int64		us = (int64) ms * 1000;

	return us <= epoch_us ? 0 : (uint64) (us - epoch_us + unit_us - 1) / unit_us;
}

/* The end (Unix ms, exclusive, rounded up) of time unit t of a layout. */
static inline uint64
uid_unit_end_ms(int64 epoch_us, int64 unit_us, uint64 t)
{
	return (uint64) (epoch_us + (int64) (t + 1) * unit_us + 999) / 1000;
}

/*
 * x / unit_us, with the common units as constants, which the compiler turns
 * into a multiplication: a 64-bit division is the dearest instruction of a
 * call.
 */
static inline uint64
uid_div_unit(uint64 x, int64 unit_us)
{
	if (likely(unit_us == 1000))
		return x / 1000;
	if (unit_us == 10000)
		return x / 10000;
	return x / (uint64) unit_us;
}

/*
 * Feeds a clock reading to uid_clock_high_water, at most once a millisecond
 * per backend: the offset it tracks moves only when the clock is set, and
 * leaving out a step forward of under a millisecond is within the jitter
 * it ignores anyway.  Spares a monotonic-clock reading on most new units.
 */
static inline void
uid_clock_note(int64 now_us)
{
	static int64 noted_us = 0;

	if (now_us - noted_us >= 1000 || now_us < noted_us)
	{
		noted_us = now_us;
		(void) uid_clock_high_water(now_us);
	}
}

/*
 * Issues the next ID of the layout from slot `slot`, with fixed_bits (shard,
 * node, ...) or'ed in.  Strictly increasing per slot: a new time unit
 * restarts the sequence; a used-up sequence borrows the next unit while the
 * lead over the highest clock reading seen (uid_clock_high_water) stays
 * within uniqueid.max_clock_lead, else waits for the clock.  A clock behind the
 * slot changes nothing: the slot counts on from its own time.
 */
uint64
uid_generate(const UidLayout *layout, uint32 slot, uint64 fixed_bits)
{
	pg_atomic_uint64 *state = &uid_shared->slots[slot].state;
	const UidField *seqf = &layout->fields[layout->seq_field];
	const uint64 seq_max = UID_FIELD_MAX(seqf->bits);
	const uint64 time_max = UID_FIELD_MAX(layout->time_bits);

	for (;;)
	{
		int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
		uint64		old = pg_atomic_read_u64(state);
		uint64		now_units,
					t,
					seq;
		int64		adopted_us = 0;
		uint64		floor_ms;

		if (now_us < layout->epoch_us ||
			(now_units = uid_div_unit((uint64) (now_us - layout->epoch_us), layout->unit_us)) > time_max)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
					 errmsg("the clock is outside the time range of type %s", layout->typname),
					 errdetail("The server's clock reads %s.",
							   timestamptz_to_str(now_us - UID_PG_EPOCH_UNIX_US))));
		/* never below what this server may have issued before it started */
		floor_ms = uid_horizon_floor((uint64) now_us / 1000);
		if (unlikely(now_us < (int64) floor_ms * 1000 + layout->unit_us))
			now_units = Max(now_units, uid_units_from_ms(layout->epoch_us, layout->unit_us, floor_ms));
		/* nor, for an adopted shard, below where the other server left it */
		if (unlikely(pg_atomic_read_u64(&uid_shared->slots[slot].adopt_ms) != 0))
		{
			adopted_us = uid_adopted_now(&uid_shared->slots[slot], now_us);
			now_units = Max(now_units, uid_units_from_ms(layout->epoch_us, layout->unit_us,
														 (uint64) adopted_us / 1000));
		}
		if (now_units > time_max)
			uid_no_ids_left(layout->typname, uid_units_to_timestamptz(layout, time_max));

		do
		{
			t = old >> seqf->bits;
			seq = old & seq_max;
			if (now_units > t)
			{
				/* a new unit from the clock: remember the reading */
				t = now_units;
				seq = 0;
				uid_clock_note(now_us);
			}
			else if (seq < seq_max)
				seq++;
			else
			{
				int64		lead_us;

				t++;
				seq = 0;
				if (t > time_max)
					uid_no_ids_left(layout->typname, uid_units_to_timestamptz(layout, time_max));
				lead_us = layout->epoch_us + (int64) t * layout->unit_us
					- Max(uid_clock_high_water(now_us), adopted_us);
				if (lead_us > (int64) uid_max_clock_lead_ms * 1000)
				{
					/* over capacity: wait for the clock, interruptibly */
					uid_wait(lead_us - (int64) uid_max_clock_lead_ms * 1000);
					break;
				}
			}
			if (pg_atomic_compare_exchange_u64(state, &old, t << seqf->bits | seq))
			{
				uid_horizon_cover(uid_unit_end_ms(layout->epoch_us, layout->unit_us, t));
				return t << layout->time_shift | seq << seqf->shift | fixed_bits;
			}
		} while (true);
	}
}

/* Errors out unless shard is a logical shard number, 0..8191, as make_shardid does. */
static void
uid_check_shard(int32 shard)
{
	uid_check_range("shardid", "shard", shard, UID_NSHARDS - 1);
}

PG_FUNCTION_INFO_V1(next_id);
/* next_id(shard): the next shardid of a logical shard this server owns */
Datum
next_id(PG_FUNCTION_ARGS)
{
	int32		shard = PG_GETARG_INT32(0);

	uid_require_generator("shardid");
	uid_check_shard(shard);
	if (!uid_shard_owned(shard))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shard %d is not owned by this server", shard),
				 errdetail("This server's uniqueid.shards is \"%s\".", uid_shards_setting()),
				 errhint("Generate IDs for shard %d on the server that owns it, or add it to uniqueid.shards.",
						 shard)));
	return UInt64GetDatum(uid_generate(&uid_shardid_layout, UID_SLOT_SHARDID + shard,
									   (uint64) shard << uid_shardid_layout.fields[0].shift));
}

/*
 * The tick-tock flip of sno: the clock went back below the highest reading
 * the slot has seen.  If the clock is past every time issued with the other
 * tick, switch to it and continue at the clock's time; returns false (and
 * sets *wait_units) when it is not, i.e. the clock went back a second time
 * into a period the other tick already covers.
 */
static bool
uid_sno_flip(uint64 old, uint64 now, uint32 seq_min, uint64 *issued, uint64 *wait_units)
{
	uint64		t = old >> SNO_TIME_SHIFT;
	uint64		tick = (old >> SNO_TICK_SHIFT) & 1;
	bool		flipped = false;

	SpinLockAcquire(&uid_shared->sno_flip_lock);
	if (pg_atomic_read_u64(&uid_shared->sno.state) != old)
		*wait_units = 0;		/* another backend moved the state: the caller looks again */
	else if (now > uid_shared->sno_safe_time)
	{
		uint64		new = now << SNO_TIME_SHIFT | (tick ^ 1) << SNO_TICK_SHIFT | seq_min;

		if (pg_atomic_compare_exchange_u64(&uid_shared->sno.state, &old, new))
		{
			uid_shared->sno_safe_time = t;
			*issued = new;
			flipped = true;
		}
		*wait_units = 0;
	}
	else
		*wait_units = uid_shared->sno_safe_time - now + 1;
	SpinLockRelease(&uid_shared->sno_flip_lock);
	return flipped;
}

/*
 * Issues the next sno for (meta, uniqueid.node): lock-free like
 * uid_generate, with sequences from uniqueid.sno_sequence_min to _max, and
 * sno's tick-tock rule when the clock goes back.
 */
void
uid_generate_sno(UidSno *out, int meta)
{
	pg_atomic_uint64 *state = &uid_shared->sno.state;
	const uint32 seq_min = (uint32) uid_sno_sequence_min;
	const uint32 seq_max = (uint32) uid_sno_sequence_max;
	uint64		issued;

	for (;;)
	{
		/* the state first: a clock read after it is not behind it but for a real regression */
		uint64		old = pg_atomic_read_u64(state);
		int64		now_us;
		uint64		floor_ms;
		uint64		now,
					t,
					lead,
					tick,
					seq;
		int64		wait_us = 0;

		pg_read_barrier();
		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;

		if (now_us < UID_SNO_EPOCH_US ||
			(now = (uint64) (now_us - UID_SNO_EPOCH_US) / UID_SNO_UNIT_US) > UID_SNO_TIME_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
					 errmsg("the clock is outside the time range of type sno"),
					 errdetail("The server's clock reads %s.",
							   timestamptz_to_str(now_us - UID_PG_EPOCH_UNIX_US))));
		/* never below what this server may have issued before it started */
		floor_ms = uid_horizon_floor((uint64) now_us / 1000);
		if (unlikely(now_us < (int64) floor_ms * 1000 + UID_SNO_UNIT_US))
		{
			now = Max(now, uid_units_from_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, floor_ms));
			if (now > UID_SNO_TIME_MAX)
				uid_no_ids_left("sno", UID_SNO_EPOCH_US + (int64) UID_SNO_TIME_MAX * UID_SNO_UNIT_US - UID_PG_EPOCH_UNIX_US);
		}

		t = old >> SNO_TIME_SHIFT;
		lead = (old >> SNO_LEAD_SHIFT) & SNO_LEAD_MAX;
		tick = (old >> SNO_TICK_SHIFT) & 1;
		seq = old & 0xffff;
		if (now > t)
		{
			/* a new unit from the clock */
			t = now;
			lead = 0;
			seq = seq_min;
			(void) uid_clock_high_water(now_us);
		}
		else if (now + lead + 1 < t)
		{
			/*
			 * The clock went back below the highest reading seen (by more than
			 * the one unit that rounding the floor up can account for): flip.
			 */
			uint64		wait_units;

			if (uid_sno_flip(old, now, seq_min, &issued, &wait_units))
				break;
			if (wait_units == 0)
				continue;		/* the state moved meanwhile: look again */
			wait_us = (int64) wait_units * UID_SNO_UNIT_US;
		}
		else
		{
			/* the clock is in the slot's (possibly borrowed) present */
			lead = t > now ? Min(t - now, SNO_LEAD_MAX) : 0;
			if (seq < seq_min)
				seq = seq_min;
			else if (seq < seq_max)
				seq++;
			else
			{
				int64		lead_us;

				t++;
				lead++;
				seq = seq_min;
				lead_us = UID_SNO_EPOCH_US + (int64) t * UID_SNO_UNIT_US - uid_clock_high_water(now_us);
				if (t > UID_SNO_TIME_MAX)
					uid_no_ids_left("sno", UID_SNO_EPOCH_US + (int64) UID_SNO_TIME_MAX * UID_SNO_UNIT_US - UID_PG_EPOCH_UNIX_US);
				if (lead > SNO_LEAD_MAX || lead_us > (int64) uid_max_clock_lead_ms * 1000)
					wait_us = Max(lead_us - (int64) uid_max_clock_lead_ms * 1000, UID_SNO_UNIT_US);
			}
		}
		if (wait_us > 0)
		{
			uid_wait(wait_us);
			continue;
		}
		issued = t << SNO_TIME_SHIFT | lead << SNO_LEAD_SHIFT | tick << SNO_TICK_SHIFT | seq;
		if (pg_atomic_compare_exchange_u64(state, &old, issued))
			break;
	}
	uid_horizon_cover(uid_unit_end_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, issued >> SNO_TIME_SHIFT));
	uid_sno_pack(out, issued >> SNO_TIME_SHIFT, (int) ((issued >> SNO_TICK_SHIFT) & 1),
				 meta, uid_node, (int) (issued & 0xffff));
}

PG_FUNCTION_INFO_V1(next_sno);
/* next_sno(meta): the next sno of this server's partition (uniqueid.node) */
Datum
next_sno(PG_FUNCTION_ARGS)
{
	int32		meta = PG_GETARG_INT32(0);
	UidSno	   *id;

	uid_require_generator("sno");
	uid_check_range("sno", "meta", meta, 255);
	if (uid_sno_sequence_max - uid_sno_sequence_min + 1 < 4)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uniqueid.sno_sequence_min (%d) and uniqueid.sno_sequence_max (%d) leave a sequence pool of fewer than 4 values",
						uid_sno_sequence_min, uid_sno_sequence_max),
				 errhint("Set uniqueid.sno_sequence_max to at least uniqueid.sno_sequence_min + 3.")));
	id = palloc(sizeof(UidSno));
	uid_generate_sno(id, meta);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(shard_adopt);
/*
 * shard_adopt(shard, last): take over a logical shard moved from another
 * server, whose last ID there was `last`.  The shard's slot and the durable
 * horizon move up to `last`, so the next IDs of the shard here are greater,
 * even with this server's clock behind the other's and across restarts.
 */
Datum
shard_adopt(PG_FUNCTION_ARGS)
{
	int32		shard = PG_GETARG_INT32(0);
	uint64		last = DatumGetUInt64(PG_GETARG_DATUM(1));
	const UidLayout *layout = &uid_shardid_layout;
	const UidField *seqf = &layout->fields[layout->seq_field];
	UidSlot    *slot;
	uint64		want = uid_get_time(layout, last) << seqf->bits | uid_get_field(layout, last, layout->seq_field);
	uint64		old;
	int64		last_us;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function shard_adopt"),
				 errdetail("Only superusers may adopt a logical shard.")));
	uid_require_generator("shardid");
	uid_check_shard(shard);
	if ((int) uid_get_field(layout, last, 0) != shard)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardid " UINT64_FORMAT " belongs to shard %d, not %d",
						last, (int) uid_get_field(layout, last, 0), shard),
				 errhint("Pass the greatest ID the shard was given on the server it comes from.")));

	slot = &uid_shared->slots[UID_SLOT_SHARDID + shard];
	last_us = layout->epoch_us + (int64) uid_get_time(layout, last) * layout->unit_us;
	/* the horizon can only move forward: refuse a last ID implausibly far ahead */
	if (last_us > GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US + USECS_PER_HOUR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardid " UINT64_FORMAT " is more than an hour ahead of this server's clock", last),
				 errdetail("Its time is %s.", timestamptz_to_str(last_us - UID_PG_EPOCH_UNIX_US)),
				 errhint("Check the clocks of both servers and that the ID is the shard's last.")));
	/* durable first: after a restart the floor is above last */
	uid_horizon_cover(uid_unit_end_ms(layout->epoch_us, layout->unit_us, uid_get_time(layout, last)));
	/* a clock behind the other server's then stands in at last's time */
	pg_atomic_write_u64(&slot->adopt_mono_us, (uint64) uid_mono_us());
	pg_write_barrier();
	pg_atomic_write_u64(&slot->adopt_ms, (uint64) last_us / 1000);
	old = pg_atomic_read_u64(&slot->state);
	while (old < want && !pg_atomic_compare_exchange_u64(&slot->state, &old, want))
		;
	PG_RETURN_VOID();
}

/* Errors out unless uniqueid.node fits a layout's node field of `bits` bits. */
static int
uid_node_for(const char *typname, const char *field, int bits)
{
	if (uid_node >= (1 << bits))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uniqueid.node %d does not fit the %d-bit %s of type %s", uid_node, bits, field, typname),
				 errhint("Set uniqueid.node to 0..%d on servers that generate %s values.", (1 << bits) - 1, typname)));
	return uid_node;
}

PG_FUNCTION_INFO_V1(next_snowflake);
/* next_snowflake(): node is uniqueid.node (below 1024) */
Datum
next_snowflake(PG_FUNCTION_ARGS)
{
	int			node;

	uid_require_generator("snowflake");
	node = uid_node_for("snowflake", "node", 10);
	return UInt64GetDatum(uid_generate(&uid_snowflake_layout, UID_SLOT_SNOWFLAKE, (uint64) node << 12));
}

PG_FUNCTION_INFO_V1(next_sonyflake);
/* next_sonyflake(): machine id is uniqueid.node */
Datum
next_sonyflake(PG_FUNCTION_ARGS)
{
	uid_require_generator("sonyflake");
	return UInt64GetDatum(uid_generate(&uid_sonyflake_layout, UID_SLOT_SONYFLAKE, (uint64) uid_node));
}

PG_FUNCTION_INFO_V1(next_shortid);
/* next_shortid(): 9 random bits per ID from a per-backend generator seeded from a strong source */
Datum
next_shortid(PG_FUNCTION_ARGS)
{
	static pg_prng_state prng;
	static bool seeded = false;

	uid_require_generator("shortid");
	if (!seeded)
	{
		if (!pg_prng_strong_seed(&prng))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not seed the random number generator for shortid")));
		seeded = true;
	}
	return UInt64GetDatum(uid_generate(&uid_shortid_layout, UID_SLOT_SHORTID,
									   pg_prng_uint32(&prng) & 511));
}

PG_FUNCTION_INFO_V1(next_spreadid);
/* next_spreadid(mode): generator id is uniqueid.node (below 2048), cluster uniqueid.cluster */
Datum
next_spreadid(PG_FUNCTION_ARGS)
{
	bool		spread = uid_spreadid_mode_is_spread(PG_GETARG_TEXT_PP(0));
	int			generator;
	uint64		v;

	uid_require_generator("spreadid");
	generator = uid_node_for("spreadid", "generator id", 11);
	v = uid_generate(&uid_spreadid_layout, UID_SLOT_SPREADID,
					 uid_spreadid_fixed_bits(generator, uid_cluster, false));
	return UInt64GetDatum(spread ? uid_spreadid_spread(v) : v);
}
