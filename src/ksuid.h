/*
 * ksuid.h - the ksuid type and next_ksuid (ksuid.c): their SQL functions,
 * declared beside their definitions, and ksuid's row in the table of
 * families.
 */
#ifndef UNIQUEID_KSUID_H
#define UNIQUEID_KSUID_H

#include "compat.h"

#include "family.h"

extern const UidFamily uid_ksuid_family;

#endif							/* UNIQUEID_KSUID_H */
