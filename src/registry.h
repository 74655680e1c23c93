/*
 * registry.h - the node registry's worker (registry.c): registered from
 * _PG_init when uniqueid.node_registry is set, started by name.
 */
#ifndef UNIQUEID_REGISTRY_H
#define UNIQUEID_REGISTRY_H

#include "compat.h"

#include "fmgr.h"

extern void uid_node_register_worker(void);
extern PGDLLEXPORT void uid_node_worker_main(Datum arg);

#endif							/* UNIQUEID_REGISTRY_H */
