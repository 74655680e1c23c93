/*
 * module.c - the module's entry point: PG_MODULE_MAGIC and _PG_init, which
 * defines the parameters, registers the horizon's WAL resource manager and
 * owns the shared-memory hooks, which call each part's request and startup.
 */
#include "compat.h"

#include "clock.h"
#include "generator.h"
#include "guc.h"
#include "horizon.h"
#include "miscadmin.h"
#include "node.h"
#include "objectid.h"
#include "serial.h"
#include "sno.h"
#include "stats.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

PG_MODULE_MAGIC;

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

	/* (before uid_define_gucs reserves the prefix, which drops placeholders) */
	uid_serial_init();
	uid_define_gucs();
	uid_horizon_register_rmgr();
	uid_node_register_worker();

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = uid_shmem_request_hook;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = uid_shmem_startup_hook;
}
