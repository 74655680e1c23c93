/*
 * stats.c - what the generators count, and the monitoring function behind
 * the view uniqueid_generators: per statistics slot (stats.h), the IDs
 * issued, the time units borrowed ahead of the clock, the waits for the
 * clock and the refusals, with the last ID's time read from the generator
 * itself.  The reset function, and the log lines of a borrow past half the
 * lead allowance and of long waits.
 *
 * IDs issued are counted in a backend-local array (uid_stat_issued, on
 * every ID) and added to shared memory when the transaction ends, so that
 * the per-ID path has no shared write it did not have: a view shows the IDs
 * of transactions that have ended, and the caller's own.  Everything else
 * is counted where the generators already take a slow path.
 */
#include "stats.h"

#include "access/xact.h"
#include "funcapi.h"
#include "generator.h"
#include "horizon.h"
#include "miscadmin.h"
#include "node.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "objectid.h"
#include "sno.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

/* A generator's counters; the lead line's time is the monotonic clock's */
typedef struct UidGenStats
{
	pg_atomic_uint64 issued;
	pg_atomic_uint64 borrows;	/* time units taken ahead of the clock */
	pg_atomic_uint64 borrowed_us;	/* their length */
	pg_atomic_uint64 max_lead_us;	/* the furthest such a unit started ahead */
	pg_atomic_uint64 waits;		/* calls that waited for the clock */
	pg_atomic_uint64 wait_us;
	pg_atomic_uint64 max_wait_us;
	pg_atomic_uint64 refused[UID_REFUSAL_KINDS];
	pg_atomic_uint64 lead_logged_us;	/* the last lead line, 0 none */
} UidGenStats;

#define UID_LEAD_LOG_EVERY_US INT64CONST(60000000)

typedef struct UidStatsShared
{
	pg_atomic_uint64 reset_at;	/* a TimestampTz: the start, or the last reset */
	UidLogLimit clock_waits;		/* the log lines of long waits for the clock */
	UidGenStats gen[UID_NSTATS];
} UidStatsShared;

static UidStatsShared *uid_stats = NULL;

uint64		uid_stat_family_count[UID_NSTATS - UID_NSHARDS];
bool		uid_stat_family_pending = false;
uint16		uid_stat_shard_count[UID_NSHARDS];
/* the shards counted since the last fold: a list, and a bit each */
static uint16 uid_stat_dirty[UID_NSHARDS];
static int	uid_stat_ndirty = 0;
static uint64 uid_stat_noted[UID_NSHARDS / 64];
/* the fold is registered (uid_stats_backend_init) */
static bool uid_stat_registered = false;

/*
 * The generators' counters at 0 (the times of the last log lines too, so
 * that the next borrow past half the allowance is logged): at the start
 * (first), or by uniqueid_stats_reset.
 */
static void
uid_stats_zero(bool first)
{
	for (int i = 0; i < UID_NSTATS; i++)
	{
		pg_atomic_uint64 *c = &uid_stats->gen[i].issued;

		for (size_t j = 0; j < sizeof(UidGenStats) / sizeof(pg_atomic_uint64); j++)
			uid_counter_zero(&c[j], first);
	}
	uid_counter_zero(&uid_stats->clock_waits.unlogged, first);
}

/* shmem_request_hook work */
void
uid_stats_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidStatsShared));
}

/* shmem_startup_hook work (AddinShmemInitLock held): zeroed, reset at the start */
void
uid_stats_shmem_startup(void)
{
	bool		found;

	uid_stats = ShmemInitStruct("uniqueid statistics", sizeof(UidStatsShared), &found);
	if (!found)
	{
		uid_stats_zero(true);
		pg_atomic_init_u64(&uid_stats->clock_waits.logged_us, 0);
		pg_atomic_init_u64(&uid_stats->reset_at, (uint64) GetCurrentTimestamp());
	}
}

