/*
 * guc.c - uniqueid's configuration parameters and the parsing of
 * uniqueid.shards into a bitmap of owned logical shards.
 */
#include "guc.h"

#include <ctype.h>

#include "utils/guc.h"



int			uid_max_clock_lead_ms = 1000;
int			uid_node = 0;
int			uid_cluster = 0;
int			uid_sno_sequence_min = 0;
int			uid_sno_sequence_max = 65535;
static char *uid_shards_string = NULL;
char	   *uid_node_registry = NULL;
bool		uid_node_negotiated = false;
static char *uid_node_range_string = NULL;
static char *uid_node_leased_string = NULL;
int			uid_node_range_lo = 1;
int			uid_node_range_hi = 1023;
int			uid_node_lease_ms = 10000;
int			uid_node_skew_ms = 2000;

/* set by the assign hook of uniqueid.shards from its check hook's work */
const uint8 *uid_shard_map = NULL;

/*
 * Parses a number or a range "N-M" (spaces around the dash) at *p into lo
 * and hi, advancing *p past it and the spaces after it.  Returns NULL on
 * success, or a message describing the problem (msg, of `size` bytes),
 * naming what the numbers are.
 */
static const char *
uid_parse_range(const char **p, const char *what, long *lo, long *hi, char *msg, size_t size)
{
	char	   *end;

	if (!isdigit((unsigned char) **p))
	{
		snprintf(msg, size, "Expected a %s at \"%.20s\"", what, *p);
		return msg;
	}
	*lo = *hi = strtol(*p, &end, 10);
	*p = end;
	while (isspace((unsigned char) **p))
		(*p)++;
	if (**p == '-')
	{
		(*p)++;
		while (isspace((unsigned char) **p))
			(*p)++;
		if (!isdigit((unsigned char) **p))
		{
			snprintf(msg, size, "Expected the end of a range at \"%.20s\"", *p);
			return msg;
		}
		*hi = strtol(*p, &end, 10);
		*p = end;
	}
	while (isspace((unsigned char) **p))
		(*p)++;
	if (*lo > *hi)
	{
		snprintf(msg, size, "Range %ld-%ld is backwards", *lo, *hi);
		return msg;
	}
	return NULL;
}

/*
 * Parses a list such as "0-1023, 4096" into bitmap (UID_NSHARDS bits).
 * Returns NULL on success or a message describing the first problem.
 */
static const char *
uid_parse_shards(const char *s, uint8 *bitmap)
{
	static char msg[128];
	const char *p = s;

	memset(bitmap, 0, UID_NSHARDS / 8);
	while (isspace((unsigned char) *p))
		p++;
	if (*p == '\0')
		return NULL;			/* an empty list owns no shard */
	for (;;)
	{
		long		lo,
					hi;

		if (uid_parse_range(&p, "shard number", &lo, &hi, msg, sizeof(msg)) != NULL)
			return msg;
		if (hi >= UID_NSHARDS)
		{
			snprintf(msg, sizeof(msg), "Shard %ld is out of range (0 to %d)",
					 lo >= UID_NSHARDS ? lo : hi, UID_NSHARDS - 1);
			return msg;
		}
		for (long i = lo; i <= hi; i++)
			bitmap[i / 8] |= (uint8) (1 << (i % 8));
		if (*p == '\0')
			return NULL;
		if (*p != ',')
		{
			snprintf(msg, sizeof(msg), "Expected \",\" at \"%.20s\"", p);
			return msg;
		}
		p++;
		while (isspace((unsigned char) *p))
			p++;
	}
}

/* check hook of uniqueid.shards: parse into a bitmap kept as the GUC's extra */
static bool
uid_check_shards(char **newval, void **extra, GucSource source)
{
	/* the GUC machinery frees extra itself (compat.h) */
	uint8	   *bitmap = uid_guc_malloc(UID_NSHARDS / 8);
	const char *problem;

	if (bitmap == NULL)
	{
		GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
		return false;
	}
	if (pg_strcasecmp(*newval, "all") == 0)
		memset(bitmap, 0xff, UID_NSHARDS / 8);
	else if ((problem = uid_parse_shards(*newval, bitmap)) != NULL)
	{
		GUC_check_errdetail("%s.", problem);
		GUC_check_errhint("Write shard numbers and ranges separated by commas, such as \"0-1023,4096\", or \"all\".");
		uid_guc_free(bitmap);
		return false;
	}
	*extra = bitmap;
	return true;
}

/* assign hook of uniqueid.shards */
static void
uid_assign_shards(const char *newval, void *extra)
{
	uid_shard_map = extra;
}

/* assign hook of uniqueid.node_registry: set, the node number is negotiated */
static void
uid_assign_node_registry(const char *newval, void *extra)
{
	uid_node_negotiated = newval != NULL && newval[0] != '\0';
}

