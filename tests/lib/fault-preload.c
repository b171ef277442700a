/* SPDX-License-Identifier: MIT */
/*
 * Description: a test hook, loaded with LD_PRELOAD, for storage that
 * misbehaves at a chosen moment (counted in calls from 1):
 *   DISKIO_TEST_STALL_AT=N, DISKIO_TEST_STALL_MS=M: the Nth fdatasync()
 *     stalls M ms before doing its work, as a journal commit or a device
 *     hiccup would;
 *   DISKIO_TEST_FAIL_AT=N, DISKIO_TEST_FAIL_ERRNO=E: the Nth fsync() or
 *     fdatasync() of a file whose path contains "diskio-test." (diskio's
 *     own test file, not its result) fails with errno E, and so does every
 *     one after it, as a device that died would (EIO is 5);
 *   DISKIO_TEST_SIGNAL_AFTER_OPEN=S: right after the first open() of a
 *     path containing S returns (S = O_TMPFILE: the first open of an
 *     unnamed file), the process sends itself SIGTERM (a signal that
 *     lands between two chosen steps);
 *   DISKIO_TEST_CORRUPT_AFTER_SYNC=N, DISKIO_TEST_CORRUPT_OFFSET=O: right
 *     after the Nth fsync() or fdatasync() of the test file returns, the
 *     byte at offset O of that file is inverted through a descriptor of
 *     its own and made durable, as storage that returns other data than
 *     it was given would (the fill's sync is the first);
 *   DISKIO_TEST_SWAP_AFTER_LSTAT=P, DISKIO_TEST_SWAP_WITH=Q: right after
 *     the first lstat() of exactly P returns, Q is renamed onto P (another
 *     program replacing the file between a check and an open);
 *   DISKIO_TEST_SLOW_WRITE_US=U: every pwrite() of diskio's test file
 *     sleeps U microseconds first, as a slow device would take them (so
 *     that the fill before a run lasts long enough to be seen);
 *   DISKIO_TEST_SLOW_QUEUE_SETUP_MS=M: io_setup(), io_uring_queue_init()
 *     and io_uring_register_buffers() sleep M ms first, as a deep queue or
 *     a large registration can take (so that a queue set up inside a
 *     run's time shows as M ms more than its ops);
 *   DISKIO_TEST_REFUSE_WRITE_FLAGS=1: every pwritev2() with flags fails
 *     with EOPNOTSUPP before writing, as on a kernel older than Linux 4.7
 *     (glibc's pwritev2 then takes no flags) or a file that refuses them;
 *   DISKIO_TEST_REPORT_IN_FLIGHT_WRITES=S: a write() to a file whose path
 *     contains S while libaio requests are in flight (submitted by
 *     io_submit(), not yet returned by io_getevents()) is reported on
 *     stderr as "fault-preload: write to PATH with N requests in flight"
 *     (a trace written while the ops it times are running);
 *   DISKIO_TEST_CLOCK_SPEED=K: CLOCK_MONOTONIC runs K times as fast from
 *     the process's first reading of it (a deadline of minutes passes in
 *     a fraction of a second of the test's time, sleeps and time-outs of
 *     the kernel unchanged).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* diskio's timed calls come through syscall(): routed to this file's
 * (or libc's) pwrite, fsync and the rest */
#include "syscall_route.h"

static unsigned long syncs;

static unsigned long env_number(const char *name)
{
    const char *value = getenv(name);
    return value ? strtoul(value, NULL, 10) : 0;
}

static int is_test_file(int fd)
{
    char link[64], path[4096];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof(path) - 1);
    if (n < 0)
        return 0;
    path[n] = '\0';
    return strstr(path, "diskio-test.") != NULL;
}

static void corrupt(int fd, off_t offset, int (*real)(int))
{
    char link[64];
    unsigned char byte;
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    int own = open(link, O_RDWR);
    if (own < 0 || pread(own, &byte, 1, offset) != 1) {
        perror("fault-preload: corrupt");
        if (own >= 0)
            close(own);
        return;
    }
    byte = (unsigned char)~byte;
    if (pwrite(own, &byte, 1, offset) != 1 || real(own) != 0)
        perror("fault-preload: corrupt");
    close(own);
}

