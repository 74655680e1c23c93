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

/* Slot numbers: one per logical shard of shardid. */
#define UID_SLOT_SHARDID 0
#define UID_NSLOTS (UID_SLOT_SHARDID + UID_NSHARDS)

/* One generator's state on its own cache line, so shards do not contend. */
typedef union UidSlot
{
	pg_atomic_uint64 state;		/* last issued (time << seq_bits | seq) */
	char		pad[64];
} UidSlot;

typedef struct UidShared
{
	UidSlot		clock_offset;	/* highest (wall clock - monotonic clock) seen, us */
	UidSlot		slots[UID_NSLOTS];
} UidShared;

static UidShared *uid_shared = NULL;

/* shmem_request_hook work: reserve the shared state. */
void
uid_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidShared));
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
	}
	LWLockRelease(AddinShmemInitLock);
}

/* Errors out unless this server can generate IDs of the named type now. */
static void
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
static int64
uid_clock_high_water(int64 now_us)
{
	struct timespec ts;
	int64		mono_us;
	uint64		offset;
	uint64		seen;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	mono_us = (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	offset = (uint64) (now_us - mono_us);
	seen = pg_atomic_read_u64(&uid_shared->clock_offset.state);
	while (offset > seen)
	{
		if (pg_atomic_compare_exchange_u64(&uid_shared->clock_offset.state, &seen, offset))
			return now_us;
	}
	return mono_us + (int64) seen;
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
					pg_usleep(Min(lead_us - (int64) uid_max_clock_lead_ms * 1000, 10000));
					CHECK_FOR_INTERRUPTS();
					break;
				}
			}
			if (pg_atomic_compare_exchange_u64(state, &old, t << seqf->bits | seq))
				return t << layout->time_shift | seq << seqf->shift | fixed_bits;
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
