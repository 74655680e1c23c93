/*
 * codec_test.c - unit tests of the pure codecs in src/codec.c, outside the
 * server; prints TAP.  Built by the Makefile, run by t/001_units.pl.
 */
#include <stdio.h>
#include <string.h>

#include "codec.h"

static int	ntest = 0;
static int	nfail = 0;

/* Records one TAP result. */
static void
check(int ok, const char *what)
{
	ntest++;
	if (!ok)
		nfail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", ntest, what);
}

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

	printf("1..%d\n", ntest);
	return nfail != 0;
}
