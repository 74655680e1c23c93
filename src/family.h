/*
 * family.h - the table of families (family.c), which the engine owns: the
 * generator slots and the statistics slots, numbered here, and a row per
 * family, defined in the family's own file and registered by module.c,
 * saying what the engine's messages and the monitoring views need to know
 * of it.  The engine knows the slots, not the families.
 */
#ifndef UNIQUEID_FAMILY_H
#define UNIQUEID_FAMILY_H

#include "compat.h"

#include "guc.h"
#include "layout.h"

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

/*
 * A family's row: on a generator slot of the engine (layout set), or with
 * a generator of its own (last_us, per_unit and unit_us set).  shardid's
 * row is that of its statistics slot UID_STAT_SHARDID_NO_NODE, and stands
 * for its logical shards' slots too.
 */
typedef struct UidFamily
{
	uint32		stat;			/* its statistics slot (of its generator slot, if any) */
	const char *name;			/* the family, as uniqueid_generators and log lines name it */
	const char *typname;		/* its type, as its generator's errors name it */
	bool		node_bearing;	/* its IDs hold this server's node number */
	const UidLayout *layout;	/* the 64-bit layout of its engine slot, or NULL */
	int64		(*last_us) (void);	/* the Unix time (us) of its last ID's time unit, 0: none */
	uint64		(*per_unit) (void); /* how many IDs a time unit holds */
	int64		unit_us;		/* its time unit */
} UidFamily;

extern void uid_family_register(const UidFamily *family);
extern const UidFamily *uid_family(uint32 stat);
extern uint32 uid_family_stat(const char *typname);

#endif							/* UNIQUEID_FAMILY_H */
