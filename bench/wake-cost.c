/* SPDX-License-Identifier: MIT */
/*
 * bench/wake-cost.c: what waking a task costs on this machine, by where
 * the woken task sleeps.
 *
 * A sync's latency as a program sees it ends when the task waiting for
 * it runs again, and a refresh of one client and one backend is a chain
 * of such wake-ups.  How long a wake-up takes depends on the machine
 * more than on the storage: on a VM whose idle vCPUs halt, waking a task
 * on another CPU goes through the hypervisor.  This measures it, so a
 * difference of tens of microseconds between two programs' syncs can be
 * weighed against it.
 *
 * Two threads pass a byte back and forth through two pipes, ROUND_TRIPS
 * times per run:
 *   same CPU     both pinned to CPU 0: each write wakes a task that then
 *                runs on the writer's CPU after it blocks (the reference);
 *   other CPU    the partner pinned to CPU 1 and blocking in read(): each
 *                write wakes a task on a CPU that went idle meanwhile;
 *   other, spin  the partner pinned to CPU 1 and polling a non-blocking
 *                read(): the byte crosses CPUs, nobody sleeps.
 * Rounds interleave the three; the medians of the rounds and each over
 * the same-CPU figure are printed.
 *
 *   cc -O2 -pthread bench/wake-cost.c -o wake-cost && ./wake-cost [ROUNDS]
 *
 * Needs two CPUs; exits 77 with fewer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { ROUND_TRIPS = 20000, KINDS = 3, MAX_ROUNDS = 99 };
static const char *const kind_name[KINDS] = {"same CPU", "other CPU", "other CPU, spinning"};

struct pair {
    int to_partner[2], to_main[2];
    int partner_cpu;
    int spin; /* the partner polls instead of blocking */
};

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static void *partner(void *arg)
{
    struct pair *p = arg;
    char byte;
    if (pin(p->partner_cpu) != 0)
        die("sched_setaffinity");
    for (int i = 0; i < ROUND_TRIPS; i++) {
        ssize_t n;
        while ((n = read(p->to_partner[0], &byte, 1)) != 1)
            if (n == 0 || (errno != EAGAIN && errno != EINTR))
                die("read");
        if (write(p->to_main[1], &byte, 1) != 1)
            die("write");
    }
    return NULL;
}

/* One run: microseconds per round trip. */
static double run(int kind)
{
    struct pair p = {.partner_cpu = kind == 0 ? 0 : 1, .spin = kind == 2};
    if (pipe(p.to_partner) != 0 || pipe(p.to_main) != 0)
        die("pipe");
    if (p.spin && fcntl(p.to_partner[0], F_SETFL, O_NONBLOCK) != 0)
        die("fcntl");
    pthread_t thread;
    if (pthread_create(&thread, NULL, partner, &p) != 0)
        die("pthread_create");
    char byte = 'x';
    /* the first round trip also waits for the partner to start and pin
     * itself: one of ROUND_TRIPS, under a part in a thousand here */
    const double start = now_us();
    for (int i = 0; i < ROUND_TRIPS; i++) {
        if (write(p.to_partner[1], &byte, 1) != 1 || read(p.to_main[0], &byte, 1) != 1)
            die("pipe round trip");
    }
    const double per_trip = (now_us() - start) / ROUND_TRIPS;
    pthread_join(thread, NULL);
    close(p.to_partner[0]);
    close(p.to_partner[1]);
    close(p.to_main[0]);
    close(p.to_main[1]);
    return per_trip;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "wake-cost: ROUNDS must be 1 to %d\n", MAX_ROUNDS);
        return 2;
    }
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        puts("SKIP: needs two CPUs");
        return 77;
    }
    if (pin(0) != 0)
        die("sched_setaffinity");
    double trip[KINDS][MAX_ROUNDS], ratio[KINDS][MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < KINDS; k++) {
            /* the order rotates, so no kind always follows another */
            int kind = (k + r) % KINDS;
            trip[kind][r] = run(kind);
        }
        for (int k = 0; k < KINDS; k++)
            ratio[k][r] = trip[k][r] / trip[0][r];
    }
    printf("%d rounds of %d round trips through two pipes, medians\n", rounds, ROUND_TRIPS);
    printf("| partner | us per round trip | over same CPU |\n|---|---:|---:|\n");
    for (int k = 0; k < KINDS; k++)
        printf("| %s | %.1f | %.2f |\n", kind_name[k], median(trip[k], rounds),
               median(ratio[k], rounds));
    return 0;
}
