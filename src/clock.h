/*
 * clock.h - the clock every generator reads (clock.c): the monotonic clock,
 * the highest wall-clock reading seen server-wide carried forward by it, and
 * the wait for the clock.  The bottom of the generators: it calls nothing of
 * theirs.
 */
#ifndef UNIQUEID_CLOCK_H
#define UNIQUEID_CLOCK_H

#include "compat.h"

#include "datatype/timestamp.h"

extern void uid_clock_shmem_request(void);
extern void uid_clock_shmem_startup(void);
extern int64 uid_mono_us(void);
extern int64 uid_clock_high_water(int64 now_us);
extern int64 uid_clock_high_water_peek(void);
extern void uid_clock_raise(int64 at_us);
extern bool uid_clock_set_back(void);
extern void uid_wait(int64 wait_us);
extern void uid_clock_stats_reset(void);
extern void uid_clock_stats(uint64 *regressions, int64 *max_us, TimestampTz *last_at);

/*
 * Feeds a clock reading to uid_clock_high_water, at most once a millisecond
 * per backend (a static per file that uses it): the offset it tracks moves
 * only when the clock is set, and leaving out a step forward of under a
 * millisecond is within the jitter it ignores anyway.  Spares a
 * monotonic-clock reading on most new units.
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

#endif							/* UNIQUEID_CLOCK_H */
