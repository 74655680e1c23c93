/*
 * module.c - the module's entry point: PG_MODULE_MAGIC and _PG_init, which
 * goes through the parts of uniqueid, from the bottom of src/LAYERS up,
 * once: each defines its parameters, registers its resource manager or
 * worker, and has its shared memory requested and set up by the hooks
 * below, in the same order; then the families' rows enter the engine's
 * table.
 */
#include "module.h"

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
#include "serial.h"
#include "shardid.h"
#include "sno.h"
#include "spreadid.h"
#include "stats.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "ulid.h"
#include "utils/guc.h"
#include "uuid7.h"

PG_MODULE_MAGIC;

/*
 * A part of uniqueid, as _PG_init and the shared-memory hooks see it; each
 * function may be NULL.  Each part's shmem_request reserves its space
 * (RequestAddinShmemSpace), and its shmem_startup attaches it
 * (ShmemInitStruct) and sets it up when it is new.
 */
typedef struct UidPart
{
	void		(*init) (void);	/* in _PG_init: parameters, resource manager, worker */
	void		(*shmem_request) (void);	/* in shmem_request_hook */
	void		(*shmem_startup) (void);	/* in shmem_startup_hook, AddinShmemInitLock held */
} UidPart;

static const UidPart uid_parts[] = {
	{uid_define_gucs, NULL, NULL},	/* guc.c */
	{NULL, uid_clock_shmem_request, uid_clock_shmem_startup},
	{uid_horizon_register_rmgr, uid_horizon_shmem_request, uid_horizon_shmem_startup},
	{NULL, uid_stats_shmem_request, uid_stats_shmem_startup},
	{uid_node_define_gucs, uid_node_shmem_request, uid_node_shmem_startup},
	{uid_generator_init, uid_generator_shmem_request, uid_generator_shmem_startup},
	{NULL, uid_sno_shmem_request, uid_sno_shmem_startup},
	{NULL, uid_objectid_shmem_request, uid_objectid_shmem_startup},
	{uid_node_register_worker, NULL, NULL},	/* registry.c: after node.c's parameters */
	{uid_serial_init, NULL, NULL},	/* serial.c: its parameter and the ProcessUtility hook */
};

/* The rows of the table of families (family.h), each defined in its family's file */
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
	for (int i = 0; i < lengthof(uid_parts); i++)
		if (uid_parts[i].shmem_request)
			uid_parts[i].shmem_request();
}

/* Chains to the previous shmem_startup_hook, then attaches uniqueid's state. */
static void
uid_shmem_startup_hook(void)
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	for (int i = 0; i < lengthof(uid_parts); i++)
		if (uid_parts[i].shmem_startup)
			uid_parts[i].shmem_startup();
	LWLockRelease(AddinShmemInitLock);
}

/* Module load: types need nothing; generators need shared_preload_libraries. */
void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;

	for (int i = 0; i < lengthof(uid_parts); i++)
		if (uid_parts[i].init)
			uid_parts[i].init();
	/* every uniqueid.* parameter is defined: the prefix is reserved */
	MarkGUCPrefixReserved("uniqueid");
	for (int i = 0; i < lengthof(uid_family_rows); i++)
		uid_family_register(uid_family_rows[i]);

	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = uid_shmem_request_hook;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = uid_shmem_startup_hook;
}
