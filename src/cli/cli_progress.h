/* SPDX-License-Identifier: MIT */
/* The progress line: a thread that reads what the engine publishes (the
 * op counter stored after every op, the fill's progress, the running
 * histogram) and, once a run has lasted a second, redraws one line on
 * the terminal in place. */
#ifndef DISKIO_CLI_PROGRESS_H
#define DISKIO_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "diskio.h"

struct progress {
    pthread_t thread;
    bool running;
    volatile bool done;
    /* Held by the thread while it copies the running histogram and draws
     * the line, and by progress_run_end(): once that returns the thread
     * neither reads the run's histogram nor draws until the next
     * progress_run_start(), so the run may be freed and messages written. */
    pthread_mutex_t lock;
    /* stored by the library through cfg.progress, cfg.fill_progress and
     * cfg.live_hist */
    volatile uint64_t ops;
    volatile uint64_t filled;
    const struct diskio_hist *volatile live;
    /* the run being measured, set by progress_run_start() */
    bool active;
    char what[96];    /* "fdatasync 8 KiB" */
    char where[1024]; /* the target, shown safely (cut to fit when drawn) */
    const char *target;
    unsigned run, runs; /* run i of N */
    uint64_t fill_total, count, runtime_ns;
    uint64_t run_start_ns;     /* the run's start (its fill included) */
    uint64_t measure_start_ns; /* when the thread first saw live set */
    bool printed;
    bool step; /* a step before the runs (progress_step_start): what and how far */
};

/* Start the thread on p (zeroed, target set): 0, or an errno. */
int progress_start(struct progress *p, const char *target);
/* A run begins: what it is, which of how many, how long it lasts. */
void progress_run_start(struct progress *p, const struct diskio_config *cfg, unsigned run,
                        unsigned runs);
/* A step that is not a run (--precondition): its name, and how far it
 * got (p->filled) of total bytes; ended by progress_run_end(). */
void progress_step_start(struct progress *p, const char *what, uint64_t total);
/* The run returned: the line is erased, and the run's histogram is no
 * longer read. */
void progress_run_end(struct progress *p);
/* Stop and join the thread; the line is erased. */
void progress_stop(struct progress *p);

/* The thread: start it with pthread_create(..., progress_main, p). */
void *progress_main(void *arg);

/* For tests and the line: "8 KiB", "64 MiB", "512 B", "1.5 MiB". */
const char *progress_size(char *buf, size_t size, uint64_t bytes);

#endif
