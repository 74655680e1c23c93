/*
 * spreadid.h - spreadid's mode-dependent parts and next_spreadid
 * (spreadid.c): their SQL functions, declared beside their definitions, and
 * spreadid's row in the table of families.
 */
#ifndef UNIQUEID_SPREADID_H
#define UNIQUEID_SPREADID_H

#include "compat.h"

#include "family.h"

extern const UidFamily uid_spreadid_family;

#endif							/* UNIQUEID_SPREADID_H */