/* Adds this backend's pending counts to shared memory: the families', the shards' noted. */
static void
uid_stats_fold(void)
{
	if (uid_stat_family_pending)
	{
		for (uint32 s = UID_NSHARDS; s < UID_NSTATS; s++)
		{
			uint64		n = uid_stat_family_count[s - UID_NSHARDS];

			if (n != 0)
				pg_atomic_fetch_add_u64(&uid_stats->gen[s].issued, n);
			uid_stat_family_count[s - UID_NSHARDS] = 0;
		}
		uid_stat_family_pending = false;
	}
	for (int i = 0; i < uid_stat_ndirty; i++)
	{
		uint32		s = uid_stat_dirty[i];

		pg_atomic_fetch_add_u64(&uid_stats->gen[s].issued, uid_stat_shard_count[s]);
		uid_stat_shard_count[s] = 0;
		uid_stat_noted[s / 64] &= ~(UINT64CONST(1) << (s % 64));
	}
	uid_stat_ndirty = 0;
}

/* At every transaction's end (committed or not: its IDs were issued), the fold. */
static void
uid_stats_xact_callback(XactEvent event, void *arg)
{
	if (uid_stat_family_pending || uid_stat_ndirty > 0)
		uid_stats_fold();
}

/* Registers the fold, once, before this backend's first ID (uid_require_generator_slow). */
void
uid_stats_backend_init(void)
{
	if (uid_stat_registered)
		return;
	RegisterXactCallback(uid_stats_xact_callback, NULL);
	uid_stat_registered = true;
}

/*
 * uid_stat_issued_shard's rare case: the shard's first ID since the last
 * fold (its count is 1), noted for the fold; or its 16 bits wrapped (0),
 * 65,536 IDs added at once.
 */
void
uid_stat_shard_turn(uint32 stat)
{
	Assert(stat < UID_NSHARDS);
	if (uid_stat_shard_count[stat] == 0)
		pg_atomic_fetch_add_u64(&uid_stats->gen[stat].issued, UINT64CONST(1) << 16);
	else if ((uid_stat_noted[stat / 64] & (UINT64CONST(1) << (stat % 64))) == 0)
	{
		uid_stat_noted[stat / 64] |= UINT64CONST(1) << (stat % 64);
		uid_stat_dirty[uid_stat_ndirty++] = (uint16) stat;
	}
}

static const UidLayout *uid_slot_layout(uint32 slot);

/* The family of a statistics slot, as the view names it */
static const char *
uid_stat_family(uint32 stat)
{
	if (stat == UID_STAT_SNO)
		return "sno";
	if (stat == UID_STAT_OBJECTID)
		return "objectid";
	if (stat == UID_SLOT_UUID7)
		return "uuid7";
	if (stat >= UID_NSLOTS)
		return "shardid";
	return uid_slot_layout(stat)->typname;
}

/* The IDs of a statistics slot, as log lines name them: its family's, and a shard's number. */
static const char *
uid_stat_name(uint32 stat)
{
	if (stat < UID_SLOT_SHARDID + UID_NSHARDS)
		return psprintf("shardid IDs of shard %u", stat - UID_SLOT_SHARDID);
	return psprintf("%s IDs", uid_stat_family(stat));
}

/*
 * A time unit of unit_us taken ahead of the clock by slot `stat`, starting
 * lead_us ahead of it.  The first such unit more than half
 * uniqueid.max_clock_lead ahead is logged, then at most once a minute per
 * slot.
 */
