/*
 * shortcode.h - what shortcode.c offers: SQL functions (id_encode,
 * id_decode, lexical_add), each declared beside its definition by
 * PG_FUNCTION_INFO_V1, and the alphabet argument and the report of a
 * character out of it, which the masks (mask.c) take as id_encode does.
 */
#ifndef UNIQUEID_SHORTCODE_H
#define UNIQUEID_SHORTCODE_H

#include "compat.h"

#include "basen.h"
#include "fmgr.h"

/* The alphabet named or spelled by text argument argno, built once per call site. */
extern const uid_alphabet *uid_get_alphabet(FunctionCallInfo fcinfo, int argno);

/* Reports (22P02) the character of code at byte offset errpos that is not in the alphabet. */
extern void uid_bad_char(text *code, size_t errpos);

#endif							/* UNIQUEID_SHORTCODE_H */
