/*
 * mask.h - what mask.c offers: the SQL functions of the masks (id_mask,
 * id_unmask, uuid7_mask, uuid7_unmask, id_mask_key_symbol), each declared
 * beside its definition by PG_FUNCTION_INFO_V1.  Nothing in src/ calls them.
 */
#ifndef UNIQUEID_MASK_H
#define UNIQUEID_MASK_H

#include "compat.h"

#endif							/* UNIQUEID_MASK_H */
