/*
 * horizon.c - the persisted time horizon that keeps generators unique across
 * restarts, crashes and failovers.
 *
 * Invariant: every ID any generator of this server has issued has a time
 * unit that ends at or before the durable horizon H (so its time is below
 * H).  Before a generator returns an ID whose unit ends past H, H is advanced
 * to (that end or the clock, whichever is later) plus a lease, written to a state file in the data directory and logged through
 * a custom WAL resource manager, both flushed; an ID near H renews the lease
 * early, so that generators need not wait for it.  Crash recovery and streaming
 * standbys replay the WAL record; the state file carries H across
 * checkpoints (redo starts at the last checkpoint, so the record alone could
 * be skipped).  The first generator call after startup or promotion fixes the
 * floor at H: from then on every ID's time is at least the floor.
 */
#include "horizon.h"

#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "clock.h"
#include "layout.h"
#include "port/atomics.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#define UID_HORIZON_FILE "uniqueid.horizon"
#define UID_HORIZON_TMP "uniqueid.horizon.tmp"
#define UID_HORIZON_LEASE_MS 1000
#define UID_HORIZON_RENEW_MS 250	/* renew the lease this long before it ends */
StaticAssertDecl(UID_HORIZON_RENEW_MS < UID_HORIZON_LEASE_MS, "a renewed lease reaches past the renewal");
#define UID_FLOOR_UNSET PG_UINT64_MAX

/* WAL record: the new horizon */
#define XLOG_UNIQUEID_HORIZON 0x00
typedef struct xl_uniqueid_horizon
{
	uint64		horizon_ms;		/* Unix ms */
} xl_uniqueid_horizon;

UidHorizonShared *uid_horizon = NULL;

/* Reads the state file; 0 when there is none. */
static uint64
uid_horizon_read_file(void)
{
	FILE	   *f = AllocateFile(UID_HORIZON_FILE, "r");
	unsigned long long v = 0;

	if (f == NULL)
	{
		if (errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", UID_HORIZON_FILE)));
		return 0;
	}
	if (fscanf(f, "%llu", &v) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("file \"%s\" does not hold a horizon", UID_HORIZON_FILE),
				 errhint("Remove the file only if no ID was generated at a time later than the server's clock.")));
	FreeFile(f);
	return (uint64) v;
}

/* Writes the state file durably: temporary file, fsync, rename. */
static void
uid_horizon_write_file(uint64 horizon_ms)
{
	char		buf[32];
	int			len = snprintf(buf, sizeof(buf), UINT64_FORMAT "\n", horizon_ms);
	int			fd = OpenTransientFile(UID_HORIZON_TMP, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);

	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", UID_HORIZON_TMP)));
	errno = 0;
	if (write(fd, buf, len) != len)
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
}

/* Raises the shared horizon to at least v. */
static void
uid_horizon_raise(uint64 v)
{
	uint64		cur = pg_atomic_read_u64(&uid_horizon->horizon_ms);

	while (v > cur && !pg_atomic_compare_exchange_u64(&uid_horizon->horizon_ms, &cur, v))
		;
}

/* shmem_request_hook work */
void
uid_horizon_shmem_request(void)
{
	RequestAddinShmemSpace(sizeof(UidHorizonShared));
	RequestNamedLWLockTranche("uniqueid", 1);
}

/* shmem_startup_hook work (AddinShmemInitLock held): the horizon from the state file */
void
uid_horizon_shmem_startup(void)
{
	bool		found;

	uid_horizon = ShmemInitStruct("uniqueid horizon", sizeof(UidHorizonShared), &found);
	if (!found)
	{
		pg_atomic_init_u64(&uid_horizon->horizon_ms, uid_horizon_read_file());
		pg_atomic_init_u64(&uid_horizon->floor_ms, UID_FLOOR_UNSET);
		pg_atomic_init_u64(&uid_horizon->floor_mono_us, 0);
		pg_atomic_init_u32(&uid_horizon->floor_passed, 0);
		uid_horizon->lock = &(GetNamedLWLockTranche("uniqueid"))->lock;
	}
}

/*
 * The earliest time, in Unix ms, an ID may have now, given the wall clock's
 * reading now_ms.  The first call after startup or promotion fixes the floor
 * at the horizon, so that no ID repeats one issued before, by any generator,
 * even one first used much later with a clock set back meanwhile.  Until the
 * clock catches up with it, the floor moves on with the monotonic clock, so
 * a server whose clock is behind generates from the floor on at the layouts'
 * capacity, as if its clock had gone back while running.  *passed is set
 * once the clock has caught up: from then on the floor stays where it is.
 */
