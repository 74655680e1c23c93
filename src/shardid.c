/*
 * shardid.c - the generators of shardid: next_id(shard), for the logical
 * shards this server owns (uniqueid.shards), and next_id(), for this
 * server's own shard, numbered uniqueid.node; and shard_adopt, which takes a
 * shard over from another server.  The type itself is in id64.c.
 */
#include "shardid.h"

#include "generator.h"

#include "miscadmin.h"
#include "utils/builtins.h"

/* Errors out unless shard is a logical shard number, 0..8191, as make_shardid does. */
static inline void
shardid_check_shard(int32 shard)
{
	uid_check_range("shardid", "shard", shard, UID_NSHARDS - 1);
}

/* The error of next_id(shard) for a shard this server does not own. */
pg_noreturn static void
shardid_not_owned(int32 shard)
{
	uid_stat_refused(UID_SLOT_SHARDID + shard, UID_REFUSED_NOT_OWNED);
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("shard %d is not owned by this server", shard),
			 errdetail("This server's uniqueid.shards is \"%s\".", uid_shards_setting()),
			 errhint("Generate IDs for shard %d on the server that owns it, or add it to uniqueid.shards.",
					 shard)));
}

/* the next shardid of a shard, its number already checked (not yet counted) */
static inline uint64
shardid_generate(int32 shard)
{
	return uid_generate_slot(&uid_shardid_layout, UID_SLOT_SHARDID + shard,
							 (uint64) shard << uid_shardid_layout.fields[0].shift);
}

PG_FUNCTION_INFO_V1(next_id);
/* next_id(shard): the next shardid of a logical shard this server owns */
Datum
next_id(PG_FUNCTION_ARGS)
{
	int32		shard = PG_GETARG_INT32(0);
	uint64		id;

	uid_require_generator("shardid");
	shardid_check_shard(shard);
	if (unlikely(!uid_shard_owned(shard)))
		shardid_not_owned(shard);
	id = shardid_generate(shard);
	uid_stat_issued_shard(UID_SLOT_SHARDID + shard);
	return UInt64GetDatum(id);
}

PG_FUNCTION_INFO_V1(next_id_own);
/*
 * next_id(): the next shardid of this server's own shard, the one numbered
 * as the server's node (which must fit the 13-bit shard field).  Whatever
 * uniqueid.shards says, that shard is this server's: a default that works on
 * every server of a cluster whose servers have their own uniqueid.node, and
 * whose IDs name the server that made them.
 */
Datum
next_id_own(PG_FUNCTION_ARGS)
{
	int32		shard;
	uint64		id;

	uid_require_generator("shardid");
	shard = uid_node_for("shardid", "shard", 13);
	id = shardid_generate(shard);
	uid_node_issued_id(&uid_shardid_layout, id);
	uid_stat_issued_shard(UID_SLOT_SHARDID + shard);
	return UInt64GetDatum(id);
}

PG_FUNCTION_INFO_V1(shard_adopt);
/*
 * shard_adopt(shard, last): take over a logical shard moved from another
 * server, whose last ID there was `last`.  The shard's slot and its own
 * durable horizon move up to `last` (the server-wide horizon stays where it
 * is), so the next IDs of the shard here are greater, even with this
 * server's clock behind the other's, and across restarts, crashes and
 * promotions.
 */
Datum
shard_adopt(PG_FUNCTION_ARGS)
{
	int32		shard = PG_GETARG_INT32(0);
	uint64		last = DatumGetUInt64(PG_GETARG_DATUM(1));
	const UidLayout *layout = &uid_shardid_layout;
	int64		last_us;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function shard_adopt"),
				 errdetail("Only superusers may adopt a logical shard.")));
	uid_require_generator("shardid");
	shardid_check_shard(shard);
	if ((int) uid_get_field(layout, last, 0) != shard)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardid " UINT64_FORMAT " belongs to shard %d, not %d",
						last, (int) uid_get_field(layout, last, 0), shard),
				 errhint("Pass the greatest ID the shard was given on the server it comes from.")));
	last_us = layout->epoch_us + (int64) uid_get_time(layout, last) * layout->unit_us;
	/* the horizon can only move forward: refuse a last ID implausibly far ahead */
	if (last_us > GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US + USECS_PER_HOUR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardid " UINT64_FORMAT " is more than an hour ahead of this server's clock", last),
				 errdetail("Its time is %s.", timestamptz_to_str(last_us - UID_PG_EPOCH_UNIX_US)),
				 errhint("Check the clocks of both servers and that the ID is the shard's last.")));
	uid_generator_adopt(layout, UID_SLOT_SHARDID + shard, last);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(shard_release);
/*
 * shard_release(shard): hand a logical shard over to another server.  From
 * now on this server issues no ID of the shard, whatever uniqueid.shards
 * says, until it restarts or adopts the shard again; returns the greatest ID
 * it issued for it (an upper bound from the durable horizon if none since
 * it started; NULL if it never issued any), to pass to shard_adopt() on the
 * server that takes the shard.  Remove the shard from uniqueid.shards too,
 * so that a restart does not give it back.
 */
Datum
shard_release(PG_FUNCTION_ARGS)
{
	int32		shard = PG_GETARG_INT32(0);
	uint64		last;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function shard_release"),
				 errdetail("Only superusers may release a logical shard.")));
	uid_require_generator("shardid");
	shardid_check_shard(shard);
	last = uid_generator_release(&uid_shardid_layout, UID_SLOT_SHARDID + shard);
	if (last == 0)
		PG_RETURN_NULL();
	return UInt64GetDatum(last | (uint64) shard << uid_shardid_layout.fields[0].shift);
}

/*
 * What the engine and the views know of shardid (family.h; module.c
 * registers it): the row of next_id() with no node number, which stands for
 * the logical shards' slots too
 */
const UidFamily uid_shardid_family = {
	.stat = UID_STAT_SHARDID_NO_NODE,
	.name = "shardid",
	.typname = "shardid",
	.node_bearing = false,
	.layout = &uid_shardid_layout,
};
