/*
 * dbhorizon.c - the horizon kept in each database, so that what PostgreSQL
 * carries of a database carries it too.
 *
 * The server's horizon (horizon.c) lives in a file of the data directory,
 * which pg_upgrade, pg_dump and logical replication leave behind.  So each
 * database that has the extension also keeps it as the value of the
 * extension's sequence uniqueid_horizon_ms (Unix ms): a configuration
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
 * The sequence is raised in place, as nextval() writes a sequence: in the
 * buffer, WAL-logged with the sequence's own record, without a transaction
 * id, so that it works in read-only transactions and parallel workers, where
 * the generators work.
 */
#include "horizon.h"
#include "generator.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "commands/sequence.h"
#if PG_VERSION_NUM >= 190000
#include "commands/sequence_xlog.h"
#endif
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#define UID_DB_HORIZON_SEQ "uniqueid_horizon_ms"

/* 16 renamed the relation's file locator (RelFileNode to RelFileLocator). */
#if PG_VERSION_NUM >= 160000
#define UID_SEQ_REC_SET(rec, rel) ((rec).locator = (rel)->rd_locator)
#else
#define UID_SEQ_REC_SET(rec, rel) ((rec).node = (rel)->rd_node)
#endif

/* this backend's database's sequence (InvalidOid: none found) and what it was seen to hold */
static Oid	db_seq_oid = InvalidOid;
static uint64 db_seq_ms = 0;

/* The schema of extension extoid (get_extension_schema is not exported before 16). */
static Oid
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
 * Opens this database's sequence, locked as nextval() locks it; NULL when
 * the database has none (the extension is older than 1.2 here, or is being
 * dropped).
 */
static Relation
uid_db_seq_open(void)
{
	Relation	rel;

	if (OidIsValid(db_seq_oid))
	{
		rel = try_relation_open(db_seq_oid, RowExclusiveLock);
		if (rel != NULL && rel->rd_rel->relkind == RELKIND_SEQUENCE &&
			strcmp(RelationGetRelationName(rel), UID_DB_HORIZON_SEQ) == 0)
			return rel;
		if (rel != NULL)
			relation_close(rel, RowExclusiveLock);
	}
	/* not looked up yet, or dropped and made again: look it up */
	db_seq_oid = InvalidOid;
	db_seq_ms = 0;
	{
		Oid			extoid = get_extension_oid("uniqueid", true);
		Oid			nsp = OidIsValid(extoid) ? uid_extension_schema(extoid) : InvalidOid;

		if (OidIsValid(nsp))
			db_seq_oid = get_relname_relid(UID_DB_HORIZON_SEQ, nsp);
	}
	if (!OidIsValid(db_seq_oid))
		return NULL;
	rel = try_relation_open(db_seq_oid, RowExclusiveLock);
	if (rel != NULL && rel->rd_rel->relkind != RELKIND_SEQUENCE)
	{
		relation_close(rel, RowExclusiveLock);
		rel = NULL;
	}
	if (rel == NULL)
		db_seq_oid = InvalidOid;
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
 * Makes the sequence of this backend's database cover horizon_ms (the
 * horizon just made durable, or an adopted shard's), durably, unless it was
 * seen to already.  Nothing when the database has no such sequence.
 */
void
uid_db_horizon_cover(uint64 horizon_ms)
{
	Relation	rel;
	XLogRecPtr	lsn;

	if (horizon_ms <= db_seq_ms)
		return;
	rel = uid_db_seq_open();
	if (rel == NULL)
		return;
	lsn = uid_db_seq_raise(rel, horizon_ms, &db_seq_ms);
	relation_close(rel, NoLock);
	/* the value is durable, on synchronous standbys too, before an ID relies on it */
	XLogFlush(lsn);
	HOLD_INTERRUPTS();
	PG_TRY();
	{
		uid_horizon_sync(lsn);
	}
	PG_FINALLY();
	{
		RESUME_INTERRUPTS();
	}
	PG_END_TRY();
}

/*
 * The first time this backend generates: a value of its database's sequence
 * above every horizon this server knows was carried here with the database
 * (by pg_upgrade, a restore, or logical replication of sequences), and every
 * generator of the server moves up to it before this backend makes an ID.
 */
void
uid_db_horizon_check(void)
{
	Relation	rel = uid_db_seq_open();
	uint64		value;

	if (rel == NULL)
		return;
	/* (a raise of 0 reads the value without writing) */
	(void) uid_db_seq_raise(rel, 0, &value);
	relation_close(rel, NoLock);
	if (value > uid_horizon_known())
	{
		ereport(LOG,
				(errmsg("uniqueid: database \"%s\" carries a horizon of %s, ahead of this server's; every generator continues from there",
						get_database_name(MyDatabaseId),
						timestamptz_to_str((TimestampTz) value * 1000 - UID_PG_EPOCH_UNIX_US))));
		(void) uid_horizon_raise(value);
	}
	db_seq_ms = 0;				/* raised to the horizon at the first ID */
}

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
	if (!uid_generator_ready && !RecoveryInProgress())
		uid_require_generator_slow("any");
	h = uid_horizon_known();
	if (h == 0)
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ((TimestampTz) h * 1000 - UID_PG_EPOCH_UNIX_US);
}

PG_FUNCTION_INFO_V1(uniqueid_raise_horizon);
/*
 * uniqueid_raise_horizon(at): every generator of this server continues at or
 * after `at` from now on (the horizon of the server a database came from),
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
	/* up to the millisecond that ends at or after `at` */
	h = uid_horizon_raise((uint64) ((at + UID_PG_EPOCH_UNIX_US + 999) / 1000));
	uid_db_horizon_cover(h);
	PG_RETURN_TIMESTAMPTZ((TimestampTz) uid_horizon_known() * 1000 - UID_PG_EPOCH_UNIX_US);
}
