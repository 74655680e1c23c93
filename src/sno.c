/*
 * sno.c - the 10-byte sno type: base32 text, binary I/O, byte-order
 * comparison with abbreviated-key sort support, hashing, comparison with
 * timestamptz, fields and constructor; and its generator next_sno() with
 * its own shared-memory state and tick-tock rule.
 *
 * Layout, most significant first: time 39 (4 ms units since 2010-01-01)
 * . tick 1 . meta 8 . partition 16 . seq 16.
 */
#include "sno.h"

#include "byteid.h"
#include "clock.h"
#include "codec.h"
#include "common/hashfn.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "generator.h"
#include "guc.h"
#include "dbhorizon.h"
#include "horizon.h"
#include "lib/hyperloglog.h"
#include "node.h"
#include "port/atomics.h"
#include "port/pg_bswap.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

/* sno: 10 bytes, time 39 (4 ms since 2010-01-01) . tick 1 . meta 8 . partition 16 . seq 16 */
typedef struct UidSno
{
	uint8		b[UID_SNO_BYTES];
} UidSno;

#define UID_SNO_EPOCH_US INT64CONST(1262304000000000)
#define UID_SNO_UNIT_US 4000
#define UID_SNO_TIME_MAX ((UINT64CONST(1) << 39) - 1)

#define SNO_ARG(n) ((const UidSno *) PG_GETARG_POINTER(n))

/* Time units (4 ms) since 2010-01-01 for ts; 22008 outside 2010..2079. */
static uint64
sno_time_units(TimestampTz ts)
{
	int64		since_epoch;

	if (TIMESTAMP_NOT_FINITE(ts) ||
		pg_add_s64_overflow(ts, UID_PG_EPOCH_UNIX_US - UID_SNO_EPOCH_US, &since_epoch) ||
		since_epoch < 0 || since_epoch / UID_SNO_UNIT_US > (int64) UID_SNO_TIME_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("timestamp out of range for type sno: \"%s\"", timestamptz_to_str(ts)),
				 errdetail("Type sno holds times from 2010-01-01 00:00:00+00 to 2079-09-07 15:47:35.548+00.")));
	return (uint64) since_epoch / UID_SNO_UNIT_US;
}

/* Assembles an sno from its fields (all already range-checked). */
static inline void
sno_pack(UidSno *out, uint64 units, int tick, int meta, int partition, int seq)
{
	uint64		hi = pg_hton64((units << 1 | (uint64) tick) << 24 | (uint64) meta << 16 | (uint64) partition);
	uint16		lo = pg_hton16((uint16) seq);

	memcpy(out->b, &hi, sizeof(hi));
	memcpy(out->b + 8, &lo, sizeof(lo));
}

/* The 40-bit (time << 1 | tick) prefix of an sno. */
static uint64
sno_prefix(const UidSno *id)
{
	uint64		v = 0;

	for (int i = 0; i < 5; i++)
		v = v << 8 | id->b[i];
	return v;
}

/* Compares id with the smallest sno whose time is at or after ts. */
static int
sno_cmp_timestamptz(const UidSno *id, TimestampTz ts)
{
	uint64		bound = 0;
	uint64		prefix;

	switch (uid_tstz_ceil_units(ts, UID_SNO_EPOCH_US, UID_SNO_UNIT_US, UID_SNO_TIME_MAX, &bound))
	{
		case -1:
			return 1;
		case 1:
			return -1;
	}
	prefix = sno_prefix(id);
	if (prefix != bound << 1)
		return prefix < bound << 1 ? -1 : 1;
	for (int i = 5; i < UID_SNO_BYTES; i++)
		if (id->b[i] != 0)
			return 1;
	return 0;
}

/* Binary I/O, bytea casts, comparison, hashing and timestamptz operators. */
UID_BYTEID_FUNCS(sno, UidSno, UID_SNO_BYTES, sno_cmp_timestamptz,
				 UID_SNO_EPOCH_US, UID_SNO_UNIT_US, UID_SNO_TIME_MAX)

