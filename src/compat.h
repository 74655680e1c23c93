/*
 * compat.h - every PostgreSQL version difference uniqueid cares about, in one place.
 */
#ifndef UNIQUEID_COMPAT_H
#define UNIQUEID_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "uniqueid requires PostgreSQL 15 or later"
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

#endif							/* UNIQUEID_COMPAT_H */
