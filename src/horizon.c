/*
 * horizon.c - the persisted time horizon that keeps generators unique across
 * restarts, crashes and failovers.
 *
 * Invariant: every ID any generator of this server has issued has a time
 * unit that ends at or before the durable horizon H (so its time is below
 * H), except the IDs of an adopted shard (below), which end at or before
 * that shard's own horizon.  Before a generator returns an ID whose unit ends
 * past H, H is advanced to (that end or the clock, whichever is later) plus
 * a lease, written to a state file in the data directory and logged through
 * a custom WAL resource manager, both flushed (and, when the server waits
 * for synchronous standbys, confirmed by them); an ID near H renews the lease
 * early, so that generators need not wait for it.  Crash recovery and
 * streaming standbys replay the WAL record; the state file carries H across
 * checkpoints (redo starts at the last checkpoint, so the record alone could
 * be skipped).  The first generator call after startup or promotion fixes the
 * floor at H: from then on every ID lies in a time unit that ends past the
 * floor, above every ID issued before (whose units ended at or before H).
 *
 * A logical shard of shardid taken over from another server (shard_adopt)
 * may issue IDs ahead of this server's clock, up to where the other server
 * left it.  Those IDs advance a horizon of the shard's own, kept in the same
 * state file and logged in a WAL record of their own, so that the floor of
 * every other generator stays what its own IDs require; the shard's floor
 * is the higher of the two, and after a restart or promotion the generators
 * restore the shard's adoption from it (uid_horizon_shard_floor_hook).
 */
#include "horizon.h"

#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "clock.h"
#include "layout.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "replication/syncrep.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#define UID_HORIZON_FILE "uniqueid.horizon"
#define UID_HORIZON_TMP "uniqueid.horizon.tmp"
/* present while every database's sequences are still to be read (dbhorizon.c) */
#define UID_HORIZON_SCAN "uniqueid.horizon.scan"
StaticAssertDecl(UID_HORIZON_RENEW_MS < UID_HORIZON_LEASE_MS, "a renewed lease reaches past the renewal");

/*
 * How much of a floor's lead over the clock counts as borrowed at a start
 * (uid_horizon_floor_fix): the lead allowance and the longest unit of any
 * family (the second of objectid, ksuid and rsxid).
 */
#define UID_FLOOR_BORROWED_US (((int64) uid_max_clock_lead_ms + 1000) * 1000)

/*
 * The margin past the IDs that a horizon keeps, once the server has run that
 * long since its floor was fixed, however little room the floor leaves
 * (uid_horizon_next): a standby whose WAL lags less loses no ID's horizon.
 */
#define UID_HORIZON_MARGIN_MIN_MS 500
StaticAssertDecl(UID_HORIZON_MARGIN_MIN_MS <= UID_HORIZON_LEASE_MS, "the least margin is within the lease");

/* WAL records: the new horizon, server-wide or of one adopted shard */
#define XLOG_UNIQUEID_HORIZON 0x00
#define XLOG_UNIQUEID_SHARD_HORIZON 0x10
typedef struct xl_uniqueid_horizon
{
	uint64		horizon_ms;		/* Unix ms */
} xl_uniqueid_horizon;
typedef struct xl_uniqueid_shard_horizon
{
	uint64		horizon_ms;		/* Unix ms */
	uint32		shard;
} xl_uniqueid_shard_horizon;
#define SizeOfUniqueidShardHorizon (offsetof(xl_uniqueid_shard_horizon, shard) + sizeof(uint32))

UidHorizonShared *uid_horizon = NULL;
UidShardFloorHook uid_horizon_shard_floor_hook = NULL;

/*
 * The greatest horizon a state file may hold: the end of the last time unit
 * of the longest layouts (ulid's and uuid7's 48-bit milliseconds, in the
 * year 10889) and a lease.  No ID has a time past it: a larger value is
 * damage, not a horizon.
 */
#define UID_HORIZON_MAX_MS ((UINT64CONST(1) << 48) + UID_HORIZON_LEASE_MS)

/*
 * Errors out (FATAL at startup, where this is called from): the state file
 * does not read as one, `what` says why.  Its start is quoted, escaped.
 */
pg_noreturn static void
uid_horizon_corrupt(const char *data, size_t len, const char *what)
{
	StringInfoData quoted;

	initStringInfo(&quoted);
	for (size_t i = 0; data != NULL && i < len && i < 64; i++)
	{
		unsigned char c = (unsigned char) data[i];

		if (c == '\n')
			appendStringInfoString(&quoted, "\\n");
		else if (c < 0x20 || c >= 0x7f || c == '\\')
			appendStringInfo(&quoted, "\\x%02x", c);
		else
			appendStringInfoChar(&quoted, (char) c);
	}
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("file \"%s/%s\" does not hold a horizon: %s", DataDir, UID_HORIZON_FILE, what),
			 len == 0 ? errdetail("The file is empty.") :
			 data == NULL ? errdetail("The file holds %zu bytes.", len) :
			 errdetail("The file holds %zu bytes, beginning \"%s\".", len, quoted.data),
			 errhint("It must be a number of milliseconds since 1970, then lines \"shard N MS\". "
					 "Restore it from a backup of the data directory, or write in it a time (in Unix "
					 "milliseconds) later than every ID this server generated; removing it is safe only "
					 "if no ID was generated at a time later than the server's clock.")));
}

/*
 * Parses an unsigned decimal number of at most 19 digits at *p, no sign,
 * advancing *p; false if there is none.
 */
