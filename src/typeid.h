/*
 * typeid.h - what typeid.c offers: the typeid type's SQL functions and
 * next_typeid, each declared beside its definition by PG_FUNCTION_INFO_V1.
 * Nothing in src/ calls them.
 */
#ifndef UNIQUEID_TYPEID_H
#define UNIQUEID_TYPEID_H

#include "compat.h"

#endif							/* UNIQUEID_TYPEID_H */
