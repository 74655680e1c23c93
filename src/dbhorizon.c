/*
 * dbhorizon.c - the horizon kept in each database, so that what PostgreSQL
 * carries of a database carries it too.
 *
 * The server's horizon (horizon.c) lives in a file of the data directory,
 * which pg_upgrade, pg_dump and logical replication leave behind.  So each
 * database that has the extension also keeps it as the value of the
 * extension's sequence uniqueid_catalog.uniqueid_horizon_ms (Unix ms): a configuration
 * sequence, so pg_dump dumps its value; a relation, so pg_upgrade carries its
 * file (with --copy, --link or --clone); a sequence, so PostgreSQL 19's
 * logical replication of sequences copies it.
 *
 * Invariant: every ID made in a database has a time unit that ends at or
 * before the value of that database's sequence, once the ID is returned.
 * A backend raises the sequence to the horizon whenever it passes the part
 * of the horizon its database's sequence was known to cover (the horizon's
 * slow path, once a renewal), flushed (and confirmed by synchronous
 * standbys) before the ID is returned.
 *
 * The other way: the first time a backend generates (uid_db_horizon_check),
 * it reads its database's sequence; a value above every horizon the server
 * knows was carried from elsewhere, and the server's generators all move up
 * to it (uid_horizon_raise) before any ID is made in this backend.
 *
 * A cluster that starts without the state file (one that pg_upgrade made,
 * or one that never generated) has no horizon of its own: before its first
 * ID, one backend reads every database's sequence, through a background
 * worker for each (uid_db_horizon_gate), while the others wait, so that the
 * whole server continues above every database's horizon at once.
 *
 * The cover of an ID (uid_horizon_cover, dbhorizon.h) makes it durable in
 * both: the server's horizon advanced (horizon.c), then its database's
 * sequence raised.
 *
 * The sequence is raised in place, as nextval() writes a sequence: in the
 * buffer, WAL-logged with the sequence's own record, without a transaction
 * id, so that it works in read-only transactions and parallel workers, where
 * the generators work.
 */
#include "dbhorizon.h"

#include <signal.h>

#include "access/genam.h"
#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_extension.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "commands/sequence.h"
#include UID_SEQUENCE_XLOG_H
#include "fmgr.h"
#include "layout.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

/* the sequences, by uid_db_horizon_cover's which: the server's horizon, the adopted shards' */
static const char *const uid_db_seq_names[2] = {"uniqueid_horizon_ms", "uniqueid_shard_horizon_ms"};

/* this backend's database's sequences (InvalidOid: none found) and what each was seen to hold */
static Oid	db_seq_oid[2] = {InvalidOid, InvalidOid};
static uint64 db_seq_ms[2] = {0, 0};

uint64		uid_horizon_covered_to = 0;
bool		uid_horizon_carried = false;

/* A horizon (Unix ms) as a timestamptz */
static inline TimestampTz
uid_ms_timestamptz(uint64 ms)
{
	return (TimestampTz) ms * 1000 - UID_PG_EPOCH_UNIX_US;
}

/* The schema of extension extoid (get_extension_schema is not exported before 16). */
Oid
uid_extension_schema(Oid extoid)
{
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	Oid			nsp = InvalidOid;

	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(extoid));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
		nsp = ((Form_pg_extension) GETSTRUCT(tup))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return nsp;
}

/*
 * Opens this database's sequence `which`, locked as nextval() locks it; NULL
 * when the database has none (the extension is older than 1.2 here, or is
 * being dropped).
 */