static bool
uid_horizon_parse_number(const char **p, const char *end, uint64 *out)
{
	const char *q = *p;
	uint64		v = 0;

	while (q < end && q - *p < 19 && *q >= '0' && *q <= '9')
		v = v * 10 + (uint64) (*q++ - '0');
	if (q == *p || (q < end && *q >= '0' && *q <= '9'))
		return false;
	*p = q;
	*out = v;
	return true;
}

/*
 * Sets the reading of every database's sequences pending when its mark is
 * there (under a postmaster, out of pg_upgrade's schema restore).
 */
static void
uid_horizon_scan_mark(void)
{
	struct stat st;

	if (IsPostmasterEnvironment && !IsBinaryUpgrade && stat(UID_HORIZON_SCAN, &st) == 0)
		pg_atomic_write_u32(&uid_horizon->scan_pending, 1);
}

/* The reading of every database's sequences is done: its mark goes. */
void
uid_horizon_scan_done(void)
{
	if (unlink(UID_HORIZON_SCAN) != 0 && errno != ENOENT)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not remove file \"%s\": %m", UID_HORIZON_SCAN)));
	fsync_fname(".", true);
	pg_atomic_write_u32(&uid_horizon->scan_pending, 0);
}

/*
 * Reads the state file into the shared state: the horizon on its first line
 * (0 when there is no file), then a line "shard N MS" for each adopted
 * shard whose own horizon is above it.  Anything else in it, or a number
 * out of range, is an error that names the file: nothing may silently turn
 * the horizon off.
 */
static void
uid_horizon_read_file(void)
{
	char	   *data;
	const char *p,
			   *end;
	size_t		len;
	uint64		v;
	int			fd = OpenTransientFile(UID_HORIZON_FILE, O_RDONLY | PG_BINARY);
	struct stat st;

	if (fd < 0)
	{
		if (errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", UID_HORIZON_FILE)));
		/*
		 * No file: a cluster that never generated, or a new one that
		 * pg_upgrade made, whose databases carry their horizons in their
		 * sequences: read them all before the first ID (uid_db_horizon_gate),
		 * marked durably, so that a crash before the reading ends, or an ID
		 * made meanwhile in single-user mode, does not skip it.  Not while
		 * pg_upgrade restores the schema.
		 */
		if (!IsBinaryUpgrade)
		{
			fd = OpenTransientFile(UID_HORIZON_SCAN, O_WRONLY | O_CREAT | PG_BINARY);
			if (fd < 0 || pg_fsync(fd) != 0)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not create file \"%s\": %m", UID_HORIZON_SCAN)));
			CloseTransientFile(fd);
			fsync_fname(".", true);
		}
		uid_horizon_scan_mark();
		return;
	}
	if (fstat(fd, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", UID_HORIZON_FILE)));
	/* a horizon and every shard's: well under a megabyte */
	if (st.st_size > 1024 * 1024)
		uid_horizon_corrupt(NULL, (size_t) st.st_size, "it is larger than a megabyte");
	len = (size_t) st.st_size;
	data = palloc(len + 1);
	if (read(fd, data, len) != (ssize_t) len)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", UID_HORIZON_FILE)));
	CloseTransientFile(fd);
	data[len] = '\0';
	p = data;
	end = data + len;
	if (!uid_horizon_parse_number(&p, end, &v) || p == end || *p++ != '\n')
		uid_horizon_corrupt(data, len, "its first line is not a number of milliseconds");
	if (v > UID_HORIZON_MAX_MS)
		uid_horizon_corrupt(data, len, "the horizon is past the last time of every type");
	pg_atomic_write_u64(&uid_horizon->horizon_ms, v);
	uid_horizon_scan_mark();
	while (p < end)
	{
		uint64		shard;

		if (end - p < 6 || memcmp(p, "shard ", 6) != 0)
			uid_horizon_corrupt(data, len, "a line after the first does not begin with \"shard \"");
		p += 6;
		if (!uid_horizon_parse_number(&p, end, &shard) || shard >= UID_NSHARDS ||
			p == end || *p++ != ' ')
			uid_horizon_corrupt(data, len, "a line names no shard from 0 to 8191");
		if (!uid_horizon_parse_number(&p, end, &v) || p == end || *p++ != '\n')
			uid_horizon_corrupt(data, len, "a shard's horizon is not a number of milliseconds");
		if (v > UID_HORIZON_MAX_MS)
			uid_horizon_corrupt(data, len, "a shard's horizon is past the last time of every type");
		/* a shard named twice (two files merged by hand): the later horizon */
		uid_atomic_raise(&uid_horizon->shard_ms[shard], v);
	}
	pfree(data);
}

/*
 * Writes the state file durably (temporary file, fsync, rename): the shared
 * horizons, with the one of `shard` (UID_SERVER_WIDE: the server's) at
 * horizon_ms.  The lock is held, or this is redo.
 */
static void
uid_horizon_write_file(int shard, uint64 horizon_ms)
{
	StringInfoData buf;
	uint64		h = shard == UID_SERVER_WIDE ? horizon_ms : pg_atomic_read_u64(&uid_horizon->horizon_ms);
	int			fd;

	initStringInfo(&buf);
	appendStringInfo(&buf, UINT64_FORMAT "\n", h);
	for (int s = 0; s < UID_NSHARDS; s++)
	{
		uint64		v = s == shard ? horizon_ms : pg_atomic_read_u64(&uid_horizon->shard_ms[s]);

		/* a shard's horizon at or below the server's says nothing more */
		if (v > h)
			appendStringInfo(&buf, "shard %d " UINT64_FORMAT "\n", s, v);
	}
	fd = OpenTransientFile(UID_HORIZON_TMP, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", UID_HORIZON_TMP)));
	errno = 0;
	if (write(fd, buf.data, buf.len) != buf.len)
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", UID_HORIZON_TMP)));
	}
	if (pg_fsync(fd) != 0)
		ereport(data_sync_elevel(ERROR),
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", UID_HORIZON_TMP)));
	CloseTransientFile(fd);
	durable_rename(UID_HORIZON_TMP, UID_HORIZON_FILE, ERROR);
	pfree(buf.data);
}

/* Counts one thing that took us. */
static void
uid_timing_add(UidTiming *t, int64 us)
{
	uint64		v = (uint64) Max(us, 0);

	pg_atomic_fetch_add_u64(&t->count, 1);
	pg_atomic_fetch_add_u64(&t->total_us, v);
	uid_atomic_raise(&t->max_us, v);
}

/* Sets a timing to 0 (first: when the memory is new). */
static void
uid_timing_zero(UidTiming *t, bool first)
{
	uid_counter_zero(&t->count, first);
	uid_counter_zero(&t->total_us, first);
	uid_counter_zero(&t->max_us, first);
}

/* The counters of uniqueid_durability at 0: at the start (first), or by uniqueid_stats_reset. */
static void
uid_horizon_stats_zero(bool first)
{
	uid_timing_zero(&uid_horizon->file_write, first);
	uid_timing_zero(&uid_horizon->wal_flush, first);
	uid_timing_zero(&uid_horizon->sync_wait, first);
	uid_counter_zero(&uid_horizon->writes, first);
	uid_counter_zero(&uid_horizon->failures, first);
	uid_counter_zero(&uid_horizon->written_at, first);
	uid_counter_zero(&uid_horizon->failures_unlogged, first);
	uid_counter_zero(&uid_horizon->sync_wait_log.unlogged, first);
	if (first)
	{
		pg_atomic_init_u64(&uid_horizon->sync_waiting_since, 0);
		pg_atomic_init_u64(&uid_horizon->failure_logged_us, 0);
		pg_atomic_init_u64(&uid_horizon->sync_wait_log.logged_us, 0);
	}
	/* (not under the horizon's lock, which a write holds while it waits for the standbys) */
	for (int s = 0; s < UID_NSHARDS; s++)
	{
		uid_counter_zero(&uid_horizon->shard_writes[s], first);
		uid_counter_zero(&uid_horizon->shard_failures[s], first);
		uid_counter_zero(&uid_horizon->shard_written_at[s], first);
	}
}

static void
uid_horizon_stats_init(void)
{
	uid_horizon_stats_zero(true);
}

/* uniqueid_stats_reset: uniqueid_durability's counters at 0 (the horizons stay). */
void
uid_horizon_stats_reset(void)
{
	uid_horizon_stats_zero(false);
}

/* shmem_request_hook work */
void
uid_horizon_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidHorizonShared));
	RequestNamedLWLockTranche("uniqueid", 1);
}

