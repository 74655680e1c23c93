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

#endif							/* UNIQUEID_CODEC_H */
