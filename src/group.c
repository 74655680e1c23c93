/*
 * group.c - the uniqueid settings of another server, read over libpq, for
 * uniqueid_group_settings(): the servers of a group that replicate to each
 * other (active-active under logical replication, doc/active-active.md)
 * must each have their own uniqueid.node, and each logical shard must be
 * generated on one of them only.  uniqueid_group_settings() (SQL) reads this
 * server's settings and, through this function, those of the publisher of
 * every subscription of the database; uniqueid_check_group() names the
 * servers that could make the same IDs.
 *
 * The connection is libpq's, made the way the server's own code does inside
 * a backend (libpq-be-fe-helpers.h: interruptible, its file descriptor
 * accounted for), and every wait is bounded: connect_timeout, unless the
 * connection string sets its own, and as long again for the answer.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq-fe.h"
#include "libpq/libpq-be-fe-helpers.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "compat.h"
#include "layout.h"

/* how long to wait for the connection, and then for the answer */
#define UID_REMOTE_TIMEOUT_S 10

/*
 * What the remote server answers: its settings (NULL where uniqueid is not
 * loaded there), its clock, and what tells one server from another (the
 * postmaster's start and the port), all in forms that do not depend on its
 * DateStyle or TimeZone.
 */
static const char uid_remote_query[] =
	"SELECT current_setting('uniqueid.node', true), current_setting('uniqueid.cluster', true),"
	" current_setting('uniqueid.shards', true),"
	" (extract(epoch FROM clock_timestamp()) * 1000000)::bigint,"
	" (extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint,"
	" current_setting('port')";

/* A connection string as messages show it: service, host, port and database, no password. */
static char *
uid_conninfo_display(const char *conninfo)
{
	static const char *const shown[] = {"service", "host", "hostaddr", "port", "dbname"};
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	StringInfoData s;

	if (opts == NULL)
		return pstrdup("(a connection string that does not parse)");
	initStringInfo(&s);
	for (int i = 0; i < lengthof(shown); i++)
		for (PQconninfoOption *o = opts; o->keyword != NULL; o++)
			if (strcmp(o->keyword, shown[i]) == 0 && o->val != NULL && o->val[0] != '\0')
				appendStringInfo(&s, "%s%s=%s", s.len > 0 ? " " : "", o->keyword, o->val);
	PQconninfoFree(opts);
	if (s.len == 0)
		appendStringInfoString(&s, "(libpq's defaults)");
	return s.data;
}

/* The answer to the query sent on conn, waiting at most until `deadline`. */
static PGresult *
uid_remote_result(PGconn *conn, TimestampTz deadline, const char *server)
{
	while (PQisBusy(conn))
	{
		long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
		int			rc;

		if (left <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("server %s did not answer within %d s", server, UID_REMOTE_TIMEOUT_S)));
		rc = WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_SOCKET_READABLE | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							   PQsocket(conn), left, PG_WAIT_EXTENSION);
		if (rc & WL_LATCH_SET)
			ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(conn))
			break;
	}
	return PQgetResult(conn);
}

PG_FUNCTION_INFO_V1(uniqueid_remote_settings);
/*
 * uniqueid_remote_settings(conninfo): the uniqueid settings of the server
 * that conninfo reaches, with its clock's offset from this server's
 * (its clock at the middle of the round trip, less this server's) and the
 * round trip, which bounds that offset's error (half of it).  For
 * superusers, and for roles granted it whose connections use a password
 * (as dblink requires): the connection is this server's.
 */
Datum
uniqueid_remote_settings(PG_FUNCTION_ARGS)
{
	char	   *conninfo = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *server = uid_conninfo_display(conninfo);
	const char *keywords[] = {"connect_timeout", "dbname", "fallback_application_name", NULL};
	const char *values[] = {CppAsString2(UID_REMOTE_TIMEOUT_S), conninfo, "uniqueid", NULL};
	TupleDesc	tupdesc;
	Datum		out[9];
	bool		nulls[9] = {0};
	PGconn	   *volatile conn = NULL;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	PG_TRY();
	{
		PGresult   *res;
		TimestampTz sent,
					received,
					remote;

		/* (the connection string's own settings come after ours, and win) */
		conn = libpqsrv_connect_params(keywords, values, true, PG_WAIT_EXTENSION);
		if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
			ereport(ERROR,
					(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
					 errmsg("could not connect to server %s", server),
					 errdetail_internal("%s", conn ? pchomp(PQerrorMessage(conn)) : "out of memory")));
		if (!superuser() && !PQconnectionUsedPassword(conn))
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
					 errmsg("password is required to read the settings of server %s", server),
					 errdetail("Non-superusers must give a password in the connection string or a password file.")));

		sent = GetCurrentTimestamp();
		if (!PQsendQuery(conn, uid_remote_query))
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("could not send a query to server %s", server),
					 errdetail_internal("%s", pchomp(PQerrorMessage(conn)))));
		res = uid_remote_result(conn, sent + UID_REMOTE_TIMEOUT_S * USECS_PER_SEC, server);
		received = GetCurrentTimestamp();
		if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 || PQnfields(res) != 6)
		{
			char	   *why = pchomp(res ? PQresultErrorMessage(res) : PQerrorMessage(conn));

			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("could not read the settings of server %s", server),
					 errdetail_internal("%s", why)));
		}
		if (PQgetisnull(res, 0, 0))
		{
			PQclear(res);
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("server %s does not have uniqueid loaded", server),
					 errhint("Every server of the group needs uniqueid in shared_preload_libraries.")));
		}
		/* Unix microseconds to PostgreSQL's */
		remote = strtoi64(PQgetvalue(res, 0, 3), NULL, 10) - UID_PG_EPOCH_UNIX_US;
		out[0] = CStringGetTextDatum(server);
		out[1] = Int32GetDatum(pg_strtoint32(PQgetvalue(res, 0, 0)));
		out[2] = Int32GetDatum(pg_strtoint32(PQgetvalue(res, 0, 1)));
		out[3] = CStringGetTextDatum(PQgetvalue(res, 0, 2));
		out[4] = TimestampTzGetDatum(strtoi64(PQgetvalue(res, 0, 4), NULL, 10) - UID_PG_EPOCH_UNIX_US);
		out[5] = Int32GetDatum(pg_strtoint32(PQgetvalue(res, 0, 5)));
		out[6] = TimestampTzGetDatum(remote);
		out[7] = DirectFunctionCall2(timestamp_mi, TimestampTzGetDatum(remote),
									 TimestampTzGetDatum(sent + (received - sent) / 2));
		out[8] = DirectFunctionCall2(timestamp_mi, TimestampTzGetDatum(received), TimestampTzGetDatum(sent));
		PQclear(res);
	}
	PG_FINALLY();
	{
		libpqsrv_disconnect(conn);
	}
	PG_END_TRY();

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, out, nulls)));
}
