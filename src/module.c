/*
 * module.c - the module's entry point: PG_MODULE_MAGIC and _PG_init, which
 * defines the parameters and hooks shared memory when preloaded.
 */
#include "uniqueid.h"

#include "miscadmin.h"
#include "storage/ipc.h"

PG_MODULE_MAGIC;

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* Chains to the previous shmem_request_hook, then reserves uniqueid's space. */
static void
uid_shmem_request_hook(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	uid_shmem_request();
}

/* Chains to the previous shmem_startup_hook, then attaches uniqueid's state. */
static void
uid_shmem_startup_hook(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	uid_shmem_startup();
}

/* Module load: types need nothing; generators need shared_preload_libraries. */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;

	uid_define_gucs();
	uid_horizon_register_rmgr();

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = uid_shmem_request_hook;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = uid_shmem_startup_hook;
}
