/*
 * test/unit.h - what the unit tests of the pure code (test/codec_test.c,
 * test/basen_test.c, test/ff1_test.c) share: their TAP counters, the check
 * that prints one result, and a xorshift64 generator of test inputs.
 *
 * A test that draws inputs defines UNIT_XS_SEED, its first state, before
 * including this file.
 */
#ifndef UID_TEST_UNIT_H
#define UID_TEST_UNIT_H

#include <stdint.h>
#include <stdio.h>

static int	ntest = 0;
static int	nfail = 0;

/* Records one TAP result. */
static inline void
check(int ok, const char *what)
{
	ntest++;
	if (!ok)
		nfail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", ntest, what);
}

#ifdef UNIT_XS_SEED
static uint64_t xs_state = UNIT_XS_SEED;

/* Next xorshift64 value. */
static inline uint64_t
xs(void)
{
	xs_state ^= xs_state << 13;
	xs_state ^= xs_state >> 7;
	xs_state ^= xs_state << 17;
	return xs_state;
}
#endif

#endif							/* UID_TEST_UNIT_H */
