/* SPDX-License-Identifier: MIT */
/*
 * The engine: what a mode's timed loop is given, all of it decided before
 * the loop starts.  struct engine is one job's (its descriptor, buffers,
 * offsets, stop flag and outcome); struct engine_phase one phase's (the
 * warmup or the measured ops: how many, until when, and the histograms,
 * trace and series they are recorded into).  The loops themselves are
 * engine_loop.h (engine_sync.c) and engine_queued.c; how a run sets an
 * engine up and records what it did is pipeline.h.
 */
#ifndef DISKIO_ENGINE_H
#define DISKIO_ENGINE_H

#include <signal.h>
#include <sys/types.h>

#include "diskio_internal.h"

struct trace;

struct engine_phase {
    uint64_t limit;       /* ops to issue */
    uint64_t deadline_ns; /* stop after the op that ends past this */
    struct diskio_hist *total, *write, *sync, *service;
    struct trace *trace;  /* NULL: not traced (warmup, or no --trace) */
    uint64_t schedule_ns; /* fixed rate: when op 0 is due */
    uint64_t done;        /* ops completed and recorded */
    uint64_t max_lag_ns;  /* fixed rate: largest start delay */
    /* fixed rate: every op's start lag (start - due), and the lag of the
     * ops whose predecessor had completed before they were due (diskio's
     * own lateness: nothing held them up but diskio) */
    struct diskio_hist *lag, *late_start;
    uint64_t backlog_ops;    /* ops due while their predecessor still ran */
    uint64_t backlog_max_ns; /* the largest start lag among those */
    /* NULL: no series (warmup, or no interval_ns); else started with the
     * phase (series_start) */
    struct series *series;
    /* NULL: none (warmup, or no config.op_hook); else called around
     * each op, outside its timed section */
    const struct diskio_op_hook *hook;
};

struct engine {
    const struct diskio_config *cfg;
    int fd;
    /* pool_blocks distinct random blocks of block_size bytes (see
     * data_pool_blocks() in pipeline.c); consecutive ops write from
     * different blocks, in the queued modes too (the least recently
     * freed block goes next) */
    unsigned char *buf;
    uint64_t pool_blocks;
    uint64_t block_size;
    uint64_t file_size;
    uint64_t nblocks;     /* file_size / block_size */
    uint64_t next_offset; /* seq and append */
    uint64_t rng;         /* rand */
    unsigned sync_every;
    uint64_t rate_interval_ns;
    /* fixed rate: the wait sleeps until this long before an op is due and
     * spins the rest (calibrated per run from measured wake-ups) */
    uint64_t spin_margin_ns;
    const volatile sig_atomic_t *stop;
    volatile uint64_t *progress;
    /* uncached read, seq: drop the file's pages when the reads wrap */
    bool drop_on_wrap;
    /* config.write_back: the percentage of reads whose block is written
     * back, and the generator that picks them */
    unsigned write_back;
    uint64_t wb_rng;
    /* the seed the file's fill was made from (config.verify checks reads
     * against it): config.seed, or a job's own (engine_jobs.c) */
    uint64_t fill_seed;
    /* added to op numbers in stamps, trace and progress; 0: warmup and
     * measured ops each count from 0 */
    uint64_t op_base;
    /* queued modes: the AIO context or ring with its registrations, made
     * by engine_queue_open() before the warmup and the measured phase,
     * so that neither phase's time includes setting it up */
    void *queue;
    /* outcome of the current phase */
    int error; /* 0, -errno, -DISKIO_E_* */
    uint64_t error_op;
    const char *error_during;
};

/* xorshift64*: a fast, seedable generator; quality is ample for offsets
 * and for the buffer contents. */
static DISKIO_ALWAYS_INLINE uint64_t rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

#endif
