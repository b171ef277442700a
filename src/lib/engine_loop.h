/* SPDX-License-Identifier: MIT */
/*
 * The timed loop, written once and specialised at compile time.
 *
 * engine_loop() is always inlined with constant arguments (the sync
 * function, the pattern, whether to trace, to pace, to keep a series), so
 * each mode gets a loop in which every option was decided before the loop
 * started: between the two clock reads there is only the write (and the
 * sync), and after the second read only an inlined histogram record (and
 * with a series, one compare with the next interval boundary and a
 * second record).
 */
#ifndef DISKIO_ENGINE_LOOP_H
#define DISKIO_ENGINE_LOOP_H

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"
#include "engine_slow.h"
#include "rawcalls.h"
#include "trace.h"

/* Where the writes go.  The loops keep this in locals (registers): the
 * engine struct lives in memory that every syscall might touch, as far as
 * the compiler can tell, so fields would be reloaded on every op. */
struct offsets {
    uint64_t next; /* seq, append */
    uint64_t rng;  /* rand */
    uint64_t block_size;
    uint64_t file_size;
    uint64_t nblocks;
};

static DISKIO_ALWAYS_INLINE struct offsets offsets_load(const struct engine *e)
{
    return (struct offsets){e->next_offset, e->rng, e->block_size, e->file_size, e->nblocks};
}

static DISKIO_ALWAYS_INLINE void offsets_store(struct engine *e, const struct offsets *o)
{
    e->next_offset = o->next;
    e->rng = o->rng;
}

/* The next op's offset, or UINT64_MAX when the append pattern failed to
 * truncate the file (e->error is then set) or the create pattern reached
 * the end of its file (no error: the run is done). */
static DISKIO_ALWAYS_INLINE uint64_t next_offset(struct engine *e, struct offsets *o,
                                                 const enum diskio_pattern pattern)
{
    uint64_t offset = o->next;
    switch (pattern) {
    case DISKIO_PATTERN_SEQ:
        o->next += o->block_size;
        if (DISKIO_UNLIKELY(o->next + o->block_size > o->file_size))
            o->next = 0;
        return offset;
    case DISKIO_PATTERN_RAND:
        /* multiply-high maps 64 random bits onto [0, nblocks) without a
         * division */
        return (uint64_t)(((unsigned __int128)rng_next(&o->rng) * o->nblocks) >> 64) *
               o->block_size;
    case DISKIO_PATTERN_CREATE:
        /* the new file is complete: the run ends (no error) */
        if (DISKIO_UNLIKELY(offset + o->block_size > o->file_size))
            return UINT64_MAX;
        o->next = offset + o->block_size;
        return offset;
    case DISKIO_PATTERN_APPEND:
    default:
        if (DISKIO_UNLIKELY(offset + o->block_size > o->file_size)) {
            if (append_wrap(e) < 0)
                return UINT64_MAX;
            offset = 0;
        }
        o->next = offset + o->block_size;
        return offset;
    }
}

/* The first 16 bytes of every block say where it was meant to go and
 * which op wrote it, so tests can read the file back and prove it. */
static DISKIO_ALWAYS_INLINE void stamp_block(unsigned char *buf, uint64_t offset, uint64_t op)
{
    __builtin_memcpy(buf, &offset, sizeof(offset));
    __builtin_memcpy(buf + sizeof(offset), &op, sizeof(op));
}

/* The stamp, and in every further 512-byte sector of the block 8 bytes
 * that depend on the op and the sector (a bijective mix of both, so they
 * look random and never repeat): a pool block written again (every
 * pool_blocks ops) then differs from its earlier copies in every sector,
 * so storage that deduplicates at any granularity from 512 bytes finds no
 * two equal blocks, and the stamps do not compress.  len/512 stores,
 * before the op's first clock read. */
static DISKIO_ALWAYS_INLINE void stamp_sectors(unsigned char *buf, uint64_t len, uint64_t offset,
                                               uint64_t op)
{
    stamp_block(buf, offset, op);
    uint64_t key = (op ^ (offset << 20)) * UINT64_C(0x9e3779b97f4a7c15);
    for (uint64_t at = 512; at < len; at += 512) {
        uint64_t z = key + at;
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        z ^= z >> 31;
        __builtin_memcpy(buf + at, &z, sizeof(z));
    }
}

