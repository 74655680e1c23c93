/*
 * admin.h - what admin.c offers: SQL functions only (uniqueid_horizon,
 * uniqueid_raise_horizon, uniqueid_generator_stats,
 * uniqueid_durability_stats, uniqueid_stats_reset), each declared beside
 * its definition by PG_FUNCTION_INFO_V1.  Nothing in src/ calls them.
 */
#ifndef UNIQUEID_ADMIN_H
#define UNIQUEID_ADMIN_H

#include "compat.h"

#endif							/* UNIQUEID_ADMIN_H */
