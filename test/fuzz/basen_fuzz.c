/*
 * basen_fuzz.c - libFuzzer target for the base-N short codes (src/basen.c).
 * Built with AddressSanitizer and UndefinedBehaviorSanitizer by
 * `make test/fuzz/basen_fuzz` (clang), run by test/fuzz/run.sh.
 *
 * The first byte picks a named alphabet, or (from 6 on) takes the next
 * bytes, up to a NUL, as a literal one; the rest is a code.  Checked: what
 * decode accepts, encode and decode give back; a code's shortlex rank moves
 * by exactly n under lexical_add(n), and lexical_add(-n) comes back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basen.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static const char *const named[] = {"base32", "base36", "base58", "base62", "base64url", "base16"};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uid_alphabet a;
	const char *code;
	size_t		len,
				outlen,
				backlen;
	uint64_t	v,
				back,
				r,
				r2;
	char		enc[UID_BASEN_ENCODE_MAX + 1];
	char	   *out,
			   *out2;

	if (size < 1)
		return 0;
	if (data[0] % 8 < 6)
	{
		const char *spec = named[data[0] % 8];

		if (uid_basen_alphabet_init(&a, spec, strlen(spec), NULL) != UID_BASEN_OK)
			return 0;			/* a name this version does not have */
		code = (const char *) data + 1;
		len = size - 1;
	}
	else
	{
		const uint8_t *nul = memchr(data + 1, 0, size - 1);
		size_t		speclen = nul ? (size_t) (nul - data - 1) : size - 1;

		if (uid_basen_alphabet_init(&a, (const char *) data + 1, speclen, NULL) != UID_BASEN_OK)
			return 0;
		code = (const char *) data + 1 + speclen + (nul ? 1 : 0);
		len = size - 1 - speclen - (nul ? 1 : 0);
	}

	if (uid_basen_decode(code, len, &a, &v, NULL) == UID_BASEN_OK)
	{
		size_t		n = uid_basen_encode(v, &a, enc);

		CHECK(n >= 1 && n <= UID_BASEN_ENCODE_MAX);
		CHECK(uid_basen_decode(enc, n, &a, &back, NULL) == UID_BASEN_OK && back == v);
	}

	if (uid_basen_rank(code, len, &a, &r, NULL) == UID_BASEN_OK && r < UINT64_MAX - 1000)
	{
		int64_t		step = (int64_t) (size % 1000);

		out = malloc(UID_BASEN_ADD_BUFSIZE(len));
		CHECK(uid_basen_lexical_add(code, len, &a, step, out, UID_BASEN_ADD_BUFSIZE(len), &outlen, NULL) == UID_BASEN_OK);
		CHECK(uid_basen_rank(out, outlen, &a, &r2, NULL) == UID_BASEN_OK && r2 == r + (uint64_t) step);
		out2 = malloc(UID_BASEN_ADD_BUFSIZE(outlen));
		CHECK(uid_basen_lexical_add(out, outlen, &a, -step, out2, UID_BASEN_ADD_BUFSIZE(outlen), &backlen, NULL) == UID_BASEN_OK);
		CHECK(uid_basen_rank(out2, backlen, &a, &r2, NULL) == UID_BASEN_OK && r2 == r);
		free(out);
		free(out2);
	}
	return 0;
}
