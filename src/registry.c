/*
 * registry.c - the node registry's worker (uniqueid.node_registry,
 * doc/negotiated-nodes.md): the client that leases this server's node
 * number from the registry database and publishes it in node.c's shared
 * state, which the generators read (node.h).
 *
 * A background worker connects to the registry database, where uniqueid's
 * table uniqueid_node_claims has a row per number leased, and claims the
 * lowest free number of uniqueid.node_range (uniqueid_claim_node, one
 * statement under the row's lock: of two servers racing for a number, one
 * wins).  It renews the lease every third of uniqueid.node_lease.
 *
 * Fencing.  The lease lasts uniqueid.node_lease from when the registry
 * wrote it, on the registry's clock; another server may claim the number
 * only uniqueid.node_skew after that.  This server counts the lease from
 * before it sent the claim or renewal, on its monotonic clock, and issues
 * node-bearing IDs only until uniqueid.node_skew before it ends: so it has
 * stopped before anyone else may take the number over, whatever the wall
 * clocks say, and resumes when a renewal succeeds.
 *
 * Handing a number on.  Each claim and renewal records in the number's row
 * a horizon: no ID this server makes under the number has a time unit that
 * ends past it (a later one is refused: uid_node_confirm), and it covers the
 * lease (the clock's high-water mark, or the durable horizon if later, plus
 * the lease, the lead allowance and the longest time unit).  A server that
 * claims a number moves its durable horizon and floor up to the horizon the
 * previous holder recorded before it makes an ID under it, as shard_adopt
 * does: every ID it makes then is above every ID of the previous holder.
 * Uniqueness rests on that horizon alone; the lease keeps one holder at a
 * time.
 *
 * The connection is remote.c's: made without blocking, every wait
 * interruptible and bounded.
 */
#include "registry.h"

#include <time.h>
#include <unistd.h>

#include "access/xlog.h"
#include "access/xloginsert.h"
#include "clock.h"
#include "guc.h"
#include "horizon.h"
#include "layout.h"
#include "miscadmin.h"
#include "node.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "postmaster/postmaster.h"
#include "remote.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

/* the longest time unit of a node-bearing family (rsxid's second), in the horizon recorded */
#define UID_NODE_LONGEST_UNIT_MS 1000

static volatile sig_atomic_t uid_node_stop = false;
/* the worker is raising the horizon, which may wait for synchronous standbys */
static volatile sig_atomic_t uid_node_raising = false;

/*
 * SIGTERM: the worker ends after the round under way (giving the number
 * back); a wait for synchronous standbys in the horizon's raise ends at
 * once, as a backend's would (the claim is not published then).
 */
static void
uid_node_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	uid_node_stop = true;
	if (uid_node_raising)
	{
		InterruptPending = true;
		ProcDiePending = true;
	}
	SetLatch(MyLatch);
	errno = save_errno;
}

/*
 * The registry's last WARNING during a query (its notice receiver): a
 * commit whose wait for the synchronous standbys was canceled reports
 * success with only a WARNING, the transaction committed on the primary
 * alone, so a query that drew one has an unknown outcome.
 */
static char uid_node_warning[UID_NODE_ERROR_LEN];

static void
uid_node_notice(void *arg, const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);

	if (severity != NULL && strcmp(severity, "NOTICE") != 0 && strcmp(severity, "INFO") != 0 &&
		strcmp(severity, "LOG") != 0 && strncmp(severity, "DEBUG", 5) != 0)
	{
		strlcpy(uid_node_warning, PQresultErrorMessage(res), sizeof(uid_node_warning));
		/* (one line in the messages that quote it) */
		for (char *p = uid_node_warning; *p; p++)
			if (*p == '\n')
				*p = ' ';
	}
}

