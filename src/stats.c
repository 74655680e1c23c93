/*
 * stats.c - what the generators count for the monitoring views
 * (uniqueid_generators, admin.c): per statistics slot (stats.h), the IDs
 * issued, the time units borrowed ahead of the clock, the waits for the
 * clock and the refusals; and the log lines of a borrow past half the lead
 * allowance and of long waits for the clock.
 *
 * IDs issued are counted in a backend-local array (uid_stat_issued, on
 * every ID) and added to shared memory when the transaction ends, so that
 * the per-ID path has no shared write it did not have: a view shows the IDs
 * of transactions that have ended, and the caller's own.  Everything else
 * is counted where the generators already take a slow path.
 */
#include "stats.h"

#include "access/xact.h"
#include "clock.h"
#include "guc.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/timestamp.h"

/* a borrow past half the lead allowance is logged at most once a minute per slot */
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
void
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

/* The IDs of a statistics slot, as log lines name them: its family's, and a shard's number. */
static const char *
uid_stat_name(uint32 stat)
{
	if (stat < UID_SLOT_SHARDID + UID_NSHARDS)
		return psprintf("shardid IDs of shard %u", stat - UID_SLOT_SHARDID);
	return psprintf("%s IDs", uid_family(stat)->name);
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

/* Whether the counters are in shared memory (uniqueid is preloaded). */
bool
uid_stats_attached(void)
{
	return uid_stats != NULL;
}

/* The counters of statistics slot `stat`, which the views read */
UidGenStats *
uid_stats_of(uint32 stat)
{
	return &uid_stats->gen[stat];
}

/* When the counters started: the server's start, or the last reset. */
TimestampTz
uid_stats_reset_time(void)
{
	return (TimestampTz) pg_atomic_read_u64(&uid_stats->reset_at);
}

/* uniqueid_stats_reset: this backend's counts folded in, then every counter at 0 */
void
uid_stats_reset(void)
{
	uid_stats_fold();
	uid_stats_zero(false);
}

/* uniqueid_stats_reset, last: the time the counters start from */
void
uid_stats_set_reset_time(TimestampTz at)
{
	pg_atomic_write_u64(&uid_stats->reset_at, (uint64) at);
}

