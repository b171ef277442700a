/* SPDX-License-Identifier: MIT */
/*
 * The engine's data: what a mode's loop needs, decided before it runs,
 * and the loops' out-of-line slow paths (engine_slow.c).  The timed loop
 * itself is engine_loop.h; it calls the slow paths declared here and
 * nothing in engine_slow.c calls back into it.
 */
#ifndef DISKIO_ENGINE_H
#define DISKIO_ENGINE_H

#include <signal.h>
#include <sys/types.h>

#include "diskio_internal.h"

/* ---- trace: per-op rows buffered in memory, formatted and written in
 * batches between operations, never inside the timed region ---- */
#define TRACE_ROWS 4096
/* The CSV header, written by the run before any row: a library caller
 * gets the same complete file as the command. */
#define TRACE_HEADER "op,start_ns,latency_ns,write_ns,sync_ns\n"
struct trace_row {
    uint64_t op, start_ns, latency_ns, write_ns, sync_ns;
};
struct trace {
    int fd;
    int error;          /* first write error, -errno */
    uint64_t origin_ns; /* start_ns is relative to this */
    size_t rows_used;
    struct trace_row rows[TRACE_ROWS];
};

/* ---- the engine: everything a mode's loop needs, decided before it ---- */
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
     * data_pool_blocks() in engine.c); consecutive ops write from
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

/* ---- queued modes: one loop (engine_queued.c) over a backend ----
 *
 * A queued mode keeps iodepth writes in flight through one kernel
 * interface.  The loop (what to issue next, when an op is done, short
 * writes, errors, stop) is the engine's; a backend only says how to put
 * a request in the queue, hand the queue to the kernel and collect what
 * completed: fio's queue/commit/getevents split, with three hooks. */
struct queue_slot {
    unsigned index; /* the slot's own number, 0..depth-1 (its iocb) */
    /* the pool block the request writes from: e->buf + block * block_size,
     * taken for each new op from the blocks no request in flight uses */
    uint64_t block;
    uint64_t offset;
    uint64_t written;   /* bytes done by earlier parts of a short write */
    uint64_t op;        /* op number within the phase */
    uint64_t submit_ns; /* 0 until submitted */
};
struct queue_done {
    struct queue_slot *slot;
    long res; /* bytes written, or -errno */
};
struct queue_backend {
    /* Make the queue (depth requests) with its own state in *state; on
     * failure release everything, name the step in *during and return
     * -errno. */
    int (*setup)(struct engine *e, unsigned depth, void **state, const char **during);
    /* Queue slot's request: from byte slot->written of its buffer to
     * offset + written.  The kernel sees it at the next submit. */
    void (*prepare)(void *state, struct engine *e, struct queue_slot *slot);
    /* Hand the n slots prepared since the last submit (in that order) to
     * the kernel in one call.  0 with *taken = n, or -errno with *taken =
     * how many it took (the others never ran).  wait: the engine reaps
     * right after this, so the call may also wait for a completion. */
    int (*submit)(void *state, struct queue_slot *const *slots, unsigned n, unsigned *taken,
                  bool wait);
    /* Wait for at least one completion and store when the wait returned
     * in *reaped_ns, then collect up to max completions into done.
     * Returns how many, or -errno (-EINTR: call again). */
    int (*reap)(void *state, struct queue_done *done, unsigned max, uint64_t *reaped_ns);
    const char *reap_during; /* names a failed reap: "getevents", "wait" */
    /* Release the queue, waiting for anything still in flight. */
    void (*teardown)(void *state);
};
extern const struct queue_backend aio_backend DISKIO_HIDDEN;
extern const struct queue_backend uring_backend DISKIO_HIDDEN;
/* the same interfaces with reads (the read modes) */
extern const struct queue_backend aio_read_backend DISKIO_HIDDEN;
extern const struct queue_backend uring_read_backend DISKIO_HIDDEN;

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

const struct mode_ops *mode_ops_of(enum diskio_mode mode) DISKIO_HIDDEN;

/* The loops the table points at: the synchronous loop with no sync call,
 * with fsync and with fdatasync (engine_sync.c), and the queued loop over
 * the mode's backend (engine_queued.c). */