/*
 * Runs a query with text parameters on the registry; returns its one result
 * of tuples (rows may be 0) once the registry has committed it, or errors
 * out.  Every result is read: an error after the rows (a deferred
 * constraint, a failed commit), a WARNING (a canceled wait for the
 * synchronous standbys), a lost connection or a timeout leave the outcome
 * unknown (08007): what the query wrote may or may not be there, and
 * nothing it answered may be used.
 */
static PGresult *
uid_node_query(PGconn *conn, const char *server, int timeout_ms, const char *sql,
			   int nparams, const char *const *params)
{
	PGresult   *res,
			   *more;
	char	   *failure = NULL;

	uid_node_warning[0] = '\0';
	if (!PQsendQueryParams(conn, sql, nparams, NULL, params, NULL, NULL, 0))
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("could not send a query to registry %s", server),
				 errdetail_internal("%s", pchomp(PQerrorMessage(conn)))));
	res = uid_remote_result(conn, timeout_ms, server);
	while ((more = uid_remote_result(conn, timeout_ms, server)) != NULL)
	{
		if (failure == NULL && PQresultStatus(more) != PGRES_TUPLES_OK &&
			PQresultStatus(more) != PGRES_COMMAND_OK)
			failure = pchomp(PQresultErrorMessage(more));
		PQclear(more);
	}
	if (res != NULL && PQresultStatus(res) == PGRES_TUPLES_OK && failure == NULL &&
		uid_node_warning[0] == '\0' && PQtransactionStatus(conn) == PQTRANS_IDLE)
		return res;
	if (res != NULL && PQresultStatus(res) == PGRES_FATAL_ERROR && failure == NULL &&
		uid_node_warning[0] == '\0' && PQstatus(conn) == CONNECTION_OK &&
		PQtransactionStatus(conn) == PQTRANS_IDLE)
	{
		/* the statement failed, and the registry is still there to say so: nothing was written */
		char	   *why = pchomp(PQresultErrorMessage(res));
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		PQclear(res);
		ereport(ERROR,
				(errcode(state != NULL && strcmp(state, "22023") == 0 ?
						 ERRCODE_INVALID_PARAMETER_VALUE : ERRCODE_CONNECTION_FAILURE),
				 errmsg("registry %s refused uniqueid's query", server),
				 errdetail_internal("%s", why)));
	}
	if (failure == NULL)
		failure = uid_node_warning[0] != '\0' ? pstrdup(uid_node_warning) :
			pchomp(res != NULL && PQresultStatus(res) != PGRES_TUPLES_OK ?
				   PQresultErrorMessage(res) : PQerrorMessage(conn));
	PQclear(res);
	ereport(ERROR,
			(errcode(ERRCODE_TRANSACTION_RESOLUTION_UNKNOWN),
			 errmsg("the outcome of uniqueid's query on registry %s is unknown", server),
			 errdetail_internal("%s", failure[0] != '\0' ? failure : "The connection was lost.")));
}

/* A bigint of the registry's answer (uid_remote_int64: a protocol violation if it is not one). */
static int64
uid_node_answer(PGresult *res, int col, const char *server)
{
	return uid_remote_int64(PQgetisnull(res, 0, col) ? "" : PQgetvalue(res, 0, col), PQfname(res, col),
							PG_INT64_MIN, PG_INT64_MAX, server);
}

/* The worker's connection and what it found there */
static PGconn *uid_node_conn = NULL;
static char *uid_node_schema = NULL;	/* uniqueid's schema in the registry, quoted */
static bool uid_node_registry_18 = false;	/* the registry has uniqueid 1.8 or later */
/* the registry's clock (Unix ms) read at connection, and the monotonic clock before it was asked */
static int64 uid_node_registry_ms = 0;
static int64 uid_node_registry_mono_us = 0;

static void
uid_node_disconnect(void)
{
	if (uid_node_conn != NULL)
		uid_remote_close(uid_node_conn);
	uid_node_conn = NULL;
}

