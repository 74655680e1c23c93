/*
 * objectid.h - the objectid type and its generator (objectid.c): its shared
 * memory, which the module's hooks set up, and its row in the table of
 * families.
 */
#ifndef UNIQUEID_OBJECTID_H
#define UNIQUEID_OBJECTID_H

#include "compat.h"

#include "family.h"

extern void uid_objectid_shmem_request(void);
extern void uid_objectid_shmem_startup(void);
extern const UidFamily uid_objectid_family;

#endif							/* UNIQUEID_OBJECTID_H */
