/*
 * group.c - the uniqueid settings of another server, read over libpq, for
 * uniqueid_group_settings(): the servers of a group that replicate to each
 * other (active-active under logical replication, doc/active-active.md)
 * must each have their own node number (uniqueid.node, or one leased from a
 * registry: node.c), and each logical shard must be generated on one of
 * them only.  uniqueid_group_settings() (SQL) reads this
 * server's settings and, through this function, those of the publisher of
 * every subscription of the database; uniqueid_check_group() names the
 * servers that could make the same IDs.
 *
 * The connection is remote.c's: made without blocking inside the backend,
 * every wait interruptible and bounded (10 s for the connection, 10 s for
 * each result).  The query runs
 * with search_path set to pg_catalog, so the remote role's own functions
 * and operators cannot stand in for the settings, and it reads pg_settings,
 * where a uniqueid.* value set without the library loaded does not appear.
 */
#include "group.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "layout.h"
#include "remote.h"

/* how long to wait for the connection, and then for the answer */
#define UID_REMOTE_TIMEOUT_S 10

/*
 * What the remote server answers: its settings (NULL where uniqueid is not
 * loaded there; the leased node number NULL where uniqueid is older than
 * 1.6), its clock, and what tells one server from another (the
 * cluster's system identifier, the postmaster's start and the port), in
 * forms that do not depend on its DateStyle or TimeZone.
 */
static const char uid_remote_query[] =
	"SET search_path = pg_catalog, pg_temp; "
	"SELECT (SELECT setting FROM pg_catalog.pg_settings WHERE name = 'uniqueid.node'),"
	" (SELECT setting FROM pg_catalog.pg_settings WHERE name = 'uniqueid.cluster'),"
	" (SELECT setting FROM pg_catalog.pg_settings WHERE name = 'uniqueid.shards'),"
	" (extract(epoch FROM pg_catalog.clock_timestamp()) * 1000000)::bigint,"
	" (extract(epoch FROM pg_catalog.pg_postmaster_start_time()) * 1000000)::bigint,"
	" pg_catalog.current_setting('port'),"
	" (SELECT system_identifier FROM pg_catalog.pg_control_system()),"
	" (SELECT setting FROM pg_catalog.pg_settings WHERE name = 'uniqueid.node_leased')";
#define UID_REMOTE_COLUMNS 8

/* Unix microseconds from the answer, as a timestamptz (years 1970 to 9999). */
static TimestampTz
uid_remote_time(const char *text, const char *what, const char *server)
{
	return uid_remote_int64(text, what, 0, INT64CONST(253402300799) * USECS_PER_SEC, server) - UID_PG_EPOCH_UNIX_US;
}

PG_FUNCTION_INFO_V1(uniqueid_remote_settings);
/*
 * uniqueid_remote_settings(conninfo): the uniqueid settings of the server
 * that conninfo reaches, with its clock's offset from this server's (its
 * clock at the middle of the round trip, less this server's) and the round
 * trip, which bounds that offset's error (half of it).  Its node is the
 * number in use there (NULL while a server that leases holds none), and
 * leased says whether a registry gave it.  For superusers,
 * and for roles granted it whose connection strings give a password, which
 * the server must ask for (as dblink requires): the connection is this
 * server's, with its password files and certificates.
 */