/* Connects to the registry and finds uniqueid's schema there. */
static void
uid_node_connect(const char *server, int timeout_ms)
{
	PGresult   *res;

	uid_node_conn = uid_remote_connect(uid_node_registry, "uniqueid node registry", server, timeout_ms);
	PQsetNoticeReceiver(uid_node_conn, uid_node_notice, NULL);
	uid_node_registry_mono_us = uid_mono_us();
	/*
	 * (each claim is one statement in read committed: its row lock decides
	 * a race; the registry's WARNINGs reach the worker whatever the role or
	 * database says: one may make an answer's outcome unknown)
	 */
	res = uid_node_query(uid_node_conn, server, timeout_ms,
						 "SELECT pg_catalog.quote_ident(n.nspname), e.extversion,"
						 " pg_catalog.string_to_array(e.extversion, '.')::pg_catalog.int4[] >= '{1,6}',"
						 " pg_catalog.string_to_array(e.extversion, '.')::pg_catalog.int4[] >= '{1,8}',"
						 " pg_catalog.set_config('default_transaction_isolation', 'read committed', false),"
						 " pg_catalog.set_config('client_min_messages', 'warning', false),"
						 " pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) * 1000)::pg_catalog.int8"
						 " FROM pg_catalog.pg_extension e"
						 " JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace"
						 " WHERE e.extname = 'uniqueid'", 0, NULL);
	if (PQntuples(res) != 1)
	{
		PQclear(res);
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("registry %s does not have the extension uniqueid", server),
				 errhint("Run CREATE EXTENSION uniqueid in the registry database.")));
	}
	if (strcmp(PQgetvalue(res, 0, 2), "t") != 0)
	{
		char	   *version = pstrdup(PQgetvalue(res, 0, 1));

		PQclear(res);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("registry %s has uniqueid %s, which keeps no node claims", server, version),
				 errhint("Run ALTER EXTENSION uniqueid UPDATE in the registry database (1.6 or later).")));
	}
	if (uid_node_schema)
		pfree(uid_node_schema);
	uid_node_schema = MemoryContextStrdup(TopMemoryContext, PQgetvalue(res, 0, 0));
	uid_node_registry_18 = strcmp(PQgetvalue(res, 0, 3), "t") == 0;
	uid_node_registry_ms = uid_remote_int64(PQgetvalue(res, 0, 6), "clock", 0, PG_INT64_MAX / 1000, server);
	PQclear(res);
}

/*
 * Where the horizon recorded now starts: the highest reading of the clock
 * that an ID may have used (carried forward, uid_clock_high_water_peek),
 * or the clock now if later, but by at most ahead_ms past that highest
 * reading, nor past the registry's clock (read at connection, carried
 * forward) plus the skew allowance; or the highest durable horizon of the
 * server if later (the slots' states lie below it).  The worker's own
 * reading raises nothing: a clock stepped far ahead, at boot or while
 * running, with no ID made meanwhile, moves neither the generators nor the
 * horizon recorded (an ID made meanwhile past the horizon is refused, and
 * the next renewal records a horizon above it, within the registry's
 * allowance).  The registry adds ahead_ms: the lease, the lead and a unit.
 * The durable horizon is above every ID made, but it is no clock reading:
 * it counts as the horizon itself (less ahead_ms), not as a base the lead
 * is added to again.  (After a number's previous horizon was adopted, the
 * durable horizon is at least that, and the clock's high-water mark that
 * less the lead allowance and a unit, uid_horizon_adopt: the horizon
 * recorded carries the adopted floor as it is, and the lead of the holders
 * does not grow with each handover.)
 */
static int64
uid_node_base_ms(int64 ahead_ms)
{
	int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
	int64		seen_us = uid_clock_high_water_peek();
	int64		registry_us = (uid_node_registry_ms + (int64) uid_node_skew_ms) * 1000 +
		(uid_mono_us() - uid_node_registry_mono_us);
	int64		base_us = Min(now_us, Max(seen_us + ahead_ms * 1000, registry_us));

	return Max(Max(seen_us, base_us) / 1000, (int64) uid_horizon_known() - ahead_ms);
}

