/*
 * sno.c - the 10-byte sno type: base32 text, binary I/O, byte-order
 * comparison with abbreviated-key sort support, hashing, comparison with
 * timestamptz, fields and constructor.
 *
 * Layout, most significant first: time 39 (4 ms units since 2010-01-01)
 * . tick 1 . meta 8 . partition 16 . seq 16.
 */
#include "uniqueid.h"

#include "byteid.h"
#include "codec.h"
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

#define SNO_ARG(n) ((const UidSno *) PG_GETARG_POINTER(n))

/* Time units (4 ms) since 2010-01-01 for ts; 22008 outside 2010..2079. */
uint64
uid_sno_time_units(TimestampTz ts)
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
void
uid_sno_pack(UidSno *out, uint64 units, int tick, int meta, int partition, int seq)
{
	uint64		hi = units << 1 | (uint64) tick;

	for (int i = 0; i < 5; i++)
		out->b[i] = (uint8) (hi >> (8 * (4 - i)));
	out->b[5] = (uint8) meta;
	out->b[6] = (uint8) (partition >> 8);
	out->b[7] = (uint8) partition;
	out->b[8] = (uint8) (seq >> 8);
	out->b[9] = (uint8) seq;
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
				 errmsg("invalid input syntax for type sno: \"%s\"", str),
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
	uint64		units = uid_sno_time_units(PG_GETARG_TIMESTAMPTZ(0));
	int			meta = uid_check_range("sno", "meta", PG_GETARG_INT32(1), 255);
	int			partition = uid_check_range("sno", "partition", PG_GETARG_INT32(2), 65535);
	int			seq = uid_check_range("sno", "seq", PG_GETARG_INT32(3), 65535);
	int			tick = uid_check_range("sno", "tick", PG_GETARG_INT32(4), 1);

	uid_sno_pack(id, units, tick, meta, partition, seq);
	PG_RETURN_POINTER(id);
}
