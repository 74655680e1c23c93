/*
 * guc.h - uniqueid's configuration parameters (guc.c).
 */
#ifndef UNIQUEID_GUC_H
#define UNIQUEID_GUC_H

#include "compat.h"

/* logical shards of shardid, 13 bits */
#define UID_NSHARDS 8192

extern int	uid_max_clock_lead_ms;
extern int	uid_node;
extern int	uid_cluster;
extern int	uid_sno_sequence_min;
extern int	uid_sno_sequence_max;

/* The owned shards of uniqueid.shards, one bit each (NULL: none). */
extern const uint8 *uid_shard_map;

extern void uid_define_gucs(void);
extern const char *uid_shards_setting(void);
pg_noreturn extern void uid_node_does_not_fit(const char *typname, const char *field, int bits);

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

/* uniqueid.node; errors out unless it fits a layout's node field of `bits` bits. */
static inline int
uid_node_for(const char *typname, const char *field, int bits)
{
	if (unlikely(uid_node >= (1 << bits)))
		uid_node_does_not_fit(typname, field, bits);
	return uid_node;
}

#endif							/* UNIQUEID_GUC_H */