/* This server's name in the registry: cluster_name, else the host and port. */
static char *
uid_node_holder_name(void)
{
	char		host[256];

	if (cluster_name != NULL && cluster_name[0] != '\0')
		return pstrdup(cluster_name);
	if (gethostname(host, sizeof(host)) != 0)
		strlcpy(host, "localhost", sizeof(host));
	host[sizeof(host) - 1] = '\0';
	return psprintf("%s:%d", host, PostPortNumber);
}

/*
 * What a claim or renewal sends besides its own arguments: the lease and
 * the skew (ms), where the horizon recorded starts, and how far past it it
 * goes (the lease, the lead allowance and the longest unit), as text.
 */
typedef struct UidNodeTerms
{
	int			lease_ms;
	int			skew_ms;
	char	   *lease;
	char	   *skew;
	char	   *base;
	char	   *ahead;
} UidNodeTerms;

/*
 * The token of a claim sent whose outcome is unknown (it may have been
 * granted): the next claim sends it again, so that a registry of 1.8 or
 * later answers with the number it granted, if it did, rather than another
 * (a registry of 1.6 or 1.7 leaves that one to run out).
 */
static int64 uid_node_pending_token = 0;
static bool uid_node_pending = false;

/*
 * Claims a number (the worker holds none): the registry's answer, checked;
 * the server's horizon raised to the previous holder's; then the claim
 * published.  sent_us: the monotonic clock before the claim was sent.
 */
static void
uid_node_claim(const char *server, int timeout_ms, const UidNodeTerms *t, int64 sent_us,
			   TimestampTz started)
{
	int64		token;
	const char *params[9];
	PGresult   *res;
	int64		node,
				previous_ms,
				horizon_ms,
				until_ms;

	if (!uid_node_pending)
	{
		if (!pg_strong_random(&uid_node_pending_token, sizeof(uid_node_pending_token)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate a random token for the claim of a node number")));
		uid_node_pending = true;
	}
	token = uid_node_pending_token;
	params[0] = psprintf("%d", uid_node_range_lo);
	params[1] = psprintf("%d", uid_node_range_hi);
	params[2] = psprintf(UINT64_FORMAT, GetSystemIdentifier());
	params[3] = uid_node_holder_name();
	params[4] = psprintf(INT64_FORMAT, token);
	params[5] = t->lease;
	params[6] = t->skew;
	params[7] = t->base;
	params[8] = t->ahead;
	res = uid_node_query(uid_node_conn, server, timeout_ms,
						 psprintf("SELECT number, previous_horizon_ms, horizon_ms, lease_until_ms"
								  " FROM %s.uniqueid_claim_node($1::pg_catalog.int4, $2::pg_catalog.int4,"
								  " $3::pg_catalog.numeric, $4::pg_catalog.text, $5::pg_catalog.int8,"
								  " $6::pg_catalog.int4, $7::pg_catalog.int4, $8::pg_catalog.int8, $9::pg_catalog.int4)",
								  uid_node_schema), 9, params);
	/* the registry committed its answer: whatever it is, the token's claim is known */
	uid_node_pending = false;
	if (PQntuples(res) != 1)
	{
		PQclear(res);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("no node number of uniqueid.node_range %d-%d is free in registry %s",
						uid_node_range_lo, uid_node_range_hi, server),
				 errhint("Numbers whose lease ran out are free uniqueid.node_skew after; widen the range for more servers.")));
	}
	if (PQgetisnull(res, 0, 0) && !PQgetisnull(res, 0, 3))
	{
		until_ms = uid_node_answer(res, 3, server);
		PQclear(res);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("registry %s claims no node number before %s", server,
						timestamptz_to_str((TimestampTz) until_ms * 1000 - UID_PG_EPOCH_UNIX_US)),
				 errdetail("It is new, or was restarted, promoted or restored: it may have forgotten claims, so it grants none for the lease, the skew and lead allowances and the longest unit.")));
	}
	node = uid_node_answer(res, 0, server);
	previous_ms = uid_node_answer(res, 1, server);
	horizon_ms = uid_node_answer(res, 2, server);
	until_ms = uid_node_answer(res, 3, server);
	PQclear(res);
	/* (the horizon may equal the previous one: no room until a renewal records a later one) */
	if (node < uid_node_range_lo || node > uid_node_range_hi || previous_ms < 0 || horizon_ms < previous_ms)
		ereport(ERROR,
				(errcode(ERRCODE_PROTOCOL_VIOLATION),
				 errmsg("registry %s answered an invalid claim: number " INT64_FORMAT ", horizons " INT64_FORMAT " and " INT64_FORMAT,
						server, node, previous_ms, horizon_ms)));
	/* above every ID the previous holder made under the number, durably, before the first */
	if (previous_ms > 0)
	{
		uid_node_raising = true;
		if (uid_node_stop)
			ereport(ERROR, (errmsg("uniqueid: shutting down")));
		(void) uid_horizon_adopt((uint64) previous_ms);
		uid_node_raising = false;
	}
	uid_node_publish((uint32) node, token, (uint64) horizon_ms, sent_us + (int64) (t->lease_ms - t->skew_ms) * 1000,
					 (TimestampTz) until_ms * 1000 - UID_PG_EPOCH_UNIX_US);
	uid_node_claim_took(TimestampDifferenceMilliseconds(started, GetCurrentTimestamp()));
	ereport(LOG,
			(errmsg("uniqueid: leased node number " INT64_FORMAT " from registry %s", node, server),
			 previous_ms > 0 ?
			 errdetail("IDs start above %s, the number's previous horizon in the registry, or its floor after a grace period.",
					   timestamptz_to_str((TimestampTz) previous_ms * 1000 - UID_PG_EPOCH_UNIX_US)) : 0));
}

