/* SPDX-License-Identifier: MIT */
/*
 * record-threads: the record path per thread is the same with one thread
 * as with several, as diskio --jobs and diskio_run_threads() use it: each
 * thread records into a histogram of its own (no lock, no atomic, no
 * shared cache line), so N threads should each pay what one thread pays.
 *
 * First one thread records R values (the 1-thread reference), then N
 * threads record R values each at the same time, into their own
 * histograms; every figure is nanoseconds of the thread's own CPU time
 * per record (CLOCK_THREAD_CPUTIME_ID), so threads that wait for a core
 * on a busy machine are not charged for the wait, and the best of 5
 * rounds is kept.  Printed: one JSON line with the reference, each
 * thread's ns per record and the worst ratio to the reference.  On a
 * machine with fewer cores than threads, CPU caches are shared by the
 * threads taking turns on a core, which a ratio above 1 can show; the
 * record path itself has nothing shared to contend on.
 *
 *   cc -O2 -pthread record-threads.c $(pkg-config --cflags --libs libdiskio)
 *   ./record-threads [THREADS [RECORDS]]     (default 4 and 2000000)
 *
 * Exit status: 0, or 1 when a histogram lost a value.
 */
#include <diskio.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TABLE 4096
#define ROUNDS 5
#define MAX_THREADS 256

static uint64_t values[TABLE];
static uint64_t records;

struct worker {
    struct diskio_hist *hist;
    double ns_per_record;
    pthread_t thread;
};

static pthread_barrier_t start;

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *record_all(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(&start);
    uint64_t t0 = thread_cpu_ns();
    for (uint64_t i = 0; i < records; i++)
        diskio_hist_record(w->hist, values[i & (TABLE - 1)]);
    w->ns_per_record = (double)(thread_cpu_ns() - t0) / (double)records;
    return NULL;
}

/* One round of n threads; the per-thread figures in best[] (kept when
 * lower).  false when a thread could not be made. */
static bool round_of(unsigned n, struct worker *w, double *best)
{
    pthread_barrier_init(&start, NULL, n);
    unsigned made = 0;
    for (; made < n; made++) {
        diskio_hist_reset(w[made].hist);
        if (pthread_create(&w[made].thread, NULL, record_all, &w[made]) != 0)
            break;
    }
    if (made < n) {
        fprintf(stderr, "record-threads: cannot create thread %u\n", made);
        exit(1);
    }
    for (unsigned t = 0; t < n; t++) {
        pthread_join(w[t].thread, NULL);
        if (w[t].ns_per_record < best[t])
            best[t] = w[t].ns_per_record;
    }
    pthread_barrier_destroy(&start);
    return true;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 4;
    records = argc > 2 ? strtoull(argv[2], NULL, 10) : 2000000;
    if (n < 1 || n > MAX_THREADS || records < 1) {
        fprintf(stderr, "usage: record-threads [THREADS (1-256) [RECORDS]]\n");
        return 2;
    }
    /* the same log-uniform spread as record-cost.c */
    uint64_t x = 0x243F6A8885A308D3u;
    for (int i = 0; i < TABLE; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned magnitude = (unsigned)(x % 25);
        uint64_t base = UINT64_C(1) << magnitude;
        values[i] = base + ((x >> 8) & (base - 1));
    }
    static struct worker w[MAX_THREADS];
    for (unsigned t = 0; t < n; t++)
        if (diskio_hist_new(&w[t].hist) != 0) {
            fprintf(stderr, "record-threads: out of memory\n");
            return 1;
        }

    double ref = 1e300, best[MAX_THREADS];
    for (unsigned t = 0; t < n; t++)
        best[t] = 1e300;
    /* alternate the reference and the threaded rounds, so that a slow
     * minute of the machine falls on both */
    for (int r = 0; r < ROUNDS; r++) {
        round_of(1, w, &ref);
        round_of(n, w, best);
    }
    int lost = 0;
    for (unsigned t = 0; t < n; t++)
        lost |= diskio_hist_count(w[t].hist) != records;

    double worst = 0;
    printf("{\"threads\":%u,\"records_per_thread\":%llu,\"ref_ns_per_record\":%.2f,"
           "\"ns_per_record\":[",
           n, (unsigned long long)records, ref);
    for (unsigned t = 0; t < n; t++) {
        printf("%s%.2f", t ? "," : "", best[t]);
        if (best[t] > worst)
            worst = best[t];
    }
    printf("],\"worst_ratio\":%.3f}\n", worst / ref);
    for (unsigned t = 0; t < n; t++)
        diskio_hist_free(w[t].hist);
    return lost ? 1 : 0;
}