/* shmem_startup_hook work (AddinShmemInitLock held): the horizons from the state file */
void
uid_horizon_shmem_startup(void)
{
	bool		found;

	uid_horizon = ShmemInitStruct("uniqueid horizon", sizeof(UidHorizonShared), &found);
	if (!found)
	{
		pg_atomic_init_u64(&uid_horizon->horizon_ms, 0);
		pg_atomic_init_u64(&uid_horizon->floor_ms, UID_FLOOR_UNSET);
		pg_atomic_init_u64(&uid_horizon->floor_mono_us, 0);
		pg_atomic_init_u64(&uid_horizon->floor_lead_us, 0);
		pg_atomic_init_u32(&uid_horizon->scan_pending, 0);
		pg_atomic_init_u32(&uid_horizon->scan_owner, 0);
		pg_atomic_init_u32(&uid_horizon->scan_db, 0);
		pg_atomic_init_u32(&uid_horizon->scan_ok, 0);
		memset(uid_horizon->db_oid, 0, sizeof(uid_horizon->db_oid));
		memset(uid_horizon->db_written, 0, sizeof(uid_horizon->db_written));
		memset(uid_horizon->db_written_other, 0, sizeof(uid_horizon->db_written_other));
		for (int s = 0; s < UID_NSHARDS; s++)
		{
			pg_atomic_init_u64(&uid_horizon->shard_ms[s], 0);
			uid_horizon->shard_floor_ms[s] = 0;
		}
		uid_horizon_stats_init();
		uid_horizon->lock = &(GetNamedLWLockTranche("uniqueid"))->lock;
		uid_horizon_read_file();
	}
}

/*
 * The floor, fixed by the first call after startup or promotion at the
 * horizon, so that no ID repeats one issued before, by any generator, even
 * one first used much later with a clock set back meanwhile; read past a
 * barrier.  The floor stays where it is (or rises, uid_horizon_raise): a
 * server whose clock is behind it issues IDs from the floor on, borrowing
 * time units at the layouts' capacity against the clock's high-water mark
 * (which starts at the floor, less the lead allowance and a second, and
 * moves on with the monotonic clock), as if its clock had gone back while
 * running; and the lead of its IDs over its clock shrinks as the clock
 * moves on.  A floor far ahead (a clock set back over a restart) so costs a
 * load past capacity one wait of about a second after the start.
 */
