/* SPDX-License-Identifier: MIT */
/*
 * The queued modes' loop (aio, uring), written once over a backend's
 * three hooks: prepare a request, submit the prepared ones, reap what
 * completed (struct queue_backend, queue.h).  The backends differ only
 * in system calls; what an op is, when it counts as done, short writes,
 * errors, the deadline and stop are decided here.
 *
 * An op's latency runs from just before the submit that carries it to
 * just after the reap that returns it, so it includes the submission
 * call and any time the completion waited to be reaped: what an
 * application using the same interface would see.  Each new op takes
 * the pool block freed longest ago (a FIFO of the blocks no request in
 * flight uses), so stamps of requests in flight cannot overwrite each
 * other, and consecutive ops write different data whatever the depth
 * (at depth 1 a fixed per-slot buffer would repeat one block).  The hooks are called through pointers once per op (prepare)
 * and once per batch (submit, reap); the clock is read by the engine
 * around submit and by the backend right after its wait returns.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "engine_loop.h"
#include "modes.h"
#include "queue.h"

/*
 * A queued mode's (aio, uring) op came back whole: record its latency from
 * submission to reaping, trace and count it.  Returns false once the
 * deadline has passed, when no further op may be issued.
 */
static DISKIO_ALWAYS_INLINE bool queued_op_done(struct engine *e, struct engine_phase *ph,
                                                uint64_t op, uint64_t submit_ns, uint64_t reaped_ns,
                                                uint64_t *completed, struct iv_state *iv,
                                                const bool tracing, const bool interval)
{
    const uint64_t latency_ns = reaped_ns - submit_ns;
    hist_record(ph->total, latency_ns);
    if (tracing)
        trace_add(ph->trace, e->op_base + op, submit_ns, latency_ns, latency_ns, 0);
    ++*completed;
    *e->progress = e->op_base + *completed;
    if (interval && !iv_record(e, ph->series, iv, reaped_ns, latency_ns, *completed))
        return false;
    return DISKIO_LIKELY(reaped_ns < ph->deadline_ns);
}

struct queue {
    const struct queue_backend *b;
    void *state;
    struct queue_slot *slots;
    struct queue_slot **pending; /* prepared since the last submit */
    struct queue_slot **parked;  /* free, waiting for the trace to be written */
    struct queue_done *done;
    /* the pool blocks no request uses, oldest first: a ring of
     * pool_blocks entries holding free_count of them from free_head */
    uint64_t *free_blocks;
    uint64_t free_head, free_count, pool_blocks;
    unsigned npending;
    unsigned depth;
};

/* The pool block freed longest ago; there is always one, since the pool
 * holds at least one block per request in flight. */
static DISKIO_ALWAYS_INLINE uint64_t block_take(struct queue *q)
{
    uint64_t block = q->free_blocks[q->free_head];
    if (++q->free_head == q->pool_blocks)
        q->free_head = 0;
    q->free_count--;
    return block;
}

static DISKIO_ALWAYS_INLINE void block_give_back(struct queue *q, uint64_t block)
{
    uint64_t at = q->free_head + q->free_count;
    if (at >= q->pool_blocks)
        at -= q->pool_blocks;
    q->free_blocks[at] = block;
    q->free_count++;
}

/* A new op in slot: a pool block, stamped (a write), and queued. */
static DISKIO_ALWAYS_INLINE void queue_op(struct engine *e, struct queue *q,
                                          struct queue_slot *slot, uint64_t offset, uint64_t op,
                                          const bool reading)
{
    slot->offset = offset;
    slot->written = 0;
    slot->op = op;
    slot->submit_ns = 0;
    slot->block = block_take(q);
    if (!reading)
        stamp_sectors(e->buf + (size_t)slot->block * e->block_size, e->block_size, offset,
                      e->op_base + op);
    q->b->prepare(q->state, e, slot);
    q->pending[q->npending++] = slot;
}