PG_FUNCTION_INFO_V1(sno_in);
/* text input: exactly 16 characters of sno's base32 alphabet */
Datum
sno_in(PG_FUNCTION_ARGS)
{
	const char *str = PG_GETARG_CSTRING(0);
	UidSno	   *id = palloc(sizeof(UidSno));

	if (uid_sno_parse(str, strlen(str), id->b) != UID_PARSE_OK)
		ereturn(UID_ESCONTEXT(fcinfo), (Datum) 0,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type sno: \"%s\"", uid_quote_input(str)),
				 errdetail("An sno is written as exactly 16 characters of \"23456789abcdefghijklmnopqrstuvwx\".")));
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(sno_out);
/* text output: 16 characters of base32 */
Datum
sno_out(PG_FUNCTION_ARGS)
{
	char	   *buf = palloc(UID_SNO_CHARS + 1);

	uid_sno_format(SNO_ARG(0)->b, buf);
	PG_RETURN_CSTRING(buf);
}

/* State of abbreviated-key sorting: how many keys, and how many distinct. */
typedef struct SnoAbbrevState
{
	int64		count;
	bool		estimating;
	hyperLogLogState distinct;
} SnoAbbrevState;

/*
 * Abbreviated key, 64 bits that sort as the sno does: the 40 bits of time
 * and tick; then, when meta and partition (x = meta << 16 | partition) are
 * below 128, as they are for meta 0 on uniqueid.node 0..127, a 0 bit, x in
 * 7 bits and the 16-bit sequence, so that the key holds the whole value; else
 * a 1 bit and the top 23 of x's 24 bits.  The two codes of x are prefix-free
 * and ordered (every short one below every long one), so a < b implies
 * key(a) <= key(b); equal keys fall back to the full comparison.  A plain
 * prefix (the first 8 bytes) would leave out the sequence, and IDs made in
 * one burst would all tie.
 */
static Datum
sno_abbrev_convert(Datum original, SortSupport ssup)
{
	SnoAbbrevState *st = ssup->ssup_extra;
	const UidSno *id = (const UidSno *) DatumGetPointer(original);
	const uint8 *b = id->b;
	uint64		time_tick = sno_prefix(id);
	uint32		x = (uint32) b[5] << 16 | (uint32) b[6] << 8 | b[7];
	uint64		v;

	if (x < 128)
		v = time_tick << 24 | (uint64) x << 16 | (uint64) b[8] << 8 | b[9];
	else
		v = time_tick << 24 | UINT64CONST(1) << 23 | x >> 1;
	st->count++;
	if (st->estimating)
		addHyperLogLog(&st->distinct, DatumGetUInt32(hash_uint32((uint32) (v ^ (v >> 32)))));
	return UInt64GetDatum(v);
}

/*
 * Whether to give the abbreviated keys up: with a long code for meta and
 * partition, IDs made in one burst share their key (one 4 ms unit, one meta,
 * one partition) and differ only in the sequence, so the abbreviation
 * decides nothing and only adds work.  Give up when there is less than one
 * distinct key per thousand; stop counting once there are plenty.
 */
static bool
sno_abbrev_abort(int memtupcount, SortSupport ssup)
{
	SnoAbbrevState *st = ssup->ssup_extra;
	double		distinct;

	if (memtupcount < 10000 || st->count < 10000 || !st->estimating)
		return false;
	distinct = estimateHyperLogLog(&st->distinct);
	if (distinct > 100000.0)
	{
		st->estimating = false;
		return false;
	}
	return distinct < st->count / 1000.0;
}

PG_FUNCTION_INFO_V1(sno_sortsupport);
/* btree support 2: memcmp comparator with abbreviated keys (sno_abbrev_convert) */
Datum
sno_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	if (uid_byteid_sortsupport(ssup, sno_fastcmp, sno_abbrev_convert, sno_abbrev_abort))
	{
		SnoAbbrevState *st = MemoryContextAlloc(ssup->ssup_cxt, sizeof(SnoAbbrevState));

		st->count = 0;
		st->estimating = true;
		initHyperLogLog(&st->distinct, 10);
		ssup->ssup_extra = st;
	}
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(sno_time);
/* id_time(sno): 4 ms resolution, tick ignored */
Datum
sno_time(PG_FUNCTION_ARGS)
{
	uint64		units = sno_prefix(SNO_ARG(0)) >> 1;

	PG_RETURN_TIMESTAMPTZ((TimestampTz) (UID_SNO_EPOCH_US + (int64) units * UID_SNO_UNIT_US
										 - UID_PG_EPOCH_UNIX_US));
}