uint64
uid_horizon_floor_fix(void)
{
	uint64		floor = pg_atomic_read_u64(&uid_horizon->floor_ms);

	if (floor == UID_FLOOR_UNSET)
	{
		LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
		floor = pg_atomic_read_u64(&uid_horizon->floor_ms);
		if (floor == UID_FLOOR_UNSET)
		{
			int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;

			floor = pg_atomic_read_u64(&uid_horizon->horizon_ms);
			/*
			 * The clock's high-water mark starts at the floor less the lead
			 * allowance and the longest unit (the clock now if later): a
			 * floor ahead of the clock counts as borrowed, up to that, so
			 * that under a load past capacity a start borrows no further
			 * ahead than the start before it did (see uid_horizon_next).
			 */
			if (floor > 0)
				uid_clock_raise((int64) floor * 1000 - UID_FLOOR_BORROWED_US);
			/* how far the clock is behind it (uid_horizon_floor_wait) */
			pg_atomic_write_u64(&uid_horizon->floor_lead_us, (uint64) Max((int64) floor * 1000 - now_us, 0));
			/* an adopted shard's floor is its own horizon, when that is higher */
			for (int s = 0; s < UID_NSHARDS; s++)
			{
				uint64		shard_floor = pg_atomic_read_u64(&uid_horizon->shard_ms[s]);

				if (shard_floor > floor)
				{
					uid_horizon->shard_floor_ms[s] = shard_floor;
					if (uid_horizon_shard_floor_hook != NULL)
						uid_horizon_shard_floor_hook((uint32) s, shard_floor);
				}
			}
			pg_atomic_write_u64(&uid_horizon->floor_mono_us, (uint64) uid_mono_us());
			pg_write_barrier();
			pg_atomic_write_u64(&uid_horizon->floor_ms, floor);
		}
		LWLockRelease(uid_horizon->lock);
	}
	pg_read_barrier();
	return floor;
}

/*
 * A generator, its clock (now_us, Unix us) behind the floor, is about to
 * take there a new time unit of unit_us that ends at end_ms: the unit that
 * ends past the floor, since every unit before it may hold an ID of an
 * earlier start.  Waits a little for the clock, and returns true (the
 * caller reads the clock again and comes back), while that unit would end
 * further ahead of the clock than the lease and the unit, or than the floor
 * itself was when it was fixed.
 *
 * Why: every start needs a unit of its own for each family, and its end is
 * covered by the horizon that the next start takes for its floor.  Taken at
 * once, start after start, in a crash loop each unit would move the floor
 * of every generator a unit further ahead of the clock; for objectid, ksuid
 * and rsxid a whole second a restart, since their counters and random bytes
 * do not order across starts and two starts cannot share a second.  Waiting
 * instead, a start leads the clock by no more than the lease and the
 * longest unit in use, or than the start before it: the lead does not grow
 * with the number of crashes.  The unit ends at most a unit past the floor,
 * and the clock has not gone back since the floor was fixed, so this waits
 * at most one unit, once per start and family; and never longer than that
 * (*waited_from: the monotonic clock at the call's first wait here, 0 before
 * it), should the clock have been set back meanwhile.
 */
bool
uid_horizon_floor_wait(uint64 end_ms, int64 unit_us, int64 now_us, int64 *waited_from)
{
	int64		ahead_us = Max((int64) UID_HORIZON_LEASE_MS * 1000 + unit_us,
							   (int64) pg_atomic_read_u64(&uid_horizon->floor_lead_us));
	int64		over_us = (int64) end_ms * 1000 - now_us - ahead_us;

	if (over_us <= 0)
		return false;
	if (*waited_from == 0)
		*waited_from = uid_mono_us();
	else if (uid_mono_us() - *waited_from >= unit_us)
		return false;
	uid_wait(over_us);
	return true;
}

/* The highest horizon this server knows of: its own, or an adopted shard's. */
uint64
uid_horizon_known(void)
{
	uint64		h = pg_atomic_read_u64(&uid_horizon->horizon_ms);

	for (int s = 0; s < UID_NSHARDS; s++)
		h = Max(h, pg_atomic_read_u64(&uid_horizon->shard_ms[s]));
	return h;
}

/*
 * What this server wrote to database db's sequence `which` (UID_DB_SERVER,
 * UID_DB_SHARDS) since it started; 0 if nothing (or the database is not
 * noted).
 */
uint64
uid_horizon_db_written(Oid db, int which)
{
	uint64		v;
	int			i;

	LWLockAcquire(uid_horizon->lock, LW_SHARED);
	for (i = 0; i < UID_DB_NOTED && uid_horizon->db_oid[i] != InvalidOid && uid_horizon->db_oid[i] != db; i++)
		;
	v = i < UID_DB_NOTED && uid_horizon->db_oid[i] == db ?
		uid_horizon->db_written[i][which] : uid_horizon->db_written_other[which];
	LWLockRelease(uid_horizon->lock);
	return v;
}

/*
 * Notes (raise-only) that this server writes value to database db's
 * sequence `which`: in the database's own entry, or, past UID_DB_NOTED
 * databases, in the one they share (so that what this server wrote is
 * never taken for a value from elsewhere, in a database not noted either).
 */
