/*
 * shardid.h - the generators of shardid, shard_adopt and shard_release
 * (shardid.c): their SQL functions, declared beside their definitions, and
 * shardid's row in the table of families.
 */
#ifndef UNIQUEID_SHARDID_H
#define UNIQUEID_SHARDID_H

#include "compat.h"

#include "family.h"

extern const UidFamily uid_shardid_family;

#endif							/* UNIQUEID_SHARDID_H */