/*
 * Renews the lease of claim c: the lease and the horizon move on; when the
 * number has another holder now, fences (the next round claims another).
 */
static void
uid_node_renew(const char *server, int timeout_ms, const UidNodeTerms *t, int64 sent_us, uint64 c)
{
	const char *params[6];
	PGresult   *res;
	int64		horizon_ms,
				until_ms,
				safe_us = sent_us + (int64) (t->lease_ms - t->skew_ms) * 1000;

	params[0] = psprintf("%u", UID_CLAIM_NODE(c));
	params[1] = psprintf(INT64_FORMAT, uid_node_token());
	params[2] = t->lease;
	params[3] = t->skew;
	params[4] = t->base;
	params[5] = t->ahead;
	res = uid_node_query(uid_node_conn, server, timeout_ms,
						 psprintf("SELECT horizon_ms, lease_until_ms FROM %s.uniqueid_renew_node($1::pg_catalog.int4,"
								  " $2::pg_catalog.int8, $3::pg_catalog.int4, $4::pg_catalog.int4, $5::pg_catalog.int8,"
								  " $6::pg_catalog.int4)", uid_node_schema), 6, params);
	/*
	 * No row: another claim holds the number (a registry of 1.6 or 1.7 also
	 * answers so for the cases below).  A row with no horizon: the registry
	 * may have forgotten claims (it was restarted, promoted or restored)
	 * when the lease was ending or had ended, so it does not renew it: the
	 * number may have changed hands in what it forgot; it is claimed anew,
	 * above the registry's floor, once the grace period that the row's
	 * lease_until_ms ends is over.  With neither: the registry has no claim
	 * of the number at all (it forgot it).  In each case the server fences
	 * and claims again.
	 */
	if (PQntuples(res) != 1 || PQgetisnull(res, 0, 0))
	{
		char	   *why;

		if (PQntuples(res) != 1)
			why = psprintf("lost node number %u: registry %s %s", UID_CLAIM_NODE(c), server,
						   uid_node_registry_18 ? "records another claim of it (another server's, or an earlier one of this server's)" :
						   "no longer records this server's claim of it");
		else if (PQgetisnull(res, 0, 1))
			why = psprintf("lost node number %u: registry %s has no claim of it (it may have been restarted from a backup, failed over or restored)",
						   UID_CLAIM_NODE(c), server);
		else
		{
			until_ms = uid_node_answer(res, 1, server);
			why = psprintf("lost node number %u: registry %s renews its lease no more, as it may have forgotten claims "
						   "(it was restarted, promoted or restored) when the lease was ending or had ended; it is claimed "
						   "anew after the registry's grace period, which ends at %s",
						   UID_CLAIM_NODE(c), server,
						   timestamptz_to_str((TimestampTz) until_ms * 1000 - UID_PG_EPOCH_UNIX_US));
		}
		PQclear(res);
		uid_node_fence();
		uid_node_note_error(why);
		ereport(WARNING, (errmsg("uniqueid: %s", why), errdetail("A new number is claimed.")));
		return;
	}
	horizon_ms = uid_node_answer(res, 0, server);
	until_ms = uid_node_answer(res, 1, server);
	PQclear(res);
	uid_node_renewed((uint64) horizon_ms, safe_us, (TimestampTz) until_ms * 1000 - UID_PG_EPOCH_UNIX_US);
}