/* The largest block warm_block() reads through: what a core's caches
 * can keep until the write copies it. */
#define WARM_BLOCK_MAX (UINT64_C(256) << 10)

/* Every cache line of the op's source block read once, before the op's
 * first clock read.  The data pool is 8 MiB of blocks written in turn
 * (pipeline.c), so the block an op writes was last touched 8 MiB of
 * writes ago and is in no cache: without this the write's copy of it
 * (pwrite into the page cache) would fetch it from memory inside the
 * op's time, which neither a database's write (its WAL page was just
 * filled) nor a bare loop or pg_test_fsync (one buffer, rewritten) pays.
 * The loads are independent, so the memory fetches overlap.  Only the
 * modes that wait for the device warm (engine_sync.c): for them the
 * fetch is a share of a sync's time that no peer measures, while for
 * buffered writes the loads would be a cost of their own, of the same
 * size as the copy they spare, that the bare loop does not pay either. */
static DISKIO_ALWAYS_INLINE void warm_block(const unsigned char *buf, uint64_t len)
{
    uint64_t sink = 0;
    if (len > WARM_BLOCK_MAX)
        len = WARM_BLOCK_MAX;
    for (uint64_t at = 0; at < len; at += 64)
        sink ^= *(const volatile unsigned char *)(buf + at);
    __asm__ volatile("" : : "r"(sink));
}

/* One block written: pwrite(2), or with per-write flags (the mode
 * table's write_flags: RWF_DSYNC...) pwritev2(2) with them.  The flags
 * are a compile-time constant of each loop, so a pwrite mode's loop has
 * no trace of the other call. */
static DISKIO_ALWAYS_INLINE ssize_t write_block(int fd, const unsigned char *buf, uint64_t len,
                                                uint64_t offset, const int write_flags)
{
    ssize_t written;
    if (write_flags) {
        const struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
        written = raw_pwritev2(fd, &iov, 1, (off_t)offset, write_flags);
    } else {
        written = raw_pwrite(fd, buf, len, (off_t)offset);
    }
    if (DISKIO_UNLIKELY((uint64_t)written != len))
        written = write_flags ? write_rest_flags(fd, buf, len, offset, written, write_flags)
                              : write_rest(fd, buf, len, offset, written);
    return written;
}

static DISKIO_ALWAYS_INLINE ssize_t read_block(int fd, unsigned char *buf, uint64_t len,
                                               uint64_t offset)
{
    ssize_t got = raw_pread(fd, buf, len, (off_t)offset);
    if (DISKIO_UNLIKELY((uint64_t)got != len))
        got = read_rest(fd, buf, len, offset, got);
    return got;
}

static DISKIO_ALWAYS_INLINE int sync_file(int fd, int (*const sync_fn)(int))
{
    int rc = sync_fn(fd);
    if (DISKIO_UNLIKELY(rc != 0))
        rc = sync_retry(fd, sync_fn);
    return rc;
}

static DISKIO_ALWAYS_INLINE void trace_add(struct trace *t, uint64_t op, uint64_t start_ns,
                                           uint64_t latency_ns, uint64_t write_ns, uint64_t sync_ns)
{
    struct trace_row *row = &t->rows[t->rows_used++];
    row->op = op;
    row->start_ns = start_ns - t->origin_ns;
    row->latency_ns = latency_ns;
    row->write_ns = write_ns;
    row->sync_ns = sync_ns;
    if (DISKIO_UNLIKELY(t->rows_used == TRACE_ROWS))
        (void)trace_flush(t);
}

/* Whether this read's block is written back (config.write_back percent of
 * them; 100: every one): the top 32 bits of the next random word scaled
 * to [0, 100). */
static DISKIO_ALWAYS_INLINE bool write_back_due(uint64_t *rng, unsigned percent)
{
    return ((rng_next(rng) >> 32) * 100 >> 32) < percent;
}

/* An op's end of the phase: why, and at which op. */
static DISKIO_ALWAYS_INLINE void phase_fail(struct engine *e, int error, const char *during,
                                            uint64_t op)
{
    e->error = error;
    e->error_during = during;
    e->error_op = op;
}

