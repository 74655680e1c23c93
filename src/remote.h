/*
 * remote.h - a libpq connection made from inside a server process
 * (remote.c): without blocking, its file descriptor accounted for, every
 * wait interruptible and bounded by a deadline.  Used by the group check
 * (group.c) and the node registry's worker (registry.c).
 */
#ifndef UNIQUEID_REMOTE_H
#define UNIQUEID_REMOTE_H

#include "postgres.h"

#include "libpq-fe.h"
#include "utils/timestamp.h"

extern char *uid_conninfo_display(const char *conninfo);
extern bool uid_conninfo_has_password(const char *conninfo);
extern PGconn *uid_remote_connect(const char *conninfo, const char *appname, const char *server,
								  int timeout_ms);
extern void uid_remote_close(PGconn *conn);
extern int64 uid_remote_int64(const char *text, const char *what, int64 min, int64 max,
							  const char *server);
extern PGresult *uid_remote_result(PGconn *conn, int timeout_ms, const char *server);

#endif							/* UNIQUEID_REMOTE_H */
