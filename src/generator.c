/*
 * generator.c - the generic engine of the 64-bit generators: one state per
 * identity (a logical shard of shardid, or a family) in shared memory, a
 * 64-bit atomic word packing (time, sequence) on a cache line of its own,
 * advanced by a compare-and-swap loop without locks.  The families' next_*
 * functions (id64.c, shardid.c, spreadid.c, uuid7.c) call uid_generate.
 */
#include "generator.h"

#include "access/xlog.h"
#include "clock.h"
#include "dbhorizon.h"
#include "horizon.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"

/* The state of a released slot: above every real state, so nothing is issued from it. */
#define UID_SLOT_RELEASED PG_UINT64_MAX

UidSlot    *uid_slots = NULL;
bool		uid_generator_ready = false;
pg_prng_state uid_prng;
bool		uid_prng_seeded = false;

static void uid_generator_shard_floor(uint32 shard, uint64 floor_ms);

/* shmem_request_hook work: the slots. */
void
uid_generator_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidSlot) * UID_NSLOTS);
}

/* shmem_startup_hook work (AddinShmemInitLock held): attach, zero on first use. */
void
uid_generator_shmem_startup(void)
{
	bool		found;

	uid_slots = ShmemInitStruct("uniqueid generators", sizeof(UidSlot) * UID_NSLOTS, &found);
	if (!found)
	{
		for (int i = 0; i < UID_NSLOTS; i++)
		{
			pg_atomic_init_u64(&uid_slots[i].state, 0);
			pg_atomic_init_u64(&uid_slots[i].adopt_ms, 0);
			pg_atomic_init_u64(&uid_slots[i].adopt_mono_us, 0);
			pg_atomic_init_u64(&uid_slots[i].released, 0);
		}
	}
}

/*
 * From _PG_init: once the horizon fixes the floor, the generators restore
 * the adoption of each shard whose own horizon is above it (the horizon's
 * hook, so that it calls nothing of theirs).
 */
void
uid_generator_init(void)
{
	uid_horizon_shard_floor_hook = uid_generator_shard_floor;
}

/*
 * uid_require_generator's work until this backend has found that it can
 * generate: errors out unless this server can generate IDs of the named
 * type now.  A backend that has seen recovery end never sees it again.
 */
void
uid_require_generator_slow(const char *typname)
{
	if (uid_slots == NULL)
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
	/* the horizons carried here with the databases come first, then the floor */
	uid_db_horizon_gate();
	uid_db_horizon_check();
	(void) uid_horizon_floor_fix();
	uid_stats_backend_init();
	uid_generator_ready = true;
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

/* Seeds uid_random64's generator from a strong source. */
void
uid_prng_seed(void)
{
	if (!pg_prng_strong_seed(&uid_prng))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate a random seed for uniqueid's generators")));
	uid_prng_seeded = true;
}

/* Errors out: a generator's time would pass the last of its layout, `last`; counted for statistics slot `stat`. */
void
uid_no_ids_left(uint32 stat, const char *typname, TimestampTz last)
{
	uid_stat_refused(stat, UID_REFUSED_NO_IDS_LEFT);
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("type %s has no IDs left after %s", typname, timestamptz_to_str(last))));
}

/*
 * Makes an ID of slot `slot` whose time unit ends at end_ms durable: within
 * the server's horizon (fast path: it is), or, while the slot is an adopted
 * shard, within the shard's own, so that an adoption ahead of this server's
 * clock does not move every other generator's floor with it.  The adoption
 * is read after the ID was taken.  uid_generator_adopt raises the slot's
 * state before it sets adopt_ms, both under the horizon's lock: an ID of a
 * shard further ahead of the clock than borrowing and the lease reach may be
 * one taken in between, so it waits for the lock, and the adoption, first.
 * True when the ID must be made again (uid_horizon_cover).  unit_ms: the
 * ID's time unit.
 */
bool
uid_slot_cover(uint32 slot, uint64 end_ms, uint32 unit_ms)
{
	if (uid_horizon_covers(end_ms))
		return false;
	if (slot < UID_SLOT_SHARDID + UID_NSHARDS)
	{
		UidSlot    *s = &uid_slots[slot];

		if (pg_atomic_read_u64(&s->adopt_ms) == 0 &&
			(int64) end_ms * 1000 > GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US +
			((int64) uid_max_clock_lead_ms + 2 * UID_HORIZON_LEASE_MS) * 1000)
		{
			LWLockAcquire(uid_horizon->lock, LW_SHARED);
			LWLockRelease(uid_horizon->lock);
		}
		if (pg_atomic_read_u64(&s->adopt_ms) != 0)
		{
			uid_horizon_cover_shard(slot - UID_SLOT_SHARDID, end_ms, unit_ms);
			return uid_horizon_take_carried();
		}
	}
	return uid_horizon_cover(end_ms, unit_ms);
}

