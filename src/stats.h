/*
 * stats.h - what the generators count for the monitoring views (stats.c):
 * the statistics slots, one per generator slot (generator.h's numbering)
 * and for sno and objectid, and the counting calls.  The count of IDs
 * issued is the only one on the per-ID path: a backend-local counter,
 * folded into shared memory when the transaction ends.  Everything else is
 * counted where the generators already take a slow path.
 */
#ifndef UNIQUEID_STATS_H
#define UNIQUEID_STATS_H

#include "compat.h"

#include "counter.h"
#include "datatype/timestamp.h"
#include "guc.h"
#include "port/atomics.h"

/* Generator slot numbers: one per logical shard of shardid, then one per other family. */
#define UID_SLOT_SHARDID 0
#define UID_SLOT_UUID7 (UID_SLOT_SHARDID + UID_NSHARDS)
#define UID_SLOT_SNOWFLAKE (UID_SLOT_UUID7 + 1)
#define UID_SLOT_SONYFLAKE (UID_SLOT_SNOWFLAKE + 1)
#define UID_SLOT_SHORTID (UID_SLOT_SONYFLAKE + 1)
#define UID_SLOT_SPREADID (UID_SLOT_SHORTID + 1)
#define UID_SLOT_ULID (UID_SLOT_SPREADID + 1)
#define UID_SLOT_KSUID (UID_SLOT_ULID + 1)
#define UID_SLOT_RSXID (UID_SLOT_KSUID + 1)
#define UID_NSLOTS (UID_SLOT_RSXID + 1)

/*
 * Statistics slots: the generator slots, then sno's and objectid's (which
 * have generators of their own), then next_id() refused while no node
 * number is held (its shard is that number).
 */
#define UID_STAT_SNO UID_NSLOTS
#define UID_STAT_OBJECTID (UID_STAT_SNO + 1)
#define UID_STAT_SHARDID_NO_NODE (UID_STAT_OBJECTID + 1)
#define UID_NSTATS (UID_STAT_SHARDID_NO_NODE + 1)

/* What a generator refused to issue, by reason */
typedef enum UidRefusal
{
	UID_REFUSED_NO_IDS_LEFT,	/* its layout's time range is used up */
	UID_REFUSED_NOT_OWNED,		/* a shard not in uniqueid.shards */
	UID_REFUSED_RELEASED,		/* a shard handed over by shard_release() */
	UID_REFUSED_NO_NODE,		/* no node number, or its lease ran out (node registry) */
	UID_REFUSAL_KINDS
} UidRefusal;

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
extern uint32 uid_stat_of_type(const char *typname);
extern TimestampTz uid_stats_reset_time(void);

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
