/* SPDX-License-Identifier: MIT */
/*
 * Mode `aio`: Linux native AIO (libaio io_submit/io_getevents) on an
 * O_DIRECT descriptor, keeping config.iodepth writes in flight.
 *
 * An op's latency runs from just before the io_submit() that carries it to
 * just after the io_getevents() that reaps it, so it includes the
 * submission call and any time the completion waited to be reaped: what an
 * application using the same interface would see.  Each request owns its
 * buffer, so stamps of requests in flight cannot overwrite each other.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdlib.h>

#include "engine_loop.h"

struct aio_slot {
    struct iocb cb;
    unsigned char *buf;
    uint64_t offset;
    uint64_t written;   /* bytes done by earlier parts of a short write */
    uint64_t op;        /* op number within the phase */
    uint64_t submit_ns; /* 0 until submitted */
};

struct aio_state {
    io_context_t ctx;
    struct aio_slot *slots;
    struct iocb **batch;
    struct io_event *events;
    unsigned depth;
};

static void aio_prep(struct engine *e, struct aio_slot *slot, uint64_t offset, uint64_t op)
{
    slot->offset = offset;
    slot->written = 0;
    slot->op = op;
    slot->submit_ns = 0;
    stamp_block(slot->buf, offset, e->op_base + op);
    io_prep_pwrite(&slot->cb, e->fd, slot->buf, (size_t)e->block_size, (long long)offset);
    slot->cb.data = slot;
}

/* Submit n prepared requests; returns how many the kernel took and sets
 * *error to -errno when it refused the rest. */
static unsigned aio_submit_batch(struct aio_state *s, unsigned n, int *error)
{
    uint64_t submit_ns = now_ns();
    for (unsigned i = 0; i < n; i++) {
        struct aio_slot *slot = s->batch[i]->data;
        if (slot->submit_ns == 0)
            slot->submit_ns = submit_ns;
    }
    unsigned taken = 0;
    while (taken < n) {
        int rc = io_submit(s->ctx, (long)(n - taken), s->batch + taken);
        if (rc == -EINTR || rc == -EAGAIN)
            continue;
        if (rc <= 0) {
            *error = rc ? rc : -EIO;
            return taken;
        }
        taken += (unsigned)rc;
    }
    return taken;
}

static DISKIO_ALWAYS_INLINE void aio_loop(struct engine *e, struct engine_phase *ph,
                                          struct aio_state *s,
                                          const enum diskio_pattern pattern,
                                          const bool tracing)
{
    const volatile sig_atomic_t *const stop = e->stop;
    uint64_t issued = 0, completed = 0, in_flight = 0;
    bool issuing = true;
    unsigned n = 0;
    struct offsets offsets = offsets_load(e);

    for (unsigned i = 0; i < s->depth && issued < ph->limit; i++) {
        uint64_t offset = next_offset(e, &offsets, pattern);
        if (offset == UINT64_MAX) {
            issuing = false;
            break;
        }
        aio_prep(e, &s->slots[i], offset, issued++);
        s->batch[n++] = &s->slots[i].cb;
    }
    for (;;) {
        if (n > 0) {
            int error = 0;
            unsigned taken = aio_submit_batch(s, n, &error);
            in_flight += taken;
            if (error) {
                /* the requests not taken never ran: the run ends here */
                if (!e->error) {
                    e->error = error;
                    e->error_during = "submit";
                    e->error_op = ((struct aio_slot *)s->batch[taken]->data)->op;
                }
                issuing = false;
            }
            n = 0;
        }
        if (in_flight == 0)
            break;

        int got = io_getevents(s->ctx, 1, s->depth, s->events, NULL);
        const uint64_t reaped_ns = now_ns();
        if (got < 0) {
            if (got == -EINTR)
                continue;
            /* cannot reap: io_destroy() below waits for what is in flight */
            e->error = got;
            e->error_during = "getevents";
            e->error_op = completed;
            break;
        }
        for (int i = 0; i < got; i++) {
            struct aio_slot *slot = s->events[i].data;
            long res = (long)s->events[i].res;
            in_flight--;
            if (DISKIO_UNLIKELY(res <= 0 || slot->written + (uint64_t)res < e->block_size)) {
                if (res <= 0) {
                    if (!e->error) {
                        e->error = res < 0 ? (int)res : -DISKIO_E_SHORT_WRITE;
                        e->error_during = "write";
                        e->error_op = slot->op;
                    }
                    issuing = false;
                    continue;
                }
                /* a short write: send the rest, keeping the op's start time */
                slot->written += (uint64_t)res;
                io_prep_pwrite(&slot->cb, e->fd, slot->buf + slot->written,
                               (size_t)(e->block_size - slot->written),
                               (long long)(slot->offset + slot->written));
                slot->cb.data = slot;
                s->batch[n++] = &slot->cb;
                continue;
            }
            if (!queued_op_done(e, ph, slot->op, slot->submit_ns, reaped_ns, &completed,
                                tracing))
                issuing = false;
            if (issuing && issued < ph->limit) {
                uint64_t offset = next_offset(e, &offsets, pattern);
                if (offset == UINT64_MAX) {
                    e->error_op = issued;
                    issuing = false;
                    continue;
                }
                aio_prep(e, slot, offset, issued++);
                s->batch[n++] = &slot->cb;
            }
        }
        if (DISKIO_UNLIKELY(*stop) && issuing) {
            /* stop issuing; the loop still reaps what is in flight */
            issuing = false;
            n = 0;
            if (!e->error) {
                e->error = -DISKIO_E_INTERRUPTED;
                e->error_during = "interrupted";
                e->error_op = completed;
            }
        }
    }
    offsets_store(e, &offsets);
    ph->done = completed;
}

void mode_aio_run(struct engine *e, struct engine_phase *ph)
{
    struct aio_state s = {.depth = e->cfg->iodepth};
    ph->done = 0;
    int rc = io_setup((int)s.depth, &s.ctx);
    if (rc < 0) {
        e->error = rc;
        e->error_during = "io_setup";
        return;
    }
    s.slots = calloc(s.depth, sizeof(*s.slots));
    s.batch = calloc(s.depth, sizeof(*s.batch));
    s.events = calloc(s.depth, sizeof(*s.events));
    if (!s.slots || !s.batch || !s.events) {
        e->error = -ENOMEM;
        e->error_during = "setup";
        goto out;
    }
    for (unsigned i = 0; i < s.depth; i++)
        s.slots[i].buf = e->buf + (size_t)i * e->block_size;

    ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, aio_loop, e, ph, &s);
out:
    io_destroy(s.ctx);
    free(s.slots);
    free(s.batch);
    free(s.events);
}