void
uid_horizon_db_note(Oid db, int which, uint64 value)
{
	int			i;

	LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
	for (i = 0; i < UID_DB_NOTED && uid_horizon->db_oid[i] != InvalidOid && uid_horizon->db_oid[i] != db; i++)
		;
	if (i < UID_DB_NOTED)
	{
		uid_horizon->db_oid[i] = db;
		uid_horizon->db_written[i][which] = Max(uid_horizon->db_written[i][which], value);
	}
	else
		uid_horizon->db_written_other[which] = Max(uid_horizon->db_written_other[which], value);
	LWLockRelease(uid_horizon->lock);
}

/* The floor, or, before it is fixed, the horizon it will be fixed at. */
uint64
uid_horizon_floor_or_next(void)
{
	uint64		floor = pg_atomic_read_u64(&uid_horizon->floor_ms);

	return floor != UID_FLOOR_UNSET ? floor : pg_atomic_read_u64(&uid_horizon->horizon_ms);
}

/*
 * The highest floor of an adopted shard (as uid_horizon_floor_or_next: its
 * horizon before the floor is fixed).
 */
uint64
uid_horizon_shard_floor_max(void)
{
	uint64		m = uid_horizon_floor_or_next();
	bool		fixed = pg_atomic_read_u64(&uid_horizon->floor_ms) != UID_FLOOR_UNSET;

	pg_read_barrier();
	for (int s = 0; s < UID_NSHARDS; s++)
		m = Max(m, fixed ? uid_horizon->shard_floor_ms[s] : pg_atomic_read_u64(&uid_horizon->shard_ms[s]));
	return m;
}

/*
 * uid_horizon_raise's and uid_horizon_adopt's work: the durable horizon
 * past at_ms, then the floor, and the clock's high-water mark up to at_ms
 * less borrowed_us.
 */
static uint64
uid_horizon_raise_floor(uint64 at_ms, int64 borrowed_us)
{
	uint64		floor;

	if (at_ms > UID_HORIZON_MAX_MS - UID_HORIZON_LEASE_MS)
		at_ms = UID_HORIZON_MAX_MS - UID_HORIZON_LEASE_MS;
	(void) uid_horizon_advance(UID_SERVER_WIDE, at_ms, 0);
	LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
	floor = pg_atomic_read_u64(&uid_horizon->floor_ms);
	/* an unset floor is fixed at the horizon, which is past at_ms now */
	if (floor != UID_FLOOR_UNSET && floor < at_ms)
	{
		int64		now_us = GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US;

		uid_clock_raise((int64) at_ms * 1000 - borrowed_us);
		/* the lease past the IDs grows again from here (uid_horizon_next) */
		pg_atomic_write_u64(&uid_horizon->floor_mono_us, (uint64) uid_mono_us());
		/*
		 * A raise is not a start: the first unit of a one-second family at
		 * it need not wait for the clock (uid_horizon_floor_wait), so its
		 * lead counts that unit in.
		 */
		pg_atomic_write_u64(&uid_horizon->floor_lead_us,
							(uint64) (Max((int64) at_ms * 1000 - now_us, 0) + USECS_PER_SEC));
		pg_write_barrier();
		pg_atomic_write_u64(&uid_horizon->floor_ms, at_ms);
	}
	LWLockRelease(uid_horizon->lock);
	return pg_atomic_read_u64(&uid_horizon->horizon_ms);
}

/*
 * Makes every ID this server issues from now on, of every generator, lie in
 * a time unit that ends past at_ms (Unix ms): the horizon of a database
 * carried here from another cluster (pg_upgrade, a restore, a logical
 * migration), below which that cluster's IDs lie.  The durable horizon moves
 * past it first, then the floor and the clock's high-water mark move up to
 * it, so that the generators, in every backend, continue from there, with
 * their lead allowance counted from there.  Raise-only.  Returns the horizon.
 */
uint64
uid_horizon_raise(uint64 at_ms)
{
	return uid_horizon_raise_floor(at_ms, 0);
}

/*
 * The same for a node number's previous horizon, adopted from the registry
 * (registry.c): the floor's lead over the clock counts as borrowed, up to
 * the lead allowance and the longest unit, as at a start
 * (uid_horizon_floor_fix).  The previous holder's horizon already covers
 * the lead it was allowed; counted again from there, the lead of the
 * holders would grow by about that much with each handover.
 */
uint64
uid_horizon_adopt(uint64 at_ms)
{
	return uid_horizon_raise_floor(at_ms, UID_FLOOR_BORROWED_US);
}

/*
 * Whether there are synchronous standbys to wait for: what the checkpointer
 * has recorded, or, until it has (right after startup), what this backend's
 * synchronous_standby_names says, as SyncRepWaitForLSN decides: an
 * unrecorded state is no confirmation.  Read under SyncRepLock, or for the
 * statistics alone.
 */
static bool
uid_sync_standbys_defined(void)
{
	uint8		status = WalSndCtl->sync_standbys_status;

	if (status & SYNC_STANDBY_INIT)
		return (status & SYNC_STANDBY_DEFINED) != 0;
	return SyncRepStandbyNames != NULL && SyncRepStandbyNames[0] != '\0';
}

/*
 * A wait for the synchronous standbys that lasted waited_us: past a second,
 * logged, at most once every 10 s server-wide, with the count of those not
 * logged since.
 */