void
uid_stat_borrow(uint32 stat, int64 unit_us, int64 lead_us)
{
	UidGenStats *g = &uid_stats->gen[stat];

	pg_atomic_fetch_add_u64(&g->borrows, 1);
	pg_atomic_fetch_add_u64(&g->borrowed_us, (uint64) unit_us);
	uid_atomic_raise(&g->max_lead_us, (uint64) Max(lead_us, 0));
	if (lead_us * 2 > (int64) uid_max_clock_lead_ms * 1000)
	{
		uint64		last = pg_atomic_read_u64(&g->lead_logged_us);
		int64		now = uid_mono_us();

		if ((last == 0 || now - (int64) last >= UID_LEAD_LOG_EVERY_US) &&
			pg_atomic_compare_exchange_u64(&g->lead_logged_us, &last, (uint64) Max(now, 1)))
		{
			HOLD_INTERRUPTS();
			ereport(LOG,
					(errmsg("uniqueid: %s are %.1f ms ahead of the clock, past half of uniqueid.max_clock_lead (%d ms)",
							uid_stat_name(stat), (double) lead_us / 1000.0, uid_max_clock_lead_ms),
					 errdetail("More IDs were asked for than the type holds per time unit (%.3f ms): the generator takes units ahead of the clock, and at uniqueid.max_clock_lead it waits for the clock.",
							   (double) unit_us / 1000.0),
					 errhint("The view uniqueid_generators counts the borrowed units and the waits.")));
			RESUME_INTERRUPTS();
		}
	}
}

/*
 * A call that waited waited_us for the clock: past a second, logged, at
 * most once every 10 s server-wide, with the count of those not logged
 * since.
 */
static void
uid_stat_long_wait(int64 waited_us)
{
	uint64		last;

	if (waited_us <= UID_LONG_WAIT_US || uid_stats == NULL ||
		!uid_log_due(&uid_stats->clock_waits, uid_mono_us(), UID_LONG_WAIT_EVERY_US, &last))
		return;
	/* (the line serves no interrupt: the caller's work is done, and is counted) */
	HOLD_INTERRUPTS();
	ereport(LOG,
			(errmsg("uniqueid: a generator waited %.1f s for the clock", (double) waited_us / 1000000.0),
			 errdetail("Its IDs were uniqueid.max_clock_lead (%d ms) ahead of the clock: more were asked for than the type holds.%s",
					   uid_max_clock_lead_ms,
					   last > 0 ? psprintf(" %llu more waits over a second since the last such line.",
										   (unsigned long long) last) : "")));
	RESUME_INTERRUPTS();
}

/* A call of slot `stat` that waited waited_us for the clock (over capacity). */
void
uid_stat_wait(uint32 stat, int64 waited_us)
{
	UidGenStats *g = &uid_stats->gen[stat];

	pg_atomic_fetch_add_u64(&g->waits, 1);
	pg_atomic_fetch_add_u64(&g->wait_us, (uint64) Max(waited_us, 0));
	uid_atomic_raise(&g->max_wait_us, (uint64) Max(waited_us, 0));
	uid_stat_long_wait(waited_us);
}

/* A call of slot `stat` refused for reason why (just before its error). */
void
uid_stat_refused(uint32 stat, UidRefusal why)
{
	if (uid_stats != NULL)
		pg_atomic_fetch_add_u64(&uid_stats->gen[stat].refused[why], 1);
}

/*
 * The statistics slot of a family by its type's name (for the node
 * registry's refusals, which know only that); shardid's is next_id()'s
 * with no node number.
 */
uint32
uid_stat_of_type(const char *typname)
{
	static const struct
	{
		const char *name;
		uint32		stat;
	}			types[] = {
		{"snowflake", UID_SLOT_SNOWFLAKE}, {"sonyflake", UID_SLOT_SONYFLAKE},
		{"spreadid", UID_SLOT_SPREADID}, {"rsxid", UID_SLOT_RSXID}, {"sno", UID_STAT_SNO},
		{"uuid", UID_SLOT_UUID7}, {"ulid", UID_SLOT_ULID}, {"ksuid", UID_SLOT_KSUID},
		{"shortid", UID_SLOT_SHORTID}, {"objectid", UID_STAT_OBJECTID},
	};

	for (int i = 0; i < lengthof(types); i++)
		if (strcmp(typname, types[i].name) == 0)
			return types[i].stat;
	return UID_STAT_SHARDID_NO_NODE;
}