static int misbehave(int (*real)(int), int fd, const char *name)
{
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, name);
    if (!is_test_file(fd))
        return real(fd);
    unsigned long call = ++syncs;
    unsigned long stall_at = env_number("DISKIO_TEST_STALL_AT");
    if (stall_at && call == stall_at && real == dlsym(RTLD_NEXT, "fdatasync")) {
        long stall_ms = (long)env_number("DISKIO_TEST_STALL_MS");
        struct timespec pause = {stall_ms / 1000, (stall_ms % 1000) * 1000000L};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
    unsigned long fail_at = env_number("DISKIO_TEST_FAIL_AT");
    if (fail_at && call >= fail_at) {
        errno = (int)env_number("DISKIO_TEST_FAIL_ERRNO");
        return -1;
    }
    int rc = real(fd);
    if (rc == 0 && call == env_number("DISKIO_TEST_CORRUPT_AFTER_SYNC"))
        corrupt(fd, (off_t)env_number("DISKIO_TEST_CORRUPT_OFFSET"), real);
    return rc;
}

static void slow_write(int fd)
{
    static long us = -1;
    if (us < 0)
        us = (long)env_number("DISKIO_TEST_SLOW_WRITE_US");
    if (us > 0 && is_test_file(fd)) {
        struct timespec pause = {us / 1000000, (us % 1000000) * 1000L};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    slow_write(fd);
    return real(fd, buf, len, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off64_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off64_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
    slow_write(fd);
    return real(fd, buf, len, offset);
}

static ssize_t refuse_flags(const char *name, int fd, const struct iovec *iov, int iovcnt,
                            off_t offset, int flags)
{
    ssize_t (*real)(int, const struct iovec *, int, off_t, int) =
        (ssize_t(*)(int, const struct iovec *, int, off_t, int))dlsym(RTLD_NEXT, name);
    if (flags && env_number("DISKIO_TEST_REFUSE_WRITE_FLAGS")) {
        errno = EOPNOTSUPP;
        return -1;
    }
    return real(fd, iov, iovcnt, offset, flags);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
    return refuse_flags("pwritev2", fd, iov, iovcnt, offset, flags);
}

ssize_t pwritev64v2(int fd, const struct iovec *iov, int iovcnt, off64_t offset, int flags)
{
    return refuse_flags("pwritev64v2", fd, iov, iovcnt, offset, flags);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return misbehave(real, fd, "fdatasync");
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return misbehave(real, fd, "fsync");
}

static int after_open(int fd, const char *path, int flags)
{
    static int done;
    const char *match = getenv("DISKIO_TEST_SIGNAL_AFTER_OPEN");
    bool matched = match && *match &&
                   (strcmp(match, "O_TMPFILE") == 0 ? (flags & O_TMPFILE) == O_TMPFILE
                                                    : strstr(path, match) != NULL);
    if (fd >= 0 && !done && matched) {
        done = 1;
        raise(SIGTERM);
    }
    return fd;
}

int open(const char *path, int flags, ...)
{
    static int (*real)(const char *, int, ...);
    mode_t mode = 0;
    if (!real)
        real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return after_open(real(path, flags, mode), path, flags);
}

int open64(const char *path, int flags, ...)
{
    static int (*real)(const char *, int, ...);
    mode_t mode = 0;
    if (!real)
        real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return after_open(real(path, flags, mode), path, flags);
}

static int after_lstat(int rc, const char *path)
{
    static int done;
    const char *match = getenv("DISKIO_TEST_SWAP_AFTER_LSTAT");
    const char *with = getenv("DISKIO_TEST_SWAP_WITH");
    if (!done && match && with && strcmp(path, match) == 0) {
        done = 1;
        int saved = errno;
        if (rename(with, match) != 0)
            perror("fault-preload: rename");
        errno = saved;
    }
    return rc;
}

int lstat(const char *path, struct stat *st)
{
    static int (*real)(const char *, struct stat *);
    if (!real)
        real = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "lstat");
    return after_lstat(real(path, st), path);
}

int lstat64(const char *path, struct stat64 *st)
{
    static int (*real)(const char *, struct stat64 *);
    if (!real)
        real = (int (*)(const char *, struct stat64 *))dlsym(RTLD_NEXT, "lstat64");
    return after_lstat(real(path, st), path);
}

/* ---- the queue's setup, and what is written while requests are in flight ---- */

int io_setup(int maxevents, void *ctxp);
int io_uring_queue_init(unsigned entries, void *ring, unsigned flags);
int io_uring_register_buffers(void *ring, const void *iovecs, unsigned nr_iovecs);
int io_submit(void *ctx, long nr, void **iocbs);
int io_getevents(void *ctx, long min_nr, long nr, void *events, struct timespec *timeout);

static void slow_queue_setup(void)
{
    static long ms = -1;
    if (ms < 0)
        ms = (long)env_number("DISKIO_TEST_SLOW_QUEUE_SETUP_MS");
    if (ms > 0) {
        struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
}

int io_setup(int maxevents, void *ctxp)
{
    static int (*real)(int, void *);
    if (!real)
        real = (int (*)(int, void *))dlsym(RTLD_NEXT, "io_setup");
    slow_queue_setup();
    return real(maxevents, ctxp);
}

int io_uring_queue_init(unsigned entries, void *ring, unsigned flags)
{
    static int (*real)(unsigned, void *, unsigned);
    if (!real)
        real = (int (*)(unsigned, void *, unsigned))dlsym(RTLD_NEXT, "io_uring_queue_init");
    slow_queue_setup();
    return real(entries, ring, flags);
}

int io_uring_register_buffers(void *ring, const void *iovecs, unsigned nr_iovecs)
{
    static int (*real)(void *, const void *, unsigned);
    if (!real)
        real =
            (int (*)(void *, const void *, unsigned))dlsym(RTLD_NEXT, "io_uring_register_buffers");
    slow_queue_setup();
    return real(ring, iovecs, nr_iovecs);
}

static _Atomic long in_flight;

int io_submit(void *ctx, long nr, void **iocbs)
{
    static int (*real)(void *, long, void **);
    if (!real)
        real = (int (*)(void *, long, void **))dlsym(RTLD_NEXT, "io_submit");
    int rc = real(ctx, nr, iocbs);
    if (rc > 0)
        in_flight += rc;
    return rc;
}

int io_getevents(void *ctx, long min_nr, long nr, void *events, struct timespec *timeout)
{
    static int (*real)(void *, long, long, void *, struct timespec *);
    if (!real)
        real = (int (*)(void *, long, long, void *, struct timespec *))dlsym(RTLD_NEXT,
                                                                             "io_getevents");
    int rc = real(ctx, min_nr, nr, events, timeout);
    if (rc > 0)
        in_flight -= rc;
    return rc;
}

ssize_t write(int fd, const void *buf, size_t len)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    long busy = in_flight;
    const char *match = busy > 0 ? getenv("DISKIO_TEST_REPORT_IN_FLIGHT_WRITES") : NULL;
    if (match && *match) {
        char link[64], path[4096];
        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, path, sizeof(path) - 1);
        if (n > 0) {
            path[n] = '\0';
            if (strstr(path, match)) {
                char msg[4200];
                int m = snprintf(msg, sizeof(msg),
                                 "fault-preload: write to %s with %ld requests in flight\n", path,
                                 busy);
                if (m > 0)
                    (void)real(2, msg, (size_t)m < sizeof(msg) ? (size_t)m : sizeof(msg) - 1);
            }
        }
    }
    return real(fd, buf, len);
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
    static int (*real)(clockid_t, struct timespec *);
    static long speed = -1;
    static uint64_t first; /* ns of the first reading, 0: none yet */
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    const int rc = real(clock, ts);
    if (speed < 0)
        speed = (long)env_number("DISKIO_TEST_CLOCK_SPEED");
    if (rc != 0 || speed <= 1 || clock != CLOCK_MONOTONIC)
        return rc;
    const uint64_t now = (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
    uint64_t expected = 0;
    (void)__atomic_compare_exchange_n(&first, &expected, now, false, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED);
    const uint64_t base = expected ? expected : now;
    const uint64_t fast = base + (now - base) * (uint64_t)speed;
    ts->tv_sec = (time_t)(fast / 1000000000u);
    ts->tv_nsec = (long)(fast % 1000000000u);
    return rc;
}
