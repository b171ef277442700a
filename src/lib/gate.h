/* SPDX-License-Identifier: MIT */
/*
 * The start gate of a run's threads (the runner core's workers,
 * runner.c: several jobs, several committers): every thread through its setup,
 * then the warmups together, then every thread through its warmup, then
 * the measured ops from one start, the caller's thread opening each step
 * and meanwhile doing its own rounds every 5 ms (relaying a stop, summing
 * the progress).  Nothing of it runs between two clock reads.
 */
#ifndef DISKIO_GATE_H
#define DISKIO_GATE_H

#include <pthread.h>

#include "diskio_internal.h"

struct start_gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned ready;  /* threads through their setup */
    unsigned warmed; /* threads through their warmup (or failed before it) */
    unsigned done;   /* threads through their measured ops */
    bool warm_go;    /* the warmups may start */
    bool go;         /* the measured ops may start */
    bool abort;      /* no thread measures: one is missing, a warmup failed, a stop */
    /* set before go opens: the common start and deadline */
    uint64_t start_ns, deadline_ns;
};
/* A thread: counted in *counter (g->ready, g->warmed), then waits until
 * *open (g->warm_go, g->go) is set.  Returns !g->abort: whether to go
 * on. */
bool gate_arrive(struct start_gate *g, unsigned *counter, const bool *open);
/* A thread: counted in *counter (g->done), waiting for nothing. */
void gate_leave(struct start_gate *g, unsigned *counter);
/* The caller's thread, with g->lock held: until *counter reaches want,
 * wakes at least every 5 ms to call round(ctx). */
void gate_wait(struct start_gate *g, const unsigned *counter, unsigned want,
               void (*round)(void *ctx), void *ctx);
/* The caller's thread, with g->lock held: *flag set, every thread told. */
void gate_open(struct start_gate *g, bool *flag);

#endif