PG_FUNCTION_INFO_V1(sno_tick);
/* id_tick(sno) */
Datum
sno_tick(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(SNO_ARG(0)->b[4] & 1);
}

PG_FUNCTION_INFO_V1(sno_meta);
/* id_meta(sno) */
Datum
sno_meta(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(SNO_ARG(0)->b[5]);
}

PG_FUNCTION_INFO_V1(sno_partition);
/* id_partition(sno) */
Datum
sno_partition(PG_FUNCTION_ARGS)
{
	const UidSno *id = SNO_ARG(0);

	PG_RETURN_INT32(id->b[6] << 8 | id->b[7]);
}

PG_FUNCTION_INFO_V1(sno_seq);
/* id_seq(sno) */
Datum
sno_seq(PG_FUNCTION_ARGS)
{
	const UidSno *id = SNO_ARG(0);

	PG_RETURN_INT32(id->b[8] << 8 | id->b[9]);
}

PG_FUNCTION_INFO_V1(make_sno);
/* make_sno(time, meta, partition, seq, tick) */
Datum
make_sno(PG_FUNCTION_ARGS)
{
	UidSno	   *id = palloc(sizeof(UidSno));
	uint64		units = sno_time_units(PG_GETARG_TIMESTAMPTZ(0));
	int			meta = uid_check_range("sno", "meta", PG_GETARG_INT32(1), 255);
	int			partition = uid_check_range("sno", "partition", PG_GETARG_INT32(2), 65535);
	int			seq = uid_check_range("sno", "seq", PG_GETARG_INT32(3), 65535);
	int			tick = uid_check_range("sno", "tick", PG_GETARG_INT32(4), 1);

	sno_pack(id, units, tick, meta, partition, seq);
	PG_RETURN_POINTER(id);
}

/* ---- the generator ---- */

/*
 * sno's slot packs time 39 . lead 8 . tick 1 . seq 16, where lead is how many
 * units the slot's time is ahead of the highest wall-clock unit that has
 * reached it (time - lead is that reading: below it, the clock went back).
 * safe_time is the highest time issued with the other tick, changed only
 * when the tick flips, under the spinlock.
 */
#define SNO_LEAD_SHIFT 17
#define SNO_LEAD_MAX 255
#define SNO_TICK_SHIFT 16
#define SNO_TIME_SHIFT 25

/* The generator's shared state: the slot on a cache line of its own, and the flip's. */
typedef struct SnoShared
{
	pg_atomic_uint64 state;		/* time, lead, tick, seq */
	char		pad[64 - sizeof(pg_atomic_uint64)];
	uint64		safe_time;		/* protected by flip_lock */
	slock_t		flip_lock;
} SnoShared;

static SnoShared *sno_shared = NULL;

/* shmem_request_hook work */
void
uid_sno_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(SnoShared));
}

/* shmem_startup_hook work (AddinShmemInitLock held) */
void
uid_sno_shmem_startup(void)
{
	bool		found;

	sno_shared = ShmemInitStruct("uniqueid sno", sizeof(SnoShared), &found);
	if (!found)
	{
		pg_atomic_init_u64(&sno_shared->state, 0);
		sno_shared->safe_time = 0;
		SpinLockInit(&sno_shared->flip_lock);
	}
}

/*
 * The tick-tock flip of sno: the clock went back below the highest reading
 * the slot has seen.  If the clock is past every time issued with the other
 * tick, switch to it and continue at the clock's time; returns false (and
 * sets *wait_units) when it is not, i.e. the clock went back a second time
 * into a period the other tick already covers.
 */