static Relation
uid_db_seq_open(int which)
{
	const char *name = uid_db_seq_names[which];
	Relation	rel;

	if (OidIsValid(db_seq_oid[which]))
	{
		rel = try_relation_open(db_seq_oid[which], RowExclusiveLock);
		if (rel != NULL && rel->rd_rel->relkind == RELKIND_SEQUENCE &&
			strcmp(RelationGetRelationName(rel), name) == 0)
			return rel;
		if (rel != NULL)
			relation_close(rel, RowExclusiveLock);
	}
	/* not looked up yet, or dropped and made again: look it up */
	db_seq_oid[which] = InvalidOid;
	db_seq_ms[which] = 0;
	{
		Oid			extoid = get_extension_oid("uniqueid", true);
		Oid			nsp = get_namespace_oid(UID_CATALOG_SCHEMA, true);
		Oid			relid = OidIsValid(nsp) ? get_relname_relid(name, nsp) : InvalidOid;

		/*
		 * In the extension's own schema since 1.9; in the schema it was
		 * installed into before (a database not updated yet).  Only the
		 * extension's own sequence counts.
		 */
		if (!OidIsValid(relid) || getExtensionOfObject(RelationRelationId, relid) != extoid)
		{
			nsp = OidIsValid(extoid) ? uid_extension_schema(extoid) : InvalidOid;
			relid = OidIsValid(nsp) ? get_relname_relid(name, nsp) : InvalidOid;
		}
		if (OidIsValid(extoid) && OidIsValid(relid) &&
			getExtensionOfObject(RelationRelationId, relid) == extoid)
			db_seq_oid[which] = relid;
	}
	if (!OidIsValid(db_seq_oid[which]))
		return NULL;
	rel = try_relation_open(db_seq_oid[which], RowExclusiveLock);
	if (rel != NULL && rel->rd_rel->relkind != RELKIND_SEQUENCE)
	{
		relation_close(rel, RowExclusiveLock);
		rel = NULL;
	}
	if (rel == NULL)
		db_seq_oid[which] = InvalidOid;
	return rel;
}

/*
 * The sequence's tuple in its (locked) buffer, checked as the sequence code
 * checks it.
 */
static Form_pg_sequence_data
uid_db_seq_tuple(Relation rel, Buffer buf, HeapTupleData *tuple)
{
	Page		page = BufferGetPage(buf);
	ItemId		lp;

	if (PageGetSpecialSize(page) < sizeof(uint32) ||
		*(uint32 *) PageGetSpecialPointer(page) != 0x1717)		/* sequence.c's SEQ_MAGIC */
		elog(ERROR, "bad magic number in sequence \"%s\"", RelationGetRelationName(rel));
	lp = PageGetItemId(page, FirstOffsetNumber);
	Assert(ItemIdIsNormal(lp));
	tuple->t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tuple->t_len = ItemIdGetLength(lp);
	return (Form_pg_sequence_data) GETSTRUCT(tuple);
}

/*
 * Raises the sequence to at least horizon_ms, in place; returns the LSN of
 * the sequence's page (what must be flushed for its value to be durable).
 * *value is set to what it holds now.
 */
static XLogRecPtr
uid_db_seq_raise(Relation rel, uint64 horizon_ms, uint64 *value)
{
	Buffer		buf = ReadBuffer(rel, 0);
	HeapTupleData tuple;
	Form_pg_sequence_data seq;
	XLogRecPtr	lsn;

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	seq = uid_db_seq_tuple(rel, buf, &tuple);
	if (seq->last_value < (int64) horizon_ms)
	{
		/* as nextval(): a row lock's xmax left by SELECT ... FOR UPDATE goes */
		if (HeapTupleHeaderGetRawXmax(tuple.t_data) != InvalidTransactionId)
		{
			HeapTupleHeaderSetXmax(tuple.t_data, InvalidTransactionId);
			tuple.t_data->t_infomask &= ~HEAP_XMAX_COMMITTED;
			tuple.t_data->t_infomask |= HEAP_XMAX_INVALID;
		}
		START_CRIT_SECTION();
		seq->last_value = (int64) horizon_ms;
		seq->is_called = true;
		seq->log_cnt = 0;
		MarkBufferDirty(buf);
		if (RelationNeedsWAL(rel))
		{
			xl_seq_rec xlrec;
			XLogRecPtr	recptr;

			XLogBeginInsert();
			XLogRegisterBuffer(0, buf, REGBUF_WILL_INIT);
			UID_SEQ_REC_SET(xlrec, rel);
			XLogRegisterData((char *) &xlrec, sizeof(xl_seq_rec));
			XLogRegisterData((char *) tuple.t_data, tuple.t_len);
			recptr = XLogInsert(RM_SEQ_ID, XLOG_SEQ_LOG);
			PageSetLSN(BufferGetPage(buf), recptr);
		}
		END_CRIT_SECTION();
	}
	*value = seq->last_value < 0 ? 0 : (uint64) seq->last_value;
	lsn = BufferGetLSNAtomic(buf);
	UnlockReleaseBuffer(buf);
	return lsn;
}

