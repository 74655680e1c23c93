/*
 * basen.h - base-N short codes for people: alphabets, encode/decode of
 * 64-bit values, and shortlex arithmetic on codes (lexical_add).
 *
 * Nothing here includes PostgreSQL headers, so the code can be unit-tested
 * and fuzzed outside the server (test/basen_test.c).  Functions never print
 * or abort: they return a uid_basen_status and the caller turns it into an
 * error report.  Byte positions reported through errpos are 0-based offsets
 * into the input.
 *
 * Decisions:
 * - Alphabets are byte strings; a symbol is one byte.  The names "base32",
 *   "base36", "base58", "base62" and "base64url" always mean the named
 *   alphabets; any other argument is a literal alphabet of 2 to 256
 *   distinct bytes.
 * - Only "base32" (Crockford) decodes loosely: case-insensitive, and O/o read
 *   as 0, I/i/L/l read as 1; U/u and Crockford's hyphens and check symbols
 *   are not accepted.  Every other alphabet, base36 included, matches bytes
 *   exactly (base36 is lowercase only).  Output always uses the alphabet's own
 *   symbols, so base32 output is canonical uppercase.
 * - Decoding accepts leading zero digits ("007" is 7); encoding never
 *   produces them (0 encodes as the single first symbol).
 * - Values are unsigned 64-bit; whether a decoded value fits a signed bigint
 *   is for the caller to check.
 * - Shortlex order ranks every string over the alphabet, the empty string
 *   included: "" has rank 0, then the base codes of length 1, then the base^2
 *   codes of length 2, and so on; within a length, codes compare digit by
 *   digit.  Rank is a bijection from all codes to the non-negative integers
 *   (it is bijective base-N numeration with digit values 1..N).
 */
#ifndef UNIQUEID_BASEN_H
#define UNIQUEID_BASEN_H

#include <stddef.h>
#include <stdint.h>

/* Outcome of every function here that can fail. */
typedef enum uid_basen_status
{
	UID_BASEN_OK = 0,
	UID_BASEN_ALPHABET_SHORT,	/* alphabet has fewer than 2 bytes */
	UID_BASEN_ALPHABET_LONG,	/* alphabet has more than 256 bytes */
	UID_BASEN_ALPHABET_DUPLICATE,	/* a byte repeats; errpos = 2nd occurrence */
	UID_BASEN_EMPTY,			/* decode of the empty string */
	UID_BASEN_BAD_CHAR,			/* byte not in the alphabet; errpos = its offset */
	UID_BASEN_OVERFLOW,			/* value or rank exceeds 2^64-1 */
	UID_BASEN_BELOW_FIRST,		/* lexical_add went below the empty code */
	UID_BASEN_BUFFER			/* output buffer smaller than documented */
} uid_basen_status;

/* Alphabet flag: decoding folds case and reads Crockford's aliases. */
#define UID_BASEN_CROCKFORD 0x01

/* An alphabet ready for use; build it with uid_basen_alphabet_init. */
typedef struct uid_alphabet
{
	int			base;			/* number of symbols, 2..256 */
	int			flags;			/* UID_BASEN_CROCKFORD or 0 */
	unsigned char symbols[256]; /* digit value -> output byte */
	int16_t		digit[256];		/* input byte -> digit value, or -1 */
} uid_alphabet;

/* Longest encode output: 64 symbols (base 2), without the terminating NUL. */
#define UID_BASEN_ENCODE_MAX 64

/*
 * Bytes lexical_add needs in its output buffer for an input code of len
 * bytes, terminating NUL and working space included.  The result itself is
 * never longer than max(len + 2, 64) bytes.
 */
#define UID_BASEN_ADD_BUFSIZE(len) ((size_t) (len) + 66)

/*
 * Fills *a from spec[0..len-1]: a named alphabet or a literal one.  Errors:
 * ALPHABET_SHORT, ALPHABET_LONG, ALPHABET_DUPLICATE (sets *errpos to the
 * offset of the second occurrence of the repeated byte, spec[*errpos]).
 * errpos may be NULL.
 */
extern uid_basen_status uid_basen_alphabet_init(uid_alphabet *a, const char *spec,
												size_t len, size_t *errpos);

/*
 * Writes value in the alphabet, most significant digit first, no padding,
 * then a NUL; returns the number of symbols (1..64).  buf needs
 * UID_BASEN_ENCODE_MAX + 1 bytes.  A literal alphabet containing the NUL
 * byte may put NULs inside the code: trust the returned length.
 */
extern size_t uid_basen_encode(uint64_t value, const uid_alphabet *a, char *buf);

/*
 * Reads the code s[0..len-1] into *out.  Errors: EMPTY, BAD_CHAR (sets
 * *errpos to the first offending offset; reported even when the digits
 * before it already overflow), OVERFLOW.  errpos may be NULL.
 */
extern uid_basen_status uid_basen_decode(const char *s, size_t len, const uid_alphabet *a,
										 uint64_t *out, size_t *errpos);

/*
 * Shortlex rank of the code s[0..len-1] ("" is 0).  Errors: BAD_CHAR (with
 * *errpos), OVERFLOW when the rank exceeds 2^64-1.  errpos may be NULL.
 */
extern uid_basen_status uid_basen_rank(const char *s, size_t len, const uid_alphabet *a,
									   uint64_t *out, size_t *errpos);

/*
 * Writes the code n places after code[0..len-1] in shortlex order (before it
 * when n < 0) to out, NUL-terminated, its length in *outlen (0 for the empty
 * code).  Works on codes of any length.  out must not overlap code, and
 * outcap must be at least UID_BASEN_ADD_BUFSIZE(len).  The output uses the
 * alphabet's canonical symbols.  Errors: BUFFER (checked first), BAD_CHAR
 * (with *errpos), BELOW_FIRST when the result would rank below "".  errpos
 * may be NULL.
 */
extern uid_basen_status uid_basen_lexical_add(const char *code, size_t len,
											  const uid_alphabet *a, int64_t n,
											  char *out, size_t outcap,
											  size_t *outlen, size_t *errpos);

#endif							/* UNIQUEID_BASEN_H */
