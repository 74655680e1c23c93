/*
 * node.h - the node number of this server's IDs (node.c): uniqueid.node, or
 * the number leased from a registry (uniqueid.node_registry), whose lease
 * the registry's worker (registry.c) keeps in shared memory; the per-ID
 * check of the lease, and node.c's parameters.
 */
#ifndef UNIQUEID_NODE_H
#define UNIQUEID_NODE_H

#include "compat.h"

#include "datatype/timestamp.h"

/* The claim word (uid_node_claim_word): epoch << 32 | the number held, or UID_NO_NODE */
#define UID_NO_NODE PG_UINT32_MAX
#define UID_CLAIM_NODE(c) ((uint32) ((c) & PG_UINT32_MAX))
#define UID_CLAIM_EPOCH(c) ((c) >> 32)

/* the longest message of the worker's last failure kept */
#define UID_NODE_ERROR_LEN 512

extern UID_HIDDEN int uid_node;
/* the node registry: set, the node number is negotiated there */
extern char *uid_node_registry;
extern UID_HIDDEN bool uid_node_negotiated;
extern int	uid_node_range_lo;
extern int	uid_node_range_hi;
extern int	uid_node_lease_ms;
extern int	uid_node_skew_ms;

extern void uid_node_define_gucs(void);
extern void uid_node_shmem_request(void);
extern void uid_node_shmem_startup(void);
extern int	uid_node_in_use(void);
extern char *uid_node_registry_display(void);
pg_noreturn extern void uid_node_does_not_fit(const char *typname, const char *field, int bits, int node);
extern int	uid_node_leased(const char *typname);
extern void uid_node_confirm(const char *typname, uint64 end_ms);

/* what the registry's worker writes (registry.c): it alone */
extern uint64 uid_node_claim_word(void);
extern void uid_node_fence(void);
extern void uid_node_publish(uint32 node, int64 token, uint64 horizon_ms, int64 safe_until_us,
							 TimestampTz lease_until);
extern void uid_node_renewed(uint64 horizon_ms, int64 safe_until_us, TimestampTz lease_until);
extern void uid_node_claim_took(int64 ms);
extern void uid_node_note_error(const char *why);
extern int64 uid_node_token(void);

/* (the next runs on every ID of a node-bearing family: inline, its errors out of line) */

/*
 * This server's node number for an ID of a node-bearing family about to be
 * made: uniqueid.node, or the number leased from the registry (errors out
 * while none is held); errors out unless it fits the layout's node field of
 * `bits` bits.  With a registry, the ID made then goes to uid_node_confirm,
 * which errors out unless it may be returned: the same lease still
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

#endif							/* UNIQUEID_NODE_H */