/*
 * A value of this database's sequence `which` read as `value`: one above
 * what this server's generators stand on (the floor, or an adopted shard's,
 * or the horizon the floor is about to be fixed at) and above what this
 * server wrote there itself came with the database from elsewhere, and
 * every generator of the server moves up to it.  A value more than a day
 * ahead of the clock is an error that names it, never a floor.  True when
 * the generators moved.
 */
static bool
uid_db_horizon_carry(int which, uint64 value)
{
	uint64		mine = which == UID_DB_SERVER ? uid_horizon_floor_or_next() : uid_horizon_shard_floor_max();
	int64		now_ms = (GetCurrentTimestamp() + UID_PG_EPOCH_UNIX_US) / 1000;

	if (value <= mine || value <= uid_horizon_db_written(MyDatabaseId, which))
		return false;
	if ((int64) value > now_ms + 24 * 3600 * 1000)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("sequence \"%s\" of database \"%s\" holds " UINT64_FORMAT ", more than a day ahead of this server's clock",
						uid_db_seq_names[which], get_database_name(MyDatabaseId), value),
				 errdetail("It is uniqueid's horizon carried with the database, in Unix milliseconds: no ID is made before it is below a day ahead."),
				 errhint("Check this server's clock; if no ID of this database is that far ahead, set the sequence back with setval() to the time of its last ID.")));
	ereport(LOG,
			(errmsg("uniqueid: database \"%s\" carries a horizon of %s, ahead of this server's; every generator continues from there",
					get_database_name(MyDatabaseId),
					timestamptz_to_str(uid_ms_timestamptz(value))),
			 errdetail("Sequence \"%s\" holds " UINT64_FORMAT ".", uid_db_seq_names[which], value)));
	(void) uid_horizon_raise(value);
	uid_horizon_db_note(MyDatabaseId, which, value);
	return true;
}

/*
 * Makes this database's sequence `which` cover horizon_ms (the horizon just
 * made durable, or an adopted shard's), durably, unless it was seen to
 * already.  Nothing when the database has no such sequence.  A value found
 * there above it, set since from elsewhere (a restore, logical replication
 * of sequences), is carried (uid_db_horizon_carry).
 */
void
uid_db_horizon_cover(int which, uint64 horizon_ms)
{
	Relation	rel;
	XLogRecPtr	lsn;
	uint64		value;

	if (horizon_ms <= db_seq_ms[which])
		return;
	rel = uid_db_seq_open(which);
	if (rel == NULL)
		return;
	/* noted first: a backend reading the value before that takes it for one from elsewhere */
	uid_horizon_db_note(MyDatabaseId, which, horizon_ms);
	lsn = uid_db_seq_raise(rel, horizon_ms, &value);
	relation_close(rel, NoLock);
	/* (the ID that found it is made again, above it: uid_horizon_cover) */
	if (value > horizon_ms && uid_db_horizon_carry(which, value))
		uid_horizon_carried = true;
	/* the value is durable, on synchronous standbys too, before an ID relies on it */
	XLogFlush(lsn);
	HOLD_INTERRUPTS();
	uid_horizon_sync(lsn);
	RESUME_INTERRUPTS();
	db_seq_ms[which] = value;
}

/*
 * The slow path of uid_horizon_cover: the server's horizon advanced
 * (uid_horizon_advance), then this database's sequence raised to it.
 * Returns the end up to which the next IDs need not come here.
 */
uint64
uid_horizon_cover_slow(uint64 end_ms, uint32 unit_ms)
{
	uint64		to = uid_horizon_advance(UID_SERVER_WIDE, end_ms, unit_ms);

	/* and the horizon kept in this backend's database, before the ID is returned */
	uid_db_horizon_cover(UID_DB_SERVER, pg_atomic_read_u64(&uid_horizon->horizon_ms));
	return to;
}