Datum
uniqueid_remote_settings(PG_FUNCTION_ARGS)
{
	char	   *conninfo = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *server = uid_conninfo_display(conninfo);
	char	   *answer[UID_REMOTE_COLUMNS];
	TimestampTz sent,
				received,
				remote;
	TupleDesc	tupdesc;
	Datum		out[11];
	bool		nulls[11] = {0};
	bool		leased;
	PGconn	   *volatile conn = NULL;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (!superuser() && !uid_conninfo_has_password(conninfo))
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required to read the settings of server %s", server),
				 errdetail("Non-superusers must give a password in the connection string.")));

	conn = uid_remote_connect(conninfo, "uniqueid", server, UID_REMOTE_TIMEOUT_S * 1000);
	PG_TRY();
	{
		PGresult   *res;

		if (!superuser() && !PQconnectionUsedPassword(conn))
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
					 errmsg("password is required to read the settings of server %s", server),
					 errdetail("The server did not ask for the password.")));

		sent = GetCurrentTimestamp();
		if (!PQsendQuery(conn, uid_remote_query))
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("could not send a query to server %s", server),
					 errdetail_internal("%s", pchomp(PQerrorMessage(conn)))));
		/* the SET, then the row */
		for (int i = 0; i < 2; i++)
		{
			bool		ok;

			res = uid_remote_result(conn, UID_REMOTE_TIMEOUT_S * 1000, server);
			ok = i == 0 ? PQresultStatus(res) == PGRES_COMMAND_OK
				: (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && PQnfields(res) == UID_REMOTE_COLUMNS);
			if (!ok)
			{
				char	   *why;

				if (res == NULL)
					why = pchomp(PQerrorMessage(conn));
				else if (PQresultStatus(res) == PGRES_TUPLES_OK)
					why = psprintf("Expected 1 row of %d columns, got %d rows of %d.",
								   UID_REMOTE_COLUMNS, PQntuples(res), PQnfields(res));
				else
					why = pchomp(PQresultErrorMessage(res));
				PQclear(res);
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("could not read the settings of server %s", server),
						 errdetail_internal("%s", why)));
			}
			if (i == 1)
				for (int c = 0; c < UID_REMOTE_COLUMNS; c++)
					answer[c] = PQgetisnull(res, 0, c) ? NULL : pstrdup(PQgetvalue(res, 0, c));
			PQclear(res);
		}
		received = GetCurrentTimestamp();
	}
	PG_FINALLY();
	{
		uid_remote_close(conn);
	}
	PG_END_TRY();

	if (answer[0] == NULL || answer[1] == NULL || answer[2] == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("server %s does not have uniqueid loaded", server),
				 errhint("Every server of the group needs uniqueid in shared_preload_libraries.")));
	/* (the last, uniqueid.node_leased, is missing where uniqueid is older than 1.6) */
	for (int c = 3; c < UID_REMOTE_COLUMNS - 1; c++)
		if (answer[c] == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_PROTOCOL_VIOLATION),
					 errmsg("server %s answered a null in column %d", server, c + 1)));
	remote = uid_remote_time(answer[3], "clock", server);
	out[0] = CStringGetTextDatum(server);
	/* the node number in use: leased from a registry (NULL while none is), or uniqueid.node */
	leased = answer[7] != NULL && answer[7][0] != '\0';
	if (!leased)
		out[1] = Int32GetDatum((int32) uid_remote_int64(answer[0], "uniqueid.node", 0, PG_INT32_MAX, server));
	else if (strcmp(answer[7], "none") == 0)
		nulls[1] = true;
	else
		out[1] = Int32GetDatum((int32) uid_remote_int64(answer[7], "uniqueid.node_leased", 0, 65535, server));
	out[2] = Int32GetDatum((int32) uid_remote_int64(answer[1], "uniqueid.cluster", 0, PG_INT32_MAX, server));
	out[3] = CStringGetTextDatum(answer[2]);
	out[4] = TimestampTzGetDatum(uid_remote_time(answer[4], "postmaster start", server));
	out[5] = Int32GetDatum((int32) uid_remote_int64(answer[5], "port", 1, 65535, server));
	out[6] = TimestampTzGetDatum(remote);
	out[7] = DirectFunctionCall2(timestamp_mi, TimestampTzGetDatum(remote),
								 TimestampTzGetDatum(sent + (received - sent) / 2));
	out[8] = DirectFunctionCall2(timestamp_mi, TimestampTzGetDatum(received), TimestampTzGetDatum(sent));
	out[9] = Int64GetDatum(uid_remote_int64(answer[6], "system identifier", PG_INT64_MIN, PG_INT64_MAX, server));
	/* (1.5's declaration of the function has no column leased: heap_form_tuple leaves it out) */
	out[10] = BoolGetDatum(leased);
	if (tupdesc->natts != 10 && tupdesc->natts != 11)
		elog(ERROR, "uniqueid_remote_settings() is declared with %d columns", tupdesc->natts);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, out, nulls)));
}
