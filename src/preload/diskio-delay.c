/* SPDX-License-Identifier: MIT */
/*
 * libdiskio-delay: an LD_PRELOAD test aid that makes durable writes slower.
 *
 * It adds a fixed delay, taken from the environment variable
 * DISKIO_DELAY_US (microseconds, default 0 = pass-through), after every
 * successful
 *
 *   fsync, fdatasync, sync_file_range (see below),
 *   write, pwrite, pwrite64, writev, pwritev, pwritev64, pwritev2,
 *   pwritev64v2 on a descriptor opened with O_SYNC or O_DSYNC
 *
 * so that one machine can provide a second, known-slower environment for
 * diskio and PostgreSQL alike.  The delay is a sleep (clock_nanosleep on
 * CLOCK_MONOTONIC), not a spin: it costs latency, not CPU.
 *
 * It is a test aid, not a device model: it adds the same latency to every
 * call regardless of how much data is flushed, and it does not see I/O
 * done through io_uring, libaio, mmap/msync, or direct system calls.
 *
 * Build: gcc -shared -fPIC -O2 -Wall -Wextra -Werror \
 *            -o libdiskio-delay.so src/preload/diskio-delay.c -ldl
 * Use:   LD_PRELOAD=/path/libdiskio-delay.so DISKIO_DELAY_US=2000 prog ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* diskio's timed calls come through syscall(): routed to this file's
 * (or libc's) pwrite, fsync and the rest */
#include "syscall_route.h"

#define DISKIO_EXPORT __attribute__((visibility("default")))

static int get_sfr_policy(void);

/* -1: not parsed yet; >= 0: delay in microseconds (0 = pass-through). */
static _Atomic long delay_us = -1;

static void say(const char *msg)
{
    /* Raw system call: our own write() wrapper must not be involved. */
    ssize_t r = syscall_next()(SYS_write, 2, msg, strlen(msg));
    (void)r;
}

static long parse_delay(void)
{
    const char *s = getenv("DISKIO_DELAY_US");
    long v = 0;

    if (s != NULL && *s != '\0') {
        char *end = NULL;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (errno != 0 || end == s || *end != '\0' || x < 0 || x > 60LL * 1000 * 1000) {
            say("libdiskio-delay: invalid DISKIO_DELAY_US (want an "
                "integer 0..60000000 microseconds); no delay added\n");
            v = 0;
        } else {
            v = (long)x;
        }
    }
    return v;
}

static long get_delay(void)
{
    long d = atomic_load_explicit(&delay_us, memory_order_relaxed);
    if (d >= 0)
        return d;
    int saved = errno;
    long v = parse_delay();
    long expected = -1;
    /* Only the first parser's result (and message) counts. */
    if (!atomic_compare_exchange_strong(&delay_us, &expected, v))
        v = expected;
    errno = saved;
    return v;
}

__attribute__((constructor)) static void diskio_delay_init(void)
{
    (void)get_delay();
    (void)get_sfr_policy();
}

static void do_delay(long us)
{
    struct timespec until;
    int saved = errno;

    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += us / 1000000;
    until.tv_nsec += (us % 1000000) * 1000;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    /* Absolute deadline: a signal does not shorten or lengthen it. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
        ;
    errno = saved;
}

static int fd_is_sync(int fd)
{
    int saved = errno;
    int fl = fcntl(fd, F_GETFL);
    errno = saved;
    /* On Linux O_SYNC is __O_SYNC|O_DSYNC, so O_DSYNC covers both. */
    return fl != -1 && (fl & (O_DSYNC | O_SYNC)) != 0;
}

/*
 * Resolve the next definition of a symbol.  dlsym() may itself end up in
 * a wrapped function (or run before the dynamic linker is ready for us);
 * a thread-local guard makes such recursive calls fall back to the raw
 * system call instead of recursing.
 */
static _Thread_local int resolving;

static void *next_sym(const char *name, _Atomic(void *) *slot)
{
    void *p = atomic_load_explicit(slot, memory_order_acquire);
    if (p != NULL || resolving)
        return p;
    int saved = errno;
    resolving = 1;
    p = dlsym(RTLD_NEXT, name);
    resolving = 0;
    errno = saved;
    if (p != NULL)
        atomic_store_explicit(slot, p, memory_order_release);
    return p;
}

typedef int (*sync_fn)(int);
typedef int (*sfr_fn)(int, off64_t, off64_t, unsigned int);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);
typedef ssize_t (*pwritev64_fn)(int, const struct iovec *, int, off64_t);
typedef ssize_t (*pwritev2_fn)(int, const struct iovec *, int, off_t, int);
typedef ssize_t (*pwritev64v2_fn)(int, const struct iovec *, int, off64_t, int);

/* ISO C has no object-to-function pointer cast; POSIX guarantees the
 * representation is the same, so copy the bits. */
