/*
 * maskcode.h - the text of a masked ID: one key symbol, then the masked
 * bits as a fixed number of base-N digits, most significant first.
 *
 * Nothing here includes PostgreSQL headers (test/ff1_test.c and
 * test/fuzz/mask_fuzz.c use it outside the server).  The alphabets are
 * basen.h's.  A code of an nbits value in an alphabet of N symbols is
 * 1 + uid_maskcode_width(nbits, N) symbols long, whatever the value: the
 * digits keep their leading zeros.  The key symbol is the alphabet's symbol
 * of (check mod N), check being a byte the caller derives from the key.
 */
#ifndef UNIQUEID_MASKCODE_H
#define UNIQUEID_MASKCODE_H

#include <stddef.h>
#include <stdint.h>

#include "basen.h"

/* Most bits of a masked value, and the longest code (base 2), without the NUL. */
#define UID_MASKCODE_MAXBITS 256
#define UID_MASKCODE_MAX (1 + UID_MASKCODE_MAXBITS)

/* Outcome of uid_maskcode_parse. */
typedef enum uid_maskcode_status
{
	UID_MASKCODE_OK = 0,
	UID_MASKCODE_LENGTH,		/* not 1 + width symbols */
	UID_MASKCODE_BAD_CHAR,		/* a byte not in the alphabet; errpos = its offset */
	UID_MASKCODE_RANGE,			/* the digits' value has more than nbits bits */
	UID_MASKCODE_KEY			/* the key symbol is not the key's */
} uid_maskcode_status;

/* Digits of an nbits value in base: the least w with base^w >= 2^nbits. */
extern int	uid_maskcode_width(int nbits, int base);

/*
 * Writes the code of the nbits value val[0..(nbits+7)/8-1] (big-endian,
 * right-aligned) under key check byte check, then a NUL; returns its
 * length.  out needs UID_MASKCODE_MAX + 1 bytes.
 */
extern size_t uid_maskcode_format(const unsigned char *val, int nbits, const uid_alphabet *a,
								  unsigned check, char *out);

/*
 * Reads the code s[0..len-1] of an nbits value into val ((nbits+7)/8
 * bytes).  Errors, in this order: LENGTH, BAD_CHAR (with *errpos), RANGE,
 * KEY (the digits are valid, the key symbol is another key's).  errpos may
 * be NULL.
 */
extern uid_maskcode_status uid_maskcode_parse(const char *s, size_t len, const uid_alphabet *a,
											  int nbits, unsigned check, unsigned char *val,
											  size_t *errpos);

/*
 * The 122 variable bits of an RFC 9562 UUID (all but version and variant)
 * as a right-aligned 16-byte value, and back: uid_uuid_unpack122 writes the
 * version nibble and the two variant bits given.
 */
extern void uid_uuid_pack122(const unsigned char uuid[16], unsigned char out[16]);
extern void uid_uuid_unpack122(const unsigned char in[16], unsigned version, unsigned variant,
							   unsigned char uuid[16]);

#endif							/* UNIQUEID_MASKCODE_H */