/* What one op's clock reads saw and how its calls went. */
struct op_result {
    uint64_t start_ns, write_done_ns, end_ns;
    ssize_t written;   /* what the write (or the read) returned: len, or -errno */
    int synced;        /* the sync's result: 0 or -errno */
    bool carried_sync; /* a sync followed this op's write */
    bool wrote_back;   /* a read whose block was written back */
};

/* One op.  Between its two clock reads there is the op and nothing
 * else: the write (with write_flags; and the sync when it is due:
 * sync_every), or the read (and with writing_back the write of its block,
 * stamp_op in its stamp, when write_back_due() picks it). */
static DISKIO_ALWAYS_INLINE void timed_op(struct op_result *r, int fd, unsigned char *buf,
                                          uint64_t len, uint64_t offset, int (*const sync_fn)(int),
                                          const int write_flags, const bool reading,
                                          const bool writing_back, uint64_t *wb_rng,
                                          unsigned write_back, uint64_t stamp_op,
                                          unsigned *writes_until_sync, unsigned sync_every)
{
    r->synced = 0;
    r->carried_sync = false;
    r->wrote_back = false;
    if (reading && writing_back) {
        r->start_ns = now_ns();
        r->written = read_block(fd, buf, len, offset);
        if ((uint64_t)r->written == len && write_back_due(wb_rng, write_back)) {
            stamp_block(buf, offset, stamp_op);
            r->written = write_block(fd, buf, len, offset, 0);
            r->wrote_back = true;
        }
        r->end_ns = now_ns();
        r->write_done_ns = r->end_ns;
    } else if (reading) {
        r->start_ns = now_ns();
        r->written = read_block(fd, buf, len, offset);
        r->end_ns = now_ns();
        r->write_done_ns = r->end_ns;
    } else if (sync_fn && --*writes_until_sync == 0) {
        *writes_until_sync = sync_every;
        r->carried_sync = true;
        r->start_ns = now_ns();
        r->written = write_block(fd, buf, len, offset, write_flags);
        r->write_done_ns = now_ns();
        r->synced = sync_file(fd, sync_fn);
        r->end_ns = now_ns();
    } else {
        r->start_ns = now_ns();
        r->written = write_block(fd, buf, len, offset, write_flags);
        r->end_ns = now_ns();
        r->write_done_ns = r->end_ns;
    }
}

/* A fixed rate's schedule and what was seen of it, kept in locals by the
 * loop (the histograms: the phase's service, lag and late_start). */
struct pacing {
    struct diskio_hist *service, *lag, *late_start;
    uint64_t interval_ns;
    uint64_t due_ns;      /* when the next op is due */
    uint64_t prev_end_ns; /* when the previous op completed (op 0 had none) */
    uint64_t max_lag_ns, backlog_ops, backlog_max_ns;
};

/* A paced op's records: its service time, its start lag, and whose
 * lateness that was; returns its latency counted from when it was due
 * (coordinated omission: an op that could not start on time because its
 * predecessor was slow counts the wait too), and moves the schedule on. */
static DISKIO_ALWAYS_INLINE uint64_t pacing_op(struct pacing *p, uint64_t start_ns, uint64_t end_ns)
{
    hist_record(p->service, end_ns - start_ns);
    const uint64_t lag_ns = start_ns > p->due_ns ? start_ns - p->due_ns : 0;
    if (lag_ns > p->max_lag_ns)
        p->max_lag_ns = lag_ns;
    hist_record(p->lag, lag_ns);
    /* whose lateness: the device's when the previous op was still
     * running at the due time, diskio's (wake-up, scheduling) when it
     * was done */
    if (p->prev_end_ns <= p->due_ns) {
        hist_record(p->late_start, lag_ns);
    } else {
        p->backlog_ops++;
        if (lag_ns > p->backlog_max_ns)
            p->backlog_max_ns = lag_ns;
    }
    p->prev_end_ns = end_ns;
    const uint64_t latency_ns = end_ns - (start_ns < p->due_ns ? start_ns : p->due_ns);
    p->due_ns += p->interval_ns;
    return latency_ns;
}

