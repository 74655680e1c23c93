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

extern void uid_define_gucs(void);
extern bool uid_shard_owned(int shard);
extern const char *uid_shards_setting(void);
extern int	uid_node_for(const char *typname, const char *field, int bits);

#endif							/* UNIQUEID_GUC_H */
