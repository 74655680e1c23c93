/*
 * clock.c - the clock every generator reads: the monotonic clock, the
 * highest wall-clock reading seen by any backend, carried forward by the
 * monotonic clock (so that a clock set back leaves the estimate of the
 * present where it was), and the interruptible wait for the clock.
 */
#include "clock.h"

#include <time.h>

#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/timestamp.h"

/*
 * The highest (wall clock - monotonic clock) seen, us, on a cache line of its
 * own: of every reading and of the startup floor (offset), and of the
 * clock's readings alone (clock_offset), which tells a clock set back from a
 * floor ahead of it.
 */
typedef struct UidClockShared
{
	pg_atomic_uint64 offset;	/* an int64 */
	pg_atomic_uint64 clock_offset;	/* an int64 */
	char		pad[64 - 2 * sizeof(pg_atomic_uint64)];
	/*
	 * The clock set back, seen (uid_clock_went_back): the last one counted,
	 * as the highest offset then and the offset the clock read, and the
	 * counters of uniqueid_durability; under back_lock.
	 */
	slock_t		back_lock;
	int64		back_high;
	int64		back_low;
	uint64		back_count;
	int64		back_max_us;
	TimestampTz back_at;
} UidClockShared;

static UidClockShared *uid_clock = NULL;

/* shmem_request_hook work */
void
uid_clock_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidClockShared));
}

/* shmem_startup_hook work (AddinShmemInitLock held) */
void
uid_clock_shmem_startup(void)
{
	bool		found;

	uid_clock = ShmemInitStruct("uniqueid clock", sizeof(UidClockShared), &found);
	if (!found)
	{
		pg_atomic_init_u64(&uid_clock->offset, 0);
		pg_atomic_init_u64(&uid_clock->clock_offset, 0);
		SpinLockInit(&uid_clock->back_lock);
		uid_clock->back_high = uid_clock->back_low = 0;
		uid_clock->back_count = 0;
		uid_clock->back_max_us = 0;
		uid_clock->back_at = 0;
	}
}

/* The monotonic clock, in microseconds. */
int64
uid_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Raises an offset to at least v; returns the offset it holds then. */
static int64
uid_offset_raise(pg_atomic_uint64 *a, int64 v)
{
	uint64		seen = pg_atomic_read_u64(a);

	while (v > (int64) seen)
	{
		if (pg_atomic_compare_exchange_u64(a, &seen, (uint64) v))
			return v;
	}
	return (int64) seen;
}

/*
 * A reading of the clock came out more than a millisecond below high, the
 * highest (wall clock - monotonic clock) it has read: it may have been set
 * back, or the reading is old (the caller was descheduled after taking
 * it).  Read again, the monotonic clock first, so that a delay between the
 * two readings counts forward: still below, it was set back.  Counted and
 * logged once per step back: again only when it goes back further, or
 * after it was set forward past high.
 */
