/*
 * codec_test.c - unit tests of the pure codecs in src/codec.c, outside the
 * server; prints TAP.  Built by the Makefile, run by t/001_units.pl.
 */
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "unit.h"

/* Parses s as decimal and reports whether result and value are as expected. */
static void
check_decimal(const char *s, uid_parse_result want, uint64_t want_value)
{
	uint64_t	v = 0;
	uid_parse_result r = uid_decimal_parse(s, strlen(s), &v);
	char		what[128];

	snprintf(what, sizeof(what), "decimal \"%s\" -> %d", s, (int) want);
	check(r == want && (r != UID_PARSE_OK || v == want_value), what);
}

int
main(void)
{
	char		buf[UID_TEXT_MAX + 1];
	uint8_t		bytes[8];
	uint64_t	x = 88172645463325252ULL;
	int			roundtrip_ok = 1;

	check_decimal("0", UID_PARSE_OK, 0);
	check_decimal("18446744073709551615", UID_PARSE_OK, UINT64_MAX);
	check_decimal("18446744073709551616", UID_PARSE_RANGE, 0);
	check_decimal("99999999999999999999", UID_PARSE_RANGE, 0);
	check_decimal("", UID_PARSE_SYNTAX, 0);
	check_decimal("01", UID_PARSE_SYNTAX, 0);
	check_decimal("-1", UID_PARSE_SYNTAX, 0);
	check_decimal("1 ", UID_PARSE_SYNTAX, 0);
	check_decimal("12x", UID_PARSE_SYNTAX, 0);

	uid_decimal_format(0, buf);
	check(strcmp(buf, "0") == 0, "format 0");
	uid_decimal_format(UINT64_MAX, buf);
	check(strcmp(buf, "18446744073709551615") == 0, "format 2^64-1");

	/* a million xorshift values round trip through decimal */
	for (int i = 0; i < 1000000; i++)
	{
		uint64_t	back = 0;
		size_t		n;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = uid_decimal_format(x, buf);
		if (uid_decimal_parse(buf, n, &back) != UID_PARSE_OK || back != x)
			roundtrip_ok = 0;
	}
	check(roundtrip_ok, "1,000,000 decimal round trips");

	check(uid_hex_parse("0123456789ABCDEF", 16, bytes, 8) == UID_PARSE_OK &&
		  bytes[0] == 0x01 && bytes[7] == 0xef, "hex accepts uppercase");
	uid_hex_format(bytes, 8, buf);
	check(strcmp(buf, "0123456789abcdef") == 0, "hex output is lowercase");
	check(uid_hex_parse("0123456789abcde", 15, bytes, 8) == UID_PARSE_SYNTAX, "hex rejects 15 digits");
	check(uid_hex_parse("0123456789abcdeg", 16, bytes, 8) == UID_PARSE_SYNTAX, "hex rejects g");

	/* shortid display form: the documented example and both ends */
	check(uid_shortid_format(11093174944930914ULL, buf) == 9 && strcmp(buf, "xinaS8QBh") == 0,
		  "shortid 11093174944930914 displays as xinaS8QBh");
	uid_shortid_format(262144, buf);
	check(strcmp(buf, "AABA") == 0, "shortid 2^18 displays as AABA");
	uid_shortid_format(0, buf);
	check(strcmp(buf, "AAAA") == 0, "shortid 0 is padded to 4 digits");
	uid_shortid_format((1ULL << 60) - 1, buf);
	check(strcmp(buf, "__________") == 0, "shortid 2^60-1 is 10 underscores");
	{
		uint64_t	v = 0;

		check(uid_shortid_parse("xinaS8QBh", 9, &v) == UID_PARSE_OK && v == 11093174944930914ULL,
			  "shortid parses its display form");
		check(uid_shortid_parse("AAABA", 5, &v) == UID_PARSE_SYNTAX, "shortid rejects a leading zero digit");
		check(uid_shortid_parse("AAB", 3, &v) == UID_PARSE_SYNTAX, "shortid rejects 3 characters");
		check(uid_shortid_parse("AAB^", 4, &v) == UID_PARSE_SYNTAX, "shortid rejects ^");
		check(uid_shortid_parse("___________", 11, &v) == UID_PARSE_RANGE, "shortid rejects 11 digits as out of range");
		roundtrip_ok = 1;
		x = 99;
		for (int i = 0; i < 1000000; i++)
		{
			size_t		n;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			n = uid_shortid_format(x >> 4, buf);
			if (uid_shortid_parse(buf, n, &v) != UID_PARSE_OK || v != x >> 4)
				roundtrip_ok = 0;
		}
		check(roundtrip_ok, "1,000,000 shortid round trips");
	}

	/* base 32 over bytes and KSUID's base 62: the specs' examples, edges, round trips */
	{
		uint8_t		b[UID_KSUID_BYTES],
					back[UID_KSUID_BYTES];
		char		out[UID_KSUID_CHARS + 1];
		static const uint8_t ulid_example[16] = {0x01, 0x56, 0x3e, 0x3a, 0xb5, 0xd3, 0xd6, 0x76,
		0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b};
		static const uint8_t xid_example[12] = {0x4d, 0x88, 0xe1, 0x5b, 0x60, 0xf4, 0x86, 0xe4,
		0x28, 0x41, 0x2d, 0xc9};

		check(uid_base32_parse("01ARZ3NDEKTSV4RRFFQ69G5FAV", 26, uid_crockford_upper, 1, b, 16, 2) == UID_PARSE_OK &&
			  memcmp(b, ulid_example, 16) == 0, "ulid: the spec's example");
		check(uid_base32_parse("01arz3ndektsv4rrffq69g5fav", 26, uid_crockford_upper, 1, b, 16, 2) == UID_PARSE_OK &&
			  memcmp(b, ulid_example, 16) == 0, "ulid: lowercase reads the same");
		uid_base32_format(ulid_example, 16, uid_crockford_upper, 2, out);
		check(strcmp(out, "01ARZ3NDEKTSV4RRFFQ69G5FAV") == 0, "ulid: writes the spec's example");
		check(uid_base32_parse("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", 26, uid_crockford_upper, 1, b, 16, 2) == UID_PARSE_OK,
			  "ulid: 7ZZ...Z is the largest");
		check(uid_base32_parse("80000000000000000000000000", 26, uid_crockford_upper, 1, b, 16, 2) == UID_PARSE_RANGE,
			  "ulid: 800...0 is past 128 bits");
		check(uid_base32_parse("01ARZ3NDEKTSV4RRFFQ69G5FAU", 26, uid_crockford_upper, 1, b, 16, 2) == UID_PARSE_SYNTAX,
			  "ulid: U is not a digit");
		check(uid_base32_parse("01ARZ3NDEKTSV4RRFFQ69G5FA", 25, uid_crockford_upper, 1, b, 16, 2) == UID_PARSE_SYNTAX,
			  "ulid: 25 characters");
		check(uid_base32_parse("9m4e2mr0ui3e8a215n4g", 20, uid_base32hex_lower, 0, b, 12, 0) == UID_PARSE_OK &&
			  memcmp(b, xid_example, 12) == 0, "xid: rs/xid's example");
		uid_base32_format(xid_example, 12, uid_base32hex_lower, 0, out);
		check(strcmp(out, "9m4e2mr0ui3e8a215n4g") == 0, "xid: writes rs/xid's example");
		check(uid_base32_parse("9m4e2mr0ui3e8a215n4h", 20, uid_base32hex_lower, 0, b, 12, 0) == UID_PARSE_SYNTAX,
			  "xid: nonzero trailing bits");
		check(uid_base32_parse("9M4E2MR0UI3E8A215N4G", 20, uid_base32hex_lower, 0, b, 12, 0) == UID_PARSE_SYNTAX,
			  "xid: uppercase is not xid's");
		check(uid_ksuid_parse("0ujtsYcgvSTl8PAuAdqWYSMnLOv", 27, b) == UID_PARSE_OK &&
			  b[0] == 0x06 && b[1] == 0x69 && b[19] == 0x35, "ksuid: the README's example");
		check(uid_ksuid_parse("aWgEPTl1tmebfsQzFP4bxwgy80V", 27, b) == UID_PARSE_OK && b[0] == 0xff && b[19] == 0xff,
			  "ksuid: the largest");
		check(uid_ksuid_parse("aWgEPTl1tmebfsQzFP4bxwgy80W", 27, b) == UID_PARSE_RANGE, "ksuid: past 2^160");
		check(uid_ksuid_parse("0ujtsYcgvSTl8PAuAdqWYSMnLO", 26, b) == UID_PARSE_SYNTAX, "ksuid: 26 digits");
		memset(b, 0, sizeof(b));
		uid_ksuid_format(b, out);
		check(strcmp(out, "000000000000000000000000000") == 0, "ksuid: zero is 27 zeros");

		roundtrip_ok = 1;
		for (int i = 0; i < 200000; i++)
		{
			for (int k = 0; k < UID_KSUID_BYTES; k++)
			{
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				b[k] = (uint8_t) x;
			}
			uid_base32_format(b, 16, uid_crockford_upper, 2, out);
			if (uid_base32_parse(out, 26, uid_crockford_upper, 1, back, 16, 2) != UID_PARSE_OK || memcmp(b, back, 16) != 0)
				roundtrip_ok = 0;
			uid_base32_format(b, 12, uid_base32hex_lower, 0, out);
			if (uid_base32_parse(out, 20, uid_base32hex_lower, 0, back, 12, 0) != UID_PARSE_OK || memcmp(b, back, 12) != 0)
				roundtrip_ok = 0;
			uid_ksuid_format(b, out);
			if (uid_ksuid_parse(out, 27, back) != UID_PARSE_OK || memcmp(b, back, UID_KSUID_BYTES) != 0)
				roundtrip_ok = 0;
		}
		check(roundtrip_ok, "200,000 ulid, xid and ksuid round trips");
	}

	printf("1..%d\n", ntest);
	return nfail != 0;
}