/*
 * Issues the next ID of the layout from slot `slot`, with fixed_bits (shard,
 * node, ...) or'ed in: every case of uid_generate, which calls this when its
 * fast path does not apply.  Strictly increasing per slot: a new time unit
 * restarts the sequence; a used-up sequence borrows the next unit while the
 * lead over the highest clock reading seen (uid_clock_high_water) stays
 * within uniqueid.max_clock_lead, else waits for the clock.  A clock behind the
 * slot changes nothing: the slot counts on from its own time.  A clock
 * behind the floor: the slot goes on from the floor, its first unit there
 * perhaps after a wait (uid_horizon_floor_wait).
 */
uint64
uid_generate_slow(const UidLayout *layout, uint32 slot, uint64 fixed_bits)
{
	pg_atomic_uint64 *state = &uid_slots[slot].state;
	const UidField *seqf = &layout->fields[layout->seq_field];
	const uint64 seq_max = UID_FIELD_MAX(seqf->bits);
	const uint64 time_max = UID_FIELD_MAX(layout->time_bits);
	int64		waited_from = 0;	/* the monotonic clock when the call first waited */
	int64		floor_waited_from = 0;	/* ... for a unit at the floor */

	for (;;)
	{
		int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
		uint64		old = pg_atomic_read_u64(state);
		uint64		now_units,
					t,
					seq;
		int64		adopted_us = 0;
		uint64		floor_ms;
		bool		floored = false;	/* the floor stands in for the clock */

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
		{
			uint64		floor_units = uid_units_past_ms(layout->epoch_us, layout->unit_us, floor_ms);

			floored = floor_units > now_units;
			now_units = Max(now_units, floor_units);
		}
		/* nor, for an adopted shard, below where the other server left it */
		if (unlikely(pg_atomic_read_u64(&uid_slots[slot].adopt_ms) != 0))
		{
			uint64		adopted_units;

			adopted_us = uid_adopted_now(&uid_slots[slot], now_us);
			adopted_units = uid_units_from_ms(layout->epoch_us, layout->unit_us, (uint64) adopted_us / 1000);
			if (adopted_units >= now_units)
				floored = false;
			now_units = Max(now_units, adopted_units);
		}
		if (now_units > time_max)
			uid_no_ids_left(slot, layout->typname, uid_units_to_timestamptz(layout, time_max));

		uid_clock_note(now_us);
		do
		{
			int64		lead_us = 0;	/* a unit borrowed ahead of the clock: how far */

			t = old >> seqf->bits;
			seq = old & seq_max;
			if (now_units > t)
			{
				/* a new unit from the clock (or the floor, near enough the clock) */
				if (unlikely(floored) &&
					uid_horizon_floor_wait(uid_unit_end_ms(layout->epoch_us, layout->unit_us, now_units),
										   layout->unit_us, now_us, &floor_waited_from))
					break;
				t = now_units;
				seq = 0;
			}
			else if (seq < seq_max)
				seq++;
			else
			{
				t++;
				seq = 0;
				if (t > time_max)
				{
					/* (ulid's and ksuid's last state is all ones too: only a shard is released) */
					if (old == UID_SLOT_RELEASED && slot < UID_SLOT_SHARDID + UID_NSHARDS)
					{
						uid_stat_refused(slot, UID_REFUSED_RELEASED);
						ereport(ERROR,
								(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
								 errmsg("shard %u was handed over to another server", slot - UID_SLOT_SHARDID),
								 errdetail("shard_release() ended its generation here."),
								 errhint("Generate its IDs on the server that adopted it.")));
					}
					uid_no_ids_left(slot, layout->typname, uid_units_to_timestamptz(layout, time_max));
				}
				lead_us = layout->epoch_us + (int64) t * layout->unit_us
					- Max(uid_clock_high_water(now_us), adopted_us);
				if (lead_us > (int64) uid_max_clock_lead_ms * 1000)
				{
					/* over capacity: wait for the clock, interruptibly */
					if (waited_from == 0)
						waited_from = uid_mono_us();
					uid_wait(lead_us - (int64) uid_max_clock_lead_ms * 1000);
					break;
				}
			}
			if (pg_atomic_compare_exchange_u64(state, &old, t << seqf->bits | seq))
			{
				if (lead_us > 0)
					uid_stat_borrow(slot, layout->unit_us, lead_us);
				if (waited_from != 0)
				{
					uid_stat_wait(slot, uid_mono_us() - waited_from);
					waited_from = 0;
				}
				/* (a horizon carried meanwhile: made again, above it) */
				if (uid_slot_cover(slot, uid_unit_end_ms(layout->epoch_us, layout->unit_us, t),
								   (uint32) (layout->unit_us / 1000)))
					break;
				return uid_slot_id(layout, t, seq) | fixed_bits;
			}
		} while (true);
	}
}

/*
 * Makes slot `slot` stand in for the clock at adopt_ms from now on, carried
 * forward by the monotonic clock, until the wall clock catches up: its IDs
 * are then above adopt_ms.  Never moves an adoption back.  Called with the
 * horizon's lock held, so that the check and the write are one step for
 * every caller: the startup floor (uid_generator_shard_floor) and
 * uid_generator_adopt.
 */
