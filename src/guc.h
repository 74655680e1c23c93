/*
 * guc.h - the configuration parameters of the generators (guc.c): the lead
 * allowance, the logical shards owned, spreadid's cluster and sno's
 * sequence pool.  The node number's parameters are node.c's.
 */
#ifndef UNIQUEID_GUC_H
#define UNIQUEID_GUC_H

#include "compat.h"

/* logical shards of shardid, 13 bits */
#define UID_NSHARDS 8192

extern int	uid_max_clock_lead_ms;
extern int	uid_cluster;
extern UID_HIDDEN int uid_sno_sequence_min;
extern UID_HIDDEN int uid_sno_sequence_max;

/* The owned shards of uniqueid.shards, one bit each (NULL: none). */
extern UID_HIDDEN const uint8 *uid_shard_map;

extern void uid_define_gucs(void);
extern const char *uid_shards_setting(void);
extern const char *uid_parse_range(const char **p, const char *what, long *lo, long *hi, char *msg,
								   size_t size);

/* Whether this server's uniqueid.shards includes shard (0..8191): on every next_id(shard), so inline. */
static inline bool
uid_shard_owned(int shard)
{
	return uid_shard_map != NULL && (uid_shard_map[shard / 8] & (1 << (shard % 8))) != 0;
}

#endif							/* UNIQUEID_GUC_H */