static void
uid_horizon_long_wait(int64 waited_us)
{
	uint64		last;

	if (waited_us <= UID_LONG_WAIT_US ||
		!uid_log_due(&uid_horizon->sync_wait_log, uid_mono_us(), UID_LONG_WAIT_EVERY_US, &last))
		return;
	/* (the line serves no interrupt: the caller's work is done, and is counted) */
	HOLD_INTERRUPTS();
	ereport(LOG,
			(errmsg("uniqueid waited %.1f s for the synchronous standbys to confirm its horizon",
					(double) waited_us / 1000000.0),
			 errdetail("IDs past the horizon wait for it.%s",
					   last > 0 ? psprintf(" %llu more waits over a second since the last such line.",
										   (unsigned long long) last) : ""),
			 errhint("Check the standbys named in synchronous_standby_names.")));
	RESUME_INTERRUPTS();
}

/*
 * With synchronous standbys in use, waits until they confirm the WAL up to
 * lsn, as a commit would.  Errors out when the wait ends without that (the
 * query was canceled, or the backend is terminated): a horizon the standbys
 * may not have must not cover an ID, since a standby promoted then could
 * issue the ID again.  Called with the horizon's lock, so with interrupts
 * held, as the wait requires.
 */
void
uid_horizon_sync(XLogRecPtr lsn)
{
	int			mode = synchronous_commit == SYNCHRONOUS_COMMIT_REMOTE_WRITE ?
		SYNC_REP_WAIT_WRITE : SYNC_REP_WAIT_FLUSH;
	bool		confirmed;

	bool		defined,
				publish;
	int64		start_us;

	if (!SyncRepRequested())
		return;
	defined = uid_sync_standbys_defined();
	/*
	 * A wait for standbys, timed (an ID past the horizon waits for it); the
	 * one under way is shown by the holder of the horizon's lock (one at a
	 * time: the horizon kept in a database waits without it).
	 */
	publish = defined && LWLockHeldByMeInMode(uid_horizon->lock, LW_EXCLUSIVE);
	start_us = uid_mono_us();
	if (publish)
		pg_atomic_write_u64(&uid_horizon->sync_waiting_since, (uint64) GetCurrentTimestamp());
	SyncRepWaitForLSN(lsn, false);
	if (publish)
		pg_atomic_write_u64(&uid_horizon->sync_waiting_since, 0);
	if (defined)
	{
		int64		waited_us = uid_mono_us() - start_us;

		uid_timing_add(&uid_horizon->sync_wait, waited_us);
		uid_horizon_long_wait(waited_us);
	}
	LWLockAcquire(SyncRepLock, LW_SHARED);
	confirmed = !uid_sync_standbys_defined() || WalSndCtl->lsn[mode] >= lsn;
	LWLockRelease(SyncRepLock);
	if (!confirmed)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("canceled the wait for the synchronous standbys to confirm uniqueid's horizon"),
				 errdetail("No ID was issued: a standby promoted now might not know the horizon.")));
}

/*
 * Where a new horizon of `shard` (UID_SERVER_WIDE: the server's) goes for
 * an ID whose unit of unit_ms ends at end_ms: a lease past that end, or past
 * the clock if it is later.  But while the clock is behind the startup
 * floor (the server's, or the shard's own), the lease runs from the clock,
 * and past the IDs the horizon leads by no more than the time since the
 * floor was fixed, less the ID's unit: otherwise a server restarted again
 * and again, each time issuing from its floor and leasing a second past it,
 * would walk its IDs into the future a lease a restart.  (Less the unit: a
 * unit taken at the floor ends up to a unit past it, and may have waited
 * for the clock that long, uid_horizon_floor_wait; counted from the unit's
 * start, the margin does not count that time twice, and the horizon leads
 * the clock by no more than that unit's end or the floor did.)  Nor does
 * the margin reach past the floor carried forward by the monotonic clock,
 * or past the clock's high-water mark (raised by a raise) and a lease,
 * whichever is later: under a load past capacity the IDs borrow units ahead
 * of the clock, and a lease past those too would add a second to the floor
 * of every start of a crash loop; so what the IDs borrowed comes off the
 * margin, down to UID_HORIZON_MARGIN_MIN_MS.  The IDs borrow from the
 * floor's lead first (the high-water mark starts below the floor,
 * uid_horizon_floor_fix), so that they stay that far below the floor
 * carried forward; then a start under load leads the clock by no more
 * than the start before it, or than the allowance, a unit and that least
 * margin.  A server
 * that runs on gets its lease back within a lease and a unit, so that a
 * standby taking over has a margin, and the horizon is not written for
 * every new unit.
 */
static uint64
uid_horizon_next(int shard, uint64 end_ms, uint32 unit_ms)
{
	uint64		now_ms = (uint64) ((GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US) / 1000);
	uint64		floor = pg_atomic_read_u64(&uid_horizon->floor_ms);

	/*
	 * A raise makes no ID: its lease runs from the time raised to, not from
	 * a clock that may be far off (a node number claimed with the clock
	 * stepped days ahead at boot must not take the horizon there).
	 */
	if (unit_ms == 0)
		return end_ms + UID_HORIZON_LEASE_MS;
	if (floor != UID_FLOOR_UNSET && shard != UID_SERVER_WIDE)
		floor = uid_horizon_shard_floor((uint32) shard);
	if (floor != UID_FLOOR_UNSET && now_ms < floor)
	{
		/* the margin past the IDs: as long as the floor has been fixed, less the unit, up to a lease */
		int64		since_ms = Max((uid_mono_us() - (int64) pg_atomic_read_u64(&uid_horizon->floor_mono_us)) / 1000, 0);
		uint64		margin = (uint64) Min(Max(since_ms - (int64) unit_ms, 0), UID_HORIZON_LEASE_MS);

		/* ... and, down to the least margin, not past the floor carried forward or the high-water mark and a lease */
		uint64		cap = Max(floor + (uint64) since_ms,
							  (uint64) Max(uid_clock_high_water_peek() / 1000, 0) + UID_HORIZON_LEASE_MS);

		return Max(Max(end_ms + Min(margin, UID_HORIZON_MARGIN_MIN_MS), Min(end_ms + margin, cap)),
				   now_ms + UID_HORIZON_LEASE_MS);
	}
	return Max(end_ms, now_ms) + UID_HORIZON_LEASE_MS;
}

