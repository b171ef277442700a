/* SPDX-License-Identifier: MIT */
/*
 * Preconditioning (diskio_target_precondition): the whole test file or
 * device written sequentially twice, in large blocks, before anything is
 * measured, as the SNIA Performance Test Specification's
 * workload-independent preconditioning does ("write the entire user
 * capacity twice with 128 KiB sequential writes"; here 1 MiB, through
 * O_DIRECT where the target takes it).  A fresh SSD, or one trimmed, is
 * fast until its spare blocks are used up; an SSD written over and over
 * is at its write cliff; which of the two a measurement meets depends on
 * what the disk did before.  Preconditioned, it meets the second, as it
 * will in service.
 *
 * Each block holds random bytes of a pool (8 blocks generated once) with
 * every 4 KiB sector stamped with its offset and the pass, so that no two
 * sectors written are equal (nothing compresses or deduplicates).  Each
 * pass ends durable (fdatasync).  Nothing here is timed but the whole.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diskio_internal.h"
#include "pipeline.h"

#define PRECONDITION_BLOCK DISKIO_PRECONDITION_BLOCK_SIZE
#define PRECONDITION_PASSES DISKIO_PRECONDITION_PASSES
#define PRECONDITION_POOL 8u
#define STAMP_EVERY 4096u

/* Where the passes write: an O_DIRECT descriptor where the target takes
 * one and the range's end is aligned for it, else the target's own. */
struct pc_writer {
    int fd;
    bool direct;
    unsigned char *pool; /* PRECONDITION_POOL blocks */
};

static int writer_open(struct diskio_target *t, uint64_t size, struct pc_writer *w)
{
    w->fd = t->fd;
    w->direct = false;
    int rc = fill_buffer(&w->pool, PRECONDITION_POOL * PRECONDITION_BLOCK,
                         (uint64_t)t->ino ^ UINT64_C(0x505245434f4e44));
    if (rc < 0)
        return rc;
    uint64_t offset_align = 0, mem_align = 0;
    if (diskio_target_direct_align(t, &offset_align, &mem_align) != 0 || size % offset_align != 0 ||
        mem_align > DISKIO_BUFFER_ALIGN)
        return 0;
    int fd = target_reopen(t, O_WRONLY | O_DIRECT);
    if (fd >= 0) {
        w->fd = fd;
        w->direct = true;
    }
    return 0;
}

static void writer_close(struct diskio_target *t, struct pc_writer *w)
{
    if (w->fd >= 0 && w->fd != t->fd)
        close(w->fd);
    free(w->pool);
}

/* Block k of pass (its pool block stamped): len bytes at offset. */
static unsigned char *pc_block(struct pc_writer *w, uint64_t offset, uint64_t len, unsigned pass)
{
    unsigned char *buf =
        w->pool + (offset / PRECONDITION_BLOCK % PRECONDITION_POOL) * PRECONDITION_BLOCK;
    for (uint64_t at = 0; at + 16 <= len; at += STAMP_EVERY) {
        const uint64_t stamp[2] = {offset + at, pass};
        memcpy(buf + at, stamp, sizeof(stamp));
    }
    return buf;
}

/* One pass over [0, size), made durable.  *done: bytes of both passes
 * written so far (also stored in *progress). */
static int pc_pass(struct pc_writer *w, uint64_t size, unsigned pass,
                   const volatile sig_atomic_t *stop, volatile uint64_t *progress, uint64_t *done)
{
    for (uint64_t pos = 0; pos < size;) {
        if (stop && *stop)
            return -DISKIO_E_INTERRUPTED;
        uint64_t len = size - pos < PRECONDITION_BLOCK ? size - pos : PRECONDITION_BLOCK;
        ssize_t n = pwrite(w->fd, pc_block(w, pos, len, pass), (size_t)len, (off_t)pos);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? -errno : -DISKIO_E_SHORT_WRITE;
        pos += (uint64_t)n;
        *done += (uint64_t)n;
        if (progress)
            *progress = *done;
    }
    while (fdatasync(w->fd) != 0)
        if (errno != EINTR)
            return -errno;
    return 0;
}

int diskio_target_precondition(struct diskio_target *t, uint64_t size,
                               const volatile sig_atomic_t *stop, volatile uint64_t *progress,
                               struct diskio_precondition *out)
{
    if (!t || !out || t->fd < 0)
        return -EINVAL;
    memset(out, 0, sizeof(*out));
    /* a device: all of it unless less is asked; never past its end */
    if (t->is_device && size == 0)
        size = t->size;
    if (t->is_device && size > t->size)
        return -EINVAL;
    out->bytes = size;
    out->block_size = PRECONDITION_BLOCK;
    out->passes = PRECONDITION_PASSES;
    if (size == 0)
        return -EINVAL;
    int rc = diskio_target_check_space(t, size, NULL, NULL, NULL);
    if (rc < 0)
        return rc;
    struct pc_writer w = {.fd = -1};
    if ((rc = writer_open(t, size, &w)) < 0)
        return rc;
    out->direct = w.direct;
    const uint64_t start = now_ns();
    uint64_t done = 0;
    for (unsigned pass = 0; pass < PRECONDITION_PASSES && rc == 0; pass++)
        rc = pc_pass(&w, size, pass, stop, progress, &done);
    out->duration_ns = now_ns() - start;
    out->written = done;
    out->complete = rc == 0;
    writer_close(t, &w);
    /* the range is written by this invocation: the runs need not fill it
     * again, and it no longer holds a fill of theirs */
    if (rc == 0 && !t->is_device) {
        if (t->written < size)
            t->written = size;
        if (t->size < size)
            t->size = size;
    }
    t->fill_whole = false;
    return rc;
}

int diskio_result_set_precondition(struct diskio_result *res, const struct diskio_precondition *p)
{
    if (!res || !p)
        return -EINVAL;
    res->precondition = *p;
    res->preconditioned = true;
    return 0;
}
