/*
 * rsxid.h - the rsxid type and next_rsxid (rsxid.c): their SQL functions,
 * declared beside their definitions, and rsxid's row in the table of
 * families.
 */
#ifndef UNIQUEID_RSXID_H
#define UNIQUEID_RSXID_H

#include "compat.h"

#include "family.h"

extern const UidFamily uid_rsxid_family;

#endif							/* UNIQUEID_RSXID_H */
