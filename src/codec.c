/*
 * codec.c - pure text codecs for uniqueid's identifiers (no PostgreSQL headers).
 */
#include "codec.h"

#include <string.h>

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

static const char uid_sno_alphabet[] = "23456789abcdefghijklmnopqrstuvwx";

/* Parses sno's 16-character base32 into 10 bytes; see codec.h. */
uid_parse_result
uid_sno_parse(const char *s, size_t len, uint8_t out[UID_SNO_BYTES])
{
	uint64_t	hi = 0;			/* first 8 characters: 40 bits */
	uint64_t	lo = 0;			/* last 8 characters: 40 bits */

	if (len != UID_SNO_CHARS)
		return UID_PARSE_SYNTAX;
	for (int i = 0; i < UID_SNO_CHARS; i++)
	{
		unsigned char c = (unsigned char) s[i];
		unsigned	d;

		if (c >= '2' && c <= '9')
			d = c - '2';
		else if (c >= 'a' && c <= 'x')
			d = c - 'a' + 8;
		else
			return UID_PARSE_SYNTAX;
		if (i < 8)
			hi = hi << 5 | d;
		else
			lo = lo << 5 | d;
	}
	for (int i = 0; i < 5; i++)
	{
		out[i] = (uint8_t) (hi >> (8 * (4 - i)));
		out[5 + i] = (uint8_t) (lo >> (8 * (4 - i)));
	}
	return UID_PARSE_OK;
}

/* Writes 10 bytes as sno's 16-character base32 with a terminating NUL. */
void
uid_sno_format(const uint8_t in[UID_SNO_BYTES], char buf[UID_SNO_CHARS + 1])
{
	uint64_t	hi = 0;
	uint64_t	lo = 0;

	for (int i = 0; i < 5; i++)
	{
		hi = hi << 8 | in[i];
		lo = lo << 8 | in[5 + i];
	}
	for (int i = 0; i < 8; i++)
	{
		buf[i] = uid_sno_alphabet[(hi >> (5 * (7 - i))) & 31];
		buf[8 + i] = uid_sno_alphabet[(lo >> (5 * (7 - i))) & 31];
	}
	buf[UID_SNO_CHARS] = '\0';
}

static const char uid_b64_alphabet[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* Value of one base64url digit, or -1. */
static int
uid_b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

/* Parses shortid's display form; see codec.h. */
uid_parse_result
uid_shortid_parse(const char *s, size_t len, uint64_t *out)
{
	char		digits[16];
	uint64_t	v = 0;

	if (len < 4 || len > sizeof(digits))
		return UID_PARSE_SYNTAX;
	/* undo the rotation: the first two characters are the last two digits */
	memcpy(digits, s + 2, len - 2);
	memcpy(digits + len - 2, s, 2);
	for (size_t i = 0; i < len; i++)
		if (uid_b64val((unsigned char) digits[i]) < 0)
			return UID_PARSE_SYNTAX;
	if (len > 4 && digits[0] == 'A')
		return UID_PARSE_SYNTAX;	/* a leading zero digit: not canonical */
	if (len > UID_SHORTID_MAX_CHARS)
		return UID_PARSE_RANGE;	/* over 60 bits */
	for (size_t i = 0; i < len; i++)
		v = v << 6 | (uint64_t) uid_b64val((unsigned char) digits[i]);
	if (v >> 60 != 0)
		return UID_PARSE_RANGE;
	*out = v;
	return UID_PARSE_OK;
}

/* Writes v (below 2^60) in shortid's display form with a NUL; returns its length. */
size_t
uid_shortid_format(uint64_t v, char *buf)
{
	char		digits[UID_SHORTID_MAX_CHARS];
	size_t		n = 0;

	while (v != 0 || n < 4)
	{
		digits[UID_SHORTID_MAX_CHARS - 1 - n] = uid_b64_alphabet[v & 63];
		v >>= 6;
		n++;
	}
	/* digits[10 - n .. 9]; the last two go to the front */
	buf[0] = digits[UID_SHORTID_MAX_CHARS - 2];
	buf[1] = digits[UID_SHORTID_MAX_CHARS - 1];
	memcpy(buf + 2, digits + UID_SHORTID_MAX_CHARS - n, n - 2);
	buf[n] = '\0';
	return n;
}

/* ---- base 32 over bytes (ULID, TypeID, xid) ---- */

const char	uid_crockford_upper[33] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const char	uid_crockford_lower[33] = "0123456789abcdefghjkmnpqrstvwxyz";
const char	uid_base32hex_lower[33] = "0123456789abcdefghijklmnopqrstuv";

/* Fills decode[] for alphabet: each byte's digit, or -1; fold_case reads both cases. */
static void
base32_decode_table(const char alphabet[32], int fold_case, int8_t decode[256])
{
	memset(decode, -1, 256);
	for (int d = 0; d < 32; d++)
	{
		unsigned char c = (unsigned char) alphabet[d];

		decode[c] = (int8_t) d;
		if (fold_case && c >= 'a' && c <= 'z')
			decode[c - 'a' + 'A'] = (int8_t) d;
		else if (fold_case && c >= 'A' && c <= 'Z')
			decode[c - 'A' + 'a'] = (int8_t) d;
	}
}

/* The decode table of one of the three alphabets, either case or not, made on first use. */
static const int8_t *
base32_decoder(const char alphabet[32], int fold_case)
{
	static const char *const alphabets[] = {uid_crockford_upper, uid_crockford_lower, uid_base32hex_lower};
	static int8_t tables[3][2][256];
	static int	ready[3][2];

	for (int a = 0; a < 3; a++)
	{
		if (alphabets[a] != alphabet)
			continue;
		fold_case = fold_case != 0;
		if (!ready[a][fold_case])
		{
			base32_decode_table(alphabet, fold_case, tables[a][fold_case]);
			ready[a][fold_case] = 1;
		}
		return tables[a][fold_case];
	}
	return NULL;
}

/* Parses base 32 over bytes; see codec.h. */
uid_parse_result
uid_base32_parse(const char *s, size_t len, const char alphabet[32], int fold_case,
				 uint8_t *out, size_t nbytes, int lead)
{
	const int8_t *decode = base32_decoder(alphabet, fold_case);
	size_t		nchars = UID_BASE32_CHARS(nbytes, lead);
	int			trail = (int) (5 * nchars - 8 * nbytes) - lead;
	uint32_t	acc = 0;		/* bits not yet written out */
	int			nacc = 0;		/* how many */
	size_t		o = 0;
	int			skip = lead;	/* lead bits still to drop */
	int			range = 0;

	if (decode == NULL || len != nchars)
		return UID_PARSE_SYNTAX;
	for (size_t i = 0; i < nchars; i++)
	{
		int			d = decode[(unsigned char) s[i]];

		if (d < 0)
			return UID_PARSE_SYNTAX;
		acc = acc << 5 | (uint32_t) d;
		nacc += 5;
		if (skip > 0)
		{
			/* the lead bits are the top of the first character */
			if (acc >> (nacc - skip) != 0)
				range = 1;
			nacc -= skip;
			acc &= (UINT32_C(1) << nacc) - 1;
			skip = 0;
		}
		if (nacc >= 8 && o < nbytes)
		{
			nacc -= 8;
			out[o++] = (uint8_t) (acc >> nacc);
			acc &= (UINT32_C(1) << nacc) - 1;
		}
	}
	/* what is left is the trailing bits */
	if (nacc != trail || acc != 0)
		return UID_PARSE_SYNTAX;
	return range ? UID_PARSE_RANGE : UID_PARSE_OK;
}

/* Writes base 32 over bytes with a terminating NUL; see codec.h. */
void
uid_base32_format(const uint8_t *in, size_t nbytes, const char alphabet[32], int lead, char *buf)
{
	size_t		nchars = UID_BASE32_CHARS(nbytes, lead);
	uint32_t	acc = 0;
	int			nacc = lead;	/* the lead bits: zeros already in acc */
	size_t		i = 0;

	for (size_t c = 0; c < nchars; c++)
	{
		if (nacc < 5)
		{
			if (i < nbytes)
				acc = acc << 8 | in[i++];
			else
				acc <<= 8;		/* the trailing zero bits */
			nacc += 8;
		}
		nacc -= 5;
		buf[c] = alphabet[(acc >> nacc) & 31];
		acc &= (UINT32_C(1) << nacc) - 1;
	}
	buf[nchars] = '\0';
}

/* ---- KSUID's base 62 ---- */

static const char ksuid_alphabet[63] =
"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* The digit of a base-62 character, or -1. */
static int
ksuid_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 36;
	return -1;
}

