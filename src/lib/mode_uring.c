/* SPDX-License-Identifier: MIT */
/*
 * Mode `uring`: io_uring (liburing) on an O_DIRECT descriptor, keeping
 * config.iodepth writes in flight.  The file and the buffers are
 * registered with the ring (IOSQE_FIXED_FILE, write_fixed), so the kernel
 * does not look up the file or pin the pages on every request: the
 * cheapest way Linux offers to issue a direct write.
 *
 * An op's latency runs from just before the io_uring_submit() that carries
 * it to just after its completion is seen, as with aio.  Each request owns
 * its buffer.  Without liburing at build time the mode exists but cannot
 * run (-ENOSYS), so results and option parsing stay the same everywhere.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "engine_loop.h"

#ifdef HAVE_LIBURING
#include <liburing.h>
#include <sys/uio.h>

struct uring_slot {
    unsigned index;     /* registered buffer index */
    uint64_t offset;
    uint64_t written;   /* bytes done by earlier parts of a short write */
    uint64_t op;
    uint64_t submit_ns; /* 0 until submitted */
};

struct uring_state {
    struct io_uring ring;
    struct uring_slot *slots;
    struct uring_slot **pending; /* prepared, not yet stamped with a submit time */
    unsigned npending;
    unsigned depth;
};

static void uring_queue(struct engine *e, struct uring_state *s, struct uring_slot *slot)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
    /* the ring has iodepth entries and at most iodepth ops are queued or
     * in flight, so an entry is always free */
    unsigned char *buf = e->buf + (size_t)slot->index * e->block_size + slot->written;
    io_uring_prep_write_fixed(sqe, 0, buf, (unsigned)(e->block_size - slot->written),
                              slot->offset + slot->written, (int)slot->index);
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, slot);
    s->pending[s->npending++] = slot;
}

static void uring_prep(struct engine *e, struct uring_state *s, struct uring_slot *slot,
                       uint64_t offset, uint64_t op)
{
    slot->offset = offset;
    slot->written = 0;
    slot->op = op;
    slot->submit_ns = 0;
    stamp_block(e->buf + (size_t)slot->index * e->block_size, offset, e->op_base + op);
    uring_queue(e, s, slot);
}

/* Submit what is queued and wait for a completion in the same system
 * call (at queue depth 1 that halves the syscalls per op); the kernel
 * takes all of it (SQ entries were reserved), or fails with -errno.  The
 * completion is then found in the ring without another syscall. */
static int uring_submit(struct uring_state *s)
{
    uint64_t submit_ns = now_ns();
    for (unsigned i = 0; i < s->npending; i++)
        if (s->pending[i]->submit_ns == 0)
            s->pending[i]->submit_ns = submit_ns;
    unsigned want = s->npending;
    s->npending = 0;
    int rc;
    do
        rc = io_uring_submit_and_wait(&s->ring, 1);
    while (rc == -EINTR || rc == -EAGAIN);
    if (rc < 0)
        return rc;
    return (unsigned)rc < want ? -EIO : rc;
}

static DISKIO_ALWAYS_INLINE void uring_loop(struct engine *e, struct engine_phase *ph,
                                            struct uring_state *s,
                                            const enum diskio_pattern pattern,
                                            const bool tracing)
{
    const volatile sig_atomic_t *const stop = e->stop;
    uint64_t issued = 0, completed = 0, in_flight = 0;
    bool issuing = true;
    struct offsets offsets = offsets_load(e);

    for (unsigned i = 0; i < s->depth && issued < ph->limit; i++) {
        uint64_t offset = next_offset(e, &offsets, pattern);
        if (offset == UINT64_MAX) {
            issuing = false;
            break;
        }
        uring_prep(e, s, &s->slots[i], offset, issued++);
    }
    for (;;) {
        if (s->npending > 0) {
            unsigned queued = s->npending;
            int rc = uring_submit(s);
            if (rc < 0) {
                if (!e->error) {
                    e->error = rc;
                    e->error_during = "submit";
                    e->error_op = issued - queued;
                }
                issuing = false;
                /* entries that did not make it were never in flight */
            } else {
                in_flight += (unsigned)rc;
            }
        }
        if (in_flight == 0)
            break;

        struct io_uring_cqe *cqe;
        int rc = io_uring_wait_cqe(&s->ring, &cqe);
        const uint64_t reaped_ns = now_ns();
        if (rc == -EINTR)
            continue;
        if (rc < 0) {
            e->error = rc;
            e->error_during = "wait";
            e->error_op = completed;
            break;
        }
        unsigned head, seen = 0;
        io_uring_for_each_cqe(&s->ring, head, cqe)
        {
            struct uring_slot *slot = io_uring_cqe_get_data(cqe);
            int res = cqe->res;
            seen++;
            in_flight--;
            if (DISKIO_UNLIKELY(res <= 0 || slot->written + (uint64_t)res < e->block_size)) {
                if (res <= 0) {
                    if (!e->error) {
                        e->error = res < 0 ? res : -DISKIO_E_SHORT_WRITE;
                        e->error_during = "write";
                        e->error_op = slot->op;
                    }
                    issuing = false;
                    continue;
                }
                /* a short write: send the rest, keeping the op's start */
                slot->written += (uint64_t)res;
                uring_queue(e, s, slot);
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
                uring_prep(e, s, slot, offset, issued++);
            }
        }
        io_uring_cq_advance(&s->ring, seen);
        if (DISKIO_UNLIKELY(*stop) && issuing) {
            issuing = false;
            /* what was prepared but not submitted never runs: the ring is
             * torn down without submitting it */
            s->npending = 0;
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

void mode_uring_run(struct engine *e, struct engine_phase *ph)
{
    struct uring_state s = {.depth = e->cfg->iodepth};
    struct iovec *iov = NULL;
    ph->done = 0;
    int rc = io_uring_queue_init(s.depth, &s.ring, 0);
    if (rc < 0) {
        e->error = rc;
        e->error_during = "io_uring_setup";
        return;
    }
    s.slots = calloc(s.depth, sizeof(*s.slots));
    s.pending = calloc(s.depth, sizeof(*s.pending));
    iov = calloc(s.depth, sizeof(*iov));
    if (!s.slots || !s.pending || !iov) {
        e->error = -ENOMEM;
        e->error_during = "setup";
        goto out;
    }
    for (unsigned i = 0; i < s.depth; i++) {
        s.slots[i].index = i;
        iov[i].iov_base = e->buf + (size_t)i * e->block_size;
        iov[i].iov_len = (size_t)e->block_size;
    }
    if ((rc = io_uring_register_buffers(&s.ring, iov, s.depth)) < 0 ||
        (rc = io_uring_register_files(&s.ring, &e->fd, 1)) < 0) {
        e->error = rc;
        e->error_during = "register";
        goto out;
    }

    ENGINE_SPECIALISE(e->cfg->pattern, ph->trace != NULL, uring_loop, e, ph, &s);
out:
    /* tearing the ring down waits for anything still in flight */
    io_uring_queue_exit(&s.ring);
    free(s.slots);
    free(s.pending);
    free(iov);
}
#else
void mode_uring_run(struct engine *e, struct engine_phase *ph)
{
    ph->done = 0;
    e->error = -ENOSYS;
    e->error_during = "setup";
}
#endif
