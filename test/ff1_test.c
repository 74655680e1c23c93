/*
 * ff1_test.c - unit tests of FF1 (src/ff1.c) outside the server; prints TAP.
 * Built by the Makefile, run by t/001_units.pl.  The general path must give
 * NIST SP 800-38G's nine FF1 samples (radix 10 and 36, AES-128, -192, -256)
 * and decrypt them back; the radix-2 bit path must give what the general
 * path gives on the same bits, for every length the masks use and others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ff1.h"
#include "maskcode.h"
#define UNIT_XS_SEED 0x9E3779B97F4A7C15ULL
#include "unit.h"

/* hex -> bytes; returns the length */
static size_t
unhex(const char *h, unsigned char *out)
{
	size_t		n = strlen(h) / 2;

	for (size_t i = 0; i < n; i++)
		sscanf(h + 2 * i, "%2hhx", &out[i]);
	return n;
}

/* The samples of NIST's "FF1samples.pdf" (SP 800-38G examples). */
static const struct
{
	const char *key;
	const char *tweak;
	unsigned	radix;
	const char *pt;
	const char *ct;
} samples[] = {
	{"2B7E151628AED2A6ABF7158809CF4F3C", "", 10, "0123456789", "2433477484"},
	{"2B7E151628AED2A6ABF7158809CF4F3C", "39383736353433323130", 10, "0123456789", "6124200773"},
	{"2B7E151628AED2A6ABF7158809CF4F3C", "3737373770717273373737", 36, "0123456789abcdefghi", "a9tv40mll9kdu509eum"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "", 10, "0123456789", "2830668132"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "39383736353433323130", 10, "0123456789", "2496655549"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", "3737373770717273373737", 36, "0123456789abcdefghi", "xbj3kv35jrawxv32ysr"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "", 10, "0123456789", "6657667009"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "39383736353433323130", 10, "0123456789", "1001623463"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", "3737373770717273373737", 36, "0123456789abcdefghi", "xs8a0azh2avyalyzuwd"},
};

