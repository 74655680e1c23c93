/*
 * compat.h - every PostgreSQL version difference uniqueid cares about, in one
 * place.  Tested on 15, 17, 18 and 19; 16 takes 17's side of every test below.
 */
#ifndef UNIQUEID_COMPAT_H
#define UNIQUEID_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "uniqueid requires PostgreSQL 15 or later"
#endif

/* 16 moved the varlena macros (VARDATA, SET_VARSIZE, ...) to their own header. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * Soft input errors arrived in PostgreSQL 16.  On 15, ereturn() raises the
 * error as usual; the dummy return only silences the compiler.
 */
#if PG_VERSION_NUM < 160000
#define ereturn(context, dummy_value, ...) \
	do { \
		(void) (context); \
		ereport(ERROR, __VA_ARGS__); \
		return dummy_value; \
	} while (0)
#define UID_ESCONTEXT(fcinfo) ((void *) NULL)
#else
#include "nodes/miscnodes.h"
#define UID_ESCONTEXT(fcinfo) ((fcinfo)->context)
#endif

/* fmgr.h declares _PG_init only from PostgreSQL 16 on. */
#if PG_VERSION_NUM < 160000
extern PGDLLEXPORT void _PG_init(void);
#endif

/*
 * 18 replaced the postfix pg_attribute_noreturn() with pg_noreturn, written
 * before the declaration; before 18 the attribute may stand there too.  It
 * goes first, before extern or static ("pg_noreturn static void f(void)"):
 * 19 may define it as C23's [[noreturn]], an attribute that a declaration
 * may only begin with.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * A variable of the per-ID path that only this library reads: hidden, so
 * that it is addressed directly rather than through the global offset
 * table, as every symbol is from 16 on (-fvisibility=hidden; 15 exports
 * them all).
 */
#if defined(__GNUC__) && !defined(WIN32)
#define UID_HIDDEN __attribute__((visibility("hidden")))
#else
#define UID_HIDDEN
#endif

/*
 * The "extra" of a GUC check hook: from 16 on the GUC machinery frees it with
 * guc_free, so it must come from guc_malloc; 15 frees it with free().
 */
#if PG_VERSION_NUM >= 160000
#include "utils/guc.h"
#define uid_guc_malloc(size) guc_malloc(LOG, (size))
#define uid_guc_free(ptr) guc_free(ptr)
#else
#define uid_guc_malloc(size) malloc(size)
#define uid_guc_free(ptr) free(ptr)
#endif

/*
 * The sequence's WAL record (dbhorizon.c writes a sequence in place, as
 * nextval() does): 19 moved it to a header of its own, and 16 renamed the
 * relation's file locator in it (RelFileNode to RelFileLocator).
 */
#if PG_VERSION_NUM >= 190000
#define UID_SEQUENCE_XLOG_H "commands/sequence_xlog.h"
#else
#define UID_SEQUENCE_XLOG_H "commands/sequence.h"
#endif
#if PG_VERSION_NUM >= 160000
#define UID_SEQ_REC_SET(rec, rel) ((rec).locator = (rel)->rd_locator)
#else
#define UID_SEQ_REC_SET(rec, rel) ((rec).node = (rel)->rd_node)
#endif

/*
 * A role's privilege on a database: 16 folded pg_database_aclcheck() into
 * object_aclcheck() (utils/acl.h and catalog/pg_database.h needed).
 */
#if PG_VERSION_NUM >= 160000
#define uid_database_aclcheck(db, role, mode) object_aclcheck(DatabaseRelationId, (db), (role), (mode))
#else
#define uid_database_aclcheck(db, role, mode) pg_database_aclcheck((db), (role), (mode))
#endif

#endif							/* UNIQUEID_COMPAT_H */