static bool
sno_flip(uint64 old, uint64 now, uint32 seq_min, uint64 *issued, uint64 *wait_units)
{
	uint64		t = old >> SNO_TIME_SHIFT;
	uint64		tick = (old >> SNO_TICK_SHIFT) & 1;
	bool		flipped = false;

	SpinLockAcquire(&sno_shared->flip_lock);
	if (pg_atomic_read_u64(&sno_shared->state) != old)
		*wait_units = 0;		/* another backend moved the state: the caller looks again */
	else if (now > sno_shared->safe_time)
	{
		uint64		new = now << SNO_TIME_SHIFT | (tick ^ 1) << SNO_TICK_SHIFT | seq_min;

		if (pg_atomic_compare_exchange_u64(&sno_shared->state, &old, new))
		{
			sno_shared->safe_time = t;
			*issued = new;
			flipped = true;
		}
		*wait_units = 0;
	}
	else
		*wait_units = sno_shared->safe_time - now + 1;
	SpinLockRelease(&sno_shared->flip_lock);
	return flipped;
}

/*
 * Issues the next sno for (meta, partition): lock-free like
 * uid_generate, with sequences from uniqueid.sno_sequence_min to _max, and
 * sno's tick-tock rule when the clock goes back.
 */
static void
sno_generate(UidSno *out, int meta, int partition)
{
	pg_atomic_uint64 *state = &sno_shared->state;
	const uint32 seq_min = (uint32) uid_sno_sequence_min;
	const uint32 seq_max = (uint32) uid_sno_sequence_max;
	uint64		issued;
	int64		waited_from = 0;	/* the monotonic clock when the call first waited */
	int64		floor_waited_from = 0;	/* ... for a unit at the floor */
	int64		borrowed_us = 0;	/* the unit issued was borrowed, this far ahead */

	for (;;)
	{
		/* the state first: a clock read after it is not behind it but for a real regression */
		uint64		old = pg_atomic_read_u64(state);
		int64		now_us;
		uint64		floor_ms;
		uint64		now,
					t,
					lead,
					tick,
					seq;
		int64		wait_us = 0;
		bool		floored = false;

		borrowed_us = 0;

		pg_read_barrier();
		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;

		if (now_us < UID_SNO_EPOCH_US ||
			(now = (uint64) (now_us - UID_SNO_EPOCH_US) / UID_SNO_UNIT_US) > UID_SNO_TIME_MAX)
			ereport(ERROR,
					(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
					 errmsg("the clock is outside the time range of type sno"),
					 errdetail("The server's clock reads %s.",
							   timestamptz_to_str(now_us - UID_PG_EPOCH_UNIX_US))));
		/* never below what this server may have issued before it started */
		floor_ms = uid_horizon_floor((uint64) now_us / 1000);
		if (unlikely(now_us < (int64) floor_ms * 1000 + UID_SNO_UNIT_US))
		{
			uint64		floor_units = uid_units_past_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, floor_ms);

			/* the clock is behind the floor, which stands in for it */
			floored = floor_units > now;
			now = Max(now, floor_units);
			if (now > UID_SNO_TIME_MAX)
				uid_no_ids_left(UID_STAT_SNO, "sno", UID_SNO_EPOCH_US + (int64) UID_SNO_TIME_MAX * UID_SNO_UNIT_US - UID_PG_EPOCH_UNIX_US);
		}

		t = old >> SNO_TIME_SHIFT;
		lead = (old >> SNO_LEAD_SHIFT) & SNO_LEAD_MAX;
		tick = (old >> SNO_TICK_SHIFT) & 1;
		seq = old & 0xffff;
		if (now > t)
		{
			/* a new unit from the clock (or the floor, near enough the clock) */
			if (unlikely(floored) &&
				uid_horizon_floor_wait(uid_unit_end_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, now), UID_SNO_UNIT_US,
									   now_us, &floor_waited_from))
				continue;
			t = now;
			lead = 0;
			seq = seq_min;
			(void) uid_clock_high_water(now_us);
		}
		else if (!floored && now + lead + 1 < t && uid_clock_set_back())
		{
			/*
			 * The clock went back below the highest reading seen (by more than
			 * a unit): flip.  Only a clock set back flips: a slot ahead of the
			 * clock by more than its recorded lead, which saturates, after
			 * borrowing below a startup floor, continues in order.
			 */
			uint64		wait_units;

			if (sno_flip(old, now, seq_min, &issued, &wait_units))
				break;
			if (wait_units == 0)
				continue;		/* the state moved meanwhile: look again */
			wait_us = (int64) wait_units * UID_SNO_UNIT_US;
		}
		else
		{
			/* the clock is in the slot's (possibly borrowed) present */
			lead = t > now ? Min(t - now, SNO_LEAD_MAX) : 0;
			if (seq < seq_min)
				seq = seq_min;
			else if (seq < seq_max)
				seq++;
			else
			{
				int64		lead_us;

				t++;
				lead++;
				seq = seq_min;
				lead_us = UID_SNO_EPOCH_US + (int64) t * UID_SNO_UNIT_US - uid_clock_high_water(now_us);
				if (t > UID_SNO_TIME_MAX)
					uid_no_ids_left(UID_STAT_SNO, "sno", UID_SNO_EPOCH_US + (int64) UID_SNO_TIME_MAX * UID_SNO_UNIT_US - UID_PG_EPOCH_UNIX_US);
				/*
				 * The lead saturates: a flip needs the clock set back as well
				 * (uid_clock_set_back), so a slot further ahead than the lead
				 * records (below a fixed floor, where the clock stands still,
				 * or with uniqueid.max_clock_lead over 1,020 ms) is not taken
				 * for a regression.  The high-water mark, which moves on from
				 * the floor, bounds the borrowing.
				 */
				if (lead > SNO_LEAD_MAX)
					lead = SNO_LEAD_MAX;
				if (lead_us > (int64) uid_max_clock_lead_ms * 1000)
					wait_us = Max(lead_us - (int64) uid_max_clock_lead_ms * 1000, UID_SNO_UNIT_US);
				else
					borrowed_us = lead_us;
			}
		}
		if (wait_us > 0)
		{
			if (waited_from == 0)
				waited_from = uid_mono_us();
			uid_wait(wait_us);
			continue;
		}
		issued = t << SNO_TIME_SHIFT | lead << SNO_LEAD_SHIFT | tick << SNO_TICK_SHIFT | seq;
		if (pg_atomic_compare_exchange_u64(state, &old, issued))
		{
			if (borrowed_us > 0)
				uid_stat_borrow(UID_STAT_SNO, UID_SNO_UNIT_US, borrowed_us);
			break;
		}
	}
	if (waited_from != 0)
		uid_stat_wait(UID_STAT_SNO, uid_mono_us() - waited_from);
	/* (a horizon carried meanwhile: made again, above it) */
	if (uid_horizon_cover(uid_unit_end_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, issued >> SNO_TIME_SHIFT),
						  UID_SNO_UNIT_US / 1000))
	{
		sno_generate(out, meta, partition);
		return;
	}
	sno_pack(out, issued >> SNO_TIME_SHIFT, (int) ((issued >> SNO_TICK_SHIFT) & 1),
				 meta, partition, (int) (issued & 0xffff));
}

