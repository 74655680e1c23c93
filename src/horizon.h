/*
 * horizon.h - the durable horizon (horizon.c): the time no ID of this server
 * has reached, kept across restarts, crashes and failovers, and the floor it
 * sets at startup.  The generators read the floor inline on every ID
 * (below); an ID is made durable within the horizon through dbhorizon.h,
 * which keeps the horizon in the databases too.  The horizon calls nothing
 * above it: the generators' adoption of a shard at its floor is a hook.
 */
#ifndef UNIQUEID_HORIZON_H
#define UNIQUEID_HORIZON_H

#include "compat.h"

#include "counter.h"
#include "guc.h"
#include "access/xlogdefs.h"
#include "datatype/timestamp.h"
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

/* How many databases the horizon notes what it wrote to (UidHorizonShared) */
#define UID_DB_NOTED 64

/* How often something took how long (uniqueid_durability) */
typedef struct UidTiming
{
	pg_atomic_uint64 count;
	pg_atomic_uint64 total_us;
	pg_atomic_uint64 max_us;
} UidTiming;

/* The horizon's shared state; read inline on every generated ID. */
typedef struct UidHorizonShared
{
	pg_atomic_uint64 horizon_ms;	/* durable: no ID issued at or past it */
	pg_atomic_uint64 floor_ms;	/* every ID from now on is in a unit that ends past it; only rises */
	pg_atomic_uint64 floor_mono_us;	/* the monotonic clock when the floor was fixed */
	pg_atomic_uint64 floor_lead_us;	/* how far the floor was ahead of the clock then (0: not) */
	LWLock	   *lock;			/* serializes advances and the floor's setting */
	/* no state file at startup (a new cluster after pg_upgrade?): every database's sequence is read first */
	pg_atomic_uint32 scan_pending;
	pg_atomic_uint32 scan_owner;	/* the backend reading them (its pid), or 0 */
	pg_atomic_uint32 scan_db;	/* the database a worker reads now */
	pg_atomic_uint32 scan_ok;	/* ... and whether it has read it */
	/*
	 * What this server wrote to each database's sequences since it started
	 * (uid_db_horizon_cover; under the lock): a value above it came from
	 * elsewhere.  Databases past UID_DB_NOTED share db_written_other.
	 */
	Oid			db_oid[UID_DB_NOTED];
	uint64		db_written[UID_DB_NOTED][2];
	uint64		db_written_other[2];
	/* durable, per logical shard of shardid: no ID of an adopted shard at or past it */
	pg_atomic_uint64 shard_ms[UID_NSHARDS];
	/* a shard's own floor, where above floor_ms: set with it, before it is published */
	uint64		shard_floor_ms[UID_NSHARDS];

	/*
	 * The counters of uniqueid_durability: of every write of the state file
	 * (the server's horizon or a shard's), its WAL flush and the wait for
	 * the synchronous standbys; the server's writes and failures, and each
	 * shard's.
	 */
	UidTiming	file_write;
	UidTiming	wal_flush;
	UidTiming	sync_wait;
	pg_atomic_uint64 sync_waiting_since;	/* a TimestampTz: the wait under way, or 0 */
	UidLogLimit sync_wait_log;	/* the log lines of waits for them over a second */
	pg_atomic_uint64 writes;
	pg_atomic_uint64 failures;
	pg_atomic_uint64 written_at;	/* a TimestampTz, 0: not since the start */
	pg_atomic_uint64 failure_logged_us;	/* the monotonic clock at the last failure logged */
	pg_atomic_uint64 failures_unlogged;
	/* per shard, atomics: the view reads them without the lock, which a write holds while it waits */
	pg_atomic_uint64 shard_writes[UID_NSHARDS];
	pg_atomic_uint64 shard_failures[UID_NSHARDS];
	pg_atomic_uint64 shard_written_at[UID_NSHARDS];	/* TimestampTz */
} UidHorizonShared;

extern UID_HIDDEN UidHorizonShared *uid_horizon;

/*
 * Called once the floor is fixed after startup or promotion, for each shard
 * whose own horizon is above it (the generators' adoption restores itself).
 */
typedef void (*UidShardFloorHook) (uint32 shard, uint64 floor_ms);
extern UidShardFloorHook uid_horizon_shard_floor_hook;

extern void uid_horizon_shmem_request(void);
extern void uid_horizon_shmem_startup(void);
extern void uid_horizon_register_rmgr(void);
extern uint64 uid_horizon_floor_fix(void);
extern bool uid_horizon_floor_wait(uint64 end_ms, int64 unit_us, int64 now_us, int64 *waited_from);
extern uint64 uid_horizon_known(void);
extern uint64 uid_horizon_raise(uint64 at_ms);
extern uint64 uid_horizon_adopt(uint64 at_ms);
extern void uid_horizon_sync(XLogRecPtr lsn);
extern void uid_horizon_stats_reset(void);

/* the horizon of uid_horizon_advance's shard argument that is the server's own */
#define UID_SERVER_WIDE (-1)
extern uint64 uid_horizon_advance(int shard, uint64 end_ms, uint32 unit_ms);
extern uint64 uid_horizon_of_shard(uint32 shard);
extern uint64 uid_horizon_shard_floor(uint32 shard);

/*
 * What dbhorizon.c, which keeps the horizon in each database, reads and
 * notes in the shared state, per database and sequence `which`:
 * UID_DB_SERVER (the server's horizon) or UID_DB_SHARDS (the adopted
 * shards')
 */
#define UID_DB_SERVER 0
#define UID_DB_SHARDS 1
extern uint64 uid_horizon_db_written(Oid db, int which);
extern void uid_horizon_db_note(Oid db, int which, uint64 value);
extern void uid_horizon_scan_done(void);
extern uint64 uid_horizon_floor_or_next(void);
extern uint64 uid_horizon_shard_floor_max(void);

/*
 * UID_BENCH_NO_HORIZON, defined only by bench/horizon_ab.sh, builds a
 * generator without the horizon's fast paths (the floor below, the cover
 * in dbhorizon.h; and so without any durability), to measure what they
 * cost.  Never define it for real use.
 */

/* The floor before it is fixed: above every clock reading, so that the fast paths fall through */
#define UID_FLOOR_UNSET (PG_UINT64_MAX / 4000)

/*
 * The earliest time (Unix ms) an ID may have, given the clock's reading
 * now_ms.  Read from shared memory on every call: the floor only rises, and
 * may rise while the server runs (uid_horizon_raise), for every backend at
 * once.  A backend fixes (or reads) it once before its first ID
 * (uid_require_generator_slow), past a read barrier: what was set before the
 * floor was published (the adoptions of shards) is seen after it.
 */
static inline uint64
uid_horizon_floor(uint64 now_ms)
{
#ifdef UID_BENCH_NO_HORIZON
	return 0;
#else
	uint64		floor_ms = pg_atomic_read_u64(&uid_horizon->floor_ms);

	if (likely(floor_ms <= now_ms))
		return floor_ms;
	return uid_horizon_floor_fix();
#endif
}

#endif							/* UNIQUEID_HORIZON_H */
