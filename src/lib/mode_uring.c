/* SPDX-License-Identifier: MIT */
/*
 * Mode `uring`'s backend: io_uring (liburing) on an O_DIRECT descriptor.
 * The file and the buffers are registered with the ring
 * (IOSQE_FIXED_FILE, write_fixed), so the kernel does not look up the
 * file or pin the pages on every request: the cheapest way Linux offers
 * to issue a direct write.  The loop that keeps config.iodepth writes in
 * flight is the engine's (engine_queued.c).
 *
 * Without liburing at build time the mode exists but cannot run
 * (-ENOSYS from its setup), so results and option parsing stay the same
 * everywhere.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "queue.h"

#ifdef HAVE_LIBURING
#include <liburing.h>
#include <sys/uio.h>

struct uring_state {
    struct io_uring ring;
};

static void uring_teardown(void *state)
{
    struct uring_state *s = state;
    if (!s)
        return;
    /* tearing the ring down waits for anything still in flight */
    io_uring_queue_exit(&s->ring);
    free(s);
}

static int uring_setup(struct engine *e, unsigned depth, void **state, const char **during)
{
    struct uring_state *s = calloc(1, sizeof(*s));
    if (!s) {
        *during = "setup";
        return -ENOMEM;
    }
    int rc = io_uring_queue_init(depth, &s->ring, 0);
    if (rc < 0) {
        free(s);
        *during = "io_uring_setup";
        return rc;
    }
    /* the whole data pool is one registered buffer: a fixed write may
     * take any range inside it, so every op can write from its own pool
     * block (the pool is at most 256 MiB, under the 1 GiB a registered
     * buffer may span) */
    struct iovec pool = {.iov_base = e->buf, .iov_len = (size_t)(e->pool_blocks * e->block_size)};
    if ((rc = io_uring_register_buffers(&s->ring, &pool, 1)) < 0 ||
        (rc = io_uring_register_files(&s->ring, &e->fd, 1)) < 0) {
        uring_teardown(s);
        *during = "register";
        return rc;
    }
    *state = s;
    return 0;
}

static void uring_prepare(void *state, struct engine *e, struct queue_slot *slot)
{
    struct uring_state *s = state;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
    /* the ring has iodepth entries and at most iodepth ops are queued or
     * in flight, so an entry is always free */
    unsigned char *buf = e->buf + (size_t)slot->block * e->block_size + slot->written;
    io_uring_prep_write_fixed(sqe, 0, buf, (unsigned)(e->block_size - slot->written),
                              slot->offset + slot->written, 0);
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, slot);
}

static void uring_prepare_read(void *state, struct engine *e, struct queue_slot *slot)
{
    struct uring_state *s = state;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
    unsigned char *buf = e->buf + (size_t)slot->block * e->block_size + slot->written;
    io_uring_prep_read_fixed(sqe, 0, buf, (unsigned)(e->block_size - slot->written),
                             slot->offset + slot->written, 0);
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, slot);
}

/* Submit what is queued; when the engine reaps next (wait), also wait
 * for a completion in the same system call (at queue depth 1 that halves
 * the syscalls per op), otherwise return at once so that the next
 * submission is not held up.  The kernel takes all of it (SQ entries were
 * reserved), or fails with -errno.  The completion is then found in the
 * ring by the reap without another syscall. */
static int uring_submit(void *state, struct queue_slot *const *slots, unsigned n, unsigned *taken,
                        bool wait)
{
    struct uring_state *s = state;
    (void)slots; /* already in the submission ring, in order */
    int rc;
    do
        rc = wait ? io_uring_submit_and_wait(&s->ring, 1) : io_uring_submit(&s->ring);
    while (rc == -EINTR || rc == -EAGAIN);
    *taken = 0;
    if (rc < 0)
        return rc;
    if ((unsigned)rc < n)
        return -EIO;
    *taken = (unsigned)rc;
    return 0;
}

static int uring_reap(void *state, struct queue_done *done, unsigned max, uint64_t *reaped_ns)
{
    struct uring_state *s = state;
    struct io_uring_cqe *cqe;
    int rc = io_uring_wait_cqe(&s->ring, &cqe);
    *reaped_ns = now_ns();
    if (rc < 0)
        return rc;
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&s->ring, head, cqe)
    {
        if (seen == max)
            break;
        done[seen].slot = io_uring_cqe_get_data(cqe);
        done[seen].res = cqe->res;
        seen++;
    }
    io_uring_cq_advance(&s->ring, seen);
    return (int)seen;
}

const struct queue_backend uring_backend = {
    .setup = uring_setup,
    .prepare = uring_prepare,
    .submit = uring_submit,
    .reap = uring_reap,
    .reap_during = "wait",
    .teardown = uring_teardown,
};

/* Mode uring-read: the same with reads. */
const struct queue_backend uring_read_backend = {
    .setup = uring_setup,
    .prepare = uring_prepare_read,
    .submit = uring_submit,
    .reap = uring_reap,
    .reap_during = "wait",
    .teardown = uring_teardown,
};
#else
static int uring_setup(struct engine *e, unsigned depth, void **state, const char **during)
{
    *during = "setup";
    return -ENOSYS;
}

const struct queue_backend uring_backend = {
    .setup = uring_setup,
    .reap_during = "wait",
};
const struct queue_backend uring_read_backend = {
    .setup = uring_setup,
    .reap_during = "wait",
};
#endif
