/*
 * codec_fuzz.c - libFuzzer target for the pure text codecs (src/codec.c).
 * Built with AddressSanitizer and UndefinedBehaviorSanitizer by
 * `make test/fuzz/codec_fuzz` (clang), run by test/fuzz/run.sh.
 *
 * The first input byte picks a codec; the rest is its text.  Checked: what a
 * parser accepts, its formatter writes back exactly (these parsers take the
 * canonical form only; hex in either case); and for a value made of the
 * input's bytes, format then parse gives the value back.  (ULID's base 32
 * reads either case; its output is compared case-folded.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "codec.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void
values_round_trip(const uint8_t *d, size_t n)
{
	uint8_t		bytes[UID_KSUID_BYTES] = {0};
	uint64_t	v = 0,
				back;
	char		buf[UID_TEXT_MAX + 1];
	uint8_t		out[UID_KSUID_BYTES];
	size_t		len;

	memcpy(bytes, d, n < sizeof(bytes) ? n : sizeof(bytes));
	memcpy(&v, bytes, sizeof(v));

	len = uid_decimal_format(v, buf);
	CHECK(uid_decimal_parse(buf, len, &back) == UID_PARSE_OK && back == v);
	len = uid_hex_format(bytes, 12, buf);
	CHECK(len == 24 && uid_hex_parse(buf, len, out, 12) == UID_PARSE_OK && memcmp(out, bytes, 12) == 0);
	uid_sno_format(bytes, buf);
	CHECK(uid_sno_parse(buf, UID_SNO_CHARS, out) == UID_PARSE_OK && memcmp(out, bytes, UID_SNO_BYTES) == 0);
	v &= (UINT64_C(1) << 60) - 1;
	len = uid_shortid_format(v, buf);
	CHECK(len >= 4 && len <= UID_SHORTID_MAX_CHARS);
	CHECK(uid_shortid_parse(buf, len, &back) == UID_PARSE_OK && back == v);
	uid_base32_format(bytes, 16, uid_crockford_upper, 2, buf);
	CHECK(uid_base32_parse(buf, 26, uid_crockford_upper, 1, out, 16, 2) == UID_PARSE_OK && memcmp(out, bytes, 16) == 0);
	uid_base32_format(bytes, 12, uid_base32hex_lower, 0, buf);
	CHECK(uid_base32_parse(buf, 20, uid_base32hex_lower, 0, out, 12, 0) == UID_PARSE_OK && memcmp(out, bytes, 12) == 0);
	uid_ksuid_format(bytes, buf);
	CHECK(uid_ksuid_parse(buf, UID_KSUID_CHARS, out) == UID_PARSE_OK && memcmp(out, bytes, UID_KSUID_BYTES) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s;
	size_t		len;
	uint64_t	v;
	uint8_t		bytes[UID_KSUID_BYTES];
	char		buf[UID_TEXT_MAX + 1];

	if (size < 1)
		return 0;
	s = (const char *) data + 1;
	len = size - 1;
	switch (data[0] % 8)
	{
		case 0:
			if (uid_decimal_parse(s, len, &v) == UID_PARSE_OK)
				CHECK(uid_decimal_format(v, buf) == len && memcmp(buf, s, len) == 0);
			break;
		case 1:
			if (uid_hex_parse(s, len, bytes, 12) == UID_PARSE_OK)
			{
				CHECK(len == 24 && uid_hex_format(bytes, 12, buf) == 24);
				for (size_t i = 0; i < len; i++)
					CHECK(buf[i] == tolower((unsigned char) s[i]));
			}
			break;
		case 2:
			if (uid_sno_parse(s, len, bytes) == UID_PARSE_OK)
			{
				uid_sno_format(bytes, buf);
				CHECK(len == UID_SNO_CHARS && memcmp(buf, s, len) == 0);
			}
			break;
		case 3:
			if (uid_shortid_parse(s, len, &v) == UID_PARSE_OK)
				CHECK(uid_shortid_format(v, buf) == len && memcmp(buf, s, len) == 0);
			break;
		case 4:
			/* ULID: output uppercase, so compare case-folded */
			if (uid_base32_parse(s, len, uid_crockford_upper, 1, bytes, 16, 2) == UID_PARSE_OK)
			{
				uid_base32_format(bytes, 16, uid_crockford_upper, 2, buf);
				CHECK(len == 26);
				for (size_t i = 0; i < len; i++)
					CHECK(buf[i] == toupper((unsigned char) s[i]));
			}
			break;
		case 5:
			if (uid_base32_parse(s, len, uid_base32hex_lower, 0, bytes, 12, 0) == UID_PARSE_OK)
			{
				uid_base32_format(bytes, 12, uid_base32hex_lower, 0, buf);
				CHECK(len == 20 && memcmp(buf, s, len) == 0);
			}
			break;
		case 6:
			if (uid_ksuid_parse(s, len, bytes) == UID_PARSE_OK)
			{
				uid_ksuid_format(bytes, buf);
				CHECK(len == UID_KSUID_CHARS && memcmp(buf, s, len) == 0);
			}
			break;
		default:
			values_round_trip((const uint8_t *) s, len);
			break;
	}
	return 0;
}