/* The schedule of a phase at a fixed rate (ph->service set), from its
 * first due time on; nothing seen of it yet. */
static DISKIO_ALWAYS_INLINE struct pacing pacing_start(const struct engine *e,
                                                       const struct engine_phase *ph)
{
    return (struct pacing){.service = ph->service,
                           .lag = ph->lag,
                           .late_start = ph->late_start,
                           .interval_ns = e->rate_interval_ns,
                           .due_ns = ph->schedule_ns};
}

/* The interval series (config.interval_ns): the histogram of the current
 * interval, and when it ends; kept in locals by the loops. */
struct iv_state {
    struct diskio_hist *hist;
    uint64_t next_ns;
};

static DISKIO_ALWAYS_INLINE struct iv_state iv_start(const struct series *s, const bool interval)
{
    return interval ? (struct iv_state){s->live, s->next_ns} : (struct iv_state){NULL, UINT64_MAX};
}

/* An op that ended at end_ns, into the series: a new interval first when
 * it ended past the current one.  False without memory for it (the
 * phase's error, at done ops, unless it has one). */
static DISKIO_ALWAYS_INLINE bool iv_record(struct engine *e, struct series *s, struct iv_state *iv,
                                           uint64_t end_ns, uint64_t latency_ns, uint64_t done)
{
    if (DISKIO_UNLIKELY(end_ns >= iv->next_ns)) {
        iv->hist = series_advance(s, end_ns);
        if (DISKIO_UNLIKELY(!iv->hist)) {
            if (!e->error)
                phase_fail(e, -ENOMEM, "interval series", done);
            return false;
        }
        iv->next_ns = s->next_ns;
    }
    hist_record(iv->hist, latency_ns);
    return true;
}

/* An op whose write, read or sync failed: the phase's end, and why. */
static DISKIO_ALWAYS_INLINE void op_fail(struct engine *e, const struct op_result *r,
                                         const bool reading, uint64_t op)
{
    if (r->written < 0)
        phase_fail(e, (int)r->written, reading && !r->wrote_back ? "read" : "write", op);
    else
        phase_fail(e, r->synced, "sync", op);
}

/* A synced mode's op in its parts: the write, and the sync when this op
 * carried one. */
static DISKIO_ALWAYS_INLINE void record_parts(struct diskio_hist *write_part,
                                              struct diskio_hist *sync_part,
                                              const struct op_result *r)
{
    hist_record(write_part, r->write_done_ns - r->start_ns);
    if (r->carried_sync)
        hist_record(sync_part, r->end_ns - r->write_done_ns);
}

/* The op is done and recorded (done ops so far): the program's own work
 * for it, outside its time (a sync_every run's writes before their sync
 * are not synced yet).  Its result: below 0, the hook failed and the
 * phase ends there. */
static DISKIO_ALWAYS_INLINE int hook_done(struct engine *e, const struct diskio_op_hook *hook,
                                          const struct op_result *r, const bool syncing,
                                          uint64_t done)
{
    const int hook_rc = hook->done(hook->ctx, r->carried_sync || !syncing);
    if (DISKIO_UNLIKELY(hook_rc < 0))
        phase_fail(e, hook_rc, "hook", done - 1);
    return hook_rc;
}

/* The phase's end: where the writes go next, the write-back draw, the
 * ops done and what was seen of the schedule, back into e and ph. */
static DISKIO_ALWAYS_INLINE void engine_loop_end(struct engine *e, struct engine_phase *ph,
                                                 const struct offsets *offsets, uint64_t wb_rng,
                                                 uint64_t done, const struct pacing *pace)
{
    offsets_store(e, offsets);
    e->wb_rng = wb_rng;
    ph->done = done;
    ph->max_lag_ns = pace->max_lag_ns;
    ph->backlog_ops = pace->backlog_ops;
    ph->backlog_max_ns = pace->backlog_max_ns;
}

/* reading: the read modes' loop (pread, no stamps, no sync); verifying:
 * each block read is checked against the fill after the op's clock
 * stopped (config.verify); writing_back: a read's block is written back
 * to where it came from, its stamp changed, inside the op's time
 * (config.write_back); hooked: ph->hook's prepare before the op's first
 * clock read, its done after the op was recorded (config.op_hook). */
