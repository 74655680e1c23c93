/*
 * sno.h - the sno type and its generator (sno.c): its shared memory, which
 * the module's hooks set up, and its row in the table of families.
 */
#ifndef UNIQUEID_SNO_H
#define UNIQUEID_SNO_H

#include "compat.h"

#include "family.h"

extern void uid_sno_shmem_request(void);
extern void uid_sno_shmem_startup(void);
extern const UidFamily uid_sno_family;

#endif							/* UNIQUEID_SNO_H */
