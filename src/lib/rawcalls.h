/* SPDX-License-Identifier: MIT */
/*
 * The calls a timed op makes, as system calls and nothing else.
 *
 * glibc's pwrite, pwritev2, pread, fsync and fdatasync are cancellation
 * points: once a process has had a second thread (diskio's wake-up probe
 * and progress line start one before any run), every such call sets and
 * clears the calling thread's cancellation state around the system call,
 * two atomic read-modify-writes (lock cmpxchg) inside the op's two clock
 * reads.  A single-threaded program such as a bare loop, pg_test_fsync or
 * a PostgreSQL backend never pays them.  diskio never cancels a thread,
 * so it calls the kernel through syscall(2), which is no cancellation
 * point: what is timed is the call, as those programs make it.  Same
 * results and errno as the glibc calls.
 */
#ifndef DISKIO_RAWCALLS_H
#define DISKIO_RAWCALLS_H

#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static inline ssize_t raw_pwrite(int fd, const void *buf, size_t len, off_t offset)
{
    return syscall(SYS_pwrite64, fd, buf, len, offset);
}

static inline ssize_t raw_pread(int fd, void *buf, size_t len, off_t offset)
{
    return syscall(SYS_pread64, fd, buf, len, offset);
}

/* pwritev2(2): the offset in two words (low, high) as the kernel takes
 * it, the high one 0 on a 64-bit machine (glibc's LO_HI_LONG). */
static inline ssize_t raw_pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset,
                                   int flags)
{
    return syscall(SYS_pwritev2, fd, iov, iovcnt, (long)offset,
                   (long)((unsigned long long)offset >> (sizeof(long) * 4) >> (sizeof(long) * 4)),
                   flags);
}

static inline int raw_fsync(int fd)
{
    return (int)syscall(SYS_fsync, fd);
}

static inline int raw_fdatasync(int fd)
{
    return (int)syscall(SYS_fdatasync, fd);
}

#endif
