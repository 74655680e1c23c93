/*
 * objectid.h - the objectid type and its generator (objectid.c): what the
 * module's shared-memory hooks call.
 */
#ifndef UNIQUEID_OBJECTID_H
#define UNIQUEID_OBJECTID_H

#include "compat.h"

extern void uid_objectid_shmem_request(void);
extern void uid_objectid_shmem_startup(void);
extern int64 uid_objectid_last_us(void);

#endif							/* UNIQUEID_OBJECTID_H */
