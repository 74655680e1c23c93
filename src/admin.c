/*
 * admin.c - the SQL functions that report or raise uniqueid's state, in one
 * place above the engine and the horizon, which they read and which never
 * call them: uniqueid_horizon() and uniqueid_raise_horizon() (the horizon a
 * database carries to another server), the functions behind the views
 * uniqueid_generators (the generators' counters, stats.c, with each
 * family's last ID from its row in the table of families, family.h) and
 * uniqueid_durability (the horizon's, horizon.c, and the clock's steps
 * back, clock.c), and uniqueid_stats_reset().
 */
#include "admin.h"

#include "access/xlog.h"
#include "clock.h"
#include "dbhorizon.h"
#include "family.h"
#include "funcapi.h"
#include "generator.h"
#include "horizon.h"
#include "miscadmin.h"
#include "node.h"
#include "stats.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

/* A horizon (Unix ms) as a timestamptz */
static inline TimestampTz
uid_ms_timestamptz(uint64 ms)
{
	return (TimestampTz) ms * 1000 - UID_PG_EPOCH_UNIX_US;
}

/* ---- the horizon ---- */

PG_FUNCTION_INFO_V1(uniqueid_horizon);
/*
 * uniqueid_horizon(): the highest durable horizon of this server (its own,
 * or an adopted shard's): every ID it has issued, of every generator, lies
 * below it.  What uniqueid_raise_horizon() takes on the server a database
 * moves to.
 */
Datum
uniqueid_horizon(PG_FUNCTION_ARGS)
{
	uint64		h;

	if (uid_horizon == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uniqueid must be loaded via shared_preload_libraries to have a horizon"),
				 errhint("Add uniqueid to shared_preload_libraries in postgresql.conf and restart the server.")));
	if (!RecoveryInProgress())
	{
		if (!uid_generator_ready)
			uid_require_generator_slow("any");
		/* and records the server's horizon in this database */
		uid_db_horizon_cover(UID_DB_SERVER, pg_atomic_read_u64(&uid_horizon->horizon_ms));
	}
	h = uid_horizon_known();
	if (h == 0)
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(uid_ms_timestamptz(h));
}

PG_FUNCTION_INFO_V1(uniqueid_raise_horizon);
/*
 * uniqueid_raise_horizon(at): every generator of this server continues at or
 * after `at` (rounded up to a whole second) from now on (the horizon of the server a database came from),
 * durably, and this database's sequence records it.  Raise-only; refuses a
 * time more than a day ahead of the clock.  Returns the horizon.
 */
Datum
uniqueid_raise_horizon(PG_FUNCTION_ARGS)
{
	TimestampTz at = PG_GETARG_TIMESTAMPTZ(0);
	TimestampTz now = GetCurrentTimestamp();
	uint64		h;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function uniqueid_raise_horizon"),
				 errdetail("Only superusers may move the horizon.")));
	uid_require_generator("any");
	if (TIMESTAMP_NOT_FINITE(at) || at < -UID_PG_EPOCH_UNIX_US)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("horizon \"%s\" is out of range", timestamptz_to_str(at)),
				 errhint("Pass what uniqueid_horizon() returned on the server the database comes from.")));
	if (at > now + USECS_PER_DAY)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("horizon \"%s\" is more than a day ahead of this server's clock", timestamptz_to_str(at)),
				 errhint("Check the clocks of both servers; pass what uniqueid_horizon() returned.")));
	/*
	 * up to the whole second at or after `at`: a generator's first unit
	 * after a raise is the one that holds the floor (uid_units_past_ms),
	 * which may begin before a floor inside a unit; every family's unit
	 * divides a second and its epoch is a whole second, so the unit that
	 * holds a whole second begins there, and every ID lies at or after `at`
	 */
	h = uid_horizon_raise((uint64) ((at + UID_PG_EPOCH_UNIX_US + USECS_PER_SEC - 1) / USECS_PER_SEC) * 1000);
	uid_db_horizon_cover(UID_DB_SERVER, h);
	PG_RETURN_TIMESTAMPTZ(uid_ms_timestamptz(uid_horizon_known()));
}

/* ---- the view uniqueid_durability ---- */

/* A Unix time in ms as a timestamptz datum */
static Datum
uid_ms_datum(uint64 ms)
{
	return TimestampTzGetDatum((TimestampTz) ms * 1000 - UID_PG_EPOCH_UNIX_US);
}

/* The columns of a timing: count, total and largest (ms) */
static int
uid_timing_columns(UidTiming *t, Datum *v)
{
	v[0] = Int64GetDatum((int64) pg_atomic_read_u64(&t->count));
	v[1] = Float8GetDatum((double) pg_atomic_read_u64(&t->total_us) / 1000.0);
	v[2] = Float8GetDatum((double) pg_atomic_read_u64(&t->max_us) / 1000.0);
	return 3;
}

#define UID_DURABILITY_COLS 21

PG_FUNCTION_INFO_V1(uniqueid_durability_stats);
/*
 * uniqueid_durability_stats(): the view uniqueid_durability.  A row for the
 * server: its horizon, floor, writes and their timings (of every write of
 * the state file, the shards' included), the wait for the synchronous
 * standbys under way, and the clock's steps back; and one for each logical
 * shard with a horizon of its own above the server's, or written since the
 * start: its horizon, floor and writes (the other columns NULL).
 */