/* When the counters started: the server's start, or the last reset. */
TimestampTz
uid_stats_reset_time(void)
{
	return (TimestampTz) pg_atomic_read_u64(&uid_stats->reset_at);
}

/* Errors out unless uniqueid's statistics are in shared memory. */
static void
uid_stats_require_preload(void)
{
	if (uid_stats == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uniqueid must be loaded via shared_preload_libraries to report its generators"),
				 errhint("Add uniqueid to shared_preload_libraries in postgresql.conf and restart the server.")));
}

/* The layout of generator slot `slot` */
static const UidLayout *
uid_slot_layout(uint32 slot)
{
	static const UidLayout *const families[] = {
		&uid_uuid7_layout, &uid_snowflake_layout, &uid_sonyflake_layout, &uid_shortid_layout,
		&uid_spreadid_layout, &uid_ulid_layout, &uid_ksuid_layout, &uid_rsxid_layout,
	};

	StaticAssertStmt(lengthof(families) == UID_NSLOTS - UID_SLOT_UUID7, "a layout for every family slot");
	if (slot < UID_SLOT_UUID7)
		return &uid_shardid_layout;
	return families[slot - UID_SLOT_UUID7];
}

/* An interval of us microseconds */
static Datum
uid_interval_datum(int64 us)
{
	Interval   *i = palloc0(sizeof(Interval));

	i->time = us;
	return IntervalPGetDatum(i);
}

#define UID_GENERATORS_COLS 20

/*
 * One row of uniqueid_generator_stats(); last_us is the Unix time of the
 * last ID's time unit (0: none), now_us the clock.
 */
static void
uid_generators_row(ReturnSetInfo *rsinfo, uint32 stat, const char *family, int shard, bool node_bearing,
				   int64 last_us, int64 now_us, uint64 per_unit, int64 unit_us, const char *state)
{
	UidGenStats *g = &uid_stats->gen[stat];
	Datum		v[UID_GENERATORS_COLS];
	bool		n[UID_GENERATORS_COLS];
	int			node = node_bearing ? uid_node_in_use() : -1;
	int			c = 0;

	memset(n, false, sizeof(n));
	v[c++] = CStringGetTextDatum(family);
	n[c] = shard < 0;
	v[c++] = Int32GetDatum(shard);
	n[c] = node < 0;
	v[c++] = Int32GetDatum(node);
	v[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&g->issued));
	n[c] = last_us == 0;
	v[c++] = TimestampTzGetDatum(last_us - UID_PG_EPOCH_UNIX_US);
	n[c] = last_us == 0;
	v[c++] = Float8GetDatum(last_us > now_us ? (double) (last_us - now_us) / 1000.0 : 0.0);
	v[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&g->borrows));
	v[c++] = Float8GetDatum((double) pg_atomic_read_u64(&g->borrowed_us) / 1000.0);
	v[c++] = Float8GetDatum((double) pg_atomic_read_u64(&g->max_lead_us) / 1000.0);
	v[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&g->waits));
	v[c++] = Float8GetDatum((double) pg_atomic_read_u64(&g->wait_us) / 1000.0);
	v[c++] = Float8GetDatum((double) pg_atomic_read_u64(&g->max_wait_us) / 1000.0);
	for (int r = 0; r < UID_REFUSAL_KINDS; r++)
		v[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&g->refused[r]));
	v[c++] = Int64GetDatum((int64) per_unit);
	v[c++] = uid_interval_datum(unit_us);
	n[c] = state == NULL;
	v[c++] = state ? CStringGetTextDatum(state) : (Datum) 0;
	v[c++] = TimestampTzGetDatum(uid_stats_reset_time());
	Assert(c == UID_GENERATORS_COLS);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, n);
}