void engine_run_write(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void engine_run_fsync(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void engine_run_fdatasync(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void engine_run_queued(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
/* The read modes' loops: the synchronous one (pread) and the queued one
 * over a read backend. */
void engine_run_read(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void engine_run_queued_read(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
/* Set up e->queue for e->cfg (untimed): 0, or -errno with the step named
 * in *during.  engine_queue_close() releases it (NULL: nothing). */
int engine_queue_open(struct engine *e, const char **during) DISKIO_HIDDEN;
void engine_queue_close(struct engine *e) DISKIO_HIDDEN;

/* Shared by the one-job run (engine.c) and the jobs (engine_jobs.c). */
uint64_t seed_state(uint64_t seed) DISKIO_HIDDEN;
/* The target's own inode, reopened with the mode's flags (target.c); cfg
 * may be NULL: the mode's own flags.  The fd, or -errno, or
 * -DISKIO_E_NO_DIRECT where the filesystem refuses O_DIRECT. */
int target_open_for_mode(const struct diskio_target *t, const struct mode_ops *ops,
                         const struct diskio_config *cfg) DISKIO_HIDDEN;
/* The open flags a run shows in its result ("O_RDONLY", ...). */
const char *open_flags_text(const struct mode_ops *ops,
                            const struct diskio_config *cfg) DISKIO_HIDDEN;
/* After e->fd was opened for the mode (untimed): the create pattern's
 * empty file made durable, mode read's access advice.  0 or -errno. */
int engine_opened(struct engine *e, const struct mode_ops *ops) DISKIO_HIDDEN;
/* After the warmup (untimed): the create pattern's file emptied again,
 * mode read's cache dropped or warmed.  0, or the error with e->error and
 * e->error_during set. */
int engine_warmed(struct engine *e, const struct mode_ops *ops, uint64_t warm_done) DISKIO_HIDDEN;
uint64_t data_pool_blocks(uint64_t block_size, uint64_t in_flight, unsigned jobs) DISKIO_HIDDEN;
int fill_buffer(unsigned char **out, uint64_t size, uint64_t seed) DISKIO_HIDDEN;
/* diskio_run_execute() for cfg->jobs > 1, after the checks every run
 * makes (engine_jobs.c); file_size is the offsets' range. */
int engine_run_jobs(const struct diskio_config *cfg, struct diskio_target *target,
                    uint64_t file_size, struct diskio_run **out) DISKIO_HIDDEN;
/* diskio_run_execute() for the wal pattern (engine_wal.c) and the
 * checkpoint pattern (engine_checkpoint.c), after the checks every run
 * makes; each writes its own trace header (WAL_TRACE_HEADER,
 * CHECKPOINT_TRACE_HEADER there). */
int engine_run_wal(const struct diskio_config *cfg, struct diskio_target *target,
                   struct diskio_run **out) DISKIO_HIDDEN;
int engine_run_checkpoint(const struct diskio_config *cfg, struct diskio_target *target,
                          struct diskio_run **out) DISKIO_HIDDEN;

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

/* ---- the loops' slow paths (engine_slow.c): never on the common path,
 * kept out of line so the inlined loops stay small ---- */

/* Finish a write that came back short, interrupted or failed (first is
 * what pwrite returned): the length written, or -errno, or
 * -DISKIO_E_SHORT_WRITE when no progress is made. */
ssize_t write_rest(int fd, const unsigned char *buf, uint64_t len, uint64_t offset,
                   ssize_t first) DISKIO_HIDDEN;
/* Finish a read that came back short or interrupted: the length read,
 * -errno, or -DISKIO_E_SHORT_READ at the end of the file. */
ssize_t read_rest(int fd, unsigned char *buf, uint64_t len, uint64_t offset,
                  ssize_t first) DISKIO_HIDDEN;
/* config.verify: whether buf (block_size bytes read at offset) holds what
 * the fill wrote there (target_fill() with block_size and the seed). */
bool verify_block(const struct engine *e, const unsigned char *buf, uint64_t offset) DISKIO_HIDDEN;
/* An uncached sequential read wraps: drop the file's pages again. */
void read_wrap(struct engine *e) DISKIO_HIDDEN;
/* Retry a sync call that failed with EINTR; 0 or -errno. */
int sync_retry(int fd, int (*sync_fn)(int)) DISKIO_HIDDEN;
/* The append pattern reached file_size: truncate to 0 (sets e->error). */
int append_wrap(struct engine *e) DISKIO_HIDDEN;
/* Fixed rate: sleep, then spin, until due_ns; true when the op due then
 * may be issued.  False when stop rose, or when due_ns is at or after
 * deadline_ns: the wait then ends at the deadline and the run with it. */
bool wait_until(uint64_t due_ns, uint64_t deadline_ns, uint64_t spin_margin_ns,
                const volatile sig_atomic_t *stop) DISKIO_HIDDEN;
/* How late clock_nanosleep() wakes up here, now: the 99th percentile of
 * the overshoot of a few short sleeps (with the timer slack in force). */
uint64_t wakeup_overshoot_ns(void) DISKIO_HIDDEN;
/* Write all of buf to fd (a short write is followed by another, which
 * then says why): 0 or -errno. */
int trace_write_all(int fd, const char *buf, size_t len) DISKIO_HIDDEN;
/* Write TRACE_HEADER to fd: 0 or -errno (-EIO for a short write). */
int trace_write_header(int fd) DISKIO_HIDDEN;
/* Format the buffered trace rows and write them out; the first error. */
int trace_flush(struct trace *t) DISKIO_HIDDEN;

#endif
