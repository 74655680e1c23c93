/*
 * faultshim.c - a preload library for the fault tests: it makes one system
 * call of the horizon's durable write fail, or kills the process right
 * after one succeeds, as a full disk, a read-only file system, an I/O error
 * or a crash would at that moment.  The server and uniqueid run unchanged;
 * only the C library's answer changes, once.
 *
 * The fault to inject is the first word of the file that UID_FAULT_FILE
 * names; the process that injects it removes the file first, so each fault
 * happens once, in one process.  Without the file nothing changes.
 *
 *   erofs-state-create    open() of uniqueid.horizon.tmp fails with EROFS
 *   enospc-state-write    write() to it fails with ENOSPC
 *   eio-state-fsync       fsync() of it fails with EIO
 *   kill-after-state-file SIGKILL right after it is renamed into place,
 *                         before the WAL record is written
 *   enospc-wal-write      the WAL write that follows (in the process that
 *                         renamed the state file) fails with ENOSPC
 *   eio-wal-fsync         the WAL flush that follows fails with EIO
 *   kill-after-wal-flush  SIGKILL right after that flush succeeds, before
 *                         the ID is returned
 *
 * A backend that only generates IDs writes WAL for nothing but the
 * horizon's records, so its first WAL write or flush after renaming the
 * state file is the record's.  Built by the Makefile (test/faultshim.so),
 * for the tests only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define STATE_TMP "uniqueid.horizon.tmp"

static char fault[64];			/* the fault file's first word, "" without one */
static long long read_at_ns = -1;	/* monotonic time it was last read */
static int	armed;				/* this process renamed the state file last */

/* The fault asked for, the file read again once a millisecond has passed. */
static const char *
fault_asked(void)
{
	struct timespec now;
	long long	now_ns;
	const char *path = getenv("UID_FAULT_FILE");
	FILE	   *f;

	if (path == NULL || clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return "";
	now_ns = (long long) now.tv_sec * 1000000000LL + now.tv_nsec;
	if (read_at_ns >= 0 && now_ns - read_at_ns < 1000000)
		return fault;
	read_at_ns = now_ns;
	fault[0] = '\0';
	if ((f = fopen(path, "re")) != NULL)
	{
		if (fscanf(f, "%63s", fault) != 1)
			fault[0] = '\0';
		fclose(f);
	}
	return fault;
}

/* Whether fault `name` is asked for and this process is the one to inject it. */
static int
claim(const char *name)
{
	const char *path = getenv("UID_FAULT_FILE");

	if (strcmp(fault_asked(), name) != 0)
		return 0;
	fault[0] = '\0';
	return path != NULL && unlink(path) == 0;
}

/* Whether path names the state file's temporary copy. */
static int
is_state_tmp(const char *path)
{
	size_t		n = strlen(path),
				k = strlen(STATE_TMP);

	return n >= k && strcmp(path + n - k, STATE_TMP) == 0 && (n == k || path[n - k - 1] == '/');
}

/* Whether fd is open on the state file's temporary copy, or (wal) a WAL segment. */
static int
fd_is(int fd, int wal)
{
	char		link[64],
				target[1024];
	ssize_t		n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, target, sizeof(target) - 1)) <= 0)
		return 0;
	target[n] = '\0';
	return wal ? strstr(target, "/pg_wal/") != NULL : is_state_tmp(target);
}

#define REAL(name) ((__typeof__(&name)) dlsym(RTLD_NEXT, #name))

static int
open_common(const char *real, const char *path, int flags, mode_t mode)
{
	int			(*fn) (const char *, int, ...) = dlsym(RTLD_NEXT, real);

	if ((flags & O_CREAT) && fault_asked()[0] && is_state_tmp(path) && claim("erofs-state-create"))
	{
		errno = EROFS;
		return -1;
	}
	return fn(path, flags, mode);
}

/* open and open64: the mode argument exists only with O_CREAT */
#define OPEN_WRAPPER(name) \
int \
name(const char *path, int flags, ...) \
{ \
	mode_t		mode = 0; \
	va_list		ap; \
 \
	if (flags & O_CREAT) \
	{ \
		va_start(ap, flags); \
		mode = va_arg(ap, mode_t); \
		va_end(ap); \
	} \
	return open_common(#name, path, flags, mode); \
}
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

ssize_t
write(int fd, const void *buf, size_t count)
{
	if (fault_asked()[0] && fd_is(fd, 0) && claim("enospc-state-write"))
	{
		errno = ENOSPC;
		return -1;
	}
	return REAL(write) (fd, buf, count);
}

int
fsync(int fd)
{
	if (fault_asked()[0] && fd_is(fd, 0) && claim("eio-state-fsync"))
	{
		errno = EIO;
		return -1;
	}
	return REAL(fsync) (fd);
}

int
rename(const char *from, const char *to)
{
	int			rc = REAL(rename) (from, to);

	if (rc == 0 && is_state_tmp(from))
	{
		armed = 1;
		if (claim("kill-after-state-file"))
			kill(getpid(), SIGKILL);
	}
	return rc;
}

/* A WAL write of the process that renamed the state file last: the record's. */
static int
wal_write_fails(int fd)
{
	if (!armed || !fault_asked()[0] || !fd_is(fd, 1))
		return 0;
	if (claim("enospc-wal-write"))
	{
		errno = ENOSPC;
		return 1;
	}
	return 0;
}

/* the WAL writes: pwrite and pwritev, each also as its 64-bit name */
#define WAL_WRITE_WRAPPER(name, params, args) \
ssize_t \
name params \
{ \
	if (wal_write_fails(fd)) \
		return -1; \
	return REAL(name) args; \
}
WAL_WRITE_WRAPPER(pwrite, (int fd, const void *buf, size_t count, off_t offset), (fd, buf, count, offset))
WAL_WRITE_WRAPPER(pwrite64, (int fd, const void *buf, size_t count, off_t offset), (fd, buf, count, offset))
WAL_WRITE_WRAPPER(pwritev, (int fd, const struct iovec *iov, int iovcnt, off_t offset), (fd, iov, iovcnt, offset))
WAL_WRITE_WRAPPER(pwritev64, (int fd, const struct iovec *iov, int iovcnt, off_t offset), (fd, iov, iovcnt, offset))

/* The record's WAL flush: fails, or succeeds and the process dies. */
int
fdatasync(int fd)
{
	int			rc;
	int			wal = armed && fault_asked()[0] && fd_is(fd, 1);

	if (wal && claim("eio-wal-fsync"))
	{
		errno = EIO;
		return -1;
	}
	rc = REAL(fdatasync) (fd);
	if (wal)
	{
		armed = 0;
		if (rc == 0 && claim("kill-after-wal-flush"))
			kill(getpid(), SIGKILL);
	}
	return rc;
}