/* Submit what is pending in one call; the ops not yet submitted (not
 * the rest of a short write) start their clock now.  A request the
 * kernel refused never ran: the run ends there (*issuing = false).
 * wait: a reap follows at once. */
static void queue_submit(struct engine *e, struct queue *q, uint64_t *in_flight, bool *issuing,
                         bool wait)
{
    const uint64_t submit_ns = now_ns();
    /* pending[0..npending) were all set by queue_op() or a short write's
     * resend; clang-analyzer loses that across the backend's indirect
     * calls and reports the calloc()ed zeros */
    for (unsigned i = 0; i < q->npending; i++)
        if (q->pending[i]->submit_ns == 0) // NOLINT(clang-analyzer-core.NullDereference)
            q->pending[i]->submit_ns = submit_ns;
    unsigned taken = 0;
    int error = q->b->submit(q->state, q->pending, q->npending, &taken, wait);
    *in_flight += taken;
    if (DISKIO_UNLIKELY(error)) {
        if (!e->error) {
            e->error = error;
            e->error_during = "submit";
            e->error_op = q->pending[taken]->op;
        }
        *issuing = false;
    }
    q->npending = 0;
}

/*
 * The trace is written only while nothing is in flight: a slot is
 * refilled only while the trace has a row free for every op issued and
 * not yet recorded; otherwise it is parked.  When the last op in flight
 * has been reaped, the rows are written and the parked slots refilled.
 * The write happens after that op's clock stopped and before the next
 * op's starts, with no request in flight that it could delay.
 */
static DISKIO_ALWAYS_INLINE bool trace_has_room(const struct engine_phase *ph,
                                                const struct queue *q, uint64_t in_flight,
                                                const bool tracing)
{
    return !tracing || ph->trace->rows_used + in_flight + q->npending < TRACE_ROWS;
}

/* The phase's first failure (a later one changes nothing): why, and at
 * which op (slot's, read only when it is the first failure). */
static DISKIO_ALWAYS_INLINE void queued_fail(struct engine *e, int error, const char *during,
                                             uint64_t op)
{
    if (!e->error)
        phase_fail(e, error, during, op);
}

static DISKIO_ALWAYS_INLINE void queued_slot_fail(struct engine *e, int error, const char *during,
                                                  const struct queue_slot *slot)
{
    if (!e->error) {
        e->error = error;
        e->error_during = during;
        e->error_op = slot->op;
    }
}

/* A short write: the rest of it prepared again, keeping the op's start
 * time. */
static DISKIO_ALWAYS_INLINE void queued_resend(struct engine *e, struct queue *q,
                                               struct queue_slot *slot, long res)
{
    slot->written += (uint64_t)res;
    q->b->prepare(q->state, e, slot);
    q->pending[q->npending++] = slot;
}

/* A stop: no further op is issued; the loop still reaps what is in
 * flight, and what was prepared but not submitted never runs. */
static DISKIO_ALWAYS_INLINE void queued_interrupt(struct engine *e, struct queue *q, bool *issuing,
                                                  uint64_t completed)
{
    *issuing = false;
    q->npending = 0;
    queued_fail(e, -DISKIO_E_INTERRUPTED, "interrupted", completed);
}

/* The pattern has no further op (e->error says why, if it failed):
 * nothing more is issued after the issued ones. */
static DISKIO_ALWAYS_INLINE void queued_pattern_end(struct engine *e, uint64_t issued,
                                                    bool *issuing)
{
    e->error_op = issued;
    *issuing = false;
}

/* The phase's end: where the writes go next, and the ops done. */
static DISKIO_ALWAYS_INLINE void queued_loop_end(struct engine *e, struct engine_phase *ph,
                                                 const struct offsets *offsets, uint64_t completed)
{
    offsets_store(e, offsets);
    ph->done = completed;
}

/*
 * The phase's ops, from every slot parked to nothing in flight.  When
 * the queue has drained, the trace's rows are written, then the parked
 * slots refilled.  A reap that fails ends the phase (the teardown waits
 * for what is in flight).  config.verify: each block read is checked
 * after the op was reaped, with others still in flight (a check, not a
 * measurement).  One request per system call unless --batch says more;
 * the last one goes out at the top of the loop, where uring also waits
 * for the next completion in the same call.
 */