/*
 * sno_generate's common case, inline: the clock within sno's range and past
 * the startup floor, a new unit or a sequence number left in the slot's
 * (possibly borrowed) present, and the compare-and-swap winning the first
 * time.  Returns false, having returned no ID, for sno_generate to handle
 * every other case.
 */
static pg_attribute_always_inline bool
sno_generate_fast(UidSno *out, int meta, int partition)
{
	uint64		old = pg_atomic_read_u64(&sno_shared->state);
	const uint64 seq_min = (uint64) uid_sno_sequence_min;
	int64		now_us;
	uint64		now,
				t,
				lead,
				seq,
				issued;

	pg_read_barrier();
	now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;
	if (unlikely(now_us < UID_SNO_EPOCH_US))
		return false;
	now = (uint64) (now_us - UID_SNO_EPOCH_US) / UID_SNO_UNIT_US;
	if (unlikely(now > UID_SNO_TIME_MAX ||
				 now_us < (int64) uid_horizon_floor((uint64) now_us / 1000) * 1000 + UID_SNO_UNIT_US))
		return false;
	t = old >> SNO_TIME_SHIFT;
	lead = (old >> SNO_LEAD_SHIFT) & SNO_LEAD_MAX;
	seq = old & 0xffff;
	if (now > t)
	{
		/* a new unit from the clock */
		t = now;
		lead = 0;
		seq = seq_min;
		(void) uid_clock_high_water(now_us);
	}
	else if (likely(now + lead + 1 >= t && seq >= seq_min && seq < (uint64) uid_sno_sequence_max))
	{
		/* the clock is in the slot's present, and a sequence number is left */
		lead = Min(t - now, SNO_LEAD_MAX);
		seq++;
	}
	else
		return false;
	issued = t << SNO_TIME_SHIFT | lead << SNO_LEAD_SHIFT | (old & (UINT64CONST(1) << SNO_TICK_SHIFT)) | seq;
	if (unlikely(!pg_atomic_compare_exchange_u64(&sno_shared->state, &old, issued)))
		return false;
	if (uid_horizon_cover(uid_unit_end_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, t), UID_SNO_UNIT_US / 1000))
		return false;			/* a horizon carried meanwhile: sno_generate makes it again */
	sno_pack(out, t, (int) ((issued >> SNO_TICK_SHIFT) & 1), meta, partition, (int) seq);
	return true;
}