static pg_noinline void
uid_clock_went_back(int64 high)
{
	int64		mono_us = uid_mono_us();
	int64		offset = GetCurrentTimestamp() + (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY - mono_us;
	TimestampTz at;
	bool		fresh;

	if (high - offset <= 1000)
		return;
	at = GetCurrentTimestamp();
	SpinLockAcquire(&uid_clock->back_lock);
	fresh = uid_clock->back_high != high || offset < uid_clock->back_low - 1000;
	if (fresh)
	{
		uid_clock->back_high = high;
		uid_clock->back_low = offset;
		uid_clock->back_count++;
		uid_clock->back_max_us = Max(uid_clock->back_max_us, high - offset);
		uid_clock->back_at = at;
	}
	SpinLockRelease(&uid_clock->back_lock);
	if (fresh)
	{
		/* (the line serves no interrupt: the caller is in the middle of an ID) */
		HOLD_INTERRUPTS();
		ereport(LOG,
				(errmsg("uniqueid: the system clock went back %.1f ms", (double) (high - offset) / 1000.0),
				 errdetail("The generators go on from the highest reading seen, carried forward by the monotonic clock: their IDs stay in order, ahead of the clock until it catches up."),
				 errhint("Have the time service slew the clock rather than step it back.")));
		RESUME_INTERRUPTS();
	}
}

/* Whether a clock offset is more than a millisecond below the highest: a step back, or an old reading */
static inline void
uid_clock_check_back(int64 high, int64 offset)
{
	if (unlikely(high - offset > 1000))
		uid_clock_went_back(high);
}

/* The clock's steps back seen since the start or reset: how many, the largest, the last's time (0: none). */
void
uid_clock_stats(uint64 *regressions, int64 *max_us, TimestampTz *last_at)
{
	SpinLockAcquire(&uid_clock->back_lock);
	*regressions = uid_clock->back_count;
	*max_us = uid_clock->back_max_us;
	*last_at = uid_clock->back_at;
	SpinLockRelease(&uid_clock->back_lock);
}

/* uniqueid_stats_reset: the steps back seen are forgotten (the one in effect is not counted again) */
void
uid_clock_stats_reset(void)
{
	SpinLockAcquire(&uid_clock->back_lock);
	uid_clock->back_count = 0;
	uid_clock->back_max_us = 0;
	uid_clock->back_at = 0;
	SpinLockRelease(&uid_clock->back_lock);
}

/*
 * The estimate of the present from an offset, given the reading now_us and
 * the monotonic clock mono_us.  The two clocks are read one after the other,
 * so the offset jitters by microseconds: below a millisecond, the difference
 * is that, not a clock set back, and the reading itself is the better
 * estimate.
 */
static inline int64
uid_offset_estimate(int64 seen, int64 now_us, int64 mono_us)
{
	return mono_us + seen - now_us < 1000 ? now_us : mono_us + seen;
}

/*
 * The highest wall-clock reading seen so far (or time the clock was raised
 * to, uid_clock_raise), carried forward by the monotonic clock since it was
 * read: with now_us the current wall-clock reading, returns max over all
 * readings of (reading + time elapsed since).  A clock set back therefore
 * leaves this estimate of the present where it was, still advancing in real
 * time.
 */
int64
uid_clock_high_water(int64 now_us)
{
	int64		mono_us = uid_mono_us();
	int64		offset = now_us - mono_us;

	uid_clock_check_back(uid_offset_raise(&uid_clock->clock_offset, offset), offset);
	return uid_offset_estimate(uid_offset_raise(&uid_clock->offset, offset), now_us, mono_us);
}

/*
 * Raises the high-water mark to at least at_us, as if the clock had read it
 * now (the startup floor), without counting it as a reading of the clock.
 */
void
uid_clock_raise(int64 at_us)
{
	(void) uid_offset_raise(&uid_clock->offset, at_us - uid_mono_us());
}

/*
 * Whether the clock reads more than a millisecond behind its own highest
 * reading carried forward: it was set back, as opposed to running behind a
 * floor or an adoption that stands in for it.  The monotonic clock is read
 * first, so that a delay between the two readings counts forward, and the
 * reading raises nothing (it would raise the highest reading by that
 * delay): only uid_clock_high_water's readings, the wall clock first, do.
 */
bool
uid_clock_set_back(void)
{
	int64		mono_us = uid_mono_us();
	int64		now_us = GetCurrentTimestamp() +
		(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
	int64		seen = (int64) pg_atomic_read_u64(&uid_clock->clock_offset);

	uid_clock_check_back(seen, now_us - mono_us);
	return uid_offset_estimate(seen, now_us, mono_us) > now_us;
}

/* Sleeps up to 10 ms of the given wait, then serves interrupts. */
void
uid_wait(int64 wait_us)
{
	pg_usleep(Min(Max(wait_us, 100), 10000));
	CHECK_FOR_INTERRUPTS();
}

/*
 * The highest reading of the clock (or time raised to) carried forward by
 * the monotonic clock, as uid_clock_high_water gives it, without reading
 * the wall clock or raising anything: for a reader whose reading would make
 * no ID (the node registry's worker).  0 before the first reading or raise.
 */
int64
uid_clock_high_water_peek(void)
{
	int64		seen = (int64) pg_atomic_read_u64(&uid_clock->offset);

	return seen == 0 ? 0 : uid_mono_us() + seen;
}