static const char digits36[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* One NIST sample: encrypt gives ct, decrypt gives pt back. */
static void
test_sample(int k)
{
	unsigned char key[32],
				tweak[16];
	size_t		keylen = unhex(samples[k].key, key),
				t = unhex(samples[k].tweak, tweak),
				n = strlen(samples[k].pt);
	uint16_t	x[32],
				y[32],
				z[32];
	char		got[33],
				what[128];
	uid_ff1		f;
	int			ok;

	for (size_t i = 0; i < n; i++)
		x[i] = (uint16_t) (strchr(digits36, samples[k].pt[i]) - digits36);
	ok = uid_ff1_init(&f, key, keylen) == UID_FF1_OK &&
		uid_ff1_digits(&f, samples[k].radix, x, n, tweak, t, y, 0) == UID_FF1_OK;
	for (size_t i = 0; i < n; i++)
		got[i] = ok ? digits36[y[i]] : '?';
	got[n] = '\0';
	snprintf(what, sizeof(what), "NIST FF1 sample %d (AES-%zu, radix %u): %s -> %s (got %s)",
			 k + 1, keylen * 8, samples[k].radix, samples[k].pt, samples[k].ct, got);
	check(ok && strcmp(got, samples[k].ct) == 0, what);
	ok = uid_ff1_digits(&f, samples[k].radix, y, n, tweak, t, z, 1) == UID_FF1_OK &&
		memcmp(x, z, n * sizeof(uint16_t)) == 0;
	snprintf(what, sizeof(what), "NIST FF1 sample %d decrypts back to %s", k + 1, samples[k].pt);
	check(ok, what);
	uid_ff1_free(&f);
}

/*
 * The bit path against the general path in radix 2: for nbits, `rounds`
 * random values under a random key and tweak: same output, and decrypts
 * back.  Returns the number of disagreements.
 */
static int
bits_vs_general(size_t nbits, int rounds, size_t keylen, size_t t)
{
	int			bad = 0;

	for (int r = 0; r < rounds; r++)
	{
		unsigned char key[32],
					tweak[UID_FF1_TWEAK_MAX],
					in[32],
					out[32],
					back[32];
		uint16_t	x[256],
					y[256];
		size_t		nb = (nbits + 7) / 8;
		uid_ff1		f;

		for (size_t i = 0; i < keylen; i++)
			key[i] = (unsigned char) xs();
		for (size_t i = 0; i < t; i++)
			tweak[i] = (unsigned char) xs();
		for (size_t i = 0; i < nb; i++)
			in[i] = (unsigned char) xs();
		if (nbits % 8)
			in[0] &= (unsigned char) ((1u << (nbits % 8)) - 1);
		for (size_t i = 0; i < nbits; i++)
		{
			size_t		bit = nbits - 1 - i;	/* most significant first */

			x[i] = (in[nb - 1 - bit / 8] >> (bit % 8)) & 1;
		}
		if (uid_ff1_init(&f, key, keylen) != UID_FF1_OK ||
			uid_ff1_bits(&f, in, nbits, tweak, t, out, 0) != UID_FF1_OK ||
			uid_ff1_digits(&f, 2, x, nbits, tweak, t, y, 0) != UID_FF1_OK ||
			uid_ff1_bits(&f, out, nbits, tweak, t, back, 1) != UID_FF1_OK)
		{
			bad++;
			uid_ff1_free(&f);
			continue;
		}
		for (size_t i = 0; i < nbits; i++)
		{
			size_t		bit = nbits - 1 - i;

			if (((out[nb - 1 - bit / 8] >> (bit % 8)) & 1) != y[i])
			{
				bad++;
				break;
			}
		}
		if (memcmp(in, back, nb) != 0 || (nbits % 8 && out[0] >> (nbits % 8)))
			bad++;
		uid_ff1_free(&f);
	}
	return bad;
}

/* Round trips of random nbits values through the code in alphabet spec; returns failures. */
static int
code_round_trips(const char *spec, size_t speclen, int nbits, int rounds)
{
	uid_alphabet a;
	int			bad = 0;

	if (uid_basen_alphabet_init(&a, spec, speclen, NULL) != UID_BASEN_OK)
		return rounds;
	for (int r = 0; r < rounds; r++)
	{
		unsigned char val[32],
					back[32];
		char		code[UID_MASKCODE_MAX + 1];
		int			nbytes = (nbits + 7) / 8;
		unsigned	check = (unsigned) xs() & 0xff;
		size_t		len;

		for (int i = 0; i < nbytes; i++)
			val[i] = (unsigned char) xs();
		if (r == 0)
			memset(val, 0xff, nbytes);	/* the largest value */
		if (r == 1)
			memset(val, 0, nbytes);
		if (nbits % 8)
			val[0] &= (unsigned char) ((1u << (nbits % 8)) - 1);
		len = uid_maskcode_format(val, nbits, &a, check, code);
		if (len != (size_t) uid_maskcode_width(nbits, a.base) + 1 || code[len] != '\0' ||
			uid_maskcode_parse(code, len, &a, nbits, check, back, NULL) != UID_MASKCODE_OK ||
			memcmp(val, back, nbytes) != 0)
			bad++;
		/* another key's symbol is refused, when the alphabet can tell */
		if (uid_maskcode_parse(code, len, &a, nbits, check + 1, back, NULL) !=
			(a.base > 1 ? UID_MASKCODE_KEY : UID_MASKCODE_OK))
			bad++;
	}
	return bad;
}

int
main(void)
{
	static const size_t lengths[] = {20, 21, 33, 63, 64, 65, 80, 96, 122, 127, 128, 160, 255, 256};
	unsigned char key[32] = {0},
				in[32] = {0},
				out[32];
	uint16_t	x[UID_FF1_MAXLEN + 1] = {0},
				y[UID_FF1_MAXLEN + 1];
	uid_ff1		f;
	char		what[160];

	for (int k = 0; k < (int) (sizeof(samples) / sizeof(samples[0])); k++)
		test_sample(k);

	for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); l++)
		for (size_t keylen = 16; keylen <= 32; keylen += 8)
		{
			size_t		t = (lengths[l] + keylen) % 70;	/* 0 to 69 bytes: one and several blocks of Q */
			int			bad = bits_vs_general(lengths[l], 40, keylen, t);

			snprintf(what, sizeof(what),
					 "radix-2 path = general path and decrypts back: %zu bits, AES-%zu, %zu-byte tweak, 40 values (%d bad)",
					 lengths[l], keylen * 8, t, bad);
			check(bad == 0, what);
		}

	/* refusals */
	check(uid_ff1_init(&f, key, 15) == UID_FF1_KEY_LENGTH, "a 15-byte key is refused");
	check(uid_ff1_init(&f, key, 0) == UID_FF1_KEY_LENGTH, "an empty key is refused");
	check(uid_ff1_init(&f, key, 33) == UID_FF1_KEY_LENGTH, "a 33-byte key is refused");
	check(uid_ff1_init(&f, key, 16) == UID_FF1_OK, "a 16-byte key is taken");
	check(uid_ff1_digits(&f, 10, x, 5, NULL, 0, y, 0) == UID_FF1_DOMAIN, "radix 10 with 5 digits is below the minimum domain");
	check(uid_ff1_digits(&f, 10, x, 6, NULL, 0, y, 0) == UID_FF1_OK, "radix 10 with 6 digits is the minimum domain");
	check(uid_ff1_digits(&f, 1, x, 40, NULL, 0, y, 0) == UID_FF1_DOMAIN, "radix 1 is refused");
	check(uid_ff1_digits(&f, 65537, x, 4, NULL, 0, y, 0) == UID_FF1_DOMAIN, "radix 65537 is refused");
	check(uid_ff1_digits(&f, 65536, x, 2, NULL, 0, y, 0) == UID_FF1_OK, "radix 65536 with 2 digits is taken");
	check(uid_ff1_digits(&f, 2, x, UID_FF1_MAXLEN + 1, NULL, 0, y, 0) == UID_FF1_DOMAIN, "more than UID_FF1_MAXLEN digits is refused");
	check(uid_ff1_digits(&f, 65536, x, UID_FF1_MAXLEN, NULL, 0, y, 0) == UID_FF1_OK, "UID_FF1_MAXLEN digits of radix 65536 are taken");
	x[3] = 10;
	check(uid_ff1_digits(&f, 10, x, 10, NULL, 0, y, 0) == UID_FF1_DIGIT, "a digit equal to the radix is refused");
	x[3] = 0;
	check(uid_ff1_digits(&f, 10, x, 10, key, UID_FF1_TWEAK_MAX + 1, y, 0) == UID_FF1_TWEAK, "a tweak over the maximum is refused");
	check(uid_ff1_bits(&f, in, 19, NULL, 0, out, 0) == UID_FF1_DOMAIN, "19 bits is below the minimum domain");
	check(uid_ff1_bits(&f, in, UID_FF1_MAXBITS + 1, NULL, 0, out, 0) == UID_FF1_DOMAIN, "more than UID_FF1_MAXBITS bits is refused");
	in[0] = 0x04;
	check(uid_ff1_bits(&f, in, 122, NULL, 0, out, 0) == UID_FF1_NONZERO_PAD, "a set bit above nbits is refused");
	in[0] = 0x02;
	check(uid_ff1_bits(&f, in, 122, NULL, 0, out, 0) == UID_FF1_OK, "the top bit of nbits is taken");
	uid_ff1_free(&f);
	check(f.ctx == NULL, "uid_ff1_free clears the context");

	/* the masks' text */
	{
		static const struct
		{
			const char *spec;
			int			nbits;
			int			width;
		}			widths[] = {
			{"base64url", 64, 11}, {"base64url", 63, 11}, {"base64url", 60, 10}, {"base64url", 122, 21},
			{"base64url", 128, 22}, {"base64url", 160, 27}, {"base62", 64, 11}, {"base32", 64, 13},
			{"base36", 80, 16}, {"base58", 96, 17}, {"01", 64, 64}, {"0123456789", 64, 20},
			{"0123456789", 160, 49},
		};
		static const char *const named[] = {"base32", "base36", "base58", "base62", "base64url"};
		static const int nbitss[] = {20, 60, 63, 64, 80, 96, 122, 128, 160, 256};
		char		all[256];
		uid_alphabet a;
		unsigned char val[32] = {0};
		size_t		errpos = 99;

		for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++)
		{
			uid_basen_alphabet_init(&a, widths[k].spec, strlen(widths[k].spec), NULL);
			snprintf(what, sizeof(what), "a %d-bit value is %d digits in %s", widths[k].nbits,
					 widths[k].width, widths[k].spec);
			check(uid_maskcode_width(widths[k].nbits, a.base) == widths[k].width, what);
		}
		for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
			for (size_t l = 0; l < sizeof(nbitss) / sizeof(nbitss[0]); l++)
			{
				snprintf(what, sizeof(what), "%d-bit codes in %s round-trip, another key's symbol refused",
						 nbitss[l], named[k]);
				check(code_round_trips(named[k], strlen(named[k]), nbitss[l], 200) == 0, what);
			}
		for (int i = 0; i < 256; i++)
			all[i] = (char) (255 - i);
		check(code_round_trips(all, 256, 160, 200) == 0, "160-bit codes in a 256-symbol alphabet round-trip");
		check(code_round_trips("01", 2, 256, 50) == 0, "256-bit codes in base 2 round-trip");
		check(code_round_trips("xyz", 3, 64, 200) == 0, "64-bit codes in base 3 round-trip");

		uid_basen_alphabet_init(&a, "base64url", 9, NULL);
		check(uid_maskcode_parse("AAAAAAAAAAA", 11, &a, 64, 0, val, NULL) == UID_MASKCODE_LENGTH,
			  "a code one symbol short is refused");
		check(uid_maskcode_parse("AAAAAAAAAAAAA", 13, &a, 64, 0, val, NULL) == UID_MASKCODE_LENGTH,
			  "a code one symbol long is refused");
		check(uid_maskcode_parse("", 0, &a, 64, 0, val, NULL) == UID_MASKCODE_LENGTH,
			  "the empty code is refused");
		check(uid_maskcode_parse("AAAAA=AAAAAA", 12, &a, 64, 0, val, &errpos) == UID_MASKCODE_BAD_CHAR && errpos == 5,
			  "a symbol out of the alphabet is refused at its offset");
		check(uid_maskcode_parse("AQ__________", 12, &a, 64, 0, val, NULL) == UID_MASKCODE_RANGE,
			  "digits of 2^64 are out of range for 64 bits");
		check(uid_maskcode_parse("AP__________", 12, &a, 64, 0, val, NULL) == UID_MASKCODE_OK,
			  "digits of 2^64-1 are in range for 64 bits");
		check(uid_maskcode_parse("AI__________", 12, &a, 63, 0, val, NULL) == UID_MASKCODE_RANGE,
			  "digits of 2^63 are out of range for 63 bits");
		check(uid_maskcode_parse("BAAAAAAAAAAA", 12, &a, 64, 0, val, NULL) == UID_MASKCODE_KEY,
			  "a key symbol other than the key's is refused");
		check(uid_maskcode_parse("BAAAAAAAAAAA", 12, &a, 64, 65, val, NULL) == UID_MASKCODE_OK,
			  "the key symbol is the check byte modulo the base");
	}
	{
		unsigned char u[16],
					p[16],
					back[16];
		int			bad = 0;

		for (int r = 0; r < 1000; r++)
		{
			for (int i = 0; i < 16; i++)
				u[i] = (unsigned char) xs();
			u[6] = (u[6] & 0x0f) | 0x70;
			u[8] = (u[8] & 0x3f) | 0x80;
			uid_uuid_pack122(u, p);
			uid_uuid_unpack122(p, 7, 2, back);
			if (memcmp(u, back, 16) != 0 || p[0] >> 2 != 0)
				bad++;
			uid_uuid_unpack122(p, 4, 2, back);
			if (back[6] >> 4 != 4 || back[8] >> 6 != 2)
				bad++;
		}
		check(bad == 0, "a UUID's 122 variable bits pack into 122 bits and back, with the version and variant given");
	}

	printf("1..%d\n", ntest);
	return nfail == 0 ? 0 : 1;
}
