/*
 * node.c - the node number of this server's IDs: uniqueid.node, or the
 * number negotiated in a registry (uniqueid.node_registry,
 * doc/negotiated-nodes.md), which the registry's worker (registry.c)
 * leases and publishes here; the per-ID check of the lease; the node
 * number's parameters; and uniqueid_node() and uniqueid_node_status().
 *
 * The shared state: the claim (an epoch and the number, in one word), the
 * end of the lease on the monotonic clock, and the horizon recorded in the
 * registry (registry.c says how they fence a number and hand it on).  Only
 * the worker writes them, through the functions below; a backend reads the
 * claim before it makes an ID (uid_node_leased) and the three after
 * (uid_node_confirm): the same epoch, the lease not run out, the ID within
 * the horizon.  A new claim is published after the fence: the claim word
 * set to no number, the horizon and the lease, then the claim word with
 * the next epoch.
 */
#include "node.h"

#include <ctype.h>
#include <time.h>

#include "access/htup_details.h"
#include "clock.h"
#include "family.h"
#include "fmgr.h"
#include "funcapi.h"
#include "guc.h"
#include "layout.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "remote.h"
#include "stats.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

typedef struct UidNodeShared
{
	pg_atomic_uint64 claim;		/* epoch << 32 | number (UID_NO_NODE: none) */
	pg_atomic_uint64 safe_until_us; /* monotonic: IDs under the claim only before it */
	pg_atomic_uint64 horizon_ms;	/* recorded in the registry: no ID's unit ends past it */
	slock_t		mutex;			/* the rest */
	int64		token;			/* the claim's, for its renewals */
	TimestampTz claimed_at;
	TimestampTz renewed_at;
	TimestampTz lease_until;	/* on the registry's clock */
	int64		claim_ms;		/* how long the claim took, from the worker's start */
	char		error[UID_NODE_ERROR_LEN];	/* the worker's last failure */
	TimestampTz error_at;
} UidNodeShared;

static UidNodeShared *uid_node_shared = NULL;

int			uid_node = 0;
char	   *uid_node_registry = NULL;
bool		uid_node_negotiated = false;
int			uid_node_range_lo = 1;
int			uid_node_range_hi = 1023;
int			uid_node_lease_ms = 10000;
int			uid_node_skew_ms = 2000;
static char *uid_node_range_string = NULL;
static char *uid_node_leased_string = NULL;

/* what uid_node_leased read, for uid_node_confirm */
static uint64 uid_node_claim_seen;

/* shmem_request_hook work */
void
uid_node_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidNodeShared));
}

/* shmem_startup_hook work (AddinShmemInitLock held): no number held */
void
uid_node_shmem_startup(void)
{
	bool		found;

	uid_node_shared = ShmemInitStruct("uniqueid node", sizeof(UidNodeShared), &found);
	if (!found)
	{
		memset(uid_node_shared, 0, sizeof(UidNodeShared));
		pg_atomic_init_u64(&uid_node_shared->claim, UID_NO_NODE);
		pg_atomic_init_u64(&uid_node_shared->safe_until_us, 0);
		pg_atomic_init_u64(&uid_node_shared->horizon_ms, 0);
		SpinLockInit(&uid_node_shared->mutex);
	}
}

/* The registry as messages name it (no password). */
char *
uid_node_registry_display(void)
{
	return uid_conninfo_display(uid_node_registry);
}

/* The worker's last failure, or NULL; copied. */
static char *
uid_node_last_error(TimestampTz *at)
{
	char	   *e = NULL;

	SpinLockAcquire(&uid_node_shared->mutex);
	if (uid_node_shared->error[0] != '\0')
	{
		e = pnstrdup(uid_node_shared->error, UID_NODE_ERROR_LEN);
		if (at)
			*at = uid_node_shared->error_at;
	}
	SpinLockRelease(&uid_node_shared->mutex);
	return e;
}

/*
 * Counts a refusal of the registry's for typname's generator; next_id()'s
 * shard is the number (node), or, with none, a statistics slot of its own.
 */
static void
uid_node_refused(const char *typname, int node)
{
	uint32		stat = uid_family_stat(typname);

	if (stat == UID_STAT_SHARDID_NO_NODE && node >= 0 && node < UID_NSHARDS)
		stat = UID_SLOT_SHARDID + (uint32) node;
	uid_stat_refused(stat, UID_REFUSED_NO_NODE);
}

