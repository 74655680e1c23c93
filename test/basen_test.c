/*
 * basen_test.c - unit tests of the base-N short codes in src/basen.c, outside
 * the server; prints TAP.  Built by the Makefile, run by t/001_units.pl.  Results are
 * checked against reference implementations here that use 128-bit integers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basen.h"
#define UNIT_XS_SEED 88172645463325252ULL
#include "unit.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

static const char *const named[] = {"base32", "base36", "base58", "base62", "base64url"};
static const int named_base[] = {32, 36, 58, 62, 64};

/* Expected encodings of 2^64-1 and of 2^64, computed independently. */
static const char *const named_max[] = {
	"FZZZZZZZZZZZZ", "3w5e11264sgsf", "jpXCZedGfVQ", "LygHa16AHYF", "P__________"
};
static const char *const named_over[] = {
	"G000000000000", "3w5e11264sgsg", "jpXCZedGfVR", "LygHa16AHYG", "QAAAAAAAAAA"
};

/* Builds a named or literal alphabet that must be valid; exits otherwise. */
static void
make_alphabet(uid_alphabet *a, const char *spec, size_t len)
{
	if (uid_basen_alphabet_init(a, spec, len, NULL) != UID_BASEN_OK)
	{
		printf("Bail out! alphabet %s did not build\n", spec);
		exit(1);
	}
}

/* Reference shortlex rank: bijective base-N value of a valid code. */
static u128
ref_rank(const char *s, size_t len, const uid_alphabet *a)
{
	u128		r = 0;

	for (size_t i = 0; i < len; i++)
		r = r * (u128) a->base + (u128) a->digit[(unsigned char) s[i]] + 1;
	return r;
}

