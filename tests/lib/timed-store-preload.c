/* SPDX-License-Identifier: MIT */
/*
 * Description: a test hook, loaded with LD_PRELOAD, for a store whose sync
 * latency is known and changes with time in a chosen way.  Every fsync()
 * and fdatasync() (diskio's timed ones come through syscall(2):
 * syscall_route.h sends them here) takes as long as the profile says at
 * that moment, counted from the first sync after diskio's first timed call
 * (its warmup; the fill before it is not timed here):
 *   DISKIO_STORE=rise: DISKIO_STORE_BASE_US at first, rising in a
 *     straight line to DISKIO_STORE_PEAK_US over DISKIO_STORE_RISE_MS,
 *     then flat at the peak (a disk whose latency climbs for a while, then
 *     settles: an SSD's write cliff, a RAID cache filling);
 *   DISKIO_STORE=burst: DISKIO_STORE_PEAK_US during the first
 *     DISKIO_STORE_RISE_MS, then DISKIO_STORE_BASE_US for good (a cloud
 *     volume's burst credits: fast, then the baseline; PEAK below BASE);
 *   DISKIO_STORE=serial: DISKIO_STORE_BASE_US each, one sync at a time
 *     (a mutex held through the sleep): a store with a fixed service time,
 *     whose capacity is 1 / that time however many ask at once.
 * The sync itself is not made (the test measures the profile, not the
 * machine's storage).  The sleeps run to an absolute deadline with a
 * timer slack of 1 ns, so that they last what the profile says.
 *   DISKIO_STORE_COUNT=1 (with any profile, or none): at exit, how many
 *     pwrite() calls of 1 MiB there were and how many of other lengths,
 *     on stderr: "timed-store: N writes of 1 MiB, M others" (what wrote
 *     the file: --precondition's writes, or the runs' and their fill's).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* diskio's timed calls come through syscall(): routed to this file's
 * fsync and fdatasync */
#include "syscall_route.h"

enum profile { NONE, RISE, BURST, SERIAL };

static enum profile profile = NONE;
static uint64_t base_ns, peak_ns, rise_ns;
static uint64_t origin_ns; /* the first timed sync; 0: not yet */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long writes_mib, writes_other;
static int counting;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t env_us(const char *name)
{
    const char *v = getenv(name);
    return v ? strtoull(v, NULL, 10) * 1000u : 0;
}

__attribute__((constructor)) static void store_init(void)
{
    counting = getenv("DISKIO_STORE_COUNT") != NULL;
    const char *p = getenv("DISKIO_STORE");
    if (!p)
        return;
    profile = strcmp(p, "rise") == 0     ? RISE
              : strcmp(p, "burst") == 0  ? BURST
              : strcmp(p, "serial") == 0 ? SERIAL
                                         : NONE;
    base_ns = env_us("DISKIO_STORE_BASE_US");
    peak_ns = env_us("DISKIO_STORE_PEAK_US");
    rise_ns = env_us("DISKIO_STORE_RISE_MS") * 1000u;
    /* threads made later inherit it */
    (void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

/* How long a sync starting at t takes. */
static uint64_t latency_at(uint64_t t)
{
    const uint64_t since = t - origin_ns;
    switch (profile) {
    case RISE:
        if (since >= rise_ns)
            return peak_ns;
        return base_ns + (uint64_t)((double)(peak_ns - base_ns) * (double)since / (double)rise_ns);
    case BURST: return since < rise_ns ? peak_ns : base_ns;
    default: return base_ns;
    }
}

static void sleep_until(uint64_t t)
{
    struct timespec ts = {(time_t)(t / 1000000000u), (long)(t % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
        ;
}

static int store_sync(void)
{
    const uint64_t t = now_ns();
    if (!__atomic_load_n(&origin_ns, __ATOMIC_ACQUIRE)) {
        if (!syscall_routed)
            return 0; /* before diskio's first timed call: the fill's */
        uint64_t zero = 0;
        __atomic_compare_exchange_n(&origin_ns, &zero, t, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
    }
    if (profile == SERIAL) {
        pthread_mutex_lock(&lock);
        sleep_until(now_ns() + base_ns);
        pthread_mutex_unlock(&lock);
        return 0;
    }
    sleep_until(t + latency_at(t));
    return 0;
}

__attribute__((destructor)) static void store_report(void)
{
    /* the process that wrote (not a helper it started) */
    if (!counting || writes_mib + writes_other == 0)
        return;
    char line[128];
    int n = snprintf(line, sizeof(line), "timed-store: %lu writes of 1 MiB, %lu others\n",
                     writes_mib, writes_other);
    ssize_t r = write(2, line, (size_t)n);
    (void)r;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t offset)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    ssize_t n = real(fd, buf, len, offset);
    if (n > 0)
        __atomic_add_fetch(len == (1u << 20) ? &writes_mib : &writes_other, 1, __ATOMIC_RELAXED);
    return n;
}

int fsync(int fd)
{
    static int (*real)(int);
    if (profile != NONE)
        return store_sync();
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return real(fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (profile != NONE)
        return store_sync();
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return real(fd);
}
