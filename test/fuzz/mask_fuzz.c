/*
 * mask_fuzz.c - libFuzzer target for the masks' pure code: FF1 (src/ff1.c)
 * and the masked IDs' text (src/maskcode.c).  Built with AddressSanitizer
 * and UndefinedBehaviorSanitizer by `make test/fuzz/mask_fuzz` (clang), run
 * by test/fuzz/run.sh.
 *
 * Bytes: [0] picks the key length (16, 24, 32) and the alphabet, [1] the
 * bit length (20..256), [2] the radix of the general path (2..257), [3] the
 * tweak length; then the key, the tweak, and the rest is both a value and
 * a code.  Checked: the bit path and the general path (radix 2 and the
 * radix picked) decrypt what they encrypt, and the bit path agrees with the
 * general path in radix 2; a code the parser takes formats to a code that
 * parses to the same value; whatever the parser refuses, it refuses
 * without reading out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ff1.h"
#include "maskcode.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static const char *const named[] = {"base32", "base36", "base58", "base62", "base64url", "01", "0123456789", "abc"};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t keylens[] = {16, 24, 32};
	size_t		keylen,
				nbits,
				t,
				nbytes,
				radix;
	const uint8_t *key,
			   *tweak,
			   *rest;
	size_t		restlen;
	unsigned char val[32],
				enc[32],
				dec[32];
	uint16_t	x[UID_FF1_MAXLEN],
				y[UID_FF1_MAXLEN],
				z[UID_FF1_MAXLEN];
	uid_ff1		f;
	uid_alphabet a;
	const char *spec;

	if (size < 4)
		return 0;
	keylen = keylens[data[0] % 3];
	spec = named[(data[0] / 3) % 8];
	nbits = 20 + data[1] % 237;
	radix = 2 + data[2];
	t = data[3] % 80;
	if (size < 4 + keylen + t)
		return 0;
	key = data + 4;
	tweak = key + keylen;
	rest = tweak + t;
	restlen = size - 4 - keylen - t;
	nbytes = (nbits + 7) / 8;
	CHECK(uid_ff1_init(&f, key, keylen) == UID_FF1_OK);
	CHECK(uid_basen_alphabet_init(&a, spec, strlen(spec), NULL) == UID_BASEN_OK);

	/* the bit path, and the general path on the same bits */
	memset(val, 0, sizeof(val));
	memcpy(val, rest, restlen < nbytes ? restlen : nbytes);
	if (nbits % 8)
		val[0] &= (unsigned char) ((1u << (nbits % 8)) - 1);
	CHECK(uid_ff1_bits(&f, val, nbits, tweak, t, enc, 0) == UID_FF1_OK);
	CHECK(uid_ff1_bits(&f, enc, nbits, tweak, t, dec, 1) == UID_FF1_OK);
	CHECK(memcmp(val, dec, nbytes) == 0);
	for (size_t i = 0; i < nbits; i++)
	{
		size_t		bit = nbits - 1 - i;

		x[i] = (val[nbytes - 1 - bit / 8] >> (bit % 8)) & 1;
	}
	CHECK(uid_ff1_digits(&f, 2, x, nbits, tweak, t, y, 0) == UID_FF1_OK);
	for (size_t i = 0; i < nbits; i++)
	{
		size_t		bit = nbits - 1 - i;

		CHECK(((enc[nbytes - 1 - bit / 8] >> (bit % 8)) & 1) == y[i]);
	}

	/* the general path in the radix picked, on as many digits as there are bytes */
	{
		size_t		n = restlen < UID_FF1_MAXLEN ? restlen : UID_FF1_MAXLEN;
		uid_ff1_status st;

		for (size_t i = 0; i < n; i++)
			x[i] = (uint16_t) (rest[i] % radix);
		st = uid_ff1_digits(&f, (uint32_t) radix, x, n, tweak, t, y, 0);
		if (st == UID_FF1_OK)
		{
			CHECK(uid_ff1_digits(&f, (uint32_t) radix, y, n, tweak, t, z, 1) == UID_FF1_OK);
			CHECK(memcmp(x, z, n * sizeof(uint16_t)) == 0);
			for (size_t i = 0; i < n; i++)
				CHECK(y[i] < radix);
		}
		else
			CHECK(st == UID_FF1_DOMAIN);
	}

	/* the rest as a code */
	{
		unsigned char v1[32],
					v2[32];
		char		code[UID_MASKCODE_MAX + 1];
		unsigned	check = data[0];
		size_t		errpos = 0;
		uid_maskcode_status st = uid_maskcode_parse((const char *) rest, restlen, &a, (int) nbits,
													check, v1, &errpos);

		if (st == UID_MASKCODE_OK)
		{
			size_t		len = uid_maskcode_format(v1, (int) nbits, &a, check, code);

			CHECK(len == restlen);
			CHECK(uid_maskcode_parse(code, len, &a, (int) nbits, check, v2, NULL) == UID_MASKCODE_OK);
			CHECK(memcmp(v1, v2, nbytes) == 0);
		}
		else if (st == UID_MASKCODE_BAD_CHAR)
			CHECK(errpos < restlen);
		/* and the encrypted value's code parses back to it */
		uid_maskcode_format(enc, (int) nbits, &a, check, code);
		CHECK(uid_maskcode_parse(code, strlen(code), &a, (int) nbits, check, v2, NULL) == UID_MASKCODE_OK);
		CHECK(memcmp(enc, v2, nbytes) == 0);
	}
	uid_ff1_free(&f);
	return 0;
}