/*
 * Makes sure an ID of adopted shard `shard` whose time unit of unit_ms ends
 * at end_ms is within the shard's horizon, advancing the shard's own horizon
 * (not the server's) when it is not, and this database's sequence of the
 * shards' horizons with it.
 */
void
uid_horizon_cover_shard(uint32 shard, uint64 end_ms, uint32 unit_ms)
{
	Assert(shard < UID_NSHARDS);
	(void) uid_horizon_advance((int) shard, end_ms, unit_ms);
	uid_db_horizon_cover(UID_DB_SHARDS, uid_horizon_of_shard(shard));
}

/*
 * Reads this database's sequences: a value carried here with the database
 * (by pg_upgrade, a restore, or logical replication of sequences) moves
 * every generator of the server up to it.  Before a backend's first ID, and
 * for each database when the server started without its state file.
 */
void
uid_db_horizon_check(void)
{
	for (int which = UID_DB_SERVER; which <= UID_DB_SHARDS; which++)
	{
		Relation	rel = uid_db_seq_open(which);
		uint64		value;

		if (rel == NULL)
			continue;
		/* (a raise of 0 reads the value without writing) */
		(void) uid_db_seq_raise(rel, 0, &value);
		relation_close(rel, NoLock);
		(void) uid_db_horizon_carry(which, value);
		db_seq_ms[which] = 0;	/* raised to the horizon at the first ID */
	}
}


/*
 * A background worker's main: reads the sequences of database `arg` (an
 * Oid) and carries their values, as a backend's first ID does; says so when
 * it is the database the reading waits for.  A lock it would wait for long
 * ends it, with the lock named in the log.
 */
void
uid_db_horizon_worker(Datum arg)
{
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(arg), InvalidOid, 0);
	SetConfigOption("lock_timeout", "10000", PGC_SUSET, PGC_S_OVERRIDE);
	StartTransactionCommand();
	uid_db_horizon_check();
	CommitTransactionCommand();
	if (pg_atomic_read_u32(&uid_horizon->scan_db) == MyDatabaseId)
		pg_atomic_write_u32(&uid_horizon->scan_ok, 1);
}

/* A database the reading visits */
typedef struct UidScanDb
{
	Oid			oid;
	char	   *name;
} UidScanDb;

/*
 * Reads database db's sequences through a background worker (a backend
 * reads only its own database), waiting for a free worker and for the
 * reading, at most a minute; errors out, naming the database, when that
 * fails.
 */
static void
uid_db_horizon_scan_one(const UidScanDb *db)
{
	BackgroundWorker w;
	BackgroundWorkerHandle *handle = NULL;
	TimestampTz start = GetCurrentTimestamp();
	pid_t		pid;

	memset(&w, 0, sizeof(w));
	snprintf(w.bgw_name, BGW_MAXLEN, "uniqueid horizon of database %s", db->name);
	snprintf(w.bgw_type, BGW_MAXLEN, "uniqueid horizon");
	w.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	w.bgw_start_time = BgWorkerStart_RecoveryFinished;
	w.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(w.bgw_library_name, BGW_MAXLEN, "uniqueid");
	snprintf(w.bgw_function_name, BGW_MAXLEN, "uid_db_horizon_worker");
	w.bgw_main_arg = ObjectIdGetDatum(db->oid);
	w.bgw_notify_pid = MyProcPid;
	pg_atomic_write_u32(&uid_horizon->scan_ok, 0);
	pg_atomic_write_u32(&uid_horizon->scan_db, db->oid);
	PG_TRY();
	{
		/* a free worker slot, then the worker's end */
		for (;;)
		{
			if (handle == NULL)
			{
				if (RegisterDynamicBackgroundWorker(&w, &handle))
					continue;
			}
			else if (GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
				break;
			if (TimestampDifferenceExceeds(start, GetCurrentTimestamp(), 60000))
				ereport(ERROR,
						(errcode(handle == NULL ? ERRCODE_CONFIGURATION_LIMIT_EXCEEDED : ERRCODE_LOCK_NOT_AVAILABLE),
						 errmsg("could not read uniqueid's horizon of database \"%s\" within a minute", db->name),
						 errdetail("The server started without uniqueid's state file, so no ID is made before every database's horizon is read."),
						 handle == NULL ?
						 errhint("No background worker was free: raise max_worker_processes.") :
						 errhint("The server log says what the reading waits for.")));
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
	}
	PG_CATCH();
	{
		if (handle != NULL)
			TerminateBackgroundWorker(handle);
		PG_RE_THROW();
	}
	PG_END_TRY();
	if (!pg_atomic_read_u32(&uid_horizon->scan_ok))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not read uniqueid's horizon of database \"%s\"", db->name),
				 errdetail("The server started without uniqueid's state file, so no ID is made before every database's horizon is read."),
				 errhint("The server log says why; the next ID tries again.")));
}

