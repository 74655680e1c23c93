/*
 * codec.c - pure text codecs for uniqueid's identifiers (no PostgreSQL headers).
 */
#include "codec.h"

/* Parses canonical unsigned decimal; see codec.h. */
uid_parse_result
uid_decimal_parse(const char *s, size_t len, uint64_t *out)
{
	uint64_t	v = 0;
	int			overflow = 0;

	if (len == 0)
		return UID_PARSE_SYNTAX;
	for (size_t i = 0; i < len; i++)
	{
		unsigned	d = (unsigned char) s[i] - '0';

		if (d > 9)
			return UID_PARSE_SYNTAX;
		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		v = v * 10 + d;
	}
	/* "007" is not what the output produces: one canonical form per value. */
	if (len > 1 && s[0] == '0')
		return UID_PARSE_SYNTAX;
	if (overflow)
		return UID_PARSE_RANGE;
	*out = v;
	return UID_PARSE_OK;
}

/* Writes v in decimal with a terminating NUL; returns the digit count. */
size_t
uid_decimal_format(uint64_t v, char *buf)
{
	char		tmp[20];
	size_t		n = 0;

	do
	{
		tmp[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

/* Value of one hex digit, or -1. */
static int
uid_hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses exactly 2*nbytes hex digits of either case into out. */
uid_parse_result
uid_hex_parse(const char *s, size_t len, uint8_t *out, size_t nbytes)
{
	if (len != 2 * nbytes)
		return UID_PARSE_SYNTAX;
	for (size_t i = 0; i < nbytes; i++)
	{
		int			hi = uid_hexval((unsigned char) s[2 * i]);
		int			lo = uid_hexval((unsigned char) s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return UID_PARSE_SYNTAX;
		out[i] = (uint8_t) (hi << 4 | lo);
	}
	return UID_PARSE_OK;
}

/* Writes nbytes as lowercase hex with a terminating NUL; returns 2*nbytes. */
size_t
uid_hex_format(const uint8_t *in, size_t nbytes, char *buf)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < nbytes; i++)
	{
		buf[2 * i] = digits[in[i] >> 4];
		buf[2 * i + 1] = digits[in[i] & 15];
	}
	buf[2 * nbytes] = '\0';
	return 2 * nbytes;
}