/*
 * One round of the worker: connects if need be, then claims a number or
 * renews the lease.  Returns when (monotonic) the next round is due: a
 * third of the lease after this one was sent, or at once after a number
 * was lost.
 */
static int64
uid_node_round(const char *server, TimestampTz started)
{
	UidNodeTerms t = {.lease_ms = uid_node_lease_ms,.skew_ms = uid_node_skew_ms};
	int			timeout_ms = Min(Max(t.lease_ms / 3, 1000), 10000);
	uint64		c = uid_node_claim_word();
	int64		sent_us;
	int			ahead_ms;

	if (2 * t.skew_ms >= t.lease_ms)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uniqueid.node_skew (%d ms) must be less than half of uniqueid.node_lease (%d ms)",
						t.skew_ms, t.lease_ms)));
	if (uid_node_conn == NULL)
		uid_node_connect(server, timeout_ms);
	t.lease = psprintf("%d", t.lease_ms);
	t.skew = psprintf("%d", t.skew_ms);
	ahead_ms = t.lease_ms + uid_max_clock_lead_ms + UID_NODE_LONGEST_UNIT_MS;
	t.base = psprintf(INT64_FORMAT, uid_node_base_ms(ahead_ms));
	t.ahead = psprintf("%d", ahead_ms);
	sent_us = uid_mono_us();
	if (UID_CLAIM_NODE(c) == UID_NO_NODE)
		uid_node_claim(server, timeout_ms, &t, sent_us, started);
	else
	{
		uid_node_renew(server, timeout_ms, &t, sent_us, c);
		if (UID_CLAIM_NODE(uid_node_claim_word()) == UID_NO_NODE)
			return uid_mono_us();
	}
	return sent_us + (int64) t.lease_ms * 1000 / 3;
}

/*
 * At shutdown: fences, then gives the number back (its lease ended now, its
 * horizon lowered to the server's durable horizon, above every ID made
 * under it), trying for a second at most a step (connecting, finding the schema,
 * the release: up to 3 s with no connection open).
 */
static void
uid_node_release(const char *server)
{
	uint64		c = uid_node_claim_word();
	const char *params[3];

	if (UID_CLAIM_NODE(c) == UID_NO_NODE)
		return;
	uid_node_fence();
	params[0] = psprintf("%u", UID_CLAIM_NODE(c));
	params[1] = psprintf(INT64_FORMAT, uid_node_token());
	/* (every ID returned under the number was made durable before the fence) */
	params[2] = psprintf(UINT64_FORMAT, uid_horizon_known());
	PG_TRY();
	{
		if (uid_node_conn == NULL)
			uid_node_connect(server, 1000);
		PQclear(uid_node_query(uid_node_conn, server, 1000,
							   psprintf("SELECT %s.uniqueid_release_node($1::pg_catalog.int4, $2::pg_catalog.int8,"
										" $3::pg_catalog.int8)", uid_node_schema),
							   3, params));
		ereport(LOG, (errmsg("uniqueid: gave node number %u back to registry %s", UID_CLAIM_NODE(c), server)));
	}
	PG_CATCH();
	{
		EmitErrorReport();
		FlushErrorState();
	}
	PG_END_TRY();
}

