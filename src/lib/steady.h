/* SPDX-License-Identifier: MIT */
/*
 * Steady state inside the library (steady.c): a run's state judged from
 * its series, repetitions' states merged, and the watch that ends a run
 * made with config.steady once its window is steady.
 */
#ifndef DISKIO_STEADY_H
#define DISKIO_STEADY_H

#include <pthread.h>
#include <signal.h>

#include "diskio_internal.h"

/* The window figures of n values y (n >= 2) of intervals of interval_s
 * seconds into st: average, range_pct, slope_pct, slope_per_min (pure). */
void steady_window_figures(const double *y, size_t n, double interval_s,
                           struct diskio_steady_state *st);
/* Intervals [from, to) of series judged as one run: its ramp and times
 * from interval from's start, its indices the series'. */
int steady_judge_series(const struct series *series, size_t from, size_t to,
                        const struct diskio_steady_spec *spec, uint64_t interval_ns,
                        struct diskio_steady_state *out);
/* A finished run made with spec: its state from its series, into
 * run->steady.  0 or -ENOMEM. */
int steady_record(struct diskio_run *run, const struct diskio_steady_spec *spec,
                  uint64_t interval_ns);
/* A repetition's states after into's, their intervals offset by offset
 * (the intervals into's series held before the repetition's). */
int steady_merge(struct diskio_run *into, const struct diskio_run *rep, size_t offset);
/* Add the latencies of st's window of run's series into into. */
int steady_window_hist(const struct diskio_run *run, const struct diskio_steady_state *st,
                       struct diskio_hist *into);

/*
 * The watch over a running run: the intervals each of its series has
 * closed (series->closed), added up interval by interval, judged; once
 * steady, *raise is set (the jobs' stop flag, read between ops), and
 * steady says why.  A stop of the caller's (*user_stop) is relayed to
 * *raise too.  Polled by the caller's rounds (several jobs) or by a
 * thread of its own (steady_watch_start(): one job, on the caller's
 * thread).
 */
struct steady_watch {
    struct diskio_steady *judge;
    struct diskio_hist *scratch;
    struct series *const *series;
    unsigned nseries;
    uint64_t interval_ns;
    size_t next; /* the next interval to judge */
    volatile sig_atomic_t *raise;
    const volatile sig_atomic_t *user_stop;
    volatile bool steady;
    bool quit, running;
    pthread_t thread;
};
int steady_watch_init(struct steady_watch *w, const struct diskio_config *cfg,
                      struct series *const *series, unsigned nseries, volatile sig_atomic_t *raise,
                      const volatile sig_atomic_t *user_stop);
void steady_watch_poll(struct steady_watch *w);
int steady_watch_start(struct steady_watch *w);
void steady_watch_stop(struct steady_watch *w);
void steady_watch_free(struct steady_watch *w);

#endif
