/*
 * generator.h - the generic engine of the 64-bit generators (generator.c):
 * one lock-free shared-memory slot per identity, advanced by compare and
 * swap, under the clock (clock.h) and the horizon (horizon.h).  Each
 * family's file has its own next_* on top of it.
 */
#ifndef UNIQUEID_GENERATOR_H
#define UNIQUEID_GENERATOR_H

#include "compat.h"

#include "guc.h"
#include "layout.h"

/* Slot numbers: one per logical shard of shardid, then one per other family. */
#define UID_SLOT_SHARDID 0
#define UID_SLOT_UUID7 (UID_SLOT_SHARDID + UID_NSHARDS)
#define UID_SLOT_SNOWFLAKE (UID_SLOT_UUID7 + 1)
#define UID_SLOT_SONYFLAKE (UID_SLOT_SNOWFLAKE + 1)
#define UID_SLOT_SHORTID (UID_SLOT_SONYFLAKE + 1)
#define UID_SLOT_SPREADID (UID_SLOT_SHORTID + 1)
#define UID_NSLOTS (UID_SLOT_SPREADID + 1)

extern void uid_generator_shmem_request(void);
extern void uid_generator_shmem_startup(void);
extern void uid_require_generator(const char *typname);
extern uint64 uid_generate(const UidLayout *layout, uint32 slot, uint64 fixed_bits);
extern void uid_generator_adopt(const UidLayout *layout, uint32 slot, uint64 last);
extern uint64 uid_generator_release(const UidLayout *layout, uint32 slot);
extern pg_noreturn void uid_no_ids_left(const char *typname, TimestampTz last);

/* The first time unit of a layout that starts at or after Unix time ms. */
static inline uint64
uid_units_from_ms(int64 epoch_us, int64 unit_us, uint64 ms)
{
	int64		us = (int64) ms * 1000;

	return us <= epoch_us ? 0 : (uint64) (us - epoch_us + unit_us - 1) / unit_us;
}

/* The end (Unix ms, exclusive, rounded up) of time unit t of a layout. */
static inline uint64
uid_unit_end_ms(int64 epoch_us, int64 unit_us, uint64 t)
{
	return (uint64) (epoch_us + (int64) (t + 1) * unit_us + 999) / 1000;
}

#endif							/* UNIQUEID_GENERATOR_H */
