/*
 * guc.h - uniqueid's configuration parameters (guc.c).
 */
#ifndef UNIQUEID_GUC_H
#define UNIQUEID_GUC_H

#include "compat.h"

/* logical shards of shardid, 13 bits */
#define UID_NSHARDS 8192

extern int	uid_max_clock_lead_ms;
extern UID_HIDDEN int uid_node;
extern int	uid_cluster;
extern UID_HIDDEN int uid_sno_sequence_min;
extern UID_HIDDEN int uid_sno_sequence_max;

/* the node registry (node.c): set, the node number is negotiated there */
extern char *uid_node_registry;
extern UID_HIDDEN bool uid_node_negotiated;
extern int	uid_node_range_lo;
extern int	uid_node_range_hi;
extern int	uid_node_lease_ms;
extern int	uid_node_skew_ms;

/* The owned shards of uniqueid.shards, one bit each (NULL: none). */
extern UID_HIDDEN const uint8 *uid_shard_map;

extern void uid_define_gucs(void);
extern const char *uid_shards_setting(void);
pg_noreturn extern void uid_node_does_not_fit(const char *typname, const char *field, int bits, int node);
extern int	uid_node_leased(const char *typname);
extern const char *uid_node_leased_show(void);
extern void uid_node_confirm(const char *typname, uint64 end_ms);

/*
 * The next two run on every generated ID, so they are inline, their errors
 * out of line.
 */

/* Whether this server's uniqueid.shards includes shard (0..8191). */
static inline bool
uid_shard_owned(int shard)
{
	return uid_shard_map != NULL && (uid_shard_map[shard / 8] & (1 << (shard % 8))) != 0;
}

/*
 * This server's node number for an ID of a node-bearing family about to be
 * made: uniqueid.node, or the number leased from the registry (errors out
 * while none is held); errors out unless it fits the layout's node field of
 * `bits` bits.  With a registry, the ID made then goes to uid_node_confirm
 * (node.c), which errors out unless it may be returned: the same lease still
 * held, not run out, and the ID within the horizon recorded in the
 * registry.
 */
static inline int
uid_node_for(const char *typname, const char *field, int bits)
{
	int			node = likely(!uid_node_negotiated) ? uid_node : uid_node_leased(typname);

	if (unlikely(node >= (1 << bits)))
		uid_node_does_not_fit(typname, field, bits, node);
	return node;
}

#endif							/* UNIQUEID_GUC_H */
