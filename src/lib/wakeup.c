/* SPDX-License-Identifier: MIT */
/*
 * What waking a task on another CPU costs on this machine: part of every
 * sync's latency that is not the storage's.  A sync ends when the task
 * that waited for it runs again; where the interrupt or the worker that
 * completes it runs on another CPU, the wake-up crosses CPUs, and on a
 * VM whose idle vCPUs halt it goes through the hypervisor (tens of
 * microseconds where bare metal takes a few).  Two machines whose disks
 * are alike can differ by that much per sync, so the result records it.
 *
 * Two threads, pinned to two CPUs the process may run on, pass a byte
 * back and forth through two pipes, each blocking in read() while the
 * other works: every write wakes a task asleep on a CPU that went idle
 * meanwhile.  Half the median round trip is the figure (it includes a
 * pipe write and read, a few microseconds; bench/wake-cost.c measures
 * the same-CPU reference beside it).  A few milliseconds, once per
 * invocation, before any run.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "diskio_internal.h"

enum { WARMUP_TRIPS = 20, MEASURED_TRIPS = 101 };

struct partner {
    int to_partner[2], to_main[2];
};

/* Echo every byte back until the pipe closes. */
static void *echo(void *arg)
{
    struct partner *p = arg;
    char byte;
    while (read(p->to_partner[0], &byte, 1) == 1)
        if (write(p->to_main[1], &byte, 1) != 1)
            break;
    return NULL;
}

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The first two CPUs of set, or -1. */
static int two_cpus(const cpu_set_t *set, int *first, int *second)
{
    int found = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        if (found++ == 0)
            *first = cpu;
        else
            *second = cpu;
    }
    return found == 2 ? 0 : -1;
}

/* Round trips through the partner; the median's half, or -1. */
static int64_t round_trips(struct partner *p)
{
    uint64_t trip_ns[MEASURED_TRIPS];
    char byte = 'w';
    for (int i = 0; i < WARMUP_TRIPS + MEASURED_TRIPS; i++) {
        const uint64_t start_ns = diskio_now_ns();
        if (write(p->to_partner[1], &byte, 1) != 1 || read(p->to_main[0], &byte, 1) != 1)
            return -1;
        if (i >= WARMUP_TRIPS)
            trip_ns[i - WARMUP_TRIPS] = diskio_now_ns() - start_ns;
    }
    qsort(trip_ns, MEASURED_TRIPS, sizeof(trip_ns[0]), compare_u64);
    return (int64_t)(trip_ns[MEASURED_TRIPS / 2] / 2);
}

int64_t wakeup_probe_ns(void)
{
    cpu_set_t allowed, here, there;
    int first, second;
    if (pthread_getaffinity_np(pthread_self(), sizeof(allowed), &allowed) != 0 ||
        two_cpus(&allowed, &first, &second) != 0)
        return -1;
    CPU_ZERO(&here);
    CPU_SET(first, &here);
    CPU_ZERO(&there);
    CPU_SET(second, &there);

    struct partner p;
    if (pipe(p.to_partner) != 0)
        return -1;
    if (pipe(p.to_main) != 0) {
        close(p.to_partner[0]);
        close(p.to_partner[1]);
        return -1;
    }
    int64_t result = -1;
    pthread_attr_t attr;
    pthread_t thread;
    bool started = false;
    if (pthread_attr_init(&attr) == 0) {
        started = pthread_attr_setaffinity_np(&attr, sizeof(there), &there) == 0 &&
                  pthread_create(&thread, &attr, echo, &p) == 0;
        pthread_attr_destroy(&attr);
    }
    if (started && pthread_setaffinity_np(pthread_self(), sizeof(here), &here) == 0) {
        result = round_trips(&p);
        /* back to every CPU it had: the runs choose their own */
        pthread_setaffinity_np(pthread_self(), sizeof(allowed), &allowed);
    }
    close(p.to_partner[1]); /* the partner's read() returns 0: it ends */
    if (started)
        pthread_join(thread, NULL);
    close(p.to_partner[0]);
    close(p.to_main[0]);
    close(p.to_main[1]);
    return result;
}