/* The error of uid_node_leased: no number held. */
pg_noreturn static void
uid_node_none(const char *typname)
{
	char	   *why = uid_node_last_error(NULL);

	uid_node_refused(typname, -1);

	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("cannot generate %s values: this server holds no node number from registry %s",
					typname, uid_node_registry_display()),
			 why ? errdetail("The last claim failed: %s", why) :
			 errdetail("The claim of a number in uniqueid.node_range %d-%d has not been made yet.",
					   uid_node_range_lo, uid_node_range_hi),
			 errhint("Types without a node field (uuid7, ulid, ksuid, objectid, shortid) need no number; uniqueid_node_status() shows the lease.")));
}

/*
 * uid_node_for's work with a registry: the number held, noted with its
 * epoch for uid_node_confirm; errors out when none is.
 */
int
uid_node_leased(const char *typname)
{
	uint64		c;

	if (unlikely(uid_node_shared == NULL))
		elog(ERROR, "uniqueid's node registry is not in shared memory");
	c = pg_atomic_read_u64(&uid_node_shared->claim);
	if (UID_CLAIM_NODE(c) == UID_NO_NODE)
		uid_node_none(typname);
	uid_node_claim_seen = c;
	/* the floor that a new claim raised, read by the generator, after the claim */
	pg_read_barrier();
	return (int) UID_CLAIM_NODE(c);
}

/*
 * At least the monotonic clock (uid_mono_us) now, cheaply: the coarse clock,
 * which the kernel keeps without reading the hardware, and which lags the
 * fine one by less than its resolution, added.  On every node-bearing ID
 * under a lease, where a fine reading cost as much as the rest of the call
 * on virtual machines whose clock source is not the TSC.
 */
static int64
uid_node_mono_coarse_us(void)
{
	static int64 resolution_us = -1;
	struct timespec ts;

	if (unlikely(resolution_us < 0))
	{
		if (clock_getres(CLOCK_MONOTONIC_COARSE, &ts) != 0 || ts.tv_sec > 0)
			resolution_us = 0;	/* no coarse clock: the fine one below */
		else
			resolution_us = ts.tv_nsec / 1000 + 1;
	}
	if (resolution_us == 0)
		return uid_mono_us();
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000 + resolution_us;
}

/*
 * With a registry: errors out unless the ID just made under the
 * number uid_node_leased gave, its time unit ending at end_ms, may be
 * returned.  The lease and horizon are read before the claim word, which
 * the worker sets to no number before it writes those of another claim.
 */
void
uid_node_confirm(const char *typname, uint64 end_ms)
{
	uint64		horizon_ms,
				safe_until_us,
				c;
	int64		now_us;
	uint32		node = UID_CLAIM_NODE(uid_node_claim_seen);

	pg_read_barrier();
	horizon_ms = pg_atomic_read_u64(&uid_node_shared->horizon_ms);
	safe_until_us = pg_atomic_read_u64(&uid_node_shared->safe_until_us);
	pg_read_barrier();
	c = pg_atomic_read_u64(&uid_node_shared->claim);
	now_us = uid_node_mono_coarse_us();
	if (c != uid_node_claim_seen || now_us >= (int64) safe_until_us)
	{
		char	   *why = uid_node_last_error(NULL);

		uid_node_refused(typname, (int) node);

		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("cannot generate %s values: the lease on node number %u from registry %s has run out",
						typname, node, uid_node_registry_display()),
				 errdetail("A lease not renewed in time stops node-bearing IDs %d ms before it ends (uniqueid.node_lease %d ms, uniqueid.node_skew %d ms)%s%s",
						   uid_node_skew_ms, uid_node_lease_ms, uid_node_skew_ms,
						   why ? "; the last renewal failed: " : ".", why ? why : ""),
				 errhint("They resume when the lease is renewed; types without a node field are not affected.")));
	}
	if (end_ms > horizon_ms)
	{
		uid_node_refused(typname, (int) node);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("cannot generate %s values: the clock has passed the horizon recorded for node number %u in registry %s",
						typname, node, uid_node_registry_display()),
				 errdetail("The horizon is %s; the next renewal records a later one.",
						   timestamptz_to_str((TimestampTz) horizon_ms * 1000 - UID_PG_EPOCH_UNIX_US))));
	}
}

