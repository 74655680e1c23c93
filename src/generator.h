/*
 * generator.h - the generic engine of the 64-bit generators (generator.c):
 * one lock-free shared-memory slot per identity, advanced by compare and
 * swap, under the clock (clock.h) and the horizon (horizon.h).  Each
 * family's file has its own next_* on top of it.
 */
#ifndef UNIQUEID_GENERATOR_H
#define UNIQUEID_GENERATOR_H

#include "compat.h"

#include "clock.h"
#include "common/pg_prng.h"
#include "dbhorizon.h"
#include "family.h"
#include "guc.h"
#include "horizon.h"
#include "layout.h"
#include "node.h"
#include "port/atomics.h"
#include "stats.h"

/*
 * One generator's state on its own cache line, so shards do not contend.
 * adopt_ms, when not 0, is the time of the last ID a shard had on the server
 * it was moved from (uid_generator_adopt): until this server's clock reaches
 * it, carried forward by the monotonic clock from adopt_mono_us, it stands
 * in for the clock.
 */
typedef struct UidSlot
{
	pg_atomic_uint64 state;		/* last issued (time << seq_bits | seq) */
	pg_atomic_uint64 adopt_ms;
	pg_atomic_uint64 adopt_mono_us;
	pg_atomic_uint64 released;	/* last issued when released (uid_generator_release) */
	char		pad[64 - 4 * sizeof(pg_atomic_uint64)];
} UidSlot;

extern UID_HIDDEN UidSlot *uid_slots;
/* this backend found that it can generate (uid_require_generator) */
extern UID_HIDDEN bool uid_generator_ready;

extern void uid_generator_init(void);
extern void uid_generator_shmem_request(void);
extern void uid_generator_shmem_startup(void);
extern void uid_require_generator_slow(const char *typname);
extern uint64 uid_generate_slow(const UidLayout *layout, uint32 slot, uint64 fixed_bits);
extern bool uid_slot_cover(uint32 slot, uint64 end_ms, uint32 unit_ms);

/* this backend's generator of the random bits of IDs (uid_random64) */
extern UID_HIDDEN pg_prng_state uid_prng;
extern UID_HIDDEN bool uid_prng_seeded;
extern void uid_prng_seed(void);
extern void uid_generator_adopt(const UidLayout *layout, uint32 slot, uint64 last);
extern uint64 uid_generator_release(const UidLayout *layout, uint32 slot);
pg_noreturn extern void uid_no_ids_left(uint32 stat, const char *typname, TimestampTz last);

/* The first time unit of a layout that starts at or after Unix time ms. */
static inline uint64
uid_units_from_ms(int64 epoch_us, int64 unit_us, uint64 ms)
{
	int64		us = (int64) ms * 1000;

	return us <= epoch_us ? 0 : (uint64) (us - epoch_us + unit_us - 1) / unit_us;
}

/*
 * The time unit of a layout that ends past Unix time ms: the first a floor
 * at ms leaves to a new start (every ID before the floor lies in a unit that
 * ended at or before it, the durable horizon's rule), the unit that holds
 * ms.  A second of objectid, ksuid or rsxid may so begin before the floor.
 */
static inline uint64
uid_units_past_ms(int64 epoch_us, int64 unit_us, uint64 ms)
{
	int64		us = (int64) ms * 1000;

	return us <= epoch_us ? 0 : (uint64) (us - epoch_us) / unit_us;
}

/* The end (Unix ms, exclusive, rounded up) of time unit t of a layout. */
static inline uint64
uid_unit_end_ms(int64 epoch_us, int64 unit_us, uint64 t)
{
	return (uint64) (epoch_us + (int64) (t + 1) * unit_us + 999) / 1000;
}

/*
 * The functions below run on every generated ID: inline, so that what
 * remains of a call is the clock read, the compare-and-swap and the packing
 * (bench/README.md has the instruction counts).
 */

/* Errors out unless this server can generate IDs of the named type now. */
static inline void
uid_require_generator(const char *typname)
{
	if (unlikely(!uid_generator_ready))
		uid_require_generator_slow(typname);
}

/*
 * 64 random bits from this backend's generator, seeded from a strong source
 * on first use.  The random parts of IDs (uuid7, ulid, ksuid, shortid) need
 * no more: uniqueness comes from the time and the sequence before them.
 */
static inline uint64
uid_random64(void)
{
	if (unlikely(!uid_prng_seeded))
		uid_prng_seed();
	return pg_prng_uint64(&uid_prng);
}

