/* SPDX-License-Identifier: MIT */
/*
 * Description: a test hook, loaded with LD_PRELOAD: pwrite() and
 * pwritev2() write only half of what they are asked (rounded to 512
 * bytes, so O_DIRECT stays aligned) on every 3rd call and fail with EINTR
 * before writing on every 5th; fsync() and fdatasync() fail with EINTR on
 * every 4th call.  All of this is what the syscalls may legally do.  At
 * exit it reports on stderr how often it interfered, so a test can see
 * that it did, and how many rests of a pwritev2() it cut short or
 * interrupted were written without that call's per-write flags (0 unless
 * the caller dropped them: RWF_DSYNC must cover the whole write).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* diskio's timed calls come through syscall(): routed to this file's
 * (or libc's) pwrite, fsync and the rest */
#include "syscall_route.h"

static unsigned long write_calls, short_writes, interrupted_writes;
static unsigned long sync_calls, interrupted_syncs;
/* a pwritev2() cut short or interrupted: its descriptor and flags, which
 * the call writing its rest must carry too */
static int rest_fd = -1, rest_flags;
static unsigned long flags_dropped;

static void check_rest(int fd, int flags)
{
    if (fd == rest_fd && flags != rest_flags)
        flags_dropped++;
    rest_fd = -1;
}

static ssize_t interfere(ssize_t (*real)(int, const void *, size_t, off_t), int fd, const void *buf,
                         size_t count, off_t offset)
{
    check_rest(fd, 0);
    write_calls++;
    if (write_calls % 5 == 0) {
        interrupted_writes++;
        errno = EINTR;
        return -1;
    }
    if (write_calls % 3 == 0 && count >= 1024) {
        short_writes++;
        count = (count / 2) & ~(size_t)511;
    }
    return real(fd, buf, count, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    return interfere(real, fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
    return interfere(real, fd, buf, count, offset);
}

static ssize_t interfere_v2(const char *name, int fd, const struct iovec *iov, int iovcnt,
                            off_t offset, int flags)
{
    ssize_t (*real)(int, const struct iovec *, int, off_t, int) =
        (ssize_t(*)(int, const struct iovec *, int, off_t, int))dlsym(RTLD_NEXT, name);
    check_rest(fd, flags);
    write_calls++;
    if (write_calls % 5 == 0) {
        interrupted_writes++;
        rest_fd = fd;
        rest_flags = flags;
        errno = EINTR;
        return -1;
    }
    if (write_calls % 3 == 0 && iovcnt == 1 && iov[0].iov_len >= 1024) {
        short_writes++;
        struct iovec half = {iov[0].iov_base, (iov[0].iov_len / 2) & ~(size_t)511};
        ssize_t n = real(fd, &half, 1, offset, flags);
        rest_fd = fd;
        rest_flags = flags;
        return n;
    }
    return real(fd, iov, iovcnt, offset, flags);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
    return interfere_v2("pwritev2", fd, iov, iovcnt, offset, flags);
}

ssize_t pwritev64v2(int fd, const struct iovec *iov, int iovcnt, off64_t offset, int flags)
{
    return interfere_v2("pwritev64v2", fd, iov, iovcnt, offset, flags);
}

static int interfere_sync(int (*real)(int), int fd)
{
    if (++sync_calls % 4 == 0) {
        interrupted_syncs++;
        errno = EINTR;
        return -1;
    }
    return real(fd);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return interfere_sync(real, fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return interfere_sync(real, fd);
}

__attribute__((destructor)) static void report(void)
{
    if (write_calls || sync_calls)
        fprintf(stderr,
                "shortwrite-preload: %lu short writes, %lu interrupted writes, "
                "%lu interrupted syncs, %lu rests without their write's flags, "
                "%lu calls through syscall()\n",
                short_writes, interrupted_writes, interrupted_syncs, flags_dropped, syscall_routed);
}