static DISKIO_ALWAYS_INLINE void
engine_loop(struct engine *e, struct engine_phase *ph, int (*const sync_fn)(int),
            const int write_flags, const bool reading, const bool warming,
            const enum diskio_pattern pattern, const bool tracing, const bool paced,
            const bool interval, const bool verifying, const bool writing_back, const bool hooked)
{
    const struct diskio_op_hook *const hook = ph->hook;
    const int fd = e->fd;
    unsigned char *const pool = e->buf;
    const uint64_t pool_blocks = e->pool_blocks;
    uint64_t pool_next = 0;
    const uint64_t len = e->block_size;
    const uint64_t limit = ph->limit;
    const uint64_t deadline_ns = ph->deadline_ns;
    struct diskio_hist *const total = ph->total;
    struct diskio_hist *const write_part = ph->write;
    struct diskio_hist *const sync_part = ph->sync;
    const volatile sig_atomic_t *const stop = e->stop;
    volatile uint64_t *const progress = e->progress;
    const uint64_t op_base = e->op_base;
    struct pacing pace = pacing_start(e, ph);
    const uint64_t spin_margin_ns = e->spin_margin_ns;
    unsigned writes_until_sync = e->sync_every;
    struct offsets offsets = offsets_load(e);
    uint64_t op = 0;
    struct series *const series = ph->series;
    struct iv_state iv = iv_start(series, interval);
    const unsigned write_back = e->write_back;
    uint64_t wb_rng = e->wb_rng;

    while (op < limit) {
        if (DISKIO_UNLIKELY(*stop)) {
            phase_fail(e, -DISKIO_E_INTERRUPTED, "interrupted", op);
            break;
        }
        const uint64_t offset = next_offset(e, &offsets, pattern);
        if ((pattern == DISKIO_PATTERN_APPEND || pattern == DISKIO_PATTERN_CREATE) &&
            DISKIO_UNLIKELY(offset == UINT64_MAX)) {
            e->error_op = op;
            break;
        }
        /* an uncached sequential read came round to the start of the file:
         * what the last pass read is dropped from the cache again */
        if (reading && pattern == DISKIO_PATTERN_SEQ && DISKIO_UNLIKELY(offset == 0) &&
            e->drop_on_wrap)
            read_wrap(e);
        /* consecutive writes come from different pool blocks */
        unsigned char *const buf = pool + pool_next * len;
        if (++pool_next == pool_blocks)
            pool_next = 0;
        if (!reading)
            stamp_sectors(buf, len, offset, op_base + op);
        if (hooked && hook->prepare)
            hook->prepare(hook->ctx, buf, len, offset);
        if (warming)
            warm_block(buf, len);
        if (paced && DISKIO_UNLIKELY(!wait_until(pace.due_ns, deadline_ns, spin_margin_ns, stop))) {
            if (*stop)
                continue; /* the check above records the interruption */
            break;        /* the next op falls due after the deadline */
        }

        struct op_result r;
        timed_op(&r, fd, buf, len, offset, sync_fn, write_flags, reading, writing_back, &wb_rng,
                 write_back, op_base + op, &writes_until_sync, e->sync_every);

        if (DISKIO_UNLIKELY(r.written < 0 || r.synced < 0)) {
            op_fail(e, &r, reading, op);
            break;
        }
        if (verifying && DISKIO_UNLIKELY(!verify_block(e, buf, offset))) {
            phase_fail(e, -DISKIO_E_VERIFY, "verify", op);
            break;
        }
        const uint64_t latency_ns =
            paced ? pacing_op(&pace, r.start_ns, r.end_ns) : r.end_ns - r.start_ns;
        hist_record(total, latency_ns);
        if (sync_fn)
            record_parts(write_part, sync_part, &r);
        if (tracing)
            trace_add(ph->trace, op_base + op, paced ? pace.due_ns - pace.interval_ns : r.start_ns,
                      latency_ns, r.write_done_ns - r.start_ns, r.end_ns - r.write_done_ns);
        op++;
        *progress = op_base + op;
        if (interval && !iv_record(e, series, &iv, r.end_ns, latency_ns, op))
            break;
        if (hooked && hook->done &&
            DISKIO_UNLIKELY(hook_done(e, hook, &r, sync_fn != NULL, op) < 0))
            break;
        if (DISKIO_UNLIKELY(r.end_ns >= deadline_ns))
            break;
    }
    engine_loop_end(e, ph, &offsets, wb_rng, op, &pace);
}

