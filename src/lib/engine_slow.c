/* SPDX-License-Identifier: MIT */
/*
 * The timed loops' slow paths: short and interrupted writes, interrupted
 * syncs, a check of what was read, the append pattern's wrap and the fixed
 * rate's wait (the trace's batch output is trace.c).  They run between operations or after a failed call,
 * never on the common path, and call nothing in the loops.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "engine_slow.h"
#include "rawcalls.h"

ssize_t write_rest(int fd, const unsigned char *buf, uint64_t len, uint64_t offset, ssize_t first)
{
    return write_rest_flags(fd, buf, len, offset, first, 0);
}

ssize_t write_rest_flags(int fd, const unsigned char *buf, uint64_t len, uint64_t offset,
                         ssize_t first, int write_flags)
{
    uint64_t done = 0;
    ssize_t n = first;
    for (;;) {
        if (n < 0) {
            if (errno != EINTR)
                return -errno;
            /* interrupted before writing anything: write() semantics say
             * retry */
        } else if (n == 0) {
            return -DISKIO_E_SHORT_WRITE;
        } else {
            done += (uint64_t)n;
            if (done == len)
                return (ssize_t)len;
            /* a short write: the rest still has to go out for the op to be
             * the op we claim to time */
        }
        if (write_flags) {
            const struct iovec iov = {.iov_base = (void *)(buf + done), .iov_len = len - done};
            n = raw_pwritev2(fd, &iov, 1, (off_t)(offset + done), write_flags);
        } else {
            n = raw_pwrite(fd, buf + done, len - done, (off_t)(offset + done));
        }
    }
}

ssize_t read_rest(int fd, unsigned char *buf, uint64_t len, uint64_t offset, ssize_t first)
{
    uint64_t done = 0;
    ssize_t n = first;
    for (;;) {
        if (n < 0) {
            if (errno != EINTR)
                return -errno;
        } else if (n == 0) {
            /* the end of the file: the test file is shorter than its size */
            return -DISKIO_E_SHORT_READ;
        } else {
            done += (uint64_t)n;
            if (done == len)
                return (ssize_t)len;
        }
        n = raw_pread(fd, buf + done, len - done, (off_t)(offset + done));
    }
}

bool verify_block(const struct engine *e, const unsigned char *buf, uint64_t offset)
{
    const uint64_t words = e->block_size / sizeof(uint64_t);
    const uint64_t first = offset / e->block_size * words;
    for (uint64_t i = 0; i < words; i++) {
        uint64_t got;
        memcpy(&got, buf + i * sizeof(got), sizeof(got));
        if (got != fill_word(e->fill_seed, first + i))
            return false;
    }
    return true;
}

void read_wrap(struct engine *e)
{
    /* untimed: before the op's clock starts; a failure only leaves pages
     * cached, which the device figures show */
    (void)posix_fadvise(e->fd, 0, 0, POSIX_FADV_DONTNEED);
}

int sync_retry(int fd, int (*sync_fn)(int))
{
    int rc = -1;
    while (rc != 0) {
        if (errno != EINTR)
            return -errno;
        rc = sync_fn(fd);
    }
    return 0;
}

int append_wrap(struct engine *e)
{
    /* The file reached its size: start growing it again from empty. */
    if (ftruncate(e->fd, 0) != 0) {
        e->error = -errno;
        e->error_during = "truncate";
        return e->error;
    }
    return 0;
}

/* Sleep until shortly before due_ns, then spin to it: a timer wakeup is
 * late by the timer slack and the scheduler's latency, which would blur
 * the schedule that a fixed rate promises.  How long before is measured
 * per run (wakeup_overshoot_ns()), not guessed: a fixed margin shorter
 * than the wake-up latency makes every op start late, and diskio's own
 * lateness would be charged to the storage.  An op due at or after the
 * run's deadline is never issued: the wait then ends at the deadline (a
 * --rate slower than 1/--runtime must not stretch the run to the next due
 * time) and says no.  Returns early, saying no, when asked to stop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Sleep until wake_ns on CLOCK_MONOTONIC; false when stop rose. */
static bool sleep_until(uint64_t wake_ns, const volatile sig_atomic_t *stop)
{
    struct timespec wake = {.tv_sec = (time_t)(wake_ns / 1000000000u),
                            .tv_nsec = (long)(wake_ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL) == EINTR)
        if (*stop)
            return false;
    return true;
}

bool wait_until(uint64_t due_ns, uint64_t deadline_ns, uint64_t spin_margin_ns,
                const volatile sig_atomic_t *stop)
{
    if (due_ns >= deadline_ns) {
        /* the run ends at its deadline, with no op issued after it */
        (void)sleep_until(deadline_ns, stop);
        return false;
    }
    uint64_t now = now_ns();
    if (due_ns > now + spin_margin_ns && !sleep_until(due_ns - spin_margin_ns, stop))
        return false;
    while (now_ns() < due_ns && !*stop)
        cpu_relax();
    return !*stop;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t wakeup_overshoot_ns(void)
{
    /* 100 sleeps of 20 us (about 10 ms in all, before the run): enough
     * for a 99th percentile that sees an occasional slow wake-up */
    enum { SAMPLES = 100 };
    uint64_t late[SAMPLES];
    for (unsigned i = 0; i < SAMPLES; i++) {
        uint64_t wake = now_ns() + 20000u;
        struct timespec ts = {.tv_sec = (time_t)(wake / 1000000000u),
                              .tv_nsec = (long)(wake % 1000000000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
        uint64_t now = now_ns();
        late[i] = now > wake ? now - wake : 0;
    }
    qsort(late, SAMPLES, sizeof(late[0]), cmp_u64);
    return late[SAMPLES * 99 / 100];
}
