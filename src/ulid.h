/*
 * ulid.h - the ulid type and next_ulid (ulid.c): their SQL functions,
 * declared beside their definitions, and ulid's row in the table of
 * families.
 */
#ifndef UNIQUEID_ULID_H
#define UNIQUEID_ULID_H

#include "compat.h"

#include "family.h"

extern const UidFamily uid_ulid_family;

#endif							/* UNIQUEID_ULID_H */
