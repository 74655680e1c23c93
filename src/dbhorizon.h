/*
 * dbhorizon.h - the horizon kept in each database (dbhorizon.c), as its
 * sequences uniqueid_horizon_ms and uniqueid_shard_horizon_ms, and the
 * cover of an ID: made durable within the server's horizon (horizon.c) and
 * the one kept in its database, before it is returned.  The generators call
 * the inline fast paths below on every ID.
 */
#ifndef UNIQUEID_DBHORIZON_H
#define UNIQUEID_DBHORIZON_H

#include "compat.h"

#include "horizon.h"
#include "fmgr.h"

/*
 * The schema of uniqueid's own tables, views and sequences (1.9's script
 * makes it; before 1.9 they were in the extension's schema).
 */
#define UID_CATALOG_SCHEMA "uniqueid_catalog"

/* the schema of extension extoid (get_extension_schema is not exported before 16) */
extern Oid uid_extension_schema(Oid extoid);
extern void uid_db_horizon_gate(void);
extern void uid_db_horizon_check(void);
extern void uid_db_horizon_cover(int which, uint64 horizon_ms);
extern uint64 uid_horizon_cover_slow(uint64 end_ms, uint32 unit_ms);
extern void uid_horizon_cover_shard(uint32 shard, uint64 end_ms, uint32 unit_ms);

/* the background worker that reads one database's sequences (registered by name) */
extern PGDLLEXPORT void uid_db_horizon_worker(Datum arg);

/* Up to where the server-wide horizon covers IDs, as this backend last saw it (or a little less). */
extern UID_HIDDEN uint64 uid_horizon_covered_to;

/* A renewal found a horizon carried into this database, and moved the floor up to it. */
extern UID_HIDDEN bool uid_horizon_carried;

/* Whether the ID just covered must be made again (above a horizon carried meanwhile); clears it. */
static inline bool
uid_horizon_take_carried(void)
{
	if (likely(!uid_horizon_carried))
		return false;
	uid_horizon_carried = false;
	return true;
}

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
 * Makes an ID whose time unit of unit_ms ends at end_ms (Unix ms, exclusive)
 * durable within the horizon (fast path: it is).  True when the ID must be
 * made again instead: the renewal found a horizon carried into this
 * database above it, and every generator moved up to it.
 */
static inline bool
uid_horizon_cover(uint64 end_ms, uint32 unit_ms)
{
	if (likely(uid_horizon_covers(end_ms)))
		return false;
	uid_horizon_covered_to = uid_horizon_cover_slow(end_ms, unit_ms);
	return uid_horizon_take_carried();
}

#endif							/* UNIQUEID_DBHORIZON_H */
