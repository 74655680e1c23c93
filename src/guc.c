/*
 * guc.c - the configuration parameters of the generators, and the parsing
 * of uniqueid.shards into a bitmap of owned logical shards.  The node
 * number's parameters are defined by node.c, which this file's range
 * parser serves too.
 */
#include "guc.h"

#include <ctype.h>

#include "utils/guc.h"

int			uid_max_clock_lead_ms = 1000;
int			uid_cluster = 0;
int			uid_sno_sequence_min = 0;
int			uid_sno_sequence_max = 65535;
static char *uid_shards_string = NULL;

/* set by the assign hook of uniqueid.shards from its check hook's work */
const uint8 *uid_shard_map = NULL;

/*
 * Parses a number or a range "N-M" (spaces around the dash) at *p into lo
 * and hi, advancing *p past it and the spaces after it.  Returns NULL on
 * success, or a message describing the problem (msg, of `size` bytes),
 * naming what the numbers are.
 */
const char *
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

/* The text of uniqueid.shards, for messages. */
const char *
uid_shards_setting(void)
{
	return uid_shards_string ? uid_shards_string : "";
}

/*
 * Defines the generators' uniqueid.* parameters; called from _PG_init when
 * preloaded (module.c then reserves the prefix).
 */
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
}
