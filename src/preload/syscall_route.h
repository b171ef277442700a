/* SPDX-License-Identifier: MIT */
/*
 * A preload's syscall(2).  diskio makes the calls it times through
 * syscall() (src/lib/rawcalls.h: glibc's wrappers are cancellation points
 * that cost two atomic operations per call in a threaded process), so a
 * library that interposes pwrite, fsync and the rest must take them there
 * too.  The numbers diskio calls that way go to the includer's own
 * pwrite, pwritev2, pread, fsync and fdatasync (libc's where it defines
 * none); every other number goes to libc's syscall() unchanged.  Include
 * it once, in a preload linked with -ldl.
 */
#ifndef DISKIO_SYSCALL_ROUTE_H
#define DISKIO_SYSCALL_ROUTE_H

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* the calls routed: a preload may report them */
static unsigned long syscall_routed;

static long no_syscall(long number, ...)
{
    (void)number;
    errno = ENOSYS;
    return -1;
}

/* libc's own syscall(), for an includer's calls that must reach the
 * kernel (this file's syscall() is the includer's): call it as
 * syscall_next()(SYS_write, 2, msg, len). */
static long (*syscall_next(void))(long, ...)
{
    static long (*real)(long, ...);
    if (!real) {
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
        if (!real)
            real = no_syscall;
    }
    return real;
}

long syscall(long number, ...)
{
    /* as libc's own syscall() does: six argument words, whatever the
     * call takes */
    long a[6];
    va_list ap;
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    switch (number) {
    case SYS_pwrite64:
    case SYS_pread64:
    case SYS_pwritev2:
    case SYS_fsync:
    case SYS_fdatasync: syscall_routed++; break;
    default: break;
    }
    switch (number) {
    /* the argument words are the caller's pointers, passed as longs as
     * syscall() takes them */
    case SYS_pwrite64:
        return pwrite((int)a[0], (const void *)a[1], // NOLINT(performance-no-int-to-ptr)
                      (size_t)a[2], (off_t)a[3]);
    case SYS_pread64:
        return pread((int)a[0], (void *)a[1], // NOLINT(performance-no-int-to-ptr)
                     (size_t)a[2], (off_t)a[3]);
    /* fd, iov, iovcnt, the offset's low and high words, flags */
    case SYS_pwritev2:
        return pwritev2((int)a[0],
                        (const struct iovec *)a[1], // NOLINT(performance-no-int-to-ptr)
                        (int)a[2], (off_t)a[3], (int)a[5]);
    case SYS_fsync: return fsync((int)a[0]);
    case SYS_fdatasync: return fdatasync((int)a[0]);
    default: break;
    }
    return syscall_next()(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#endif