/* The Unix time (us) of the time unit of the last sno issued; 0 if none. */
static int64
sno_last_us(void)
{
	uint64		t = pg_atomic_read_u64(&sno_shared->state) >> SNO_TIME_SHIFT;

	return t == 0 ? 0 : UID_SNO_EPOCH_US + (int64) t * UID_SNO_UNIT_US;
}

/* The sequence numbers of a time unit, uniqueid.sno_sequence_min to _max */
static uint64
sno_per_unit(void)
{
	return (uint64) Max(uid_sno_sequence_max - uid_sno_sequence_min + 1, 0);
}

/* What the engine and the views know of sno (family.h; module.c registers it) */
const UidFamily uid_sno_family = {
	.stat = UID_STAT_SNO,
	.name = "sno",
	.typname = "sno",
	.node_bearing = true,
	.last_us = sno_last_us,
	.per_unit = sno_per_unit,
	.unit_us = UID_SNO_UNIT_US,
};

/* The error of next_sno for a sequence pool too small for sno's rules. */
pg_noreturn static void
sno_pool_too_small(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("uniqueid.sno_sequence_min (%d) and uniqueid.sno_sequence_max (%d) leave a sequence pool of fewer than 4 values",
					uid_sno_sequence_min, uid_sno_sequence_max),
			 errhint("Set uniqueid.sno_sequence_max to at least uniqueid.sno_sequence_min + 3.")));
}

PG_FUNCTION_INFO_V1(sno_floor);
/* sno_floor(time): the smallest sno whose time is at or after time (tick, meta, partition and seq 0) */
Datum
sno_floor(PG_FUNCTION_ARGS)
{
	UidSno	   *id = palloc(sizeof(UidSno));

	sno_pack(id, uid_floor_units("sno", PG_GETARG_TIMESTAMPTZ(0), UID_SNO_EPOCH_US, UID_SNO_UNIT_US,
								 UID_SNO_TIME_MAX), 0, 0, 0, 0);
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(next_sno);
/* next_sno(meta): the next sno of this server's partition (its node number) */
Datum
next_sno(PG_FUNCTION_ARGS)
{
	int32		meta = PG_GETARG_INT32(0);
	int			partition;
	UidSno	   *id;

	uid_require_generator("sno");
	uid_check_range("sno", "meta", meta, 255);
	if (unlikely(uid_sno_sequence_max - uid_sno_sequence_min + 1 < 4))
		sno_pool_too_small();
	partition = uid_node_for("sno", "partition", 16);
	id = palloc(sizeof(UidSno));
	if (!sno_generate_fast(id, meta, partition))
		sno_generate(id, meta, partition);
	if (unlikely(uid_node_negotiated))
		uid_node_confirm("sno", uid_unit_end_ms(UID_SNO_EPOCH_US, UID_SNO_UNIT_US, sno_prefix(id) >> 1));
	uid_stat_issued_family(UID_STAT_SNO);
	PG_RETURN_POINTER(id);
}
