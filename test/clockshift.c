/*
 * clockshift.c - a preload library for the clock tests.  In a process that
 * preloads it (LD_PRELOAD), the wall clock (gettimeofday, time, and
 * clock_gettime of CLOCK_REALTIME and CLOCK_REALTIME_COARSE) reads the real
 * clock plus an offset in microseconds, taken from the file that
 * UID_CLOCK_FILE names; the monotonic clocks stay real, as the kernel keeps
 * them when the wall clock is set.  A test steps the clock whenever it
 * chooses, as often as it needs, by replacing the file (write a new one,
 * then rename it over the old).  Each process reads the file again at most
 * once a millisecond; without the file the offset stays what it was (0 at
 * first).
 *
 * Built by the Makefile (test/clockshift.so), for the tests only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef int (*clock_gettime_fn) (clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime;
static long long offset_us;
static long long read_at_ns = -1;	/* monotonic time of the last read */

/* The C library's clock_gettime. */
static int
real_gettime(clockid_t id, struct timespec *ts)
{
	if (real_clock_gettime == NULL)
		real_clock_gettime = (clock_gettime_fn) dlsym(RTLD_NEXT, "clock_gettime");
	return real_clock_gettime(id, ts);
}

/* The offset in the file, read again once a millisecond has passed. */
static long long
shift_us(void)
{
	struct timespec now;
	long long now_ns;
	const char *path;
	char		buf[32];
	ssize_t		n;
	int			fd;

	if (real_gettime(CLOCK_MONOTONIC, &now) != 0)
		return offset_us;
	now_ns = (long long) now.tv_sec * 1000000000LL + now.tv_nsec;
	if (read_at_ns >= 0 && now_ns - read_at_ns < 1000000)
		return offset_us;
	read_at_ns = now_ns;
	path = getenv("UID_CLOCK_FILE");
	if (path == NULL || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return offset_us;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0)
	{
		buf[n] = '\0';
		offset_us = strtoll(buf, NULL, 10);
	}
	return offset_us;
}

/* clock_gettime: the wall clocks shifted, every other clock real. */
int
clock_gettime(clockid_t id, struct timespec *ts)
{
	int			rc = real_gettime(id, ts);
	long long	ns;

	if (rc != 0 || (id != CLOCK_REALTIME && id != CLOCK_REALTIME_COARSE))
		return rc;
	ns = (long long) ts->tv_sec * 1000000000LL + ts->tv_nsec + shift_us() * 1000LL;
	ts->tv_sec = (time_t) (ns / 1000000000LL);
	ts->tv_nsec = (long) (ns % 1000000000LL);
	if (ts->tv_nsec < 0)
	{
		ts->tv_sec--;
		ts->tv_nsec += 1000000000L;
	}
	return 0;
}

/* gettimeofday: the shifted wall clock, in microseconds. */
int
gettimeofday(struct timeval *tv, void *tz)
{
	struct timespec ts;

	(void) tz;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return -1;
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

/* time: the shifted wall clock, in seconds. */
time_t
time(time_t *t)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (time_t) -1;
	if (t != NULL)
		*t = ts.tv_sec;
	return ts.tv_sec;
}