static DISKIO_ALWAYS_INLINE void queued_loop(struct engine *e, struct engine_phase *ph,
                                             struct queue *q, const bool reading,
                                             const enum diskio_pattern pattern, const bool tracing,
                                             const bool interval)
{
    const volatile sig_atomic_t *const stop = e->stop;
    const bool verifying = reading && e->cfg->verify;
    const unsigned batch = e->cfg->batch ? e->cfg->batch : 1;
    uint64_t issued = 0, completed = 0, in_flight = 0;
    unsigned nparked = 0;
    bool issuing = true;
    struct offsets offsets = offsets_load(e);
    struct iv_state iv = iv_start(ph->series, interval);
    /* every slot starts parked: the first pass below fills them */
    for (unsigned i = 0; i < q->depth; i++)
        q->parked[nparked++] = &q->slots[i];
    for (;;) {
        if (nparked > 0 && in_flight == 0 && q->npending == 0 && issuing) {
            if (tracing && ph->trace->rows_used > 0)
                (void)trace_flush(ph->trace);
            while (nparked > 0 && issued < ph->limit) {
                uint64_t offset = next_offset(e, &offsets, pattern);
                if (offset == UINT64_MAX) {
                    if (issued > 0)
                        e->error_op = issued;
                    issuing = false;
                    break;
                }
                queue_op(e, q, q->parked[--nparked], offset, issued++, reading);
                if (q->npending >= batch && nparked > 0)
                    queue_submit(e, q, &in_flight, &issuing, false);
            }
        }
        if (q->npending > 0)
            queue_submit(e, q, &in_flight, &issuing, true);
        if (in_flight == 0)
            break;
        uint64_t reaped_ns;
        int got = q->b->reap(q->state, q->done, q->depth, &reaped_ns);
        if (got < 0) {
            if (got == -EINTR)
                continue;
            e->error = got;
            e->error_during = q->b->reap_during;
            e->error_op = completed;
            break;
        }
        for (int i = 0; i < got; i++) {
            struct queue_slot *slot = q->done[i].slot;
            const long res = q->done[i].res;
            in_flight--;
            if (DISKIO_UNLIKELY(res <= 0 || slot->written + (uint64_t)res < e->block_size)) {
                if (res <= 0) {
                    block_give_back(q, slot->block);
                    if (!e->error) {
                        e->error = res < 0   ? (int)res
                                   : reading ? -DISKIO_E_SHORT_READ
                                             : -DISKIO_E_SHORT_WRITE;
                        e->error_during = reading ? "read" : "write";
                        e->error_op = slot->op;
                    }
                    issuing = false;
                    continue;
                }
                queued_resend(e, q, slot, res);
                if (q->npending >= batch && i + 1 < got)
                    queue_submit(e, q, &in_flight, &issuing, false);
                continue;
            }
            if (verifying && DISKIO_UNLIKELY(!verify_block(
                                 e, e->buf + (size_t)slot->block * e->block_size, slot->offset))) {
                block_give_back(q, slot->block);
                queued_slot_fail(e, -DISKIO_E_VERIFY, "verify", slot);
                issuing = false;
                continue;
            }
            block_give_back(q, slot->block);
            if (!queued_op_done(e, ph, slot->op, slot->submit_ns, reaped_ns, &completed, &iv,
                                tracing, interval))
                issuing = false;
            if (issuing && issued < ph->limit) {
                if (!trace_has_room(ph, q, in_flight, tracing)) {
                    q->parked[nparked++] = slot;
                    continue;
                }
                uint64_t offset = next_offset(e, &offsets, pattern);
                if (offset == UINT64_MAX) {
                    queued_pattern_end(e, issued, &issuing);
                    continue;
                }
                queue_op(e, q, slot, offset, issued++, reading);
                if (q->npending >= batch && i + 1 < got)
                    queue_submit(e, q, &in_flight, &issuing, false);
            }
        }
        if (DISKIO_UNLIKELY(*stop) && issuing)
            queued_interrupt(e, q, &issuing, completed);
    }
    queued_loop_end(e, ph, &offsets, completed);
}