/* Reference inverse of ref_rank: writes the code of rank r, returns its length. */
static size_t
ref_unrank(u128 r, const uid_alphabet *a, char *buf)
{
	char		tmp[256];
	size_t		n = 0;

	while (r > 0)
	{
		unsigned	e = (unsigned) ((r - 1) % (u128) a->base) + 1;

		tmp[n++] = (char) a->symbols[e - 1];
		r = (r - e) / (u128) a->base;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

/* Reference positional value of a valid code. */
static u128
ref_value(const char *s, size_t len, const uid_alphabet *a)
{
	u128		r = 0;

	for (size_t i = 0; i < len; i++)
		r = r * (u128) a->base + (u128) a->digit[(unsigned char) s[i]];
	return r;
}

/* Positional successor (value + 1) of a code in place; returns its new length. */
static size_t
numeric_succ(char *s, size_t len, const uid_alphabet *a)
{
	for (size_t i = len; i-- > 0;)
	{
		int			d = a->digit[(unsigned char) s[i]];

		if (d + 1 < a->base)
		{
			s[i] = (char) a->symbols[d + 1];
			return len;
		}
		s[i] = (char) a->symbols[0];
	}
	memmove(s + 1, s, len);
	s[0] = (char) a->symbols[1];
	return len + 1;
}

/* lexical_add on a NUL-terminated code, expecting success and the given result. */
static void
check_add(const uid_alphabet *a, const char *aname, const char *code, int64_t n,
		  const char *want)
{
	char		out[UID_BASEN_ADD_BUFSIZE(256)];
	size_t		outlen = 0;
	uid_basen_status st;
	char		what[512];

	st = uid_basen_lexical_add(code, strlen(code), a, n, out, sizeof(out), &outlen, NULL);
	snprintf(what, sizeof(what), "%s lexical_add(\"%s\", %lld) = \"%s\"",
			 aname, code, (long long) n, want);
	check(st == UID_BASEN_OK && outlen == strlen(want) && memcmp(out, want, outlen) == 0 &&
		  out[outlen] == '\0', what);
}

/* lexical_add on a NUL-terminated code, expecting the given error. */
static void
check_add_err(const uid_alphabet *a, const char *aname, const char *code, int64_t n,
			  uid_basen_status want, size_t want_pos)
{
	char		out[UID_BASEN_ADD_BUFSIZE(256)];
	size_t		outlen = 0;
	size_t		pos = (size_t) -1;
	uid_basen_status st;
	char		what[512];

	st = uid_basen_lexical_add(code, strlen(code), a, n, out, sizeof(out), &outlen, &pos);
	snprintf(what, sizeof(what), "%s lexical_add(\"%s\", %lld) fails with %d",
			 aname, code, (long long) n, (int) want);
	check(st == want && (want != UID_BASEN_BAD_CHAR || pos == want_pos), what);
}

/* Decodes a NUL-terminated code, expecting the given status, value or position. */
static void
check_decode(const uid_alphabet *a, const char *aname, const char *code,
			 uid_basen_status want, uint64_t want_value, size_t want_pos)
{
	uint64_t	v = 0;
	size_t		pos = (size_t) -1;
	uid_basen_status st = uid_basen_decode(code, strlen(code), a, &v, &pos);
	char		what[512];

	snprintf(what, sizeof(what), "%s decode \"%s\" -> %d", aname, code, (int) want);
	check(st == want && (st != UID_BASEN_OK || v == want_value) &&
		  (st != UID_BASEN_BAD_CHAR || pos == want_pos), what);
}

/* Checks an alphabet spec fails to build with the given status and position. */
static void
check_alphabet_err(const char *spec, size_t len, uid_basen_status want, size_t want_pos,
				   const char *what)
{
	uid_alphabet a;
	size_t		pos = (size_t) -1;
	uid_basen_status st = uid_basen_alphabet_init(&a, spec, len, &pos);

	check(st == want && (want != UID_BASEN_ALPHABET_DUPLICATE || pos == want_pos), what);
}

/* Random code of length len over a. */
static void
random_code(const uid_alphabet *a, char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char) a->symbols[xs() % (uint64_t) a->base];
	buf[len] = '\0';
}

/* Random signed n spread over all magnitudes, INT64_MIN and INT64_MAX included. */
static int64_t
random_n(void)
{
	uint64_t	r = xs();
	int			bits = (int) (xs() % 65);
	uint64_t	m = bits == 64 ? r : r & ((UINT64_C(1) << bits) - 1);

	return (int64_t) m;			/* wraps, so negative values appear too */
}

/* Compares lexical_add with the reference for random codes and n over one alphabet. */
static void
check_add_random(const uid_alphabet *a, const char *aname, size_t maxlen, int rounds)
{
	char		code[64];
	char		out[UID_BASEN_ADD_BUFSIZE(64)];
	char		want[256];
	int			ok = 1;
	char		what[256];

	for (int i = 0; i < rounds && ok; i++)
	{
		size_t		len = (size_t) (xs() % (maxlen + 1));
		int64_t		n = random_n();
		size_t		outlen = 0;
		uid_basen_status st;
		s128		r;

		random_code(a, code, len);
		r = (s128) ref_rank(code, len, a) + n;
		st = uid_basen_lexical_add(code, len, a, n, out, sizeof(out), &outlen, NULL);
		if (r < 0)
			ok = st == UID_BASEN_BELOW_FIRST;
		else
		{
			size_t		wl = ref_unrank((u128) r, a, want);

			ok = st == UID_BASEN_OK && outlen == wl && memcmp(out, want, wl) == 0 &&
				outlen <= (len + 2 > 64 ? len + 2 : 64);
		}
		if (!ok)
			printf("# failed: code \"%s\" n %lld\n", code, (long long) n);
	}
	snprintf(what, sizeof(what), "%s lexical_add matches the 128-bit reference on %d random cases",
			 aname, rounds);
	check(ok, what);
}

/* Encode/decode checks for one named alphabet. */
static void
test_named(int k)
{
	uid_alphabet a;
	char		buf[UID_BASEN_ENCODE_MAX + 2];
	char		what[256];
	size_t		n;
	size_t		pos;
	uint64_t	v = 0;
	int			ok = 1;
	const char *name = named[k];

	check(uid_basen_alphabet_init(&a, name, strlen(name), NULL) == UID_BASEN_OK &&
		  a.base == named_base[k] &&
		  ((a.flags & UID_BASEN_CROCKFORD) != 0) == (k == 0),
		  name);

	n = uid_basen_encode(0, &a, buf);
	snprintf(what, sizeof(what), "%s encodes 0 as its first symbol and back", name);
	check(n == 1 && buf[0] == (char) a.symbols[0] && buf[1] == '\0' &&
		  uid_basen_decode(buf, n, &a, &v, NULL) == UID_BASEN_OK && v == 0, what);

	n = uid_basen_encode(1, &a, buf);
	snprintf(what, sizeof(what), "%s encodes 1 as its second symbol and back", name);
	check(n == 1 && buf[0] == (char) a.symbols[1] &&
		  uid_basen_decode(buf, n, &a, &v, NULL) == UID_BASEN_OK && v == 1, what);

	n = uid_basen_encode(UINT64_MAX, &a, buf);
	snprintf(what, sizeof(what), "%s encodes 2^64-1 as %s and back", name, named_max[k]);
	check(strcmp(buf, named_max[k]) == 0 && n == strlen(buf) &&
		  ref_value(buf, n, &a) == (u128) UINT64_MAX &&
		  uid_basen_decode(buf, n, &a, &v, NULL) == UID_BASEN_OK && v == UINT64_MAX, what);

	n = numeric_succ(buf, n, &a);
	snprintf(what, sizeof(what), "%s: %s is 2^64 and overflows", name, named_over[k]);
	check(n == strlen(named_over[k]) && memcmp(buf, named_over[k], n) == 0 &&
		  ref_value(buf, n, &a) == (u128) UINT64_MAX + 1 &&
		  uid_basen_decode(buf, n, &a, &v, NULL) == UID_BASEN_OVERFLOW, what);

	/* a longer run of the last symbol overflows too, and a bad byte still wins */
	memset(buf, a.symbols[a.base - 1], 40);
	buf[40] = '\0';
	pos = 0;
	snprintf(what, sizeof(what), "%s: 40 top symbols overflow, a bad byte after them wins", name);
	check(uid_basen_decode(buf, 40, &a, &v, NULL) == UID_BASEN_OVERFLOW &&
		  uid_basen_decode(buf, 41, &a, &v, &pos) == UID_BASEN_BAD_CHAR && pos == 40, what);

	for (int i = 0; i < 100000; i++)
	{
		uint64_t	x = xs() >> (xs() % 64);
		uint64_t	back = 0;

		n = uid_basen_encode(x, &a, buf);
		if (uid_basen_decode(buf, n, &a, &back, NULL) != UID_BASEN_OK || back != x ||
			ref_value(buf, n, &a) != (u128) x || n != strlen(buf) ||
			(x != 0 && buf[0] == (char) a.symbols[0]))
			ok = 0;
	}
	snprintf(what, sizeof(what), "%s: 100,000 random round trips, no leading zero digit", name);
	check(ok, what);

	snprintf(what, sizeof(what), "%s: empty string does not decode", name);
	check(uid_basen_decode("", 0, &a, &v, NULL) == UID_BASEN_EMPTY, what);
}

int
main(void)
{
	uid_alphabet b32,
				b36,
				b58,
				b62,
				b64,
				bin,
				all;
	unsigned char bytes[257];
	char		buf[UID_BASEN_ADD_BUFSIZE(200)];
	char		code[200];
	char		out[UID_BASEN_ADD_BUFSIZE(200)];
	char		out2[UID_BASEN_ADD_BUFSIZE(200)];
	size_t		n;
	size_t		outlen;
	size_t		outlen2;
	size_t		pos;
	uint64_t	v;
	uint64_t	v2;
	int			ok;

	for (int k = 0; k < 5; k++)
		test_named(k);

	make_alphabet(&b32, "base32", 6);
	make_alphabet(&b36, "base36", 6);
	make_alphabet(&b58, "base58", 6);
	make_alphabet(&b62, "base62", 6);
	make_alphabet(&b64, "base64url", 9);
	make_alphabet(&bin, "01", 2);
	for (int i = 0; i < 257; i++)
		bytes[i] = (unsigned char) i;
	make_alphabet(&all, (const char *) bytes, 256);

	/* Crockford decoding */
	check(uid_basen_decode("abcdeg", 6, &b32, &v, NULL) == UID_BASEN_OK &&
		  uid_basen_decode("ABCDEG", 6, &b32, &v2, NULL) == UID_BASEN_OK && v == v2 &&
		  uid_basen_decode("fjkmnpqrstvwx", 13, &b32, &v, NULL) == UID_BASEN_OK &&
		  uid_basen_decode("FJKMNPQRSTVWX", 13, &b32, &v2, NULL) == UID_BASEN_OK && v == v2 &&
		  uid_basen_decode("fjKmNpqrsTvwyz", 14, &b32, &v, NULL) == UID_BASEN_OVERFLOW,
		  "base32 decodes lowercase like uppercase");
	check_decode(&b32, "base32", "O", UID_BASEN_OK, 0, 0);
	check_decode(&b32, "base32", "o", UID_BASEN_OK, 0, 0);
	check_decode(&b32, "base32", "IiLl1", UID_BASEN_OK, 0x108421ULL, 0);
	check_decode(&b32, "base32", "1O", UID_BASEN_OK, 32, 0);
	check_decode(&b32, "base32", "U", UID_BASEN_BAD_CHAR, 0, 0);
	check_decode(&b32, "base32", "12u", UID_BASEN_BAD_CHAR, 0, 2);
	check_decode(&b32, "base32", "AB-CD", UID_BASEN_BAD_CHAR, 0, 2);
	check_decode(&b32, "base32", "zz", UID_BASEN_OK, 1023, 0);
	n = uid_basen_encode(1023, &b32, buf);
	check(n == 2 && strcmp(buf, "ZZ") == 0, "base32 encodes in canonical uppercase");

	/* exact alphabets */
	check_decode(&b36, "base36", "Z", UID_BASEN_BAD_CHAR, 0, 0);
	check_decode(&b36, "base36", "zz", UID_BASEN_OK, 1295, 0);
	check_decode(&b36, "base36", "O", UID_BASEN_BAD_CHAR, 0, 0);
	check_decode(&b62, "base62", "a", UID_BASEN_OK, 36, 0);
	check_decode(&b62, "base62", "A", UID_BASEN_OK, 10, 0);
	check_decode(&b62, "base62", "000z", UID_BASEN_OK, 61, 0);
	check_decode(&b62, "base62", "ab!c", UID_BASEN_BAD_CHAR, 0, 2);
	check_decode(&b62, "base62", " 1", UID_BASEN_BAD_CHAR, 0, 0);
	check_decode(&b58, "base58", "1", UID_BASEN_OK, 0, 0);
	check_decode(&b58, "base58", "21", UID_BASEN_OK, 58, 0);
	check_decode(&b58, "base58", "0", UID_BASEN_BAD_CHAR, 0, 0);
	check_decode(&b58, "base58", "1l", UID_BASEN_BAD_CHAR, 0, 1);
	check_decode(&b64, "base64url", "A", UID_BASEN_OK, 0, 0);
	check_decode(&b64, "base64url", "-_", UID_BASEN_OK, 62 * 64 + 63, 0);
	check_decode(&b64, "base64url", "a+", UID_BASEN_BAD_CHAR, 0, 1);

	/* literal alphabets */
	n = uid_basen_encode(5, &bin, buf);
	check(bin.base == 2 && bin.flags == 0 && n == 3 && strcmp(buf, "101") == 0,
		  "binary \"01\" encodes 5 as 101");
	n = uid_basen_encode(UINT64_MAX, &bin, buf);
	memset(code, '1', 64);
	check(n == 64 && memcmp(buf, code, 64) == 0 && buf[64] == '\0' &&
		  uid_basen_decode(buf, n, &bin, &v, NULL) == UID_BASEN_OK && v == UINT64_MAX,
		  "binary encodes 2^64-1 as 64 ones and back");
	memset(code, '1', 65);
	check(uid_basen_decode(code, 65, &bin, &v, NULL) == UID_BASEN_OVERFLOW,
		  "binary: 65 ones overflow");
	code[0] = '1';
	memset(code + 1, '0', 64);
	check(uid_basen_decode(code, 65, &bin, &v, NULL) == UID_BASEN_OVERFLOW,
		  "binary: 2^64 overflows");
	memset(code, '0', 100);
	code[100] = '1';
	check(uid_basen_decode(code, 101, &bin, &v, NULL) == UID_BASEN_OK && v == 1,
		  "binary: 100 leading zeros are accepted");
	check_decode(&bin, "01", "012", UID_BASEN_BAD_CHAR, 0, 2);

	n = uid_basen_encode(0x0102, &all, buf);
	check(all.base == 256 && n == 2 && buf[0] == 1 && buf[1] == 2,
		  "256-byte alphabet encodes 0x0102 as bytes 1, 2");
	n = uid_basen_encode(0, &all, buf);
	check(n == 1 && buf[0] == 0 && uid_basen_decode(buf, 1, &all, &v, NULL) == UID_BASEN_OK &&
		  v == 0, "256-byte alphabet encodes 0 as a NUL byte and back");
	n = uid_basen_encode(UINT64_MAX, &all, buf);
	check(n == 8 && memcmp(buf, "\xff\xff\xff\xff\xff\xff\xff\xff", 8) == 0,
		  "256-byte alphabet encodes 2^64-1 as 8 bytes 0xff");
	check(uid_basen_decode("\x01\0\0\0\0\0\0\0\0", 9, &all, &v, NULL) == UID_BASEN_OVERFLOW,
		  "256-byte alphabet: 2^64 overflows");
	ok = 1;
	for (int i = 0; i < 100000; i++)
	{
		uint64_t	x = xs() >> (xs() % 64);

		n = uid_basen_encode(x, &all, buf);
		if (uid_basen_decode(buf, n, &all, &v, NULL) != UID_BASEN_OK || v != x)
			ok = 0;
	}
	check(ok, "256-byte alphabet: 100,000 random round trips");

	check_alphabet_err("", 0, UID_BASEN_ALPHABET_SHORT, 0, "empty alphabet is too short");
	check_alphabet_err("x", 1, UID_BASEN_ALPHABET_SHORT, 0, "one-byte alphabet is too short");
	check_alphabet_err((const char *) bytes, 257, UID_BASEN_ALPHABET_LONG, 0,
					   "257-byte alphabet is too long");
	check_alphabet_err("abca", 4, UID_BASEN_ALPHABET_DUPLICATE, 3,
					   "duplicate in \"abca\" reported at offset 3");
	check_alphabet_err("aa", 2, UID_BASEN_ALPHABET_DUPLICATE, 1,
					   "duplicate in \"aa\" reported at offset 1");
	check_alphabet_err("0123456789abcdef0", 17, UID_BASEN_ALPHABET_DUPLICATE, 16,
					   "duplicate \"0\" reported at offset 16");
	{
		uid_alphabet lit;

		check(uid_basen_alphabet_init(&lit, "base62x", 7, NULL) == UID_BASEN_OK &&
			  lit.base == 7 &&
			  uid_basen_alphabet_init(&lit, "BASE62", 6, NULL) == UID_BASEN_OK &&
			  lit.base == 6 && lit.flags == 0,
			  "only exact names are named alphabets, others are literal");
		check(uid_basen_alphabet_init(&lit, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 32, NULL) ==
			  UID_BASEN_OK && lit.flags == 0 &&
			  uid_basen_decode("z", 1, &lit, &v, NULL) == UID_BASEN_BAD_CHAR,
			  "Crockford's symbols as a literal alphabet decode exactly");
	}

	/* rank */
	check(uid_basen_rank("", 0, &b36, &v, NULL) == UID_BASEN_OK && v == 0 &&
		  uid_basen_rank("0", 1, &b36, &v, NULL) == UID_BASEN_OK && v == 1 &&
		  uid_basen_rank("z", 1, &b36, &v, NULL) == UID_BASEN_OK && v == 36 &&
		  uid_basen_rank("00", 2, &b36, &v, NULL) == UID_BASEN_OK && v == 37 &&
		  uid_basen_rank("zz", 2, &b36, &v, NULL) == UID_BASEN_OK && v == 36 + 36 * 36 &&
		  uid_basen_rank("000", 3, &b36, &v, NULL) == UID_BASEN_OK && v == 37 + 36 * 36,
		  "base36 ranks: \"\" 0, \"0\" 1, \"z\" 36, \"00\" 37, \"zz\" 1332, \"000\" 1333");
	pos = 0;
	check(uid_basen_rank("a b", 3, &b36, &v, &pos) == UID_BASEN_BAD_CHAR && pos == 1,
		  "rank reports a bad byte's offset");
	memset(code, '1', 64);
	check(uid_basen_rank(code, 63, &bin, &v, NULL) == UID_BASEN_OK &&
		  v == UINT64_MAX - 1 &&
		  uid_basen_rank("0000000000000000000000000000000000000000000000000000000000000000",
						 64, &bin, &v, NULL) == UID_BASEN_OK && v == UINT64_MAX &&
		  uid_basen_rank(code, 64, &bin, &v, NULL) == UID_BASEN_OVERFLOW,
		  "binary rank: 63 ones 2^64-2, 64 zeros 2^64-1, 64 ones overflow");
	ok = 1;
	for (int i = 0; i < 100000; i++)
	{
		const uid_alphabet *a = i % 2 ? &b62 : &b58;
		size_t		len = (size_t) (xs() % 12);
		u128		r;
		uid_basen_status st;

		random_code(a, code, len);
		r = ref_rank(code, len, a);
		st = uid_basen_rank(code, len, a, &v, NULL);
		if (r > (u128) UINT64_MAX ? st != UID_BASEN_OVERFLOW : st != UID_BASEN_OK || v != (uint64_t) r)
			ok = 0;
	}
	check(ok, "rank matches the 128-bit reference on 100,000 random codes");

	/* lexical_add: shortlex steps */
	check_add(&b36, "base36", "zz", 1, "000");
	check_add(&b36, "base36", "000", -1, "zz");
	check_add(&b36, "base36", "", 1, "0");
	check_add(&b36, "base36", "", 0, "");
	check_add(&b36, "base36", "0", -1, "");
	check_add_err(&b36, "base36", "", -1, UID_BASEN_BELOW_FIRST, 0);
	check_add(&b36, "base36", "0", 35, "z");
	check_add(&b36, "base36", "z", 1, "00");
	check_add(&b36, "base36", "00", -1, "z");
	check_add(&b36, "base36", "9", 1, "a");
	check_add(&b36, "base36", "0z", 1, "10");
	check_add(&b36, "base36", "10", -1, "0z");
	check_add(&b36, "base36", "zzz", 1, "0000");
	check_add(&b36, "base36", "0000", -1, "zzz");
	check_add(&b36, "base36", "a", -11, "");
	check_add_err(&b36, "base36", "a", -12, UID_BASEN_BELOW_FIRST, 0);
	check_add(&b36, "base36", "abc", 0, "abc");
	check_add(&b36, "base36", "0", 36 + 36 * 36, "000");
	check_add(&b36, "base36", "000", -(36 + 36 * 36), "0");
	check_add(&b36, "base36", "", INT64_MAX, "0x1nzhi21d7d6");
	check_add(&b36, "base36", "0x1nzhi21d7d6", -INT64_MAX, "");
	check_add_err(&b36, "base36", "0x1nzhi21d7d6", INT64_MIN, UID_BASEN_BELOW_FIRST, 0);
	check_add(&b36, "base36", "0x1nzhi21d7d7", INT64_MIN, "");
	check_add_err(&b36, "base36", "zzzz", INT64_MIN, UID_BASEN_BELOW_FIRST, 0);
	check_add(&bin, "01", "", INT64_MAX,
			  "000000000000000000000000000000000000000000000000000000000000000");
	check_add(&bin, "01", "", 6, "11");
	check_add(&bin, "01", "11", 1, "000");
	check_add(&b32, "base32", "zz", 1, "000");
	check_add(&b32, "base32", "oil", 0, "011");
	check_add(&b32, "base32", "zZ", 0, "ZZ");
	check_add(&b32, "base32", "hjk", 1, "HJM");
	check_add_err(&b32, "base32", "u", 1, UID_BASEN_BAD_CHAR, 0);
	check_add_err(&b62, "base62", "ab-c", 1, UID_BASEN_BAD_CHAR, 2);
	check_add_err(&b36, "base36", "abC", -1, UID_BASEN_BAD_CHAR, 2);
	check_add(&b62, "base62", "Zz", 1, "a0");
	check_add(&b58, "base58", "z", 1, "11");
	check_add(&b64, "base64url", "_", 1, "AA");

	/* lexical_add: n = 10^12 against the reference */
	{
		const uid_alphabet *as[] = {&b32, &b36, &b58, &b62, &b64, &bin, &all};
		const char *codes[] = {"", "z", "ABC", "zzzz", "ABC", "1", "\x7f"};

		ok = 1;
		for (int k = 0; k < 7; k++)
		{
			const char *c = codes[k];
			size_t		wl;

			wl = ref_unrank(ref_rank(c, strlen(c), as[k]) + 1000000000000ULL, as[k], buf);
			if (uid_basen_lexical_add(c, strlen(c), as[k], 1000000000000LL, out, sizeof(out),
									  &outlen, NULL) != UID_BASEN_OK ||
				outlen != wl || memcmp(out, buf, wl) != 0)
				ok = 0;
			if (uid_basen_lexical_add(out, outlen, as[k], -1000000000000LL, out2, sizeof(out2),
									  &outlen2, NULL) != UID_BASEN_OK ||
				outlen2 != strlen(c) || memcmp(out2, c, outlen2) != 0)
				ok = 0;
		}
		check(ok, "lexical_add of +-10^12 matches the reference in every alphabet");
	}

	/* lexical_add: random cases against the reference */
	check_add_random(&b32, "base32", 14, 50000);
	check_add_random(&b36, "base36", 14, 50000);
	check_add_random(&b58, "base58", 12, 50000);
	check_add_random(&b62, "base62", 12, 50000);
	check_add_random(&b64, "base64url", 12, 50000);
	check_add_random(&bin, "01", 62, 50000);
	check_add_random(&all, "256 bytes", 10, 50000);
	{
		uid_alphabet three;

		make_alphabet(&three, "xyz", 3);
		check_add_random(&three, "xyz", 40, 50000);
	}

	/* lexical_add: growth bound, base 2, every length with n = INT64_MAX */
	ok = 1;
	for (size_t len = 0; len <= 120; len++)
	{
		size_t		wl;

		memset(code, '1', len);
		wl = ref_unrank(ref_rank(code, len, &bin) + (u128) INT64_MAX, &bin, buf);
		if (uid_basen_lexical_add(code, len, &bin, INT64_MAX, out,
								  UID_BASEN_ADD_BUFSIZE(len), &outlen, NULL) != UID_BASEN_OK ||
			outlen != wl || memcmp(out, buf, wl) != 0 ||
			outlen > (len + 2 > 64 ? len + 2 : 64))
			ok = 0;
	}
	check(ok, "binary all-ones codes of length 0..120 + INT64_MAX fit the documented buffer");
	check(uid_basen_lexical_add("zz", 2, &b36, 1, out, UID_BASEN_ADD_BUFSIZE(2) - 1, &outlen,
								NULL) == UID_BASEN_BUFFER,
		  "lexical_add refuses a buffer below UID_BASEN_ADD_BUFSIZE");

	/* lexical_add: long codes */
	memset(code, 'z', 40);
	memset(buf, '0', 41);
	buf[41] = '\0';
	code[40] = '\0';
	check_add(&b62, "base62", code, 1, buf);
	check_add(&b62, "base62", buf, -1, code);
	check_add(&b62, "base62", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzy", 1,
			  "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
	check_add(&b62, "base62", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", 1,
			  "0000000000000000000000000000000");
	check_add(&b62, "base62", "000000000000000000000000000000", -1,
			  "zzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
	check_add(&b62, "base62", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", 1,
			  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMO");
	check_add(&b62, "base62", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM0", -1,
			  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLLz");
	check(uid_basen_lexical_add("\xff", 1, &all, 1, out, sizeof(out), &outlen, NULL) ==
		  UID_BASEN_OK && outlen == 2 && out[0] == 0 && out[1] == 0,
		  "256 bytes: 0xff + 1 is two NUL bytes");

	/* long random codes: +n then -n, n1 then n2 versus n1 + n2, k steps of 1 versus k */
	ok = 1;
	for (int i = 0; i < 20000 && ok; i++)
	{
		const uid_alphabet *a = i % 3 == 0 ? &b62 : i % 3 == 1 ? &bin : &b32;
		int64_t		n1 = random_n();
		int64_t		n2 = random_n() >> 2;
		size_t		len = a == &bin ? 70 : 40;	/* rank above 2^63 */
		char		out3[UID_BASEN_ADD_BUFSIZE(200)];
		size_t		outlen3;

		random_code(a, code, len);
		n1 >>= 2;
		if (uid_basen_lexical_add(code, len, a, n1, out, sizeof(out), &outlen, NULL) != UID_BASEN_OK ||
			uid_basen_lexical_add(out, outlen, a, -n1, out2, sizeof(out2), &outlen2, NULL) != UID_BASEN_OK ||
			outlen2 != len || memcmp(out2, code, len) != 0)
			ok = 0;
		if (uid_basen_lexical_add(out, outlen, a, n2, out2, sizeof(out2), &outlen2, NULL) != UID_BASEN_OK ||
			uid_basen_lexical_add(code, len, a, n1 + n2, out3, sizeof(out3), &outlen3, NULL) != UID_BASEN_OK ||
			outlen2 != outlen3 || memcmp(out2, out3, outlen2) != 0)
			ok = 0;
		if (!ok)
			printf("# failed: code \"%s\" n1 %lld n2 %lld\n", code, (long long) n1, (long long) n2);
	}
	check(ok, "40- and 70-char codes: +n -n is the identity and +n1 +n2 equals +(n1+n2), 20,000 cases");

	ok = 1;
	{
		const char *starts[] = {
			"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
			"00000000000000000000000000000000000000000",
			"Azzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
			"B00000000000000000000000000000000000000z"
		};

		for (int s = 0; s < 4; s++)
		{
			size_t		len = strlen(starts[s]);

			memcpy(buf, starts[s], len);
			for (int k = 1; k <= 5000 && ok; k++)
			{
				/* walk by one from the start back 2500 and forward 2500 */
				int64_t		step = k <= 2500 ? -1 : 1;

				if (k == 2501)
				{
					len = strlen(starts[s]);
					memcpy(buf, starts[s], len + 1);
				}
				if (uid_basen_lexical_add(buf, len, &b62, step, out, sizeof(out), &outlen, NULL) !=
					UID_BASEN_OK ||
					uid_basen_lexical_add(starts[s], strlen(starts[s]), &b62,
										  k <= 2500 ? -k : k - 2500, out2, sizeof(out2),
										  &outlen2, NULL) != UID_BASEN_OK ||
					outlen != outlen2 || memcmp(out, out2, outlen) != 0)
					ok = 0;
				memcpy(buf, out, outlen + 1);
				len = outlen;
			}
		}
	}
	check(ok, "long codes: 2,500 single steps each way equal one jump, across length changes");

	printf("1..%d\n", ntest);
	return nfail != 0;
}
