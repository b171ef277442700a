/* SPDX-License-Identifier: MIT */
/*
 * The queued modes: one loop (engine_queued.c) over a backend
 * (mode_aio.c, mode_uring.c).
 *
 * A queued mode keeps iodepth writes in flight through one kernel
 * interface.  The loop (what to issue next, when an op is done, short
 * writes, errors, stop) is the engine's; a backend only says how to put
 * a request in the queue, hand the queue to the kernel and collect what
 * completed: fio's queue/commit/getevents split, with three hooks.
 */
#ifndef DISKIO_QUEUE_H
#define DISKIO_QUEUE_H

#include "engine.h"

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
extern const struct queue_backend aio_backend;
extern const struct queue_backend uring_backend;
/* the same interfaces with reads (the read modes) */
extern const struct queue_backend aio_read_backend;
extern const struct queue_backend uring_read_backend;

/* Set up e->queue over backend b (the mode's) for e->cfg (untimed): 0, or
 * -errno with the step named in *during.  engine_queue_close() releases
 * it (NULL: nothing). */
int engine_queue_open(struct engine *e, const struct queue_backend *b, const char **during);
void engine_queue_close(struct engine *e);

#endif