/* ---- what the registry's worker (registry.c) writes: only it does ---- */

/* The claim word: epoch << 32 | the number held (UID_NO_NODE: none). */
uint64
uid_node_claim_word(void)
{
	return pg_atomic_read_u64(&uid_node_shared->claim);
}

/* Notes (or clears, why NULL) the worker's last failure. */
void
uid_node_note_error(const char *why)
{
	SpinLockAcquire(&uid_node_shared->mutex);
	strlcpy(uid_node_shared->error, why ? why : "", UID_NODE_ERROR_LEN);
	uid_node_shared->error_at = GetCurrentTimestamp();
	SpinLockRelease(&uid_node_shared->mutex);
}

/* Fences: no number held from now on (the epoch moves on). */
void
uid_node_fence(void)
{
	uint64		c = pg_atomic_read_u64(&uid_node_shared->claim);

	pg_atomic_write_u64(&uid_node_shared->claim, (UID_CLAIM_EPOCH(c) + 1) << 32 | UID_NO_NODE);
	pg_memory_barrier();
}

/* Publishes a claim of `node`: its horizon and lease, then the number, in the next epoch. */
void
uid_node_publish(uint32 node, int64 token, uint64 horizon_ms, int64 safe_until_us, TimestampTz lease_until)
{
	uint64		c;

	uid_node_fence();
	c = pg_atomic_read_u64(&uid_node_shared->claim);
	pg_atomic_write_u64(&uid_node_shared->horizon_ms, horizon_ms);
	pg_atomic_write_u64(&uid_node_shared->safe_until_us, (uint64) safe_until_us);
	SpinLockAcquire(&uid_node_shared->mutex);
	uid_node_shared->token = token;
	uid_node_shared->claimed_at = uid_node_shared->renewed_at = GetCurrentTimestamp();
	uid_node_shared->lease_until = lease_until;
	uid_node_shared->error[0] = '\0';
	SpinLockRelease(&uid_node_shared->mutex);
	pg_write_barrier();
	pg_atomic_write_u64(&uid_node_shared->claim, (UID_CLAIM_EPOCH(c) + 1) << 32 | node);
}

/*
 * A renewal of the lease succeeded: the horizon recorded and the end of the
 * lease move on (raise-only), and the last failure is cleared.
 */
void
uid_node_renewed(uint64 horizon_ms, int64 safe_until_us, TimestampTz lease_until)
{
	if (horizon_ms > pg_atomic_read_u64(&uid_node_shared->horizon_ms))
		pg_atomic_write_u64(&uid_node_shared->horizon_ms, horizon_ms);
	if ((uint64) safe_until_us > pg_atomic_read_u64(&uid_node_shared->safe_until_us))
		pg_atomic_write_u64(&uid_node_shared->safe_until_us, (uint64) safe_until_us);
	SpinLockAcquire(&uid_node_shared->mutex);
	uid_node_shared->renewed_at = GetCurrentTimestamp();
	uid_node_shared->lease_until = lease_until;
	uid_node_shared->error[0] = '\0';
	SpinLockRelease(&uid_node_shared->mutex);
}

/* How long the claim just published took, from the worker's start (uniqueid_node_status). */
void
uid_node_claim_took(int64 ms)
{
	SpinLockAcquire(&uid_node_shared->mutex);
	uid_node_shared->claim_ms = ms;
	SpinLockRelease(&uid_node_shared->mutex);
}

/* The token of the claim held (only the worker changes it). */
int64
uid_node_token(void)
{
	int64		token;

	SpinLockAcquire(&uid_node_shared->mutex);
	token = uid_node_shared->token;
	SpinLockRelease(&uid_node_shared->mutex);
	return token;
}

/* ---- the parameters ---- */

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

static const char *uid_node_leased_show(void);

