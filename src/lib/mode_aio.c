/* SPDX-License-Identifier: MIT */
/*
 * Mode `aio`'s backend: Linux native AIO (libaio io_submit/io_getevents)
 * on an O_DIRECT descriptor.  The loop that keeps config.iodepth writes
 * in flight is the engine's (engine_queued.c); this file only turns its
 * requests into iocbs, submits them and reaps their events.
 */
#include "config.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>

#include "queue.h"

struct aio_state {
    io_context_t ctx;
    struct iocb *cbs;    /* one per slot, by slot->index */
    struct iocb **batch; /* io_submit()'s argument */
    struct io_event *events;
    unsigned depth;
};

static void aio_teardown(void *state)
{
    struct aio_state *s = state;
    if (!s)
        return;
    /* io_destroy() waits for what is in flight */
    io_destroy(s->ctx);
    free(s->cbs);
    free(s->batch);
    free(s->events);
    free(s);
}

static int aio_setup(struct engine *e, unsigned depth, void **state, const char **during)
{
    struct aio_state *s = calloc(1, sizeof(*s));
    if (!s) {
        *during = "setup";
        return -ENOMEM;
    }
    s->depth = depth;
    int rc = io_setup((int)depth, &s->ctx);
    if (rc < 0) {
        free(s);
        *during = "io_setup";
        return rc;
    }
    s->cbs = calloc(depth, sizeof(*s->cbs));
    s->batch = calloc(depth, sizeof(*s->batch));
    s->events = calloc(depth, sizeof(*s->events));
    if (!s->cbs || !s->batch || !s->events) {
        aio_teardown(s);
        *during = "setup";
        return -ENOMEM;
    }
    *state = s;
    return 0;
}

static void aio_prepare(void *state, struct engine *e, struct queue_slot *slot)
{
    struct aio_state *s = state;
    struct iocb *cb = &s->cbs[slot->index];
    unsigned char *buf = e->buf + (size_t)slot->block * e->block_size + slot->written;
    io_prep_pwrite(cb, e->fd, buf, (size_t)(e->block_size - slot->written),
                   (long long)(slot->offset + slot->written));
    cb->data = slot;
}

static void aio_prepare_read(void *state, struct engine *e, struct queue_slot *slot)
{
    struct aio_state *s = state;
    struct iocb *cb = &s->cbs[slot->index];
    unsigned char *buf = e->buf + (size_t)slot->block * e->block_size + slot->written;
    io_prep_pread(cb, e->fd, buf, (size_t)(e->block_size - slot->written),
                  (long long)(slot->offset + slot->written));
    cb->data = slot;
}

static int aio_submit(void *state, struct queue_slot *const *slots, unsigned n, unsigned *taken,
                      bool wait)
{
    struct aio_state *s = state;
    (void)wait; /* io_getevents() waits */
    for (unsigned i = 0; i < n; i++)
        s->batch[i] = &s->cbs[slots[i]->index];
    *taken = 0;
    while (*taken < n) {
        int rc = io_submit(s->ctx, (long)(n - *taken), s->batch + *taken);
        if (rc == -EINTR || rc == -EAGAIN)
            continue;
        if (rc <= 0)
            return rc ? rc : -EIO;
        *taken += (unsigned)rc;
    }
    return 0;
}

static int aio_reap(void *state, struct queue_done *done, unsigned max, uint64_t *reaped_ns)
{
    struct aio_state *s = state;
    int got = io_getevents(s->ctx, 1, (long)max, s->events, NULL);
    *reaped_ns = now_ns();
    for (int i = 0; i < got; i++) {
        done[i].slot = s->events[i].data;
        done[i].res = (long)s->events[i].res;
    }
    return got;
}

const struct queue_backend aio_backend = {
    .setup = aio_setup,
    .prepare = aio_prepare,
    .submit = aio_submit,
    .reap = aio_reap,
    .reap_during = "getevents",
    .teardown = aio_teardown,
};

/* Mode aio-read: the same with reads. */
const struct queue_backend aio_read_backend = {
    .setup = aio_setup,
    .prepare = aio_prepare_read,
    .submit = aio_submit,
    .reap = aio_reap,
    .reap_during = "getevents",
    .teardown = aio_teardown,
};
