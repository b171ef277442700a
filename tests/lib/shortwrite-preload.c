/* SPDX-License-Identifier: MIT */
/*
 * Description: a test hook, loaded with LD_PRELOAD: pwrite() writes only
 * half of what it is asked (rounded to 512 bytes, so O_DIRECT stays
 * aligned) on every 3rd call and fails with EINTR before writing on every
 * 5th; fsync() and fdatasync() fail with EINTR on every 4th call.  All of
 * this is what the syscalls may legally do.  At exit it reports on stderr
 * how often it interfered, so a test can see that it did.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned long write_calls, short_writes, interrupted_writes;
static unsigned long sync_calls, interrupted_syncs;

static ssize_t interfere(ssize_t (*real)(int, const void *, size_t, off_t), int fd, const void *buf,
                         size_t count, off_t offset)
{
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
                "%lu interrupted syncs\n",
                short_writes, interrupted_writes, interrupted_syncs);
}