int engine_queue_open(struct engine *e, const struct queue_backend *b, const char **during)
{
    struct queue *q = calloc(1, sizeof(*q));
    *during = "setup";
    if (!q)
        return -ENOMEM;
    q->b = b;
    q->depth = e->cfg->iodepth;
    int rc = q->b->setup(e, q->depth, &q->state, during);
    if (rc < 0) {
        free(q);
        return rc;
    }
    q->slots = calloc(q->depth, sizeof(*q->slots));
    q->pending = calloc(q->depth, sizeof(*q->pending));
    q->done = calloc(q->depth, sizeof(*q->done));
    q->parked = calloc(q->depth, sizeof(*q->parked));
    q->pool_blocks = e->pool_blocks;
    q->free_blocks = calloc(q->pool_blocks, sizeof(*q->free_blocks));
    e->queue = q;
    if (!q->slots || !q->pending || !q->done || !q->parked || !q->free_blocks) {
        engine_queue_close(e);
        *during = "setup";
        return -ENOMEM;
    }
    for (unsigned i = 0; i < q->depth; i++)
        q->slots[i].index = i;
    return 0;
}

void engine_queue_close(struct engine *e)
{
    struct queue *q = e->queue;
    if (!q)
        return;
    q->b->teardown(q->state);
    free(q->slots);
    free(q->pending);
    free(q->done);
    free(q->parked);
    free(q->free_blocks);
    free(q);
    e->queue = NULL;
}

/* Nothing is in flight between phases: every pool block is free (an
 * interrupted phase may have dropped prepared requests). */
static void queue_reset_pool(struct queue *q)
{
    for (uint64_t b = 0; b < q->pool_blocks; b++)
        q->free_blocks[b] = b;
    q->free_head = 0;
    q->free_count = q->pool_blocks;
}

static DISKIO_ALWAYS_INLINE void queued_loop_plain(struct engine *e, struct engine_phase *ph,
                                                   struct queue *q, const bool reading,
                                                   const enum diskio_pattern pattern,
                                                   const bool tracing)
{
    queued_loop(e, ph, q, reading, pattern, tracing, false);
}

static DISKIO_ALWAYS_INLINE void queued_loop_interval(struct engine *e, struct engine_phase *ph,
                                                      struct queue *q, const bool reading,
                                                      const enum diskio_pattern pattern,
                                                      const bool tracing)
{
    queued_loop(e, ph, q, reading, pattern, tracing, true);
}

/* A phase over the queue, reads or writes, with a series or without. */
static void queue_run(struct engine *e, struct engine_phase *ph, const bool reading)
{
    struct queue *q = e->queue;
    queue_reset_pool(q);
    if (reading) {
        if (ph->series)
            ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, queued_loop_interval, e, ph, q,
                              true);
        else
            ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, queued_loop_plain, e, ph, q,
                              true);
    } else {
        if (ph->series)
            ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, queued_loop_interval, e, ph, q,
                              false);
        else
            ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, queued_loop_plain, e, ph, q,
                              false);
    }
}

/* One phase (warmup or measured) over the queue engine_queue_open() made
 * before it. */
void engine_run_queued(struct engine *e, struct engine_phase *ph)
{
    ph->done = 0;
    if (!e->queue) {
        e->error = -EINVAL;
        e->error_during = "setup";
        return;
    }
    queue_run(e, ph, false);
}

/* The same over a read backend (aio-read, uring-read): no stamps. */
void engine_run_queued_read(struct engine *e, struct engine_phase *ph)
{
    ph->done = 0;
    if (!e->queue) {
        e->error = -EINVAL;
        e->error_during = "setup";
        return;
    }
    queue_run(e, ph, true);
}
