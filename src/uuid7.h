/*
 * uuid7.h - UUID version 7 (uuid7.c): what typeid builds on, and uuid7's
 * row in the table of families.
 */
#ifndef UNIQUEID_UUID7_H
#define UNIQUEID_UUID7_H

#include "compat.h"

#include "family.h"
#include "fmgr.h"
#include "utils/uuid.h"

/* Fills u with the next version 7 UUID of this server (next_uuid7). */
extern void uid_uuid7_next(pg_uuid_t *u);

/* id_time(uuid) */
extern PGDLLEXPORT Datum uuid_time(PG_FUNCTION_ARGS);

extern const UidFamily uid_uuid7_family;

#endif							/* UNIQUEID_UUID7_H */
