/* SPDX-License-Identifier: MIT */
/*
 * The mode table: every fact about a mode, one row each (modes.h says
 * what each column means).  A mode that only differs in open flags and
 * in the sync call after its writes is a row here and nothing else; a mode with code of its own (a queued
 * backend: mode_aio.c, mode_uring.c) adds a row pointing at it.  Adding
 * a mode adds a row and touches no other.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "modes.h"
#include "queue.h"
#include "rawcalls.h"

/* Indexed by the mode's enumerator: the table is as long as its last row,
 * so that a new mode is its enumerator and its row (a row left out in
 * the middle is a mode without a name, which check_mode_table finds). */
static const struct mode_ops modes[] = {
    /* pwrite into the page cache; nothing is made durable.  It measures
     * the copy into memory and, when dirty pages pile up, writeback
     * throttling in balance_dirty_pages().  PostgreSQL's WAL with
     * fsync = off. */
    [DISKIO_MODE_ASYNC] = {.name = "async",
                           .open_flags = 0,
                           .open_flags_text = "O_WRONLY",
                           .pg_fsync_off = true,
                           .run = engine_run_write},
    /* pwrite, then fsync(2); the write part and the sync part are also
     * recorded separately.  With sync_every N, one fsync follows every N
     * writes (group commit). */
    [DISKIO_MODE_FSYNC] = {.name = "fsync",
                           .open_flags = 0,
                           .open_flags_text = "O_WRONLY",
                           .sync = MODE_SYNC_FSYNC,
                           .durable = true,
                           .pg_wal_sync_method = "fsync",
                           .run = engine_run_write},
    /* pwrite, then fdatasync(2), which skips metadata not needed to read
     * the data back (mtime); otherwise as fsync. */
    [DISKIO_MODE_FDATASYNC] = {.name = "fdatasync",
                               .open_flags = 0,
                               .open_flags_text = "O_WRONLY",
                               .sync = MODE_SYNC_FDATASYNC,
                               .durable = true,
                               .pg_wal_sync_method = "fdatasync",
                               .run = engine_run_write},
    /* every write returns only after data and all metadata (mtime
     * included) are durable */
    [DISKIO_MODE_OSYNC] = {.name = "osync",
                           .open_flags = O_SYNC,
                           .open_flags_text = "O_WRONLY|O_SYNC",
                           .durable = true,
                           .pg_wal_sync_method = "open_sync",
                           .run = engine_run_write},
    /* every write returns only after the data and the metadata needed to
     * read it back are durable */
    [DISKIO_MODE_ODSYNC] = {.name = "odsync",
                            .open_flags = O_DSYNC,
                            .open_flags_text = "O_WRONLY|O_DSYNC",
                            .durable = true,
                            .pg_wal_sync_method = "open_datasync",
                            .run = engine_run_write},
    /* the page cache is bypassed, but the device's volatile write cache
     * may still hold the data, so this is not durable by itself */
    [DISKIO_MODE_DIRECT] = {.name = "direct",
                            .open_flags = O_DIRECT,
                            .open_flags_text = "O_WRONLY|O_DIRECT",
                            .direct = true,
                            .run = engine_run_write},
    /* bypasses the page cache and, on devices with a volatile cache,
     * issues a cache flush (or FUA write) per write */
    [DISKIO_MODE_DIRECT_DSYNC] = {.name = "direct-dsync",
                                  .open_flags = O_DIRECT | O_DSYNC,
                                  .open_flags_text = "O_WRONLY|O_DIRECT|O_DSYNC",
                                  .direct = true,
                                  .durable = true,
                                  .pg_wal_sync_method = "open_datasync",
                                  .run = engine_run_write},
    /* pwritev2(2) with RWF_DSYNC: this one write returns only after its
     * data and the metadata needed to read it back are durable, as on
     * O_DSYNC, without the file being opened so (Linux 4.7) */
    [DISKIO_MODE_PWRITEV2_DSYNC] = {.name = "pwritev2-dsync",
                                    .open_flags = 0,
                                    .open_flags_text = "O_WRONLY",
                                    .write_flags = RWF_DSYNC,
                                    .durable = true,
                                    .run = engine_run_write},
    /* pwritev2(2) with RWF_SYNC: this write and all the file's metadata
     * (mtime included) durable when it returns, as on O_SYNC */
    [DISKIO_MODE_PWRITEV2_SYNC] = {.name = "pwritev2-sync",
                                   .open_flags = 0,
                                   .open_flags_text = "O_WRONLY",
                                   .write_flags = RWF_SYNC,
                                   .durable = true,
                                   .run = engine_run_write},
    /* libaio, iodepth writes in flight (backend: mode_aio.c) */
    [DISKIO_MODE_AIO] = {.name = "aio",
                         .open_flags = O_DIRECT,
                         .open_flags_text = "O_WRONLY|O_DIRECT",
                         .direct = true,
                         .queued = true,
                         .run = engine_run_queued,
                         .backend = &aio_backend},
    /* io_uring with registered file and buffers (backend: mode_uring.c) */
    [DISKIO_MODE_URING] = {.name = "uring",
                           .open_flags = O_DIRECT,
                           .open_flags_text = "O_WRONLY|O_DIRECT",
                           .direct = true,
                           .queued = true,
                           .run = engine_run_queued,
                           .backend = &uring_backend},
    /* pread through the page cache.  Uncached by default: before the
     * measured ops the file is made durable and its pages dropped
     * (POSIX_FADV_DONTNEED), so every read goes to the device as far as
     * readahead lets it; config.cached reads the file once instead, so
     * every read is a copy from memory (hdparm -T against -t). */
    [DISKIO_MODE_READ] = {.name = "read",
                          .open_flags = 0,
                          .open_flags_text = "O_RDONLY",
                          .reads = true,
                          .run = engine_run_read},
    /* pread on O_DIRECT: every read is a device request of block_size */
    [DISKIO_MODE_DIRECT_READ] = {.name = "direct-read",
                                 .open_flags = O_DIRECT,
                                 .open_flags_text = "O_RDONLY|O_DIRECT",
                                 .direct = true,
                                 .reads = true,
                                 .run = engine_run_read},
    /* libaio reads, iodepth in flight (backend: mode_aio.c) */
    [DISKIO_MODE_AIO_READ] = {.name = "aio-read",
                              .open_flags = O_DIRECT,
                              .open_flags_text = "O_RDONLY|O_DIRECT",
                              .direct = true,
                              .queued = true,
                              .reads = true,
                              .run = engine_run_queued_read,
                              .backend = &aio_read_backend},
    /* io_uring reads with registered file and buffers (backend: mode_uring.c) */
    [DISKIO_MODE_URING_READ] = {.name = "uring-read",
                                .open_flags = O_DIRECT,
                                .open_flags_text = "O_RDONLY|O_DIRECT",
                                .direct = true,
                                .queued = true,
                                .reads = true,
                                .run = engine_run_queued_read,
                                .backend = &uring_read_backend},
};

