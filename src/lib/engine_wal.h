/* SPDX-License-Identifier: MIT */
/*
 * The wal pattern's shared state, between its two files: the WAL, its
 * segments and its commits (engine_wal.c), and a run from start to end
 * (engine_wal_run.c).
 */
#ifndef DISKIO_ENGINE_WAL_H
#define DISKIO_ENGINE_WAL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine_loop.h"
#include "runner.h"

/* XLogPageHeaderData and XLogLongPageHeaderData (MAXALIGNed) */
#define WAL_SHORT_HEADER 24u
#define WAL_LONG_HEADER 40u
#define WAL_FIRST_SEGMENT 1u
/* PostgreSQL's WAL buffers are at most 16 MiB by default; a flush never
 * needs more, and a segment up to this size maps onto it whole */
#define WAL_BUFFER_MAX (UINT64_C(16) << 20)
/* PG_IOV_MAX: the zero-fill writes this many pages per pwritev */
#define WAL_ZERO_IOV 32
/* the segments need three of the target's own-file slots */
#define WAL_SLOTS 3u
#define WAL_TRACE_ROWS 1024

struct wal_trace_row {
    uint64_t op, start_ns, latency_ns, write_ns, sync_ns, job, rec_start, rec_end, flush_from,
        flush_to, switch_ns;
};

/* What one flush did, for its committer's trace row. */
struct wal_flush {
    uint64_t write_ns, sync_ns, switch_ns;
    unsigned retired; /* a segment's slot to remove after the commit */
};

struct wal;

/* One committer: its own histogram, counters and trace rows; at a
 * fixed rate its share of the schedule (every njobs-th op, from its
 * index on) and what it saw of it. */
struct wal_job {
    struct wal *w;
    unsigned index;
    struct diskio_hist *total, *warm_total;
    struct pacing pace;
    uint64_t done, end_ns, error_op, fail_ns;
    int error;
    const char *error_during;
    volatile uint64_t *progress; /* the runner core's (runner_progress()) */
    struct wal_trace_row *rows;
    size_t rows_used;
    pthread_t thread;
    bool started;
};

struct wal {
    const struct diskio_config *cfg;
    const struct mode_ops *ops;
    struct diskio_target *target;
    uint64_t page, segsize;
    int (*sync_fn)(int); /* the mode's sync call after the writes, or NULL */

    /* the WAL's shared state, under lock */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint64_t insert_lsn;  /* the next record goes here */
    uint64_t flushed_lsn; /* durable up to here */
    bool flushing;        /* a committer is writing and syncing */
    bool failed;          /* a flush failed: every committer stops */
    unsigned retired;     /* a finished segment's slot to remove, or 0 */
    unsigned slots_used;  /* bit i: slot_ids[i] holds a segment */
    unsigned slot_ids[WAL_SLOTS];

    /* the flusher's own: only the committer that set flushing touches
     * them (the lock hands them over from one flusher to the next) */
    int fd;             /* the open segment, or -1 */
    uint64_t segno;     /* its number */
    unsigned slot;      /* its slot, or 0 */
    unsigned spare;     /* wal_recycle: the segment to recycle next, or 0 */
    uint64_t last_page; /* the last page written (page number), or UINT64_MAX */
    uint64_t flushes_total;
    unsigned char *buf;
    uint64_t buf_size;
    unsigned char *zeros;                  /* one page of zeros */
    struct diskio_hist *write, *sync, *sw; /* the phase's parts */
    /* the warmup's parts (write, sync, switch), by DISKIO_PART_* */
    struct diskio_hist *warm[DISKIO_PART_COUNT];
    struct diskio_wal_counts counts;
    int error;
    const char *error_during;

    /* trace (config.trace_fd): rows per job, written out under trace_lock */
    pthread_mutex_t trace_lock;
    int trace_error;
    uint64_t trace_origin_ns;
    bool tracing;
    uint64_t spin_margin_ns; /* a pause spins its last this much */

    /* the committers are the runner core's workers (runner.h): their
     * stop flag is its */
    struct runner r;
    const volatile sig_atomic_t *stop;
    struct wal_job *jobs; /* the committers (wal_jobs_new) */
    unsigned njobs;
};

struct wal_phase {
    uint64_t limit, deadline_ns;
    bool measured;
};

/* engine_wal.c: the segments' slots and files */
unsigned wal_slot_take(struct wal *w);
void wal_slot_release(struct wal *w, unsigned slot);
int wal_segment_create(struct wal *w, unsigned slot, uint64_t segno);
int wal_segment_switch(struct wal *w, uint64_t segno, unsigned *retired);

/* engine_wal.c: the committers */
void wal_commit_loop(struct wal *w, struct wal_job *job, const struct wal_phase *ph);
void wal_set_parts(struct wal *w, struct diskio_hist *const *parts);
bool wal_failed(struct wal *w);
void wal_pace_from(struct wal_job *job, uint64_t start_ns);

#endif