/*
 * Reads every database's sequences into the server's horizon: this
 * backend's own database itself, the others one background worker at a
 * time.  Databases that cannot be connected to (template0, one whose DROP
 * DATABASE was interrupted) are skipped: they generate nothing.
 */
static void
uid_db_horizon_scan(void)
{
	List	   *dbs = NIL;
	Relation	rel = table_open(DatabaseRelationId, AccessShareLock);
	TableScanDesc scan = table_beginscan_catalog(rel, 0, NULL);
	HeapTuple	tup;
	ListCell   *lc;

	while ((tup = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		Form_pg_database d = (Form_pg_database) GETSTRUCT(tup);

		/* (-2: DATCONNLIMIT_INVALID_DB, a database whose DROP did not end) */
		if (d->datallowconn && d->datconnlimit != -2 && d->oid != MyDatabaseId)
		{
			UidScanDb  *db = palloc(sizeof(UidScanDb));

			db->oid = d->oid;
			db->name = pstrdup(NameStr(d->datname));
			dbs = lappend(dbs, db);
		}
	}
	table_endscan(scan);
	table_close(rel, AccessShareLock);
	uid_db_horizon_check();
	foreach(lc, dbs)
		uid_db_horizon_scan_one((UidScanDb *) lfirst(lc));
	list_free_deep(dbs);
}

/* on_shmem_exit: a backend that ends while it reads leaves the reading to the next */
static void
uid_db_horizon_scan_exit(int code, Datum arg)
{
	uint32		me = (uint32) MyProcPid;

	(void) pg_atomic_compare_exchange_u32(&uid_horizon->scan_owner, &me, 0);
}

/*
 * The first time a backend generates, on a server that started without its
 * state file: every database's sequence is read first, by this backend or
 * another (waited for, up to a minute).
 */
void
uid_db_horizon_gate(void)
{
	static bool exit_registered = false;
	TimestampTz start = GetCurrentTimestamp();

	while (pg_atomic_read_u32(&uid_horizon->scan_pending))
	{
		uint32		owner = 0;

		if (!exit_registered)
		{
			on_shmem_exit(uid_db_horizon_scan_exit, (Datum) 0);
			exit_registered = true;
		}
		if (pg_atomic_compare_exchange_u32(&uid_horizon->scan_owner, &owner, (uint32) MyProcPid))
		{
			PG_TRY();
			{
				uid_db_horizon_scan();
				uid_horizon_scan_done();
			}
			PG_FINALLY();
			{
				pg_atomic_write_u32(&uid_horizon->scan_owner, 0);
			}
			PG_END_TRY();
			/* (a new server's databases have none: its horizon is 0, no time) */
			if (uid_horizon_known() == 0)
				ereport(LOG,
						(errmsg("uniqueid: read the horizon of every database; none has one yet, as no ID was made here")));
			else
				ereport(LOG,
						(errmsg("uniqueid: read the horizon of every database; the server's is %s",
								timestamptz_to_str(uid_ms_timestamptz(uid_horizon_known())))));
			return;
		}
		if (TimestampDifferenceExceeds(start, GetCurrentTimestamp(), 60000))
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("uniqueid is still reading the horizons of this server's databases"),
					 errdetail("The server started without uniqueid's state file, so no ID is made before every database's horizon is read."),
					 errhint("Try again; the server log says what the reading waits for.")));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}
