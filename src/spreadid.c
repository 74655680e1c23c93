/*
 * spreadid.c - the parts of spreadid that depend on its mode, and its
 * generator next_spreadid: in SPREAD mode the 64-bit bit-reversal of the
 * time value is stored, so that consecutive IDs scatter over the key space;
 * in TIME_SEQUENTIAL mode the time is plain.  Text I/O and comparison are
 * id64.c's.
 *
 * Layout: time 42 (Unix ms) . seq 6 . generator high 3 . mode 1 (1 = time)
 * . generator low 8 . cluster 4.
 */
#include "spreadid.h"

#include "generator.h"

#include "port/pg_bswap.h"
#include "utils/builtins.h"

#define SPREAD_LOW_MASK ((UINT64CONST(1) << 22) - 1)
#define SPREAD_MODE_BIT (UINT64CONST(1) << 12)

/* The 64-bit bit-reversal of v. */
static uint64
spread_reverse(uint64 v)
{
	v = ((v >> 1) & UINT64CONST(0x5555555555555555)) | ((v & UINT64CONST(0x5555555555555555)) << 1);
	v = ((v >> 2) & UINT64CONST(0x3333333333333333)) | ((v & UINT64CONST(0x3333333333333333)) << 2);
	v = ((v >> 4) & UINT64CONST(0x0F0F0F0F0F0F0F0F)) | ((v & UINT64CONST(0x0F0F0F0F0F0F0F0F)) << 4);
	return pg_bswap64(v);
}

/* The generator id, cluster and mode bits of a spreadid. */
static uint64
spreadid_fixed_bits(int generator, int cluster, bool spread)
{
	return (uint64) (generator >> 8) << 13 | (spread ? 0 : SPREAD_MODE_BIT) |
		(uint64) (generator & 255) << 4 | (uint64) cluster;
}

/* Turns a TIME_SEQUENTIAL spreadid into its SPREAD form (mode bit cleared). */
static uint64
spreadid_spread(uint64 v)
{
	return spread_reverse(v >> 22) | (v & SPREAD_LOW_MASK & ~SPREAD_MODE_BIT);
}

/* The time value, in Unix ms, of a spreadid of either mode. */
static uint64
spreadid_ms(uint64 v)
{
	return (v & SPREAD_MODE_BIT) ? v >> 22 : spread_reverse(v & ~SPREAD_LOW_MASK);
}

/* Whether mode text names SPREAD mode; errors for anything but 'spread' and 'time'. */
static bool
spreadid_mode_is_spread(text *mode)
{
	char	   *m = text_to_cstring(mode);

	if (strcmp(m, "spread") == 0)
		return true;
	if (strcmp(m, "time") == 0)
		return false;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid spreadid mode: \"%s\"", uid_quote_input(m)),
			 errhint("The mode is 'spread' (keys scattered over the key space) or 'time' (keys in time order).")));
	return false;
}

#define SPREAD_ARG(n) DatumGetUInt64(PG_GETARG_DATUM(n))

PG_FUNCTION_INFO_V1(spreadid_time);
/* id_time(spreadid), in either mode */
Datum
spreadid_time(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(uid_units_to_timestamptz(&uid_spreadid_layout, spreadid_ms(SPREAD_ARG(0))));
}

PG_FUNCTION_INFO_V1(spreadid_seq);
/* id_seq(spreadid) */
Datum
spreadid_seq(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) ((SPREAD_ARG(0) >> 16) & 63));
}

PG_FUNCTION_INFO_V1(spreadid_node);
/* id_node(spreadid): the 11-bit generator id, from its two parts */
Datum
spreadid_node(PG_FUNCTION_ARGS)
{
	uint64		v = SPREAD_ARG(0);

	PG_RETURN_INT32((int32) (((v >> 13) & 7) << 8 | ((v >> 4) & 255)));
}

PG_FUNCTION_INFO_V1(spreadid_cluster);
/* id_cluster(spreadid) */
Datum
spreadid_cluster(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) (SPREAD_ARG(0) & 15));
}

PG_FUNCTION_INFO_V1(spreadid_mode);
/* id_mode(spreadid): 'spread' or 'time' */
Datum
spreadid_mode(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text((SPREAD_ARG(0) & SPREAD_MODE_BIT) ? "time" : "spread"));
}

PG_FUNCTION_INFO_V1(make_spreadid);
/* make_spreadid(time, seq, generator, cluster, mode) */
Datum
make_spreadid(PG_FUNCTION_ARGS)
{
	uint64		t = uid_time_units(&uid_spreadid_layout, PG_GETARG_TIMESTAMPTZ(0));
	int32		seq = uid_check_range("spreadid", "seq", PG_GETARG_INT32(1), 63);
	int32		generator = uid_check_range("spreadid", "generator", PG_GETARG_INT32(2), 2047);
	int32		cluster = uid_check_range("spreadid", "cluster", PG_GETARG_INT32(3), 15);
	bool		spread = spreadid_mode_is_spread(PG_GETARG_TEXT_PP(4));
	uint64		v = t << 22 | (uint64) seq << 16 | spreadid_fixed_bits(generator, cluster, spread);

	return UInt64GetDatum(spread ? spreadid_spread(v) : v);
}

PG_FUNCTION_INFO_V1(next_spreadid);
/* next_spreadid(mode): generator id is this server's node number (below 2048), cluster uniqueid.cluster */
Datum
next_spreadid(PG_FUNCTION_ARGS)
{
	bool		spread = spreadid_mode_is_spread(PG_GETARG_TEXT_PP(0));
	int			generator;
	uint64		v;

	uid_require_generator("spreadid");
	generator = uid_node_for("spreadid", "generator id", 11);
	v = uid_generate_node(&uid_spreadid_layout, UID_SLOT_SPREADID,
						  spreadid_fixed_bits(generator, uid_cluster, false));
	return UInt64GetDatum(spread ? spreadid_spread(v) : v);
}

/* What the engine and the views know of spreadid (family.h; module.c registers it) */
const UidFamily uid_spreadid_family = {
	.stat = UID_SLOT_SPREADID,
	.name = "spreadid",
	.typname = "spreadid",
	.node_bearing = true,
	.layout = &uid_spreadid_layout,
};
