/*
 * generator.c - the ID generators: per-identity state in shared memory, one
 * 64-bit atomic word per slot packing (time, sequence), advanced by a
 * compare-and-swap loop without locks.
 */
#include "uniqueid.h"

#include <time.h>

#include "access/xlog.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"

/* Slot numbers: one per logical shard of shardid, then uuid7's (uniqueid.h). */
#define UID_SLOT_SHARDID 0
#define UID_NSLOTS (UID_SLOT_UUID7 + 1)
StaticAssertDecl(UID_SLOT_UUID7 == UID_SLOT_SHARDID + UID_NSHARDS, "uuid7's slot follows the shards'");

/* One generator's state on its own cache line, so shards do not contend. */
typedef union UidSlot
{
	pg_atomic_uint64 state;		/* last issued (time << seq_bits | seq) */
	char		pad[64];
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
			pg_atomic_init_u64(&uid_shared->slots[i].state, 0);
		pg_atomic_init_u64(&uid_shared->sno.state, 0);
		uid_shared->sno_safe_time = 0;
		SpinLockInit(&uid_shared->sno_flip_lock);
	}
	uid_horizon_shmem_startup();
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
	struct timespec ts;
	int64		mono_us;
	int64		offset;
	uint64		seen;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	mono_us = (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	offset = now_us - mono_us;
	seen = pg_atomic_read_u64(&uid_shared->clock_offset.state);
	while (offset > (int64) seen)
	{
		if (pg_atomic_compare_exchange_u64(&uid_shared->clock_offset.state, &seen, (uint64) offset))
			return now_us;
	}
	return mono_us + (int64) seen;
}

/* Sleeps up to 10 ms of the given wait, then serves interrupts. */
static void
uid_wait(int64 wait_us)
{
	pg_usleep(Min(Max(wait_us, 100), 10000));
	CHECK_FOR_INTERRUPTS();
}

/* The first time unit of a layout that starts at or after Unix time ms. */
static inline uint64
uid_units_from_ms(int64 epoch_us, int64 unit_us, uint64 ms)
{
	int64		us = (int64) ms * 1000;

	return us <= epoch_us ? 0 : (uint64) (us - epoch_us + unit_us - 1) / unit_us;
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

		if (now_us < layout->epoch_us ||
			(now_units = (uint64) (now_us - layout->epoch_us) / layout->unit_us) > time_max)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
					 errmsg("the clock is outside the time range of type %s", layout->typname),
					 errdetail("The server's clock reads %s.",
							   timestamptz_to_str(now_us - UID_PG_EPOCH_UNIX_US))));
		/* never below what this server may have issued before it started */
		now_units = Max(now_units, uid_units_from_ms(layout->epoch_us, layout->unit_us,
													 uid_horizon_floor((uint64) now_us / 1000)));

		do
		{
			t = old >> seqf->bits;
			seq = old & seq_max;
			if (now_units > t)
			{
				/* a new unit from the clock: remember the reading */
				t = now_units;
				seq = 0;
				(void) uid_clock_high_water(now_us);
			}
			else if (seq < seq_max)
				seq++;
			else
			{
				int64		lead_us;

				t++;
				seq = 0;
				if (t > time_max)
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
							 errmsg("type %s has no IDs left after %s", layout->typname,
									timestamptz_to_str(uid_units_to_timestamptz(layout, time_max)))));
				lead_us = layout->epoch_us + (int64) t * layout->unit_us - uid_clock_high_water(now_us);
				if (lead_us > (int64) uid_max_clock_lead_ms * 1000)
				{
					/* over capacity: wait for the clock, interruptibly */
					uid_wait(lead_us - (int64) uid_max_clock_lead_ms * 1000);
					break;
				}
			}
			if (pg_atomic_compare_exchange_u64(state, &old, t << seqf->bits | seq))
			{
				uid_horizon_cover((uint64) (layout->epoch_us + (int64) t * layout->unit_us) / 1000);
				return t << layout->time_shift | seq << seqf->shift | fixed_bits;
			}
		} while (true);
	}
}

PG_FUNCTION_INFO_V1(next_id);
/* next_id(shard): the next shardid of a logical shard this server owns */
Datum
next_id(PG_FUNCTION_ARGS)
{
	int32		shard = PG_GETARG_INT32(0);

	uid_require_generator("shardid");
	if (shard < 0 || shard >= UID_NSHARDS)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("shard %d is out of range for type shardid", shard),
				 errdetail("Valid shards are 0 to %d.", UID_NSHARDS - 1)));
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
	if (now > uid_shared->sno_safe_time)
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
		int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
		uint64		old = pg_atomic_read_u64(state);
		uint64		now,
					t,
					lead,
					tick,
					seq;
		int64		wait_us = 0;

		if (now_us < UID_SNO_EPOCH_US ||
			(now = (uint64) (now_us - UID_SNO_EPOCH_US) / UID_SNO_UNIT_US) > UID_SNO_TIME_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
					 errmsg("the clock is outside the time range of type sno"),
					 errdetail("The server's clock reads %s.",
							   timestamptz_to_str(now_us - UID_PG_EPOCH_UNIX_US))));
		now = Max(now, uid_units_from_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US,
										 uid_horizon_floor((uint64) now_us / 1000)));

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
		else if (now + lead < t)
		{
			/* the clock went back below the highest reading seen: flip */
			uint64		wait_units;

			if (uid_sno_flip(old, now, seq_min, &issued, &wait_units))
				break;
			wait_us = (int64) wait_units * UID_SNO_UNIT_US;
		}
		else
		{
			/* the clock is in the slot's (possibly borrowed) present */
			lead = t - now;
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
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
							 errmsg("type sno has no IDs left after 2079-09-07 15:47:35.548+00")));
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
	uid_horizon_cover((uint64) (UID_SNO_EPOCH_US + (int64) (issued >> SNO_TIME_SHIFT) * UID_SNO_UNIT_US) / 1000);
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
	if (meta < 0 || meta > 255)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("meta %d is out of range for type sno", meta),
				 errdetail("Valid values of meta are 0 to 255.")));
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
