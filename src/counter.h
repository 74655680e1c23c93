/*
 * counter.h - counters in shared memory that the monitoring views read
 * (the generators' in stats.c, the horizon's in horizon.c): raised to a
 * value, set to 0, and the rate limit of the log lines about what they
 * count.  Inline only; no file of its own.
 */
#ifndef UNIQUEID_COUNTER_H
#define UNIQUEID_COUNTER_H

#include "compat.h"

#include "port/atomics.h"

/* A wait logged when it lasts over a second, at most once every 10 s per kind of wait */
#define UID_LONG_WAIT_US INT64CONST(1000000)
#define UID_LONG_WAIT_EVERY_US INT64CONST(10000000)

/* The rate limit of a kind of log line, server-wide */
typedef struct UidLogLimit
{
	pg_atomic_uint64 logged_us;	/* the monotonic clock at the last line, 0: none */
	pg_atomic_uint64 unlogged;	/* lines left out since then */
} UidLogLimit;

/* Raises an atomic to at least v (a horizon, or the largest of a counter). */
static inline void
uid_atomic_raise(pg_atomic_uint64 *a, uint64 v)
{
	uint64		cur = pg_atomic_read_u64(a);

	while (v > cur && !pg_atomic_compare_exchange_u64(a, &cur, v))
		;
}

/*
 * Sets a counter of the views to 0: at the start (first, when the memory is
 * new: pg_atomic_init_u64), or by uniqueid_stats_reset.
 */
static inline void
uid_counter_zero(pg_atomic_uint64 *c, bool first)
{
	if (first)
		pg_atomic_init_u64(c, 0);
	else
		pg_atomic_write_u64(c, 0);
}

/*
 * Whether a line limited by l may be logged now (now_us: the monotonic
 * clock): none for every_us before, and this backend the one to take the
 * turn; then *missed is the count of lines left out since the last one.
 * Otherwise the line is counted as left out.
 */
static inline bool
uid_log_due(UidLogLimit *l, int64 now_us, int64 every_us, uint64 *missed)
{
	uint64		last = pg_atomic_read_u64(&l->logged_us);

	if ((last != 0 && now_us - (int64) last < every_us) ||
		!pg_atomic_compare_exchange_u64(&l->logged_us, &last, (uint64) Max(now_us, 1)))
	{
		pg_atomic_fetch_add_u64(&l->unlogged, 1);
		return false;
	}
	*missed = pg_atomic_exchange_u64(&l->unlogged, 0);
	return true;
}

#endif							/* UNIQUEID_COUNTER_H */