/*
 * A write of the horizon of `shard` (UID_SERVER_WIDE: the server's), which
 * stays h, failed: counted and logged, with the error, at most once every
 * 10 s, so that it is seen even when the caller catches the error.  In
 * PG_CATCH, before the error goes on: interrupts held (a cancel must not
 * replace the error), everything allocated in the (sub)transaction's
 * context, which the abort frees.
 */
static void
uid_horizon_write_failed(int shard, uint64 h)
{
	uint64		last = pg_atomic_read_u64(&uid_horizon->failure_logged_us);
	int64		now = uid_mono_us();
	MemoryContext old;
	ErrorData  *e;

	if (shard == UID_SERVER_WIDE)
		pg_atomic_fetch_add_u64(&uid_horizon->failures, 1);
	else
		pg_atomic_fetch_add_u64(&uid_horizon->shard_failures[shard], 1);
	if ((last != 0 && now - (int64) last < INT64CONST(10000000)) ||
		!pg_atomic_compare_exchange_u64(&uid_horizon->failure_logged_us, &last, (uint64) Max(now, 1)))
	{
		pg_atomic_fetch_add_u64(&uid_horizon->failures_unlogged, 1);
		return;
	}
	last = pg_atomic_exchange_u64(&uid_horizon->failures_unlogged, 0);
	HOLD_INTERRUPTS();
	old = MemoryContextSwitchTo(CurTransactionContext);
	e = CopyErrorData();
	ereport(LOG,
			(errmsg("uniqueid could not make its horizon durable: %s", e->message),
			 errdetail("No ID at or past %s%s is issued until a write succeeds.%s",
					   timestamptz_to_str((TimestampTz) h * 1000 - UID_PG_EPOCH_UNIX_US),
					   shard == UID_SERVER_WIDE ? "" : psprintf(" in shard %d", shard),
					   last > 0 ? psprintf(" %llu more failures since the last such line.", (unsigned long long) last) : ""),
			 errhint("uniqueid_durability counts the failures.")));
	MemoryContextSwitchTo(old);
	RESUME_INTERRUPTS();
}

/*
 * Makes sure an ID whose time unit of unit_ms ends at end_ms (the
 * millisecond, 4 ms, 10 ms or second it stands for; exclusive; a unit of 0:
 * a time raised to, uid_horizon_raise) lies within the durable horizon
 * of `shard` (UID_SERVER_WIDE: the server's; for a shard, the higher of the
 * server's and its own), advancing it first when it does not.  Called after
 * the ID is taken from its slot and before it is returned.  Returns the end
 * up to which the caller's next IDs need not come here: the horizon, or
 * UID_HORIZON_RENEW_MS before it.
 *
 * An ID within UID_HORIZON_RENEW_MS of the horizon renews the lease early,
 * if no other backend is doing so: that backend writes and flushes while
 * the others keep generating below the old horizon, so that in steady
 * generation nobody waits for the flush.  Only an ID past the horizon has
 * to wait for it.  Covering the unit's end rather than its start lets a
 * generator whose unit is as long as the lease (objectid's second) renew
 * within one unit for the next.
 */
uint64
uid_horizon_advance(int shard, uint64 end_ms, uint32 unit_ms)
{
	uint64		h = shard == UID_SERVER_WIDE ? pg_atomic_read_u64(&uid_horizon->horizon_ms) :
		uid_horizon_of_shard((uint32) shard);
	uint64		next;
	XLogRecPtr	lsn;

	if (end_ms + UID_HORIZON_RENEW_MS <= h)
		return h - UID_HORIZON_RENEW_MS;
	next = uid_horizon_next(shard, end_ms, unit_ms);
	if (end_ms <= h)
	{
		/* covered already, and a renewal would not move the horizon much: nothing to do */
		if (next < h + UID_HORIZON_RENEW_MS)
			return h;
		/* covered already: renew early, unless another backend is at it */
		if (!LWLockConditionalAcquire(uid_horizon->lock, LW_EXCLUSIVE))
			return h;
	}
	else
		LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
	h = shard == UID_SERVER_WIDE ? pg_atomic_read_u64(&uid_horizon->horizon_ms) :
		uid_horizon_of_shard((uint32) shard);
	next = uid_horizon_next(shard, end_ms, unit_ms);
	if (end_ms > h || (end_ms + UID_HORIZON_RENEW_MS > h && next >= h + UID_HORIZON_RENEW_MS))
	{
		PG_TRY();
		{
			int64		start_us = uid_mono_us();
			int64		wrote_us;

			uid_horizon_write_file(shard, next);
			wrote_us = uid_mono_us();
			uid_timing_add(&uid_horizon->file_write, wrote_us - start_us);
			XLogBeginInsert();
			if (shard == UID_SERVER_WIDE)
			{
				xl_uniqueid_horizon rec = {.horizon_ms = next};

				XLogRegisterData((char *) &rec, sizeof(rec));
				lsn = XLogInsert(UID_RMGR_ID, XLOG_UNIQUEID_HORIZON);
			}
			else
			{
				xl_uniqueid_shard_horizon rec = {.horizon_ms = next,.shard = (uint32) shard};

				XLogRegisterData((char *) &rec, SizeOfUniqueidShardHorizon);
				lsn = XLogInsert(UID_RMGR_ID, XLOG_UNIQUEID_SHARD_HORIZON);
			}
			XLogFlush(lsn);
			uid_timing_add(&uid_horizon->wal_flush, uid_mono_us() - wrote_us);
			uid_horizon_sync(lsn);
		}
		PG_CATCH();
		{
			uid_horizon_write_failed(shard, h);
			PG_RE_THROW();
		}
		PG_END_TRY();
		uid_atomic_raise(shard == UID_SERVER_WIDE ? &uid_horizon->horizon_ms : &uid_horizon->shard_ms[shard],
						 next);
		if (shard == UID_SERVER_WIDE)
		{
			pg_atomic_fetch_add_u64(&uid_horizon->writes, 1);
			pg_atomic_write_u64(&uid_horizon->written_at, (uint64) GetCurrentTimestamp());
		}
		else
		{
			pg_atomic_fetch_add_u64(&uid_horizon->shard_writes[shard], 1);
			pg_atomic_write_u64(&uid_horizon->shard_written_at[shard], (uint64) GetCurrentTimestamp());
		}
		h = next;
	}
	LWLockRelease(uid_horizon->lock);
	return h - UID_HORIZON_RENEW_MS;
}

