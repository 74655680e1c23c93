/*
 * basen.c - base-N short codes: alphabets, encode/decode of 64-bit values and
 * shortlex arithmetic on codes of any length (no PostgreSQL headers).
 */
#include <string.h>

#include "basen.h"

/* One named alphabet. */
typedef struct uid_named_alphabet
{
	const char *name;
	const char *symbols;
	int			flags;
} uid_named_alphabet;

static const uid_named_alphabet uid_named_alphabets[] = {
	{"base32", "0123456789ABCDEFGHJKMNPQRSTVWXYZ", UID_BASEN_CROCKFORD},
	{"base36", "0123456789abcdefghijklmnopqrstuvwxyz", 0},
	{"base58", "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 0},
	{"base62", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 0},
	{"base64url", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 0}
};

/* Builds symbols and the exact reverse table; reports the first repeated byte. */
static uid_basen_status
uid_fill_alphabet(uid_alphabet *a, const unsigned char *sym, size_t len, int flags,
				  size_t *errpos)
{
	memset(a, 0, sizeof(*a));
	for (int c = 0; c < 256; c++)
		a->digit[c] = -1;
	for (size_t i = 0; i < len; i++)
	{
		if (a->digit[sym[i]] >= 0)
		{
			if (errpos)
				*errpos = i;
			return UID_BASEN_ALPHABET_DUPLICATE;
		}
		a->digit[sym[i]] = (int16_t) i;
		a->symbols[i] = sym[i];
	}
	a->base = (int) len;
	a->flags = flags;
	return UID_BASEN_OK;
}

/* Adds Crockford's lowercase letters and the O/I/L aliases to the reverse table. */
static void
uid_add_crockford_aliases(uid_alphabet *a)
{
	for (int c = 'A'; c <= 'Z'; c++)
	{
		if (a->digit[c] >= 0)
			a->digit[c - 'A' + 'a'] = a->digit[c];
	}
	a->digit['O'] = a->digit['o'] = 0;
	a->digit['I'] = a->digit['i'] = 1;
	a->digit['L'] = a->digit['l'] = 1;
}

/* Fills *a from a named or literal alphabet; see basen.h. */
uid_basen_status
uid_basen_alphabet_init(uid_alphabet *a, const char *spec, size_t len, size_t *errpos)
{
	size_t		nnamed = sizeof(uid_named_alphabets) / sizeof(uid_named_alphabets[0]);
	uid_basen_status st;

	for (size_t k = 0; k < nnamed; k++)
	{
		const uid_named_alphabet *na = &uid_named_alphabets[k];

		if (strlen(na->name) == len && memcmp(na->name, spec, len) == 0)
		{
			st = uid_fill_alphabet(a, (const unsigned char *) na->symbols,
								   strlen(na->symbols), na->flags, errpos);
			if (st == UID_BASEN_OK && (na->flags & UID_BASEN_CROCKFORD))
				uid_add_crockford_aliases(a);
			return st;
		}
	}
	if (len < 2)
		return UID_BASEN_ALPHABET_SHORT;
	if (len > 256)
		return UID_BASEN_ALPHABET_LONG;
	return uid_fill_alphabet(a, (const unsigned char *) spec, len, 0, errpos);
}

/* Writes value most significant digit first; see basen.h. */
size_t
uid_basen_encode(uint64_t value, const uid_alphabet *a, char *buf)
{
	unsigned char tmp[UID_BASEN_ENCODE_MAX];
	uint64_t	b = (uint64_t) a->base;
	size_t		n = 0;

	do
	{
		tmp[n++] = a->symbols[value % b];
		value /= b;
	} while (value != 0);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char) tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

/*
 * Shared loop of decode and rank: accumulates value * base + digit + bias
 * over s, with overflow noted but scanning on so a bad byte wins.
 */
static uid_basen_status
uid_accumulate(const char *s, size_t len, const uid_alphabet *a, unsigned bias,
			   uint64_t *out, size_t *errpos)
{
	uint64_t	b = (uint64_t) a->base;
	uint64_t	v = 0;
	int			overflow = 0;

	for (size_t i = 0; i < len; i++)
	{
		int			d = a->digit[(unsigned char) s[i]];
		uint64_t	add;

		if (d < 0)
		{
			if (errpos)
				*errpos = i;
			return UID_BASEN_BAD_CHAR;
		}
		add = (uint64_t) d + bias;
		if (v > (UINT64_MAX - add) / b)
			overflow = 1;
		v = v * b + add;
	}
	if (overflow)
		return UID_BASEN_OVERFLOW;
	*out = v;
	return UID_BASEN_OK;
}

/* Reads a code as an unsigned 64-bit value; see basen.h. */
uid_basen_status
uid_basen_decode(const char *s, size_t len, const uid_alphabet *a, uint64_t *out,
				 size_t *errpos)
{
	if (len == 0)
		return UID_BASEN_EMPTY;
	return uid_accumulate(s, len, a, 0, out, errpos);
}

/* Shortlex rank of a code: its value in bijective base-N; see basen.h. */
uid_basen_status
uid_basen_rank(const char *s, size_t len, const uid_alphabet *a, uint64_t *out,
			   size_t *errpos)
{
	return uid_accumulate(s, len, a, 1, out, errpos);
}

/*
 * Moves n places in shortlex order; see basen.h.  Works in out as scratch:
 * the code's rank is built there in ordinary base-N digits, least significant
 * first, |n| is added or subtracted, and the result is rewritten in bijective
 * base-N (digit values 1..N, stored as symbol indexes 0..N-1), reversed and
 * mapped to symbols.
 */
uid_basen_status
uid_basen_lexical_add(const char *code, size_t len, const uid_alphabet *a, int64_t n,
					  char *out, size_t outcap, size_t *outlen, size_t *errpos)
{
	unsigned char *s = (unsigned char *) out;
	unsigned	b = (unsigned) a->base;
	uint64_t	mag;
	size_t		nd;
	size_t		hi;
	unsigned	c = 0;

	if (len > SIZE_MAX - 66 || outcap < UID_BASEN_ADD_BUFSIZE(len))
		return UID_BASEN_BUFFER;
	for (size_t i = 0; i < len; i++)
	{
		if (a->digit[(unsigned char) code[i]] < 0)
		{
			if (errpos)
				*errpos = i;
			return UID_BASEN_BAD_CHAR;
		}
	}

	/* rank = sum of (digit + 1) * N^position: carry the "+1"s through */
	for (size_t j = 0; j < len; j++)
	{
		unsigned	t = (unsigned) a->digit[(unsigned char) code[len - 1 - j]] + 1 + c;

		c = t >= b;
		s[j] = (unsigned char) (c ? t - b : t);
	}
	s[len] = (unsigned char) c;
	nd = len + 1;

	/* |n| without overflow, INT64_MIN included */
	mag = n >= 0 ? (uint64_t) n : (uint64_t) (-(n + 1)) + 1;
	if (n >= 0)
	{
		uint64_t	carry = mag;

		for (size_t j = 0; carry != 0; j++)
		{
			uint64_t	t;

			if (j == nd)
			{
				if (nd + 1 >= outcap)
					return UID_BASEN_BUFFER;	/* cannot happen, see basen.h */
				s[nd++] = 0;
			}
			t = s[j] + carry;
			s[j] = (unsigned char) (t % b);
			carry = t / b;
		}
	}
	else
	{
		uint64_t	borrow = mag;

		for (size_t j = 0; borrow != 0; j++)
		{
			uint64_t	q = borrow / b;
			unsigned	r = (unsigned) (borrow % b);

			if (j == nd)
				return UID_BASEN_BELOW_FIRST;
			if (s[j] >= r)
			{
				s[j] = (unsigned char) (s[j] - r);
				borrow = q;
			}
			else
			{
				s[j] = (unsigned char) (s[j] + b - r);
				borrow = q + 1;
			}
		}
	}

	/* ordinary digits -> bijective digits: a 0 becomes N, borrowing 1 above */
	hi = nd;
	while (hi > 0 && s[hi - 1] == 0)
		hi--;
	for (size_t i = 0; i < hi; i++)
	{
		if (s[i] == 0)
		{
			size_t		k = i + 1;	/* s[hi - 1] != 0, so k stays below hi */

			while (s[k] == 0)
				s[k++] = (unsigned char) (b - 1);
			s[k]--;
			s[i] = (unsigned char) (b - 1);
			while (hi > i + 1 && s[hi - 1] == 0)
				hi--;
		}
		else
			s[i]--;
	}

	/* most significant first, as symbols */
	for (size_t i = 0; i < hi / 2; i++)
	{
		unsigned char t = s[i];

		s[i] = s[hi - 1 - i];
		s[hi - 1 - i] = t;
	}
	for (size_t i = 0; i < hi; i++)
		s[i] = a->symbols[s[i]];
	s[hi] = '\0';
	*outlen = hi;
	return UID_BASEN_OK;
}