static void
uid_slot_adopted_at(uint32 slot, uint64 adopt_ms)
{
	UidSlot    *s = &uid_slots[slot];
	int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;

	Assert(LWLockHeldByMe(uid_horizon->lock));
	if (adopt_ms != 0 && (uint64) uid_adopted_now(s, now_us) >= adopt_ms * 1000)
		return;
	pg_atomic_write_u64(&s->adopt_mono_us, (uint64) uid_mono_us());
	pg_write_barrier();
	pg_atomic_write_u64(&s->adopt_ms, adopt_ms);
}

/*
 * uid_horizon_shard_floor_hook: once the floor is fixed after a restart or
 * promotion, a shard whose own horizon is above it is adopted again at that
 * horizon, above every ID it had issued.  (The horizon's lock is held.)
 */
static void
uid_generator_shard_floor(uint32 shard, uint64 floor_ms)
{
	uid_slot_adopted_at(UID_SLOT_SHARDID + shard, floor_ms);
}

/*
 * Takes over shard slot `slot` from another server, whose last ID there was
 * `last`: the slot and its durable horizon move up to `last`, so the next
 * IDs here are greater, even with this server's clock behind the other's
 * and across restarts, crashes and promotions.  The server-wide horizon
 * stays where it is.  Raise-only: a `last` below what the slot has issued,
 * or below the shard's own floor, changes nothing.  The caller checks that
 * `last` is plausible.
 */
void
uid_generator_adopt(const UidLayout *layout, uint32 slot, uint64 last)
{
	const UidField *seqf = &layout->fields[layout->seq_field];
	UidSlot    *s = &uid_slots[slot];
	uint64		want = uid_get_time(layout, last) << seqf->bits | uid_get_field(layout, last, layout->seq_field);
	int64		last_us = layout->epoch_us + (int64) uid_get_time(layout, last) * layout->unit_us;
	uint64		old;

	Assert(slot >= UID_SLOT_SHARDID && slot < UID_SLOT_SHARDID + UID_NSHARDS);
	/* the startup floor is fixed already (uid_require_generator), with the shard's own: nothing below overwrites it */
	Assert(uid_generator_ready);
	/* durable first: after a restart the shard's floor is above last */
	uid_horizon_cover_shard(slot - UID_SLOT_SHARDID,
							uid_unit_end_ms(layout->epoch_us, layout->unit_us, uid_get_time(layout, last)),
							(uint32) (layout->unit_us / 1000));
	LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
	/*
	 * The slot's state before the adopted time: a generator that sees the
	 * adoption then finds last's unit taken up to last's sequence number.
	 */
	old = pg_atomic_read_u64(&s->state);
	/* a released slot resumes above what it had issued too (released under this lock) */
	if (old == UID_SLOT_RELEASED)
		want = Max(want, pg_atomic_read_u64(&s->released));
	while ((old < want || old == UID_SLOT_RELEASED) &&
		   !pg_atomic_compare_exchange_u64(&s->state, &old, want))
		;
	/* a clock behind the other server's then stands in at last's time */
	pg_write_barrier();
	uid_slot_adopted_at(slot, (uint64) last_us / 1000);
	LWLockRelease(uid_horizon->lock);
}

/*
 * Ends generation from slot `slot` on this server, for good until the next
 * restart or uid_generator_adopt: a call racing with it either completes
 * before it, and is counted, or fails.  Returns an ID (fixed bits not
 * included) at least as great as every ID the slot has issued: the greatest
 * it issued since the server started, if that is above the shard's floor
 * (every ID of the shard issued before lies below it); else the last one
 * below the floor (or the layout's last, for a floor past its range).  0 when the server has issued nothing at all.  Releases
 * are serialized by the horizon's lock: a second one returns what the first
 * did.
 */
uint64
uid_generator_release(const UidLayout *layout, uint32 slot)
{
	const UidField *seqf = &layout->fields[layout->seq_field];
	const uint64 seq_max = UID_FIELD_MAX(seqf->bits);
	UidSlot    *s = &uid_slots[slot];
	uint64		old,
				floor_ms,
				bound = 0;

	Assert(slot >= UID_SLOT_SHARDID && slot < UID_SLOT_SHARDID + UID_NSHARDS);
	Assert(uid_generator_ready);	/* the floor is fixed (uid_require_generator) */
	floor_ms = uid_horizon_shard_floor(slot - UID_SLOT_SHARDID);
	LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
	old = pg_atomic_exchange_u64(&s->state, UID_SLOT_RELEASED);
	if (old == UID_SLOT_RELEASED)
		old = pg_atomic_read_u64(&s->released);		/* released before */
	else
	{
		/* the last unit that ends at or before the floor, its last sequence number */
		if (floor_ms * 1000 > (uint64) layout->epoch_us)
			bound = Min(uid_div_unit(floor_ms * 1000 - 1 - layout->epoch_us, layout->unit_us),
						UID_FIELD_MAX(layout->time_bits)) << seqf->bits | seq_max;
		old = Max(old, bound);
		pg_atomic_write_u64(&s->released, old);
	}
	LWLockRelease(uid_horizon->lock);
	return old == 0 ? 0 : uid_slot_id(layout, old >> seqf->bits, old & seq_max);
}