Datum
uniqueid_durability_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Datum		v[UID_DURABILITY_COLS];
	bool		n[UID_DURABILITY_COLS];
	uint64		h,
				floor,
				at,
				regressions;
	int64		regression_max_us;
	TimestampTz regressed_at;
	TimestampTz reset_at;
	int			c = 0;

	if (uid_horizon == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uniqueid must be loaded via shared_preload_libraries to report its horizon"),
				 errhint("Add uniqueid to shared_preload_libraries in postgresql.conf and restart the server.")));
	InitMaterializedSRF(fcinfo, 0);
	/* a step back of the clock not yet seen by a generator (it reads the clock for a new unit) */
	(void) uid_clock_set_back();
	reset_at = uid_stats_reset_time();
	h = pg_atomic_read_u64(&uid_horizon->horizon_ms);
	floor = pg_atomic_read_u64(&uid_horizon->floor_ms);
	pg_read_barrier();

	memset(n, false, sizeof(n));
	v[c++] = CStringGetTextDatum("server");
	n[c++] = true;
	n[c] = h == 0;
	v[c++] = uid_ms_datum(h);
	/* (0: no horizon before the first ID, nothing to stand above) */
	n[c] = floor == UID_FLOOR_UNSET || floor == 0;
	v[c++] = uid_ms_datum(floor);
	at = pg_atomic_read_u64(&uid_horizon->written_at);
	n[c] = at == 0;
	v[c++] = TimestampTzGetDatum((TimestampTz) at);
	v[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&uid_horizon->writes));
	v[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&uid_horizon->failures));
	c += uid_timing_columns(&uid_horizon->file_write, &v[c]);
	c += uid_timing_columns(&uid_horizon->wal_flush, &v[c]);
	c += uid_timing_columns(&uid_horizon->sync_wait, &v[c]);
	at = pg_atomic_read_u64(&uid_horizon->sync_waiting_since);
	n[c] = at == 0;
	v[c++] = TimestampTzGetDatum((TimestampTz) at);
	uid_clock_stats(&regressions, &regression_max_us, &regressed_at);
	v[c++] = Int64GetDatum((int64) regressions);
	v[c++] = Float8GetDatum((double) regression_max_us / 1000.0);
	n[c] = regressed_at == 0;
	v[c++] = TimestampTzGetDatum(regressed_at);
	v[c++] = TimestampTzGetDatum(reset_at);
	Assert(c == UID_DURABILITY_COLS);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, n);

	/* (without the horizon's lock, which a write holds while it waits for the standbys) */
	for (int s = 0; s < UID_NSHARDS; s++)
	{
		uint64		sh = pg_atomic_read_u64(&uid_horizon->shard_ms[s]);
		uint64		writes = pg_atomic_read_u64(&uid_horizon->shard_writes[s]);
		uint64		failures = pg_atomic_read_u64(&uid_horizon->shard_failures[s]);
		TimestampTz written_at = (TimestampTz) pg_atomic_read_u64(&uid_horizon->shard_written_at[s]);
		uint64		shard_floor = Max(floor, uid_horizon->shard_floor_ms[s]);

		if (sh <= h && writes == 0 && failures == 0)
			continue;
		memset(n, true, sizeof(n));
		c = 0;
		v[c] = CStringGetTextDatum("shard");
		n[c++] = false;
		v[c] = Int32GetDatum(s);
		n[c++] = false;
		v[c] = uid_ms_datum(Max(sh, h));
		n[c++] = Max(sh, h) == 0;
		v[c] = uid_ms_datum(shard_floor);
		n[c++] = floor == UID_FLOOR_UNSET || shard_floor == 0;
		v[c] = TimestampTzGetDatum(written_at);
		n[c++] = written_at == 0;
		v[c] = Int64GetDatum((int64) writes);
		n[c++] = false;
		v[c] = Int64GetDatum((int64) failures);
		n[c++] = false;
		v[UID_DURABILITY_COLS - 1] = TimestampTzGetDatum(reset_at);
		n[UID_DURABILITY_COLS - 1] = false;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, v, n);
	}
	return (Datum) 0;
}

/* ---- the view uniqueid_generators, and the reset of both ---- */

/* Errors out unless uniqueid's statistics are in shared memory. */
static void
uid_stats_require_preload(void)
{
	if (!uid_stats_attached())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("uniqueid must be loaded via shared_preload_libraries to report its generators"),
				 errhint("Add uniqueid to shared_preload_libraries in postgresql.conf and restart the server.")));
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
	UidGenStats *g = uid_stats_of(stat);
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
	UidGenStats *g = uid_stats_of(stat);

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
		const UidFamily *family = uid_family(slot);
		const UidLayout *layout = family->layout;
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
		uid_generators_row(rsinfo, slot, family->name, shard ? (int) slot : -1, family->node_bearing,
						   last_us, now_us, UID_FIELD_MAX(seqf->bits) + 1, layout->unit_us,
						   shard ? (state ? state : "active") : NULL);
	}
	/*
	 * The families with generators of their own (sno, objectid), from their
	 * rows; then next_id() refused while no node number is held, if it was
	 * (shardid's row, on the engine's slots)
	 */
	for (uint32 stat = UID_NSLOTS; stat < UID_NSTATS; stat++)
	{
		const UidFamily *family = uid_family(stat);

		if (family->layout == NULL)
			uid_generators_row(rsinfo, stat, family->name, -1, family->node_bearing, family->last_us(), now_us,
							   family->per_unit(), family->unit_us, NULL);
		else if (uid_stat_used(stat))
			uid_generators_row(rsinfo, stat, family->name, -1, family->node_bearing, 0, now_us,
							   UID_FIELD_MAX(family->layout->fields[family->layout->seq_field].bits) + 1,
							   family->layout->unit_us, NULL);
	}
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
	uid_stats_reset();
	uid_horizon_stats_reset();
	uid_clock_stats_reset();
	uid_stats_set_reset_time(now);
	PG_RETURN_TIMESTAMPTZ(now);
}
