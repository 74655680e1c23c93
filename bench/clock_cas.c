/*
 * bench/clock_cas.c - what a generator's clock read and compare-and-swap
 * cost on this machine, measured apart from PostgreSQL (bench/README.md,
 * "Target: each generator within 2x clock_timestamp()"):
 *
 *   gcc -O2 -o /tmp/clock_cas bench/clock_cas.c && /tmp/clock_cas
 *
 * Prints ns per call of gettimeofday (what GetCurrentTimestamp calls), of
 * an uncontended lock cmpxchg on one word, and of both, three times each.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#define N 20000000

static double
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int
main(void)
{
	volatile uint64_t sink = 0;
	uint64_t	word = 0;

	for (int rep = 0; rep < 3; rep++)
	{
		double		t0 = now_ns();

		for (int i = 0; i < N; i++)
		{
			struct timeval tv;

			gettimeofday(&tv, NULL);
			sink += tv.tv_usec;
		}
		printf("gettimeofday: %.1f ns\n", (now_ns() - t0) / N);
		t0 = now_ns();
		for (int i = 0; i < N; i++)
		{
			uint64_t	expected = word;

			__atomic_compare_exchange_n(&word, &expected, expected + 1, 0,
										__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		}
		printf("lock cmpxchg, uncontended: %.1f ns\n", (now_ns() - t0) / N);
		t0 = now_ns();
		for (int i = 0; i < N; i++)
		{
			struct timeval tv;
			uint64_t	expected = word;

			gettimeofday(&tv, NULL);
			__atomic_compare_exchange_n(&word, &expected, expected + (uint64_t) tv.tv_usec, 0,
										__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		}
		printf("both: %.1f ns\n", (now_ns() - t0) / N);
	}
	return (int) (sink & 1);
}