/* Whether any counter of statistics slot `stat` is not 0 */
static bool
uid_stat_used(uint32 stat)
{
	UidGenStats *g = &uid_stats->gen[stat];

	if (pg_atomic_read_u64(&g->issued) != 0 || pg_atomic_read_u64(&g->borrows) != 0 ||
		pg_atomic_read_u64(&g->waits) != 0)
		return true;
	for (int r = 0; r < UID_REFUSAL_KINDS; r++)
		if (pg_atomic_read_u64(&g->refused[r]) != 0)
			return true;
	return false;
}

PG_FUNCTION_INFO_V1(uniqueid_generator_stats);
/*
 * uniqueid_generator_stats(): one row per family, and per logical shard of
 * shardid in use (issued from, counted, adopted or released since the
 * start), the view uniqueid_generators.
 */
Datum
uniqueid_generator_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;

	uid_stats_require_preload();
	InitMaterializedSRF(fcinfo, 0);
	/* the caller's own IDs too */
	uid_stats_fold();
	for (uint32 slot = 0; slot < UID_NSLOTS; slot++)
	{
		const UidLayout *layout = uid_slot_layout(slot);
		const UidField *seqf = &layout->fields[layout->seq_field];
		UidSlot    *s = &uid_slots[slot];
		uint64		st = pg_atomic_read_u64(&s->state);
		bool		shard = slot < UID_SLOT_UUID7;
		const char *state = NULL;
		int64		last_us = 0;

		if (st == PG_UINT64_MAX)
		{
			state = "released";
			st = pg_atomic_read_u64(&s->released);
		}
		else if (pg_atomic_read_u64(&s->adopt_ms) != 0)
			state = "adopted";
		if (shard && st == 0 && state == NULL && !uid_stat_used(slot))
			continue;
		if (st != 0)
			last_us = layout->epoch_us + (int64) (st >> seqf->bits) * layout->unit_us;
		uid_generators_row(rsinfo, slot, uid_stat_family(slot), shard ? (int) slot : -1,
						   !shard && (layout == &uid_snowflake_layout || layout == &uid_sonyflake_layout ||
									  layout == &uid_spreadid_layout || layout == &uid_rsxid_layout),
						   last_us, now_us, UID_FIELD_MAX(seqf->bits) + 1, layout->unit_us,
						   shard ? (state ? state : "active") : NULL);
	}
	uid_generators_row(rsinfo, UID_STAT_SNO, "sno", -1, true, uid_sno_last_us(), now_us,
					   (uint64) Max(uid_sno_sequence_max - uid_sno_sequence_min + 1, 0), 4000, NULL);
	uid_generators_row(rsinfo, UID_STAT_OBJECTID, "objectid", -1, false, uid_objectid_last_us(), now_us,
					   UINT64CONST(1) << 24, USECS_PER_SEC, NULL);
	if (uid_stat_used(UID_STAT_SHARDID_NO_NODE))
		uid_generators_row(rsinfo, UID_STAT_SHARDID_NO_NODE, "shardid", -1, false, 0, now_us,
						   UID_FIELD_MAX(uid_shardid_layout.fields[uid_shardid_layout.seq_field].bits) + 1,
						   uid_shardid_layout.unit_us, NULL);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(uniqueid_stats_reset);
/*
 * uniqueid_stats_reset(): every counter of uniqueid_generators and
 * uniqueid_durability back to 0 (the horizons, floors and IDs are not
 * touched), and the time of the reset.  IDs of transactions still open are
 * counted after it.
 */
Datum
uniqueid_stats_reset(PG_FUNCTION_ARGS)
{
	TimestampTz now = GetCurrentTimestamp();

	uid_stats_require_preload();
	uid_stats_fold();
	uid_stats_zero(false);
	uid_horizon_stats_reset();
	uid_clock_stats_reset();
	pg_atomic_write_u64(&uid_stats->reset_at, (uint64) now);
	PG_RETURN_TIMESTAMPTZ(now);
}
