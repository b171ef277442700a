/* SPDX-License-Identifier: MIT */
/* Internals shared by the library's units.  Not installed. */
#ifndef DISKIO_INTERNAL_H
#define DISKIO_INTERNAL_H

#include <time.h>

#include "diskio.h"
#include "histogram.h"

#define DISKIO_ALWAYS_INLINE inline __attribute__((always_inline))
#define DISKIO_HIDDEN __attribute__((visibility("hidden")))

/* O_DIRECT needs the buffer, the offset and the length aligned to the
 * device's logical block size; a page (4096) satisfies every device Linux
 * supports, so buffers are always page-aligned. */
#define DISKIO_BUFFER_ALIGN 4096

static DISKIO_ALWAYS_INLINE uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* ---- trace: per-op rows buffered in memory, formatted and written in
 * batches between operations, never inside the timed region ---- */
#define TRACE_ROWS 4096
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
int trace_flush(struct trace *t) DISKIO_HIDDEN;

/* ---- the engine: everything a mode's loop needs, decided before it ---- */
struct engine_phase {
    uint64_t limit;          /* ops to issue */
    uint64_t deadline_ns;    /* stop after the op that ends past this */
    struct diskio_hist *total, *write, *sync, *service;
    struct trace *trace;     /* NULL: not traced (warmup, or no --trace) */
    uint64_t schedule_ns;    /* fixed rate: when op 0 is due */
    uint64_t done;           /* ops completed and recorded */
    uint64_t max_lag_ns;     /* fixed rate: largest start delay */
};

struct engine {
    const struct diskio_config *cfg;
    int fd;
    unsigned char *buf;      /* block_size bytes, or iodepth blocks for aio */
    uint64_t block_size;
    uint64_t file_size;
    uint64_t nblocks;        /* file_size / block_size */
    uint64_t next_offset;    /* seq and append */
    uint64_t rng;            /* rand */
    unsigned sync_every;
    uint64_t rate_interval_ns;
    const volatile sig_atomic_t *stop;
    volatile uint64_t *progress;
    uint64_t op_base;        /* added to op numbers in stamps, trace and progress;
                              * 0: warmup and measured ops each count from 0 */
    /* outcome of the current phase */
    int error;               /* 0, -errno, -DISKIO_E_* */
    uint64_t error_op;
    const char *error_during;
};

/* One durability discipline, a row of the mode table (modes.c). */
struct mode_ops {
    const char *name;
    int open_flags;          /* or-ed into O_WRONLY */
    const char *open_flags_text;
    bool direct;             /* O_DIRECT: aligned lengths and offsets */
    bool queued;             /* several ops in flight (iodepth applies) */
    bool syncs;              /* a sync call after the writes: sync_every applies,
                              * write and sync recorded separately */
    /* Issue ph->limit ops (or until the deadline or stop), recording each;
     * sets e->error on failure.  Returns nothing: the phase says it all. */
    void (*run)(struct engine *e, struct engine_phase *ph);
};

const struct mode_ops *mode_ops_of(enum diskio_mode mode) DISKIO_HIDDEN;

/* The loops the table points at: the synchronous loop with no sync call,
 * with fsync and with fdatasync (engine.c), and the queued backends. */
void engine_run_write(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void engine_run_fsync(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void engine_run_fdatasync(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void mode_aio_run(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
void mode_uring_run(struct engine *e, struct engine_phase *ph) DISKIO_HIDDEN;
/* Out-of-line slow paths of the loops. */
ssize_t write_rest(int fd, const unsigned char *buf, uint64_t len, uint64_t offset,
                   ssize_t first) DISKIO_HIDDEN;
int sync_retry(int fd, int (*sync_fn)(int)) DISKIO_HIDDEN;
int append_wrap(struct engine *e) DISKIO_HIDDEN;
void wait_until(uint64_t due_ns, const volatile sig_atomic_t *stop) DISKIO_HIDDEN;

/* ---- target ---- */
struct diskio_target {
    char *path;
    char *dir;
    int dir_fd;        /* the directory holding a created file, or -1 */
    char *name;        /* the created file's name within dir, or NULL */
    bool created;      /* diskio created the file and removes it */
    bool is_device;
    uint64_t size;     /* bytes preallocated, or the device size */
};
/* Make sure the file holds at least size written bytes. */
/* Fill the file to size bytes with block (NULL: random data of its own) in
 * pieces of block_len, then fsync; -DISKIO_E_INTERRUPTED when stop rises. */
int target_fill(struct diskio_target *t, uint64_t size, const unsigned char *block,
                size_t block_len, const volatile sig_atomic_t *stop) DISKIO_HIDDEN;

/* ---- run ---- */
struct diskio_run {
    struct diskio_run_info info;
    char *name_owned;  /* custom runs */
    const char *open_flags_text;
    struct diskio_hist *hist[DISKIO_PART_COUNT];
};
int run_alloc(const char *name, bool parts, bool service, struct diskio_run **out) DISKIO_HIDDEN;

/* ---- environment probe ---- */
struct env_kv {
    const char *key;   /* dotted name */
    char *value;       /* NULL: unknown */
};
struct env;
struct env *env_probe(const char *dir) DISKIO_HIDDEN;
const char *env_get(const struct env *env, const char *key) DISKIO_HIDDEN;
int64_t env_get_int(const struct env *env, const char *key) DISKIO_HIDDEN; /* -1 unknown */
void env_free(struct env *env) DISKIO_HIDDEN;

/* ---- result and emitters ---- */
struct diskio_result {
    char *label;
    char start_time[32];
    struct env *env;
    struct diskio_run **runs;
    size_t nruns, cap;
    bool incomplete;
};

/* Summary statistics every emitter prints, in the same order. */
#define SUMMARY_PCTS 5
extern const double summary_pcts[SUMMARY_PCTS] DISKIO_HIDDEN;
extern const char *const summary_pct_keys[SUMMARY_PCTS] DISKIO_HIDDEN;

int emit_json(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;
int emit_csv(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;
int emit_text(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;

#endif
