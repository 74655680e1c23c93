/*
 * stats.h - what the generators count for the monitoring views (stats.c),
 * per statistics slot (family.h): the IDs issued, the time units borrowed
 * ahead of the clock, the waits for the clock and the refusals; the
 * counting calls, and what the views read.  The count of IDs issued is the
 * only one on the per-ID path: a backend-local counter, folded into shared
 * memory when the transaction ends.  Everything else is counted where the
 * generators already take a slow path.
 */
#ifndef UNIQUEID_STATS_H
#define UNIQUEID_STATS_H

#include "compat.h"

#include "counter.h"
#include "datatype/timestamp.h"
#include "family.h"
#include "port/atomics.h"

/* What a generator refused to issue, by reason */
typedef enum UidRefusal
{
	UID_REFUSED_NO_IDS_LEFT,	/* its layout's time range is used up */
	UID_REFUSED_NOT_OWNED,		/* a shard not in uniqueid.shards */
	UID_REFUSED_RELEASED,		/* a shard handed over by shard_release() */
	UID_REFUSED_NO_NODE,		/* no node number, or its lease ran out (node registry) */
	UID_REFUSAL_KINDS
} UidRefusal;

/* A statistics slot's counters, in shared memory; the lead line's time is the monotonic clock's */
typedef struct UidGenStats
{
	pg_atomic_uint64 issued;
	pg_atomic_uint64 borrows;	/* time units taken ahead of the clock */
	pg_atomic_uint64 borrowed_us;	/* their length */
	pg_atomic_uint64 max_lead_us;	/* the furthest such a unit started ahead */
	pg_atomic_uint64 waits;		/* calls that waited for the clock */
	pg_atomic_uint64 wait_us;
	pg_atomic_uint64 max_wait_us;
	pg_atomic_uint64 refused[UID_REFUSAL_KINDS];
	pg_atomic_uint64 lead_logged_us;	/* the last lead line, 0 none */
} UidGenStats;

/*
 * This backend's IDs issued, not yet folded into shared memory: per family
 * (statistics slots from UID_NSHARDS on), with a flag that any is; and per
 * logical shard, in 16 bits (a small array keeps the shards' slots in the
 * cache): its wrap is added at once.
 */
extern UID_HIDDEN uint64 uid_stat_family_count[UID_NSTATS - UID_NSHARDS];
extern UID_HIDDEN bool uid_stat_family_pending;
extern UID_HIDDEN uint16 uid_stat_shard_count[UID_NSHARDS];

extern void uid_stats_shmem_request(void);
extern void uid_stats_shmem_startup(void);
extern void uid_stats_backend_init(void);
extern void uid_stat_shard_turn(uint32 stat);
extern void uid_stat_borrow(uint32 stat, int64 unit_us, int64 lead_us);
extern void uid_stat_wait(uint32 stat, int64 waited_us);
extern void uid_stat_refused(uint32 stat, UidRefusal why);

/* what the views read, and their reset (the caller's own IDs are folded in first) */
extern bool uid_stats_attached(void);
extern void uid_stats_fold(void);
extern UidGenStats *uid_stats_of(uint32 stat);
extern TimestampTz uid_stats_reset_time(void);
extern void uid_stats_reset(void);
extern void uid_stats_set_reset_time(TimestampTz at);

/*
 * Counts an ID issued from a family's statistics slot `stat`: on every
 * generated ID, so a local increment and a flag; `stat` is a constant
 * where this is inlined, and the fold looks at the families' slots when
 * the flag says so.
 */
static inline void
uid_stat_issued_family(uint32 stat)
{
	uid_stat_family_count[stat - UID_NSHARDS]++;
	uid_stat_family_pending = true;
}

/*
 * Counts an ID of a logical shard (its slot `stat`); its first since the
 * last fold, and a wrap of the 16 bits, go to uid_stat_shard_turn.
 */
static inline void
uid_stat_issued_shard(uint32 stat)
{
	if (unlikely((uint16) ++uid_stat_shard_count[stat] <= 1))
		uid_stat_shard_turn(stat);
}

#endif							/* UNIQUEID_STATS_H */
