/*
 * shortcode.h - what shortcode.c offers: SQL functions only (id_encode,
 * id_decode, lexical_add), each declared beside its definition by
 * PG_FUNCTION_INFO_V1.  Nothing in src/ calls them.
 */
#ifndef UNIQUEID_SHORTCODE_H
#define UNIQUEID_SHORTCODE_H

#include "compat.h"

#endif							/* UNIQUEID_SHORTCODE_H */