/* The durable horizon of a logical shard: the server's, or its own if higher. */
uint64
uid_horizon_of_shard(uint32 shard)
{
	return Max(pg_atomic_read_u64(&uid_horizon->horizon_ms),
			   pg_atomic_read_u64(&uid_horizon->shard_ms[shard]));
}

/*
 * The floor of a logical shard since startup or promotion: every ID of the
 * shard issued before lies below it.  The server's floor, or the shard's own
 * horizon at that moment if higher.  The floor must be fixed (uid_horizon_floor).
 */
uint64
uid_horizon_shard_floor(uint32 shard)
{
	uint64		floor = pg_atomic_read_u64(&uid_horizon->floor_ms);

	Assert(floor != UID_FLOOR_UNSET && shard < UID_NSHARDS);
	pg_read_barrier();
	return Max(floor, uid_horizon->shard_floor_ms[shard]);
}

/* rm_redo: crash recovery and standbys learn the horizons */
static void
uid_rmgr_redo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;

	if (info == XLOG_UNIQUEID_HORIZON)
	{
		xl_uniqueid_horizon *rec = (xl_uniqueid_horizon *) XLogRecGetData(record);

		if (rec->horizon_ms > UID_HORIZON_MAX_MS)
			elog(PANIC, "uniqueid redo: horizon " UINT64_FORMAT " out of range", rec->horizon_ms);
		if (rec->horizon_ms > pg_atomic_read_u64(&uid_horizon->horizon_ms))
		{
			uid_horizon_write_file(UID_SERVER_WIDE, rec->horizon_ms);
			uid_atomic_raise(&uid_horizon->horizon_ms, rec->horizon_ms);
		}
	}
	else if (info == XLOG_UNIQUEID_SHARD_HORIZON)
	{
		xl_uniqueid_shard_horizon rec;

		memcpy(&rec, XLogRecGetData(record), SizeOfUniqueidShardHorizon);
		if (rec.shard >= UID_NSHARDS || rec.horizon_ms > UID_HORIZON_MAX_MS)
			elog(PANIC, "uniqueid redo: shard %u horizon " UINT64_FORMAT " out of range",
				 rec.shard, rec.horizon_ms);
		if (rec.horizon_ms > pg_atomic_read_u64(&uid_horizon->shard_ms[rec.shard]))
		{
			uid_horizon_write_file((int) rec.shard, rec.horizon_ms);
			uid_atomic_raise(&uid_horizon->shard_ms[rec.shard], rec.horizon_ms);
		}
	}
	else
		elog(PANIC, "uniqueid redo: unknown op code %u", info);
}

/* rm_desc, for pg_waldump */
static void
uid_rmgr_desc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;

	if (info == XLOG_UNIQUEID_SHARD_HORIZON)
	{
		xl_uniqueid_shard_horizon rec;

		memcpy(&rec, XLogRecGetData(record), SizeOfUniqueidShardHorizon);
		appendStringInfo(buf, "shard %u horizon " UINT64_FORMAT " ms", rec.shard, rec.horizon_ms);
	}
	else
		appendStringInfo(buf, "horizon " UINT64_FORMAT " ms",
						 ((xl_uniqueid_horizon *) XLogRecGetData(record))->horizon_ms);
}

/* rm_identify, for pg_waldump */
static const char *
uid_rmgr_identify(uint8 info)
{
	switch (info & ~XLR_INFO_MASK)
	{
		case XLOG_UNIQUEID_HORIZON:
			return "HORIZON";
		case XLOG_UNIQUEID_SHARD_HORIZON:
			return "SHARD_HORIZON";
	}
	return NULL;
}

static RmgrData uid_rmgr = {
	.rm_name = "uniqueid",
	.rm_redo = uid_rmgr_redo,
	.rm_desc = uid_rmgr_desc,
	.rm_identify = uid_rmgr_identify,
};

/* Registers the resource manager; from _PG_init while preloading. */
void
uid_horizon_register_rmgr(void)
{
	RegisterCustomRmgr(UID_RMGR_ID, &uid_rmgr);
}
