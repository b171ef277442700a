/* SPDX-License-Identifier: MIT */
/*
 * The mode table (modes.c): one row per durability discipline, with the
 * loop that runs it.  The loops: the synchronous write loop, specialised
 * on the row's sync call, and the read loop (engine_sync.c over
 * engine_loop.h), and the queued loop over a backend (engine_queued.c,
 * queue.h).  Whoever needs a fact about a mode asks its row (or the
 * public diskio_mode_*() that read it), never a list of modes.
 */
#ifndef DISKIO_MODES_H
#define DISKIO_MODES_H

#include "diskio_internal.h"

struct engine;
struct engine_phase;
struct queue_backend;

/* The sync call a mode makes after its writes. */
enum mode_sync {
    MODE_SYNC_NONE,
    MODE_SYNC_FSYNC,
    MODE_SYNC_FDATASYNC,
};

/* One durability discipline, a row of the mode table (modes.c). */
struct mode_ops {
    const char *name;
    const char *open_flags_text;
    /* Issue ph->limit ops (or until the deadline or stop), recording each;
     * sets e->error on failure.  Returns nothing: the phase says it all. */
    void (*run)(struct engine *e, struct engine_phase *ph);
    const struct queue_backend *backend; /* queued modes: their interface */
    /* PostgreSQL writes its WAL this way with this wal_sync_method
     * ("fdatasync", "open_datasync"...; an O_DIRECT mode is the method
     * with O_DIRECT: wal_level minimal up to PostgreSQL 15,
     * debug_io_direct = wal from 16), or NULL */
    const char *pg_wal_sync_method;
    int open_flags; /* or-ed into O_WRONLY (O_RDONLY: reads) */
    /* RWF_* each write carries (pwritev2; 0: pwrite), a compile-time
     * constant of the synchronous loop's instance */
    int write_flags;
    /* the sync call after the writes (the synchronous loop is specialised
     * on it): with one, sync_every applies, and the write and sync parts
     * are recorded separately */
    enum mode_sync sync;
    bool direct; /* O_DIRECT: aligned lengths and offsets */
    bool queued; /* several ops in flight (iodepth applies) */
    /* every write it acknowledges the storage called durable: a sync call
     * after it, or a flag that makes the write itself durable (O_SYNC,
     * O_DSYNC, an RWF_ flag) */
    bool durable;
    bool reads;        /* reads the filled file (opened O_RDONLY) instead of writing */
    bool pg_fsync_off; /* PostgreSQL writes its WAL this way with fsync = off */
};

const struct mode_ops *mode_ops_of(enum diskio_mode mode);
/* The row's sync call (fsync, fdatasync), or NULL for none. */
int (*mode_sync_fn(const struct mode_ops *ops))(int);
/* Whether PostgreSQL writes its WAL this way (the wal pattern's modes). */
static inline bool mode_is_pg_wal(const struct mode_ops *ops)
{
    return ops->pg_wal_sync_method || ops->pg_fsync_off;
}
/* The open flags a run shows in its result ("O_RDONLY", ...). */
const char *open_flags_text(const struct mode_ops *ops, const struct diskio_config *cfg);

/* The loops the table points at: the synchronous write loop, which runs
 * the instance made for the row's sync call (engine_sync.c), and the
 * queued loop over the mode's backend (engine_queued.c). */
void engine_run_write(struct engine *e, struct engine_phase *ph);
void engine_run_queued(struct engine *e, struct engine_phase *ph);
/* The read modes' loops: the synchronous one (pread) and the queued one
 * over a read backend. */
void engine_run_read(struct engine *e, struct engine_phase *ph);
void engine_run_queued_read(struct engine *e, struct engine_phase *ph);

#endif