#define MODE_COUNT (sizeof modes / sizeof modes[0])

const struct mode_ops *mode_ops_of(enum diskio_mode mode)
{
    return (unsigned)mode < MODE_COUNT ? &modes[mode] : NULL;
}

int (*mode_sync_fn(const struct mode_ops *ops))(int)
{
    switch (ops->sync) {
    case MODE_SYNC_FSYNC: return raw_fsync;
    case MODE_SYNC_FDATASYNC: return raw_fdatasync;
    case MODE_SYNC_NONE:
    default: return NULL;
    }
}

const char *open_flags_text(const struct mode_ops *ops, const struct diskio_config *cfg)
{
    if (cfg->write_back)
        return ops->direct ? "O_RDWR|O_DIRECT" : "O_RDWR";
    return ops->open_flags_text;
}

const char *diskio_mode_name(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops ? ops->name : NULL;
}

int diskio_mode_parse(const char *name, enum diskio_mode *out)
{
    for (unsigned m = 0; m < MODE_COUNT; m++) {
        if (name && out && strcmp(name, modes[m].name) == 0) {
            *out = (enum diskio_mode)m;
            return 0;
        }
    }
    return -EINVAL;
}

size_t diskio_mode_count(void)
{
    return MODE_COUNT;
}

bool diskio_mode_is_direct(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && ops->direct;
}

bool diskio_mode_is_queued(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && ops->queued;
}

bool diskio_mode_syncs(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && ops->sync != MODE_SYNC_NONE;
}

bool diskio_mode_is_durable(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && ops->durable;
}

const char *diskio_mode_pg_wal_sync_method(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops ? ops->pg_wal_sync_method : NULL;
}

bool diskio_mode_is_read(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && ops->reads;
}

bool mode_waits_for_device(enum diskio_mode mode, bool cached)
{
    /* a durable write returns after the device, an O_DIRECT or queued op
     * is a device request, a read from a dropped cache is one; the rest
     * (async, read --cached) copy to or from the page cache */
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && (ops->durable || ops->direct || ops->queued || ops->sync != MODE_SYNC_NONE ||
                   (ops->reads && !cached));
}

/* The parts as the results name them (the JSON's keys, the CSV's part
 * column). */
static const char *const part_names[DISKIO_PART_COUNT] = {
    [DISKIO_PART_TOTAL] = "total",     [DISKIO_PART_WRITE] = "write",   [DISKIO_PART_SYNC] = "sync",
    [DISKIO_PART_SERVICE] = "service", [DISKIO_PART_SWITCH] = "switch",
};

size_t diskio_part_count(void)
{
    return DISKIO_PART_COUNT;
}

const char *diskio_part_name(enum diskio_part part)
{
    return (unsigned)part < DISKIO_PART_COUNT ? part_names[part] : NULL;
}
