/*
 * family.c - the table of families: each family's row (family.h) by its
 * statistics slot, registered from _PG_init, and the lookups of the
 * engine's messages and of the monitoring views.
 */
#include "family.h"

/* the rows, by statistics slot from UID_NSHARDS on (a logical shard's is shardid's) */
static const UidFamily *uid_families[UID_NSTATS - UID_NSHARDS];

/* Enters a family's row in the table; from _PG_init (module.c), before any ID. */
void
uid_family_register(const UidFamily *family)
{
	Assert(family->stat >= UID_NSHARDS && family->stat < UID_NSTATS);
	Assert((family->layout != NULL) == (family->last_us == NULL));
	uid_families[family->stat - UID_NSHARDS] = family;
}

/* The family of statistics slot `stat` (a logical shard's: shardid) */
const UidFamily *
uid_family(uint32 stat)
{
	const UidFamily *family;

	Assert(stat < UID_NSTATS);
	family = uid_families[(stat < UID_NSHARDS ? UID_STAT_SHARDID_NO_NODE : stat) - UID_NSHARDS];
	if (family == NULL)
		elog(ERROR, "uniqueid has no family registered for statistics slot %u", stat);
	return family;
}

/*
 * The statistics slot of a family by its type's name (for the node
 * registry's refusals, which know only that); shardid's is next_id()'s
 * with no node number.
 */
uint32
uid_family_stat(const char *typname)
{
	for (uint32 stat = UID_NSHARDS; stat < UID_NSTATS; stat++)
	{
		const UidFamily *family = uid_families[stat - UID_NSHARDS];

		if (family != NULL && strcmp(family->typname, typname) == 0)
			return stat;
	}
	return UID_STAT_SHARDID_NO_NODE;
}
