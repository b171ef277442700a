/* SPDX-License-Identifier: MIT */
/*
 * The runner core (runner.c): how every pattern's run is driven, once.
 * A run is n workers (the plain patterns' jobs, the wal pattern's
 * committers, the checkpointer): one runs on the caller's thread,
 * several run a thread each, started together through the gate (gate.h):
 * every worker through its set-up, the warmups together, then the
 * measured ops from one start.  Meanwhile the caller's thread does its
 * rounds: it relays the caller's stop flag to the workers' own, polls a
 * steady-state watch, and sums the workers' progress into
 * config.progress.  The core also writes the trace's header (the pattern
 * table's), sets the live histogram around the measured ops, and gives
 * the measured ops their common start and deadline.  After them it
 * decides the run's outcome from what each worker says of itself (struct
 * runner_result): which worker's error is the run's, a missing thread,
 * an interruption, the run's figures and each worker's.
 *
 * A pattern says what a worker does in each step (struct runner_ops),
 * never how the steps are run: what it writes, when it syncs, what it
 * records, and when a worker's failure is timed are its own.  Nothing of
 * the core runs between two clock reads.
 */
#ifndef DISKIO_RUNNER_H
#define DISKIO_RUNNER_H

#include <pthread.h>
#include <signal.h>

#include "diskio_internal.h"
#include "gate.h"

struct steady_watch;
struct series;

/* The measured phase as the core opens it for every worker. */
struct runner_phase {
    uint64_t start_ns;    /* the common start (a fixed rate's origin) */
    uint64_t deadline_ns; /* start_ns + runtime, or UINT64_MAX */
    /* the flag the worker's ops read between them: the caller's (one
     * worker), or the core's, which relays it (threads, or a watch) */
    const volatile sig_atomic_t *stop;
};

/* What a worker does, step by step; w is its index, ctx the pattern's. */
struct runner_ops {
    /* on the worker's thread, before the warmups (NULL: nothing) */
    void (*setup)(void *ctx, unsigned w);
    /* its warmup; true when it ended in error (a stop included): with
     * threads the others are stopped and nobody measures; with one
     * worker runner_warm() says so, and the pattern decides whether its
     * run goes on */
    bool (*warm)(void *ctx, unsigned w);
    /* on the caller's thread, once the measured ops' start is known and
     * before any worker begins them (NULL: nothing) */
    void (*start)(void *ctx, const struct runner_phase *ph);
    /* its measured ops; true when they failed (not a stop): the others
     * stop.  A worker whose warmup failed is still called when the
     * pattern's run goes on (one worker): the step checks its own
     * state */
    bool (*measure)(void *ctx, unsigned w, const struct runner_phase *ph);
    /* on the worker's thread, after its measured ops (NULL: nothing) */
    void (*leave)(void *ctx, unsigned w);
};

struct runner_worker {
    struct runner *r;
    unsigned index;
    volatile uint64_t progress; /* several workers: its ops, summed by the rounds */
    pthread_t thread;
    bool started;
};

struct runner {
    const struct diskio_config *cfg;
    const struct runner_ops *ops;
    void *ctx;
    unsigned n;
    /* a thread per worker: several workers, or a custom run's one
     * (diskio_run_threads() promises its op a thread); set by
     * runner_init(), changed before runner_warm() */
    bool threads;
    struct runner_worker *workers;
    struct start_gate g;
    /* the workers' stop flag (threads, or a watch): raised by a
     * failing worker, a steady watch, or relayed from *user_stop */
    volatile sig_atomic_t stop;
    const volatile sig_atomic_t *user_stop; /* config.stop, or never */
    volatile uint64_t progress_sink;        /* config.progress when NULL */
    /* config.steady: the watch over the workers' series (runner_watch) */
    struct steady_watch *watch;
    unsigned started;    /* workers running (threads made) */
    bool aborted;        /* threads: nobody measured */
    bool steady_stopped; /* the watch (not the caller) ended the run */
    struct runner_phase phase;
};

/* A run of n workers doing ops for ctx.  0 or -ENOMEM (runner_free()
 * either way). */
int runner_init(struct runner *r, const struct diskio_config *cfg, unsigned n,
                const struct runner_ops *ops, void *ctx);
void runner_free(struct runner *r);
/* The stop flag the workers read until their measured ops (the fill's,
 * the warmup's): the caller's, or the core's with threads. */
const volatile sig_atomic_t *runner_stop(const struct runner *r);
/* Where worker w counts its ops: config.progress itself (one worker on
 * the caller's thread), or the worker's own, summed into it by the
 * rounds. */
volatile uint64_t *runner_progress(struct runner *r, unsigned w);

/* The trace's header, the pattern table's, written to config.trace_fd
 * (none without a trace): 0 or -errno. */
int runner_trace_header(const struct diskio_config *cfg);

/* Every worker through its set-up and warmup (several: their threads
 * started, the warmups together).  Returns false when nothing may be
 * measured: a warmup failed or was stopped, or a thread is missing. */
bool runner_warm(struct runner *r);
/* config.steady: a watch over the workers' series (one each, or the
 * run's one), which ends the measured ops once steady.  Without memory
 * for it the run goes to its runtime. */
void runner_watch(struct runner *r, struct series *const *series, unsigned nseries);
/* The measured ops from one start (r->phase), recorded live into live
 * (config.live_hist, one worker), until every worker has ended; then the
 * watch's verdict (r->steady_stopped).  Returns whether the run was
 * stopped (by the caller or a failing worker, not by the watch). */
bool runner_measure(struct runner *r, struct diskio_hist *live);

/* What a worker leaves for the run's outcome (the pattern says it,
 * struct runner_ops' result). */
struct runner_result {
    int error; /* 0, -errno, or -DISKIO_E_INTERRUPTED (stopped) */
    uint64_t error_op;
    const char *error_during;
    uint64_t fail_ns;          /* when its error (not a stop) was found */
    uint64_t ops, bytes;       /* its measured ops (0: none measured) */
    uint64_t end_ns;           /* the end of its measured ops (0: none) */
    struct diskio_hist **hist; /* its total: moved into its figures */
};
/* Worker w's result, as its pattern keeps it in arg. */
typedef void runner_result_fn(void *arg, unsigned w, struct runner_result *out);

/* The run's outcome from its workers' results, into info: the error of
 * the worker that failed first (error_job with threads); else a missing
 * thread (-EAGAIN); else, when stopped, an interruption at the first
 * worker's op with an error.  ops and bytes summed; the time from the
 * measured ops' start to the last worker's end (0, and no failing op,
 * when nothing was measured).  Returns the run's error. */
int runner_outcome(const struct runner *r, runner_result_fn *result, void *arg, bool stopped,
                   bool measured, struct diskio_run_info *info);
/* With threads, each worker's figures kept in run->jobs (allocated, n
 * of them) and its total histogram merged into the run's and moved into
 * its figures.  One worker recorded straight into the run: nothing. */
void runner_jobs(const struct runner *r, runner_result_fn *result, void *arg,
                 struct diskio_run *run);

#endif