uint64
uid_horizon_floor_slow(uint64 now_ms, bool *passed)
{
	uint64		floor;
	int64		mono_us;

	/* once the clock has caught up, the startup horizon itself stays the floor */
	if (likely(pg_atomic_read_u32(&uid_horizon->floor_passed)))
	{
		pg_read_barrier();
		*passed = true;
		return pg_atomic_read_u64(&uid_horizon->floor_ms);
	}
	floor = pg_atomic_read_u64(&uid_horizon->floor_ms);
	if (floor == UID_FLOOR_UNSET)
	{
		LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
		floor = pg_atomic_read_u64(&uid_horizon->floor_ms);
		if (floor == UID_FLOOR_UNSET)
		{
			floor = pg_atomic_read_u64(&uid_horizon->horizon_ms);
			pg_atomic_write_u64(&uid_horizon->floor_mono_us, (uint64) uid_mono_us());
			/* the clock's high-water mark starts at the floor too */
			if (floor > 0)
				uid_clock_high_water((int64) floor * 1000);
			pg_write_barrier();
			pg_atomic_write_u64(&uid_horizon->floor_ms, floor);
		}
		LWLockRelease(uid_horizon->lock);
	}
	pg_read_barrier();
	mono_us = uid_mono_us() - (int64) pg_atomic_read_u64(&uid_horizon->floor_mono_us);
	if (now_ms >= floor + (uint64) Max(mono_us, 0) / 1000)
	{
		/* whoever sees floor_passed set sees the floor this backend saw */
		pg_memory_barrier();
		pg_atomic_write_u32(&uid_horizon->floor_passed, 1);
		*passed = true;
		return floor;
	}
	return floor + (uint64) Max(mono_us, 0) / 1000;
}

/*
 * Makes sure an ID whose time unit ends at end_ms (the millisecond, 4 ms,
 * 10 ms or second it stands for; exclusive) lies within the durable horizon,
 * end_ms <= H, advancing the horizon first when it does not.  Called after
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
uid_horizon_cover_slow(uint64 end_ms)
{
	xl_uniqueid_horizon rec;
	XLogRecPtr	lsn;
	uint64		h = pg_atomic_read_u64(&uid_horizon->horizon_ms);

	if (end_ms + UID_HORIZON_RENEW_MS <= h)
		return h - UID_HORIZON_RENEW_MS;
	if (end_ms <= h)
	{
		/* covered already: renew early, unless another backend is at it */
		if (!LWLockConditionalAcquire(uid_horizon->lock, LW_EXCLUSIVE))
			return h;
	}
	else
		LWLockAcquire(uid_horizon->lock, LW_EXCLUSIVE);
	h = pg_atomic_read_u64(&uid_horizon->horizon_ms);
	if (end_ms + UID_HORIZON_RENEW_MS > h)
	{
		rec.horizon_ms = Max(end_ms, (uint64) ((GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US) / 1000))
			+ UID_HORIZON_LEASE_MS;
		uid_horizon_write_file(rec.horizon_ms);
		XLogBeginInsert();
		XLogRegisterData((char *) &rec, sizeof(rec));
		lsn = XLogInsert(UID_RMGR_ID, XLOG_UNIQUEID_HORIZON);
		XLogFlush(lsn);
		uid_horizon_raise(rec.horizon_ms);
		h = rec.horizon_ms;
	}
	LWLockRelease(uid_horizon->lock);
	return h - UID_HORIZON_RENEW_MS;
}

/* rm_redo: crash recovery and standbys learn the horizon */
static void
uid_rmgr_redo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
	xl_uniqueid_horizon *rec = (xl_uniqueid_horizon *) XLogRecGetData(record);

	if (info != XLOG_UNIQUEID_HORIZON)
		elog(PANIC, "uniqueid redo: unknown op code %u", info);
	if (rec->horizon_ms > pg_atomic_read_u64(&uid_horizon->horizon_ms))
	{
		uid_horizon_write_file(rec->horizon_ms);
		uid_horizon_raise(rec->horizon_ms);
	}
}

/* rm_desc, for pg_waldump */
static void
uid_rmgr_desc(StringInfo buf, XLogReaderState *record)
{
	xl_uniqueid_horizon *rec = (xl_uniqueid_horizon *) XLogRecGetData(record);

	appendStringInfo(buf, "horizon " UINT64_FORMAT " ms", rec->horizon_ms);
}

/* rm_identify, for pg_waldump */
static const char *
uid_rmgr_identify(uint8 info)
{
	return (info & ~XLR_INFO_MASK) == XLOG_UNIQUEID_HORIZON ? "HORIZON" : NULL;
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