#define NEXT(type, name)                                                                           \
    static _Atomic(void *) slot_##name;                                                            \
    type real;                                                                                     \
    do {                                                                                           \
        void *sym_ = next_sym(#name, &slot_##name);                                                \
        memcpy(&real, &sym_, sizeof real);                                                         \
    } while (0)

/* ---- sync calls: always delayed ------------------------------------- */

DISKIO_EXPORT int fsync(int fd)
{
    NEXT(sync_fn, fsync);
    int r = real ? real(fd) : (int)syscall_next()(SYS_fsync, fd);
    long us = get_delay();
    if (r == 0 && us > 0)
        do_delay(us);
    return r;
}

DISKIO_EXPORT int fdatasync(int fd)
{
    NEXT(sync_fn, fdatasync);
    int r = real ? real(fd) : (int)syscall_next()(SYS_fdatasync, fd);
    long us = get_delay();
    if (r == 0 && us > 0)
        do_delay(us);
    return r;
}

/*
 * sync_file_range: by default only calls that wait for I/O
 * (SYNC_FILE_RANGE_WAIT_BEFORE or _WAIT_AFTER) are delayed.  A bare
 * SYNC_FILE_RANGE_WRITE only starts write-back and returns at once on a
 * slow device too; PostgreSQL issues it every checkpoint_flush_after bytes
 * of checkpoint writes.  DISKIO_DELAY_SYNC_FILE_RANGE=all delays every
 * call, =none none.
 */
enum { SFR_WAIT, SFR_ALL, SFR_NONE };
static _Atomic int sfr_policy = -1;

static int get_sfr_policy(void)
{
    int p = atomic_load_explicit(&sfr_policy, memory_order_relaxed);
    if (p >= 0)
        return p;
    const char *s = getenv("DISKIO_DELAY_SYNC_FILE_RANGE");
    p = SFR_WAIT;
    if (s != NULL && strcmp(s, "all") == 0)
        p = SFR_ALL;
    else if (s != NULL && strcmp(s, "none") == 0)
        p = SFR_NONE;
    atomic_store_explicit(&sfr_policy, p, memory_order_relaxed);
    return p;
}

DISKIO_EXPORT int sync_file_range(int fd, off64_t off, off64_t n, unsigned int flags)
{
    NEXT(sfr_fn, sync_file_range);
    int r = real ? real(fd, off, n, flags)
                 : (int)syscall_next()(SYS_sync_file_range, fd, off, n, flags);
    long us = get_delay();
    if (r == 0 && us > 0) {
        int p = get_sfr_policy();
        if (p == SFR_ALL || (p == SFR_WAIT && (flags & (SYNC_FILE_RANGE_WAIT_BEFORE |
                                                        SYNC_FILE_RANGE_WAIT_AFTER)) != 0))
            do_delay(us);
    }
    return r;
}

/* ---- writes: delayed only on O_SYNC / O_DSYNC descriptors ----------- */

static ssize_t after_write(int fd, ssize_t r)
{
    if (r >= 0) {
        long us = get_delay();
        if (us > 0 && fd_is_sync(fd))
            do_delay(us);
    }
    return r;
}

DISKIO_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
    NEXT(write_fn, write);
    ssize_t r = real ? real(fd, buf, n) : syscall_next()(SYS_write, fd, buf, n);
    return after_write(fd, r);
}

DISKIO_EXPORT ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    NEXT(pwrite_fn, pwrite);
    ssize_t r = real ? real(fd, buf, n, off) : syscall_next()(SYS_pwrite64, fd, buf, n, off);
    return after_write(fd, r);
}

DISKIO_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    NEXT(pwrite64_fn, pwrite64);
    ssize_t r = real ? real(fd, buf, n, off) : syscall_next()(SYS_pwrite64, fd, buf, n, off);
    return after_write(fd, r);
}

DISKIO_EXPORT ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    NEXT(writev_fn, writev);
    ssize_t r = real ? real(fd, iov, cnt) : syscall_next()(SYS_writev, fd, iov, cnt);
    return after_write(fd, r);
}

/* The raw pwritev system call takes the offset split in two longs. */
#define POS_LO(off) ((unsigned long)(off))
#define POS_HI(off) ((unsigned long)((uint64_t)(off) >> 32 >> 32))

DISKIO_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
    NEXT(pwritev_fn, pwritev);
    ssize_t r = real ? real(fd, iov, cnt, off)
                     : syscall_next()(SYS_pwritev, fd, iov, cnt, POS_LO(off), POS_HI(off));
    return after_write(fd, r);
}

DISKIO_EXPORT ssize_t pwritev64(int fd, const struct iovec *iov, int cnt, off64_t off)
{
    NEXT(pwritev64_fn, pwritev64);
    ssize_t r = real ? real(fd, iov, cnt, off)
                     : syscall_next()(SYS_pwritev, fd, iov, cnt, POS_LO(off), POS_HI(off));
    return after_write(fd, r);
}

/* RWF_DSYNC/RWF_SYNC make a single pwritev2 durable: delayed like a sync
 * whatever the descriptor's flags; otherwise as any other write. */
static ssize_t after_pwritev2(int fd, ssize_t r, int flags)
{
    if (r >= 0 && (flags & (RWF_DSYNC | RWF_SYNC)) != 0) {
        long us = get_delay();
        if (us > 0)
            do_delay(us);
        return r;
    }
    return after_write(fd, r);
}

DISKIO_EXPORT ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
    NEXT(pwritev2_fn, pwritev2);
    ssize_t r = real ? real(fd, iov, cnt, off, flags)
                     : syscall_next()(SYS_pwritev2, fd, iov, cnt, POS_LO(off), POS_HI(off), flags);
    return after_pwritev2(fd, r, flags);
}

DISKIO_EXPORT ssize_t pwritev64v2(int fd, const struct iovec *iov, int cnt, off64_t off, int flags)
{
    NEXT(pwritev64v2_fn, pwritev64v2);
    ssize_t r = real ? real(fd, iov, cnt, off, flags)
                     : syscall_next()(SYS_pwritev2, fd, iov, cnt, POS_LO(off), POS_HI(off), flags);
    return after_pwritev2(fd, r, flags);
}
