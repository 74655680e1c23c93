/*
 * remote.c - a libpq connection made from inside a server process, for the
 * group check (group.c) and the node registry's worker (registry.c): started
 * without blocking, its file descriptor accounted for (AcquireExternalFD),
 * every wait on the latch and the socket, interruptible and bounded by a
 * deadline (libpq's connect_timeout applies to blocking connections only).
 */
#include "remote.h"

#include "lib/stringinfo.h"
#include <errno.h>

#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "utils/wait_event.h"

/*
 * A connection string as messages show it: service, host, port and
 * database, never a password (nor a dbname that is itself a connection
 * string or URI, which may hold one).
 */
char *
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
			if (strcmp(o->keyword, shown[i]) == 0 && o->val != NULL && o->val[0] != '\0' &&
				strchr(o->val, '=') == NULL && strstr(o->val, "://") == NULL)
				appendStringInfo(&s, "%s%s=%s", s.len > 0 ? " " : "", o->keyword, o->val);
	PQconninfoFree(opts);
	if (s.len == 0)
		appendStringInfoString(&s, "(libpq's defaults)");
	return s.data;
}

/* Does the connection string give a password itself (not from a file)? */
bool
uid_conninfo_has_password(const char *conninfo)
{
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	bool		found = false;

	if (opts == NULL)
		return false;
	for (PQconninfoOption *o = opts; o->keyword != NULL; o++)
		if (strcmp(o->keyword, "password") == 0 && o->val != NULL && o->val[0] != '\0')
			found = true;
	PQconninfoFree(opts);
	return found;
}

/*
 * Milliseconds left of a wait of timeout_ms that began at `start`; the error
 * of one that ran out.
 */
static long
uid_remote_left(TimestampTz start, int timeout_ms, const char *server, const char *what)
{
	long		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(),
													   TimestampTzPlusMilliseconds(start, timeout_ms));

	if (left <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 timeout_ms % 1000 == 0 ?
				 errmsg("server %s did not %s within %d s", server, what, timeout_ms / 1000) :
				 errmsg("server %s did not %s within %d ms", server, what, timeout_ms)));
	return left;
}

/*
 * A connection to conninfo (which may also be a database name), made within
 * timeout_ms, as application appname; server names it in messages.  Close
 * it with uid_remote_close.
 */
PGconn *
uid_remote_connect(const char *conninfo, const char *appname, const char *server, int timeout_ms)
{
	const char *keywords[] = {"dbname", "fallback_application_name", NULL};
	const char *values[] = {conninfo, appname, NULL};
	TimestampTz start = GetCurrentTimestamp();
	PGconn	   *volatile conn;
	PostgresPollingStatusType st;

	if (!AcquireExternalFD())
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("could not connect to server %s", server),
				 errdetail("There are too many open files on the local server.")));
	conn = PQconnectStartParams(keywords, values, true);
	if (conn == NULL)
	{
		ReleaseExternalFD();
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	}
	PG_TRY();
	{
		st = PQstatus(conn) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING;
		while (st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED)
		{
			int			rc = WaitLatchOrSocket(MyLatch,
											   WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH |
											   (st == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE),
											   PQsocket(conn),
											   uid_remote_left(start, timeout_ms, server, "accept the connection"),
											   PG_WAIT_EXTENSION);

			if (rc & WL_LATCH_SET)
				ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
			if (rc & (WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE))
				st = PQconnectPoll(conn);
		}
		if (PQstatus(conn) != CONNECTION_OK)
			ereport(ERROR,
					(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
					 errmsg("could not connect to server %s", server),
					 errdetail_internal("%s", pchomp(PQerrorMessage(conn)))));
	}
	PG_CATCH();
	{
		uid_remote_close(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();
	return conn;
}

/* Closes a connection of uid_remote_connect. */
void
uid_remote_close(PGconn *conn)
{
	PQfinish(conn);
	ReleaseExternalFD();
}

/* The next result of the query sent on conn, waiting at most timeout_ms. */
PGresult *
uid_remote_result(PGconn *conn, int timeout_ms, const char *server)
{
	TimestampTz start = GetCurrentTimestamp();

	while (PQisBusy(conn))
	{
		int			rc = WaitLatchOrSocket(MyLatch,
										   WL_LATCH_SET | WL_SOCKET_READABLE | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
										   PQsocket(conn), uid_remote_left(start, timeout_ms, server, "answer"),
										   PG_WAIT_EXTENSION);

		if (rc & WL_LATCH_SET)
			ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if ((rc & WL_SOCKET_READABLE) && !PQconsumeInput(conn))
			break;
	}
	return PQgetResult(conn);
}

/* A whole int64 in the answer, within [min, max], or 08P01 naming it. */
int64
uid_remote_int64(const char *text, const char *what, int64 min, int64 max, const char *server)
{
	char	   *end;
	int64		v;

	errno = 0;
	v = strtoi64(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
		ereport(ERROR,
				(errcode(ERRCODE_PROTOCOL_VIOLATION),
				 errmsg("server %s answered an invalid %s: \"%s\"", server, what, text)));
	return v;
}
