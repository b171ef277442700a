/* SPDX-License-Identifier: MIT */
/*
 * The mode table (modes.c): one row per durability discipline, with the
 * loop that runs it.  The loops: the synchronous one with no sync call,
 * with fsync and with fdatasync, and the read loop (engine_sync.c over
 * engine_loop.h), and the queued loop over a backend (engine_queued.c,
 * queue.h).
 */
#ifndef DISKIO_MODES_H
#define DISKIO_MODES_H

#include "diskio_internal.h"

struct engine;
struct engine_phase;
struct queue_backend;

/* One durability discipline, a row of the mode table (modes.c). */
struct mode_ops {
    const char *name;
    const char *open_flags_text;
    /* Issue ph->limit ops (or until the deadline or stop), recording each;
     * sets e->error on failure.  Returns nothing: the phase says it all. */
    void (*run)(struct engine *e, struct engine_phase *ph);
    const struct queue_backend *backend; /* queued modes: their interface */
    int open_flags;                      /* or-ed into O_WRONLY (O_RDONLY: reads) */
    bool direct;                         /* O_DIRECT: aligned lengths and offsets */
    bool queued;                         /* several ops in flight (iodepth applies) */
    /* a sync call after the writes: sync_every applies, and the write and
     * sync parts are recorded separately */
    bool syncs;
    bool reads; /* reads the filled file (opened O_RDONLY) instead of writing */
};

const struct mode_ops *mode_ops_of(enum diskio_mode mode);
/* The open flags a run shows in its result ("O_RDONLY", ...). */
const char *open_flags_text(const struct mode_ops *ops, const struct diskio_config *cfg);

/* The loops the table points at: the synchronous loop with no sync call,
 * with fsync and with fdatasync (engine_sync.c), and the queued loop over
 * the mode's backend (engine_queued.c). */
void engine_run_write(struct engine *e, struct engine_phase *ph);
void engine_run_fsync(struct engine *e, struct engine_phase *ph);
void engine_run_fdatasync(struct engine *e, struct engine_phase *ph);
void engine_run_queued(struct engine *e, struct engine_phase *ph);
/* The read modes' loops: the synchronous one (pread) and the queued one
 * over a read backend. */
void engine_run_read(struct engine *e, struct engine_phase *ph);
void engine_run_queued_read(struct engine *e, struct engine_phase *ph);

#endif
