/*
 * horizon.h - the durable horizon (horizon.c): the time no ID of this server
 * has reached, kept across restarts, crashes and failovers, and the floor it
 * sets at startup.  The generators call the inline fast paths below on
 * every ID; the horizon itself calls nothing of theirs.
 */
#ifndef UNIQUEID_HORIZON_H
#define UNIQUEID_HORIZON_H

#include "compat.h"

#include "guc.h"
#include "port/atomics.h"
#include "storage/lwlock.h"

/*
 * WAL resource manager id of uniqueid's horizon records, from the custom
 * range (128..255); a server replaying them needs uniqueid preloaded.
 */
#define UID_RMGR_ID 201

/* The horizon's lease past the clock, and how long before its end it is renewed */
#define UID_HORIZON_LEASE_MS 1000
#define UID_HORIZON_RENEW_MS 250

/* The horizon's shared state; read inline on every generated ID. */
typedef struct UidHorizonShared
{
	pg_atomic_uint64 horizon_ms;	/* durable: no ID issued at or past it */
	pg_atomic_uint64 floor_ms;	/* every ID from now on is at or past it */
	pg_atomic_uint32 floor_passed;	/* the clock has caught up with the floor */
	pg_atomic_uint64 floor_mono_us;	/* the monotonic clock when the floor was fixed */
	LWLock	   *lock;			/* serializes advances and the floor's setting */
	/* durable, per logical shard of shardid: no ID of an adopted shard at or past it */
	pg_atomic_uint64 shard_ms[UID_NSHARDS];
	/* a shard's own floor, where above floor_ms: set with it, before it is published */
	uint64		shard_floor_ms[UID_NSHARDS];
} UidHorizonShared;

extern UidHorizonShared *uid_horizon;

/*
 * Called once the floor is fixed after startup or promotion, for each shard
 * whose own horizon is above it (the generators' adoption restores itself).
 */
typedef void (*UidShardFloorHook) (uint32 shard, uint64 floor_ms);
extern UidShardFloorHook uid_horizon_shard_floor_hook;

extern void uid_horizon_shmem_request(void);
extern void uid_horizon_shmem_startup(void);
extern void uid_horizon_register_rmgr(void);
extern uint64 uid_horizon_floor_slow(uint64 now_ms, bool *passed);
extern uint64 uid_horizon_cover_slow(uint64 end_ms);
extern void uid_horizon_cover_shard(uint32 shard, uint64 end_ms);
extern uint64 uid_horizon_of_shard(uint32 shard);
extern uint64 uid_horizon_shard_floor(uint32 shard);

/*
 * UID_BENCH_NO_HORIZON, defined only by bench/horizon_ab.sh, builds a
 * generator without the horizon's fast paths below (and so without any
 * durability), to measure what they cost.  Never define it for real use.
 *
 * The fast paths keep what they learn in backend-local variables (the floor
 * in a static, one copy per file that uses it), which is safe because the floor, once the clock has
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

/* Up to where the server-wide horizon covers IDs, as this backend last saw it (or a little less). */
extern uint64 uid_horizon_covered_to;

/* Whether an ID whose time unit ends at end_ms is within the horizon already. */
static inline bool
uid_horizon_covers(uint64 end_ms)
{
#ifdef UID_BENCH_NO_HORIZON
	return true;
#else
	return end_ms <= uid_horizon_covered_to;
#endif
}

/*
 * Makes an ID whose time unit ends at end_ms (Unix ms, exclusive) durable
 * within the horizon (fast path: it is).
 */
static inline void
uid_horizon_cover(uint64 end_ms)
{
	if (unlikely(!uid_horizon_covers(end_ms)))
		uid_horizon_covered_to = uid_horizon_cover_slow(end_ms);
}

#endif							/* UNIQUEID_HORIZON_H */