/* Defines the node number's uniqueid.* parameters; called from _PG_init when preloaded. */
void
uid_node_define_gucs(void)
{
	DefineCustomIntVariable("uniqueid.node",
							"Identity of this server in generated IDs (snowflake node, sno partition, ...).",
							NULL,
							&uid_node,
							0, 0, 65535,
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

/* ---- SQL ---- */

/* Errors out unless uniqueid is preloaded. */
static void
uid_node_require_preload(void)
{
	if (uid_node_shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uniqueid must be loaded via shared_preload_libraries to have a node number"),
				 errhint("Add uniqueid to shared_preload_libraries in postgresql.conf and restart the server.")));
}

/* The number held now under a lease not run out, or -1. */
static int
uid_node_held(void)
{
	uint64		c = pg_atomic_read_u64(&uid_node_shared->claim);

	pg_read_barrier();
	if (UID_CLAIM_NODE(c) == UID_NO_NODE ||
		uid_mono_us() >= (int64) pg_atomic_read_u64(&uid_node_shared->safe_until_us))
		return -1;
	return (int) UID_CLAIM_NODE(c);
}

/*
 * The show hook of uniqueid.node_leased, which other servers read (the
 * group check): the number held, "none", or empty without a registry.
 */
static const char *
uid_node_leased_show(void)
{
	static char buf[16];
	int			node;

	if (!uid_node_negotiated || uid_node_shared == NULL)
		return "";
	node = uid_node_held();
	if (node < 0)
		return "none";
	snprintf(buf, sizeof(buf), "%d", node);
	return buf;
}

/* The node number of this server's IDs now: uniqueid.node, the number held under a lease, or -1. */
int
uid_node_in_use(void)
{
	if (!uid_node_negotiated)
		return uid_node;
	return uid_node_shared == NULL ? -1 : uid_node_held();
}

PG_FUNCTION_INFO_V1(uniqueid_node);
/*
 * uniqueid_node(): the node number of this server's IDs: uniqueid.node, or
 * with a registry the number leased (NULL while none is, or the lease has
 * run out).
 */
Datum
uniqueid_node(PG_FUNCTION_ARGS)
{
	int			node;

	uid_node_require_preload();
	if (!uid_node_negotiated)
		PG_RETURN_INT32(uid_node);
	node = uid_node_held();
	if (node < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT32(node);
}

PG_FUNCTION_INFO_V1(uniqueid_node_status);
/*
 * uniqueid_node_status(): the lease as this server sees it (one row; with
 * no registry, only the number, from uniqueid.node).
 */
Datum
uniqueid_node_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		out[10];
	bool		nulls[10];
	int			node;
	char	   *error;
	TimestampTz error_at = 0;

	uid_node_require_preload();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	memset(nulls, true, sizeof(nulls));
	if (!uid_node_negotiated)
	{
		out[1] = Int32GetDatum(uid_node);
		nulls[1] = false;
		PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, out, nulls)));
	}
	out[0] = CStringGetTextDatum(uid_node_registry_display());
	nulls[0] = false;
	node = uid_node_held();
	if (node >= 0)
	{
		int64		left_us = (int64) pg_atomic_read_u64(&uid_node_shared->safe_until_us) - uid_mono_us();
		Interval   *left = palloc0(sizeof(Interval));

		left->time = Max(left_us, 0);
		out[1] = Int32GetDatum(node);
		out[2] = IntervalPGetDatum(left);
		out[4] = TimestampTzGetDatum((TimestampTz) pg_atomic_read_u64(&uid_node_shared->horizon_ms) * 1000 - UID_PG_EPOCH_UNIX_US);
		nulls[1] = nulls[2] = nulls[4] = false;
		SpinLockAcquire(&uid_node_shared->mutex);
		out[3] = TimestampTzGetDatum(uid_node_shared->lease_until);
		out[5] = TimestampTzGetDatum(uid_node_shared->claimed_at);
		out[6] = TimestampTzGetDatum(uid_node_shared->renewed_at);
		out[7] = Int64GetDatum(uid_node_shared->claim_ms);
		SpinLockRelease(&uid_node_shared->mutex);
		nulls[3] = nulls[5] = nulls[6] = nulls[7] = false;
	}
	error = uid_node_last_error(&error_at);
	if (error)
	{
		out[8] = CStringGetTextDatum(error);
		out[9] = TimestampTzGetDatum(error_at);
		nulls[8] = nulls[9] = false;
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, out, nulls)));
}
