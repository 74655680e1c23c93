/*
 * sno.h - the sno type and its generator (sno.c): what the module's
 * shared-memory hooks call.
 */
#ifndef UNIQUEID_SNO_H
#define UNIQUEID_SNO_H

#include "compat.h"

extern void uid_sno_shmem_request(void);
extern void uid_sno_shmem_startup(void);
extern int64 uid_sno_last_us(void);

#endif							/* UNIQUEID_SNO_H */