/*
 * LOOP(args..., pattern, tracing) called with both as compile-time
 * constants, so that every pattern, traced or not, gets a loop of its own
 * with no test of either inside.  Used by every mode's dispatch.
 */
#define ENGINE_SPECIALISE(pattern, tracing, LOOP, ...)                                             \
    do {                                                                                           \
        switch (pattern) {                                                                         \
        case DISKIO_PATTERN_SEQ:                                                                   \
            if (tracing)                                                                           \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_SEQ, true);                                       \
            else                                                                                   \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_SEQ, false);                                      \
            break;                                                                                 \
        case DISKIO_PATTERN_RAND:                                                                  \
            if (tracing)                                                                           \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_RAND, true);                                      \
            else                                                                                   \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_RAND, false);                                     \
            break;                                                                                 \
        case DISKIO_PATTERN_APPEND:                                                                \
            if (tracing)                                                                           \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_APPEND, true);                                    \
            else                                                                                   \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_APPEND, false);                                   \
            break;                                                                                 \
        case DISKIO_PATTERN_CREATE:                                                                \
            if (tracing)                                                                           \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_CREATE, true);                                    \
            else                                                                                   \
                LOOP(__VA_ARGS__, DISKIO_PATTERN_CREATE, false);                                   \
            break;                                                                                 \
        default: /* wal, checkpoint: loops of their own */ break;                                  \
        }                                                                                          \
    } while (0)

static DISKIO_ALWAYS_INLINE void
engine_loop_unpaced(struct engine *e, struct engine_phase *ph, int (*const sync_fn)(int),
                    const int write_flags, const bool reading, const bool warming,
                    const enum diskio_pattern pattern, const bool tracing)
{
    engine_loop(e, ph, sync_fn, write_flags, reading, warming, pattern, tracing, false, false,
                false, false, false);
}

static DISKIO_ALWAYS_INLINE void
engine_loop_interval(struct engine *e, struct engine_phase *ph, int (*const sync_fn)(int),
                     const int write_flags, const bool reading, const bool warming,
                     const enum diskio_pattern pattern, const bool tracing)
{
    engine_loop(e, ph, sync_fn, write_flags, reading, warming, pattern, tracing, false, true, false,
                false, false);
}

/* The synchronous modes' dispatch.  Pacing, verifying, writing back and
 * an op hook are rare: one specialisation covers them (two: with a series
 * and without), with the pattern, tracing, pacing, verifying, writing back
 * and the hook decided at run time outside the timed region.  A run
 * without a series gets the loop it had before series existed. */
static DISKIO_ALWAYS_INLINE void engine_dispatch(struct engine *e, struct engine_phase *ph,
                                                 int (*const sync_fn)(int), const int write_flags,
                                                 const bool reading, const bool warming)
{
    const bool verifying = reading && e->cfg->verify;
    const bool writing_back = reading && e->write_back;
    const bool hooked = ph->hook != NULL;
    if (ph->service != NULL || verifying || writing_back || hooked) {
        const bool paced = ph->service != NULL;
        if (ph->series != NULL)
            engine_loop(e, ph, sync_fn, write_flags, reading, warming, e->cfg->pattern,
                        ph->trace != NULL, paced, true, verifying, writing_back, hooked);
        else
            engine_loop(e, ph, sync_fn, write_flags, reading, warming, e->cfg->pattern,
                        ph->trace != NULL, paced, false, verifying, writing_back, hooked);
        return;
    }
    if (ph->series != NULL)
        ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, engine_loop_interval, e, ph, sync_fn,
                          write_flags, reading, warming);
    else
        ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, engine_loop_unpaced, e, ph, sync_fn,
                          write_flags, reading, warming);
}

#endif