/* Parses KSUID's 27 base-62 digits into 20 big-endian bytes; see codec.h. */
uid_parse_result
uid_ksuid_parse(const char *s, size_t len, uint8_t out[UID_KSUID_BYTES])
{
	/* the value as five 32-bit words, most significant first */
	uint32_t	w[5] = {0};

	if (len != UID_KSUID_CHARS)
		return UID_PARSE_SYNTAX;
	for (int i = 0; i < UID_KSUID_CHARS; i++)
	{
		int			d = ksuid_digit((unsigned char) s[i]);
		uint64_t	carry;

		if (d < 0)
			return UID_PARSE_SYNTAX;
		/* w = w * 62 + d */
		carry = (uint64_t) d;
		for (int k = 4; k >= 0; k--)
		{
			uint64_t	v = (uint64_t) w[k] * 62 + carry;

			w[k] = (uint32_t) v;
			carry = v >> 32;
		}
		if (carry != 0)
		{
			/* past 2^160; the rest must still be digits */
			for (int j = i + 1; j < UID_KSUID_CHARS; j++)
				if (ksuid_digit((unsigned char) s[j]) < 0)
					return UID_PARSE_SYNTAX;
			return UID_PARSE_RANGE;
		}
	}
	for (int k = 0; k < 5; k++)
	{
		out[4 * k] = (uint8_t) (w[k] >> 24);
		out[4 * k + 1] = (uint8_t) (w[k] >> 16);
		out[4 * k + 2] = (uint8_t) (w[k] >> 8);
		out[4 * k + 3] = (uint8_t) w[k];
	}
	return UID_PARSE_OK;
}

/* Writes 20 bytes as KSUID's 27 base-62 digits with a terminating NUL. */
void
uid_ksuid_format(const uint8_t in[UID_KSUID_BYTES], char buf[UID_KSUID_CHARS + 1])
{
	uint32_t	w[5];

	for (int k = 0; k < 5; k++)
		w[k] = (uint32_t) in[4 * k] << 24 | (uint32_t) in[4 * k + 1] << 16 |
			(uint32_t) in[4 * k + 2] << 8 | in[4 * k + 3];
	/* the digits, least significant first: w /= 62 each time */
	for (int i = UID_KSUID_CHARS - 1; i >= 0; i--)
	{
		uint64_t	rem = 0;

		for (int k = 0; k < 5; k++)
		{
			uint64_t	v = rem << 32 | w[k];

			w[k] = (uint32_t) (v / 62);
			rem = v % 62;
		}
		buf[i] = ksuid_alphabet[rem];
	}
	buf[UID_KSUID_CHARS] = '\0';
}
