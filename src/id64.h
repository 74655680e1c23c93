/*
 * id64.h - the 8-byte identifier types and the generators of snowflake,
 * sonyflake and shortid (id64.c): their SQL functions, declared beside
 * their definitions, and the rows of those three in the table of families.
 */
#ifndef UNIQUEID_ID64_H
#define UNIQUEID_ID64_H

#include "compat.h"

#include "family.h"

extern const UidFamily uid_snowflake_family;
extern const UidFamily uid_sonyflake_family;
extern const UidFamily uid_shortid_family;

/* Bits that some field of an 8-byte layout covers; any other bit is zero. */
extern uint64 uid64_used_bits(const UidLayout *layout);

#endif							/* UNIQUEID_ID64_H */
