/*
 * codec.h - pure text codecs for uniqueid's identifiers.
 *
 * Nothing here includes PostgreSQL headers, so the codecs can be unit-tested
 * and fuzzed outside the server (test/codec_test.c).
 */
#ifndef UNIQUEID_CODEC_H
#define UNIQUEID_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* Result of a parse: success, malformed text, or a well-formed value too large. */
typedef enum uid_parse_result
{
	UID_PARSE_OK = 0,
	UID_PARSE_SYNTAX,
	UID_PARSE_RANGE
} uid_parse_result;

/* Longest text any codec here produces, without the terminating NUL. */
#define UID_TEXT_MAX 32

/*
 * Unsigned decimal, canonical form only: one or more ASCII digits, no sign,
 * no white space, no leading zero unless the value is 0 itself.
 */
extern uid_parse_result uid_decimal_parse(const char *s, size_t len, uint64_t *out);
extern size_t uid_decimal_format(uint64_t v, char *buf);

/* Exactly ndigits hex digits (either case) into a big-endian byte string. */
extern uid_parse_result uid_hex_parse(const char *s, size_t len, uint8_t *out, size_t nbytes);
extern size_t uid_hex_format(const uint8_t *in, size_t nbytes, char *buf);

/*
 * sno's base32: 16 characters of "23456789abcdefghijklmnopqrstuvwx" for the
 * 80-bit big-endian value in[0..9], most significant first.  Input must be
 * exactly 16 characters of the alphabet (uppercase is not in it).
 */
#define UID_SNO_BYTES 10
#define UID_SNO_CHARS 16
extern uid_parse_result uid_sno_parse(const char *s, size_t len, uint8_t out[UID_SNO_BYTES]);
extern void uid_sno_format(const uint8_t in[UID_SNO_BYTES], char buf[UID_SNO_CHARS + 1]);

/*
 * shortid's display form: the 60-bit value's base64 digits
 * (A-Z a-z 0-9 - _), most significant first, left-padded with 'A' to at
 * least 4 digits, then the last two digits moved to the front.  Parsing
 * takes exactly that form: 4 to 10 characters, no leading 'A' beyond the
 * 4 digits; a value of 2^60 or more (11 digits included) is a range error.
 */
#define UID_SHORTID_MAX_CHARS 10
extern uid_parse_result uid_shortid_parse(const char *s, size_t len, uint64_t *out);
extern size_t uid_shortid_format(uint64_t v, char *buf);

/*
 * Base 32, five bits a character, over the big-endian bit string of
 * in[0..nbytes-1] with `lead` zero bits before it and as many after it as
 * fill the last character: ULID and TypeID write 16 bytes after 2 zero bits
 * (26 characters), xid 12 bytes followed by 4 (20 characters).  alphabet is
 * the 32 output characters, one of the three below; parsing reads them in
 * either case when fold_case is set, and takes exactly the characters of
 * the form: nonzero lead bits are a range error, nonzero trailing bits a
 * syntax error (no other text writes that character there).
 */
#define UID_BASE32_CHARS(nbytes, lead) (((lead) + 8 * (nbytes) + 4) / 5)
extern uid_parse_result uid_base32_parse(const char *s, size_t len, const char alphabet[32], int fold_case,
										 uint8_t *out, size_t nbytes, int lead);
extern void uid_base32_format(const uint8_t *in, size_t nbytes, const char alphabet[32], int lead,
							  char *buf);

/* The alphabets of the base-32 forms above (32 characters and a NUL). */
extern const char uid_crockford_upper[33];	/* ULID's output */
extern const char uid_crockford_lower[33];	/* TypeID's */
extern const char uid_base32hex_lower[33];	/* xid's */

/*
 * KSUID's base 62 ("0-9A-Za-z"): the 160-bit big-endian value of
 * in[0..19] as exactly 27 digits, zero-padded.  Parsing takes exactly 27
 * digits; a value of 2^160 or more is a range error.
 */
#define UID_KSUID_BYTES 20
#define UID_KSUID_CHARS 27
extern uid_parse_result uid_ksuid_parse(const char *s, size_t len, uint8_t out[UID_KSUID_BYTES]);
extern void uid_ksuid_format(const uint8_t in[UID_KSUID_BYTES], char buf[UID_KSUID_CHARS + 1]);

#endif							/* UNIQUEID_CODEC_H */