/*
 * The worker's main: a round when one is due (a failure noted, logged when
 * it is the first since a success or a minute after the last logged, and
 * tried again in a tenth of the lease, at most a second), else it sleeps.
 */
void
uid_node_worker_main(Datum arg)
{
	MemoryContext round_cxt;
	char	   *server;
	int64		next_us = 0;
	int64		logged_us = 0;
	bool		failing = false;
	TimestampTz started = GetCurrentTimestamp();

	pqsignal(SIGTERM, uid_node_sigterm);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	round_cxt = AllocSetContextCreate(TopMemoryContext, "uniqueid node registry", ALLOCSET_DEFAULT_SIZES);
	server = MemoryContextStrdup(TopMemoryContext, uid_node_registry_display());

	while (!uid_node_stop)
	{
		int64		now_us;

		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		if (uid_mono_us() >= next_us)
		{
			MemoryContextSwitchTo(round_cxt);
			PG_TRY();
			{
				next_us = uid_node_round(server, started);
				if (failing)
					ereport(LOG, (errmsg("uniqueid: registry %s answers again", server)));
				failing = false;
			}
			PG_CATCH();
			{
				ErrorData  *e;

				HOLD_INTERRUPTS();
				uid_node_raising = false;
				/* what an error in the horizon's raise leaves: its lock, its file, its WAL record */
				LWLockReleaseAll();
				AtEOXact_Files(false);
				XLogResetInsertion();
				MemoryContextSwitchTo(round_cxt);
				e = CopyErrorData();
				now_us = uid_mono_us();
				if (!failing || now_us - logged_us >= 60 * USECS_PER_SEC)
				{
					EmitErrorReport();
					logged_us = now_us;
				}
				FlushErrorState();
				uid_node_note_error(e->detail ? psprintf("%s: %s", e->message, e->detail) : e->message);
				uid_node_disconnect();
				failing = true;
				next_us = now_us + Min((int64) uid_node_lease_ms * 100, USECS_PER_SEC);
				RESUME_INTERRUPTS();
			}
			PG_END_TRY();
			MemoryContextSwitchTo(TopMemoryContext);
			MemoryContextReset(round_cxt);
		}
		now_us = uid_mono_us();
		if (next_us > now_us)
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 (long) ((next_us - now_us + 999) / 1000), PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
	}
	uid_node_release(server);
	uid_node_disconnect();
	/* (1: restarted, unless the server is shutting down; 0 would unregister it) */
	proc_exit(1);
}

/* From _PG_init: the worker, when a registry is set (not under pg_upgrade). */
void
uid_node_register_worker(void)
{
	BackgroundWorker w;

	if (!uid_node_negotiated || IsBinaryUpgrade)
		return;
	memset(&w, 0, sizeof(w));
	w.bgw_flags = BGWORKER_SHMEM_ACCESS;
	w.bgw_start_time = BgWorkerStart_RecoveryFinished;
	w.bgw_restart_time = 1;
	snprintf(w.bgw_library_name, BGW_MAXLEN, "uniqueid");
	snprintf(w.bgw_function_name, BGW_MAXLEN, "uid_node_worker_main");
	snprintf(w.bgw_name, BGW_MAXLEN, "uniqueid node registry");
	snprintf(w.bgw_type, BGW_MAXLEN, "uniqueid node registry");
	RegisterBackgroundWorker(&w);
}
