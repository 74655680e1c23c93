/*
 * module.c - the module's entry point: PG_MODULE_MAGIC and _PG_init, which
 * defines the parameters, registers the horizon's WAL resource manager and
 * owns the shared-memory hooks, which call each part's request and startup.
 */
#include "compat.h"

#include "clock.h"
#include "family.h"
#include "generator.h"
#include "guc.h"
#include "horizon.h"
#include "id64.h"
#include "ksuid.h"
#include "miscadmin.h"
#include "node.h"
#include "objectid.h"
#include "registry.h"
#include "rsxid.h"
#include "shardid.h"
#include "sno.h"
#include "spreadid.h"
#include "stats.h"
#include "ulid.h"
#include "utils/guc.h"
#include "uuid7.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

PG_MODULE_MAGIC;

/* The rows of the table of families, each defined in its family's file */
static const UidFamily *const uid_family_rows[] = {
	&uid_shardid_family, &uid_uuid7_family, &uid_snowflake_family, &uid_sonyflake_family,
	&uid_shortid_family, &uid_spreadid_family, &uid_ulid_family, &uid_ksuid_family,
	&uid_rsxid_family, &uid_sno_family, &uid_objectid_family,
};

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* Chains to the previous shmem_request_hook, then reserves uniqueid's space. */
static void
uid_shmem_request_hook(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	uid_clock_shmem_request();
	uid_horizon_shmem_request();
	uid_generator_shmem_request();
	uid_sno_shmem_request();
	uid_objectid_shmem_request();
	uid_node_shmem_request();
	uid_stats_shmem_request();
}

/* Chains to the previous shmem_startup_hook, then attaches uniqueid's state. */
static void
uid_shmem_startup_hook(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	uid_clock_shmem_startup();
	uid_horizon_shmem_startup();
	uid_generator_shmem_startup();
	uid_sno_shmem_startup();
	uid_objectid_shmem_startup();
	uid_node_shmem_startup();
	uid_stats_shmem_startup();
	LWLockRelease(AddinShmemInitLock);
}

/* Module load: types need nothing; generators need shared_preload_libraries. */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;

	uid_define_gucs();
	uid_node_define_gucs();
	MarkGUCPrefixReserved("uniqueid");
	for (int i = 0; i < lengthof(uid_family_rows); i++)
		uid_family_register(uid_family_rows[i]);
	uid_horizon_register_rmgr();
	uid_node_register_worker();

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = uid_shmem_request_hook;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = uid_shmem_startup_hook;
}