/* check hook of uniqueid.node_range: "LO-HI" or "N", within 0-65535, kept as two ints */
static bool
uid_check_node_range(char **newval, void **extra, GucSource source)
{
	char		msg[128];
	const char *p = *newval;
	const char *problem;
	long		lo,
				hi;
	int		   *range;

	while (isspace((unsigned char) *p))
		p++;
	problem = uid_parse_range(&p, "node number", &lo, &hi, msg, sizeof(msg));
	if (problem == NULL && hi > 65535)
		problem = psprintf("Node number %ld is out of range (0 to 65535)", lo > 65535 ? lo : hi);
	else if (problem == NULL && *p != '\0')
		problem = psprintf("Expected the end of the range at \"%.20s\"", p);
	if (problem != NULL)
	{
		GUC_check_errdetail("%s.", problem);
		GUC_check_errhint("Write the lowest and the highest number, such as \"0-1023\", or one number.");
		return false;
	}
	range = uid_guc_malloc(2 * sizeof(int));
	if (range == NULL)
	{
		GUC_check_errcode(ERRCODE_OUT_OF_MEMORY);
		return false;
	}
	range[0] = (int) lo;
	range[1] = (int) hi;
	*extra = range;
	return true;
}

/* assign hook of uniqueid.node_range */
static void
uid_assign_node_range(const char *newval, void *extra)
{
	uid_node_range_lo = ((int *) extra)[0];
	uid_node_range_hi = ((int *) extra)[1];
}

/* The text of uniqueid.shards, for messages. */
const char *
uid_shards_setting(void)
{
	return uid_shards_string ? uid_shards_string : "";
}

/* Defines every uniqueid.* parameter; called from _PG_init when preloaded. */
void
uid_define_gucs(void)
{
	DefineCustomIntVariable("uniqueid.max_clock_lead",
							"How far, in milliseconds, generated IDs may run ahead of the clock.",
							"When a time unit's sequence is used up, generators borrow the next unit up to this lead, then wait for the clock.",
							&uid_max_clock_lead_ms,
							1000, 0, 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomStringVariable("uniqueid.shards",
							   "Logical shards (0-8191) this server may generate shardid values for.",
							   "A comma-separated list of shard numbers and ranges, such as \"0-1023,4096\", or \"all\".",
							   &uid_shards_string,
							   "all",
							   PGC_SIGHUP, 0,
							   uid_check_shards, uid_assign_shards, NULL);
	DefineCustomIntVariable("uniqueid.node",
							"Identity of this server in generated IDs (snowflake node, sno partition, ...).",
							NULL,
							&uid_node,
							0, 0, 65535,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("uniqueid.cluster",
							"Cluster id of this server in spreadid values.",
							NULL,
							&uid_cluster,
							0, 0, 15,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("uniqueid.sno_sequence_min",
							"Smallest sequence number next_sno uses in each 4 ms unit.",
							"Servers sharing an sno partition use disjoint sequence ranges; the pool needs at least 4 values.",
							&uid_sno_sequence_min,
							0, 0, 65535,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("uniqueid.sno_sequence_max",
							"Largest sequence number next_sno uses in each 4 ms unit.",
							NULL,
							&uid_sno_sequence_max,
							65535, 0, 65535,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomStringVariable("uniqueid.node_registry",
							   "Connection string of the registry this server leases its node number from.",
							   "When set, uniqueid.node is not read: the number is negotiated in the registry database (doc/negotiated-nodes.md). "
							   "Give credentials in a service file or a password file, not here.",
							   &uid_node_registry,
							   "",
							   PGC_POSTMASTER, GUC_SUPERUSER_ONLY,
							   NULL, uid_assign_node_registry, NULL);
	DefineCustomStringVariable("uniqueid.node_range",
							   "Node numbers this server may lease from the registry.",
							   "The lowest and the highest, such as \"1-1023\", within the node fields of the types generated, and apart from every uniqueid.node and uniqueid.shards of servers that do not lease.",
							   &uid_node_range_string,
							   "1-1023",
							   PGC_POSTMASTER, 0,
							   uid_check_node_range, uid_assign_node_range, NULL);
	DefineCustomIntVariable("uniqueid.node_lease",
							"How long a lease on a node number lasts in the registry.",
							"It is renewed every third of it; node-bearing IDs stop when it is not renewed in time.",
							&uid_node_lease_ms,
							10000, 1000, 3600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("uniqueid.node_skew",
							"Clock-skew allowance of the node leases.",
							"A holder stops this long before its lease ends; another server claims the number only this long after. Must be less than half of uniqueid.node_lease.",
							&uid_node_skew_ms,
							2000, 0, 600 * 1000,
							PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomStringVariable("uniqueid.node_leased",
							   "The node number leased from uniqueid.node_registry (read only).",
							   "Empty without a registry; \"none\" while no number is held.",
							   &uid_node_leased_string,
							   "",
							   PGC_INTERNAL, GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
							   NULL, NULL, uid_node_leased_show);
	MarkGUCPrefixReserved("uniqueid");
}

/* The error of uid_node_for: the node number does not fit a node field of `bits` bits. */
void
uid_node_does_not_fit(const char *typname, const char *field, int bits, int node)
{
	if (uid_node_negotiated)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("node number %d leased from the registry does not fit the %d-bit %s of type %s",
						node, bits, field, typname),
				 errhint("Set uniqueid.node_range within 0-%d on servers that generate %s values.",
						 (1 << bits) - 1, typname)));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("uniqueid.node %d does not fit the %d-bit %s of type %s", node, bits, field, typname),
			 errhint("Set uniqueid.node to 0..%d on servers that generate %s values.", (1 << bits) - 1, typname)));
}