/*
 * x / unit_us, with the common units as constants, which the compiler turns
 * into a multiplication: a 64-bit division is the dearest instruction of a
 * call.
 */
static inline uint64
uid_div_unit(uint64 x, int64 unit_us)
{
	if (likely(unit_us == 1000))
		return x / 1000;
	if (unit_us == 10000)
		return x / 10000;
	if (unit_us == 1000000)
		return x / 1000000;
	return x / (uint64) unit_us;
}

/* The ID (fixed bits left out) of time unit t, sequence number seq. */
static inline uint64
uid_slot_id(const UidLayout *layout, uint64 t, uint64 seq)
{
	return t << layout->time_shift | seq << layout->fields[layout->seq_field].shift;
}

/*
 * Issues the next ID of the layout from slot `slot`, with fixed_bits (shard,
 * node, ...) or'ed in, strictly greater than every earlier ID of the slot.
 * The common case here: the clock within the layout's range and past the
 * startup floor, the slot not adopted, a new time unit or a sequence number
 * left in the slot's unit, and the compare-and-swap winning the first time.
 * Anything else (a used-up unit, a race lost, an adoption, a clock behind
 * the floor or out of range) is uid_generate_slow's, which starts over.
 */
static pg_attribute_always_inline uint64
uid_generate_slot(const UidLayout *layout, uint32 slot, uint64 fixed_bits)
{
	UidSlot    *s = &uid_slots[slot];
	const int	seq_bits = layout->fields[layout->seq_field].bits;
	const uint64 seq_max = UID_FIELD_MAX(seq_bits);
	int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
	uint64		old = pg_atomic_read_u64(&s->state);
	uint64		now_units,
				t,
				seq;

	if (unlikely(now_us < layout->epoch_us))
		return uid_generate_slow(layout, slot, fixed_bits);
	now_units = uid_div_unit((uint64) (now_us - layout->epoch_us), layout->unit_us);
	if (unlikely(now_units > UID_FIELD_MAX(layout->time_bits) ||
				 now_us < (int64) uid_horizon_floor((uint64) now_us / 1000) * 1000 + layout->unit_us ||
				 pg_atomic_read_u64(&s->adopt_ms) != 0))
		return uid_generate_slow(layout, slot, fixed_bits);
	t = old >> seq_bits;
	seq = old & seq_max;
	if (now_units > t)
	{
		/* a new unit from the clock: remember the reading */
		t = now_units;
		seq = 0;
		uid_clock_note(now_us);
	}
	else if (likely(seq < seq_max))
		seq++;
	else
		return uid_generate_slow(layout, slot, fixed_bits);
	if (unlikely(!pg_atomic_compare_exchange_u64(&s->state, &old, t << seq_bits | seq)))
		return uid_generate_slow(layout, slot, fixed_bits);
	if (unlikely(!uid_horizon_covers(uid_unit_end_ms(layout->epoch_us, layout->unit_us, t))) &&
		uid_slot_cover(slot, uid_unit_end_ms(layout->epoch_us, layout->unit_us, t), (uint32) (layout->unit_us / 1000)))
		return uid_generate_slow(layout, slot, fixed_bits);
	return uid_slot_id(layout, t, seq) | fixed_bits;
}

/* uid_generate_slot for the slot of a family without a node (a constant), counted (stats.h) */
static pg_attribute_always_inline uint64
uid_generate(const UidLayout *layout, uint32 slot, uint64 fixed_bits)
{
	uint64		id = uid_generate_slot(layout, slot, fixed_bits);

	uid_stat_issued_family(slot);
	return id;
}

/* With a registry: uid_node_confirm for id, an ID (fixed bits or not) of the layout, just made */
static inline void
uid_node_issued_id(const UidLayout *layout, uint64 id)
{
	if (unlikely(uid_node_negotiated))
		uid_node_confirm(layout->typname,
						 uid_unit_end_ms(layout->epoch_us, layout->unit_us, uid_get_time(layout, id)));
}

/*
 * uid_generate for a node-bearing family, whose fixed bits hold
 * uid_node_for's number: counted once the registry's lease allows it.
 */
static pg_attribute_always_inline uint64
uid_generate_node(const UidLayout *layout, uint32 slot, uint64 fixed_bits)
{
	uint64		id = uid_generate_slot(layout, slot, fixed_bits);

	uid_node_issued_id(layout, id);
	uid_stat_issued_family(slot);
	return id;
}

#endif							/* UNIQUEID_GENERATOR_H */
