/*
 * group.h - what group.c offers: one SQL function,
 * uniqueid_remote_settings(conninfo), declared beside its definition by
 * PG_FUNCTION_INFO_V1.  Nothing in src/ calls it.
 */
#ifndef UNIQUEID_GROUP_H
#define UNIQUEID_GROUP_H

#include "compat.h"

#endif							/* UNIQUEID_GROUP_H */
