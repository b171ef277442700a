/* SPDX-License-Identifier: MIT */
/*
 * The checkpoint pattern: a PostgreSQL checkpoint's writes and syncs
 * (PostgreSQL 15's bufmgr.c: BufferSync, ScheduleBufferTagForWriteback,
 * IssuePendingWritebacks; sync.c: ProcessSyncRequests).
 *
 * A checkpoint writes config.checkpoint_pages dirty pages, distinct and
 * at random over config.checkpoint_files files of file_size (relation
 * segments: 1 GiB in PostgreSQL, smaller here), in the order BufferSync
 * sorts them (file, then block).  After every checkpoint_flush_after
 * pages, and after the last, the pages written since the last hint are
 * handed to writeback: sync_file_range(SYNC_FILE_RANGE_WRITE) over each
 * run of adjacent blocks, as checkpoint_flush_after does.  Then every
 * file the checkpoint wrote is synced once (fsync, or fdatasync).
 *
 * Every op is a page: its latency is the pwrite and the writeback hint
 * it triggered (the write part is the pwrite alone); the sync part holds
 * one latency per file sync.  A run ends after whole checkpoints (its
 * count is rounded up to them, and the deadline is looked at between
 * checkpoints).  Which pages a checkpoint writes is drawn before its
 * first page is timed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_loop.h"
#include "pipeline.h"
#include "runner.h"
#include "trace.h"

struct ckpt_row {
    uint64_t op, start_ns, latency_ns, write_ns, checkpoint, file, offset, writeback_ns;
};

struct ckpt_phase {
    uint64_t limit, deadline_ns;
    struct diskio_hist *total, *write, *sync;
    bool tracing;
    uint64_t done;
};

struct ckpt {
    const struct diskio_config *cfg;
    unsigned nfiles;
    uint64_t nblocks; /* per file */
    uint64_t bs;
    int fds[DISKIO_JOBS_MAX];
    uint64_t *dirty; /* bit f * nblocks + b: page b of file f is dirty */
    size_t words;
    bool written[DISKIO_JOBS_MAX];
    /* the pending writebacks: pages written since the last hint */
    uint64_t *pending;
    unsigned npending;
    unsigned char *pool;
    uint64_t pool_blocks, pool_next;
    uint64_t rng;
    int (*sync_fn)(int);
    /* the trace */
    int trace_fd, trace_error;
    uint64_t origin_ns;
    struct ckpt_row *rows;
    size_t rows_used;
    struct diskio_checkpoint_counts counts;
    const volatile sig_atomic_t *stop;
    volatile uint64_t *progress;
    int error;
    const char *error_during;
    uint64_t error_op;
    struct ckpt_phase warm;     /* the warmup, into histograms of its own */
    struct ckpt_phase measured; /* the measured checkpoints, into the run */
    uint64_t end_ns;
    struct runner r; /* the checkpointer: the runner core's one worker */
};

#define CKPT_TRACE_ROWS 4096

static void trace_out(struct ckpt *c)
{
    struct trace_out o = {.fd = c->trace_fd, .error = &c->trace_error};
    for (size_t i = 0; i < c->rows_used; i++) {
        const struct ckpt_row *r = &c->rows[i];
        char line[200];
        int n = snprintf(line, sizeof(line),
                         "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0,%" PRIu64 ",%" PRIu64
                         ",%" PRIu64 ",%" PRIu64 "\n",
                         r->op, r->start_ns, r->latency_ns, r->write_ns, r->checkpoint, r->file,
                         r->offset, r->writeback_ns);
        trace_out_line(&o, line, (size_t)n);
    }
    trace_out_end(&o);
    c->rows_used = 0;
}

/* The checkpoint's dirty pages: pages distinct bits of dirty, at random
 * (at most half of them, by the config's rule, so drawing again on a
 * repeat ends soon). */
static void draw_pages(struct ckpt *c, uint64_t pages)
{
    memset(c->dirty, 0, c->words * sizeof(uint64_t));
    const uint64_t all = (uint64_t)c->nfiles * c->nblocks;
    for (uint64_t n = 0; n < pages;) {
        uint64_t bit = (uint64_t)(((unsigned __int128)rng_next(&c->rng) * all) >> 64);
        uint64_t mask = UINT64_C(1) << (bit % 64);
        if (c->dirty[bit / 64] & mask)
            continue;
        c->dirty[bit / 64] |= mask;
        n++;
    }
    memset(c->written, 0, sizeof(c->written));
}

/* IssuePendingWritebacks(): the pending pages (in file and block order)
 * handed to writeback, a run of adjacent blocks of one file per call. */
static int writeback(struct ckpt *c)
{
    unsigned i = 0;
    while (i < c->npending) {
        const uint64_t first = c->pending[i];
        uint64_t last = first;
        unsigned j = i + 1;
        while (j < c->npending && c->pending[j] == last + 1 &&
               c->pending[j] / c->nblocks == first / c->nblocks) {
            last = c->pending[j];
            j++;
        }
        const unsigned file = (unsigned)(first / c->nblocks);
        const uint64_t offset = first % c->nblocks * c->bs;
        if (sync_file_range(c->fds[file], (off_t)offset, (off_t)((last - first + 1) * c->bs),
                            SYNC_FILE_RANGE_WRITE) != 0 &&
            errno != EINTR) {
            c->npending = 0;
            return -errno;
        }
        c->counts.writebacks++;
        i = j;
    }
    c->npending = 0;
    return 0;
}

/* One checkpoint: its pages written (each op), then each file it wrote
 * synced.  False when the run must end (error or stop). */
static bool one_checkpoint(struct ckpt *c, struct ckpt_phase *ph)
{
    const uint64_t pages = c->cfg->checkpoint_pages;
    const unsigned flush_after = c->cfg->checkpoint_flush_after;
    draw_pages(c, pages);
    uint64_t left = pages;
    for (size_t w = 0; w < c->words; w++) {
        uint64_t bits = c->dirty[w];
        while (bits) {
            const uint64_t bit = w * 64 + (uint64_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            left--;
            if (*c->stop) {
                c->error = -DISKIO_E_INTERRUPTED;
                c->error_during = "interrupted";
                c->error_op = ph->done;
                return false;
            }
            const unsigned file = (unsigned)(bit / c->nblocks);
            const uint64_t offset = bit % c->nblocks * c->bs;
            unsigned char *buf = c->pool + c->pool_next * c->bs;
            if (++c->pool_next == c->pool_blocks)
                c->pool_next = 0;
            stamp_sectors(buf, c->bs, offset, ph->done);
            const uint64_t t0 = now_ns();
            ssize_t n = pwrite(c->fds[file], buf, (size_t)c->bs, (off_t)offset);
            if ((uint64_t)n != c->bs)
                n = write_rest(c->fds[file], buf, c->bs, offset, n);
            const uint64_t t_write = now_ns();
            int rc = n < 0 ? (int)n : 0;
            c->written[file] = true;
            if (rc == 0 && flush_after) {
                c->pending[c->npending++] = bit;
                if (c->npending >= flush_after || left == 0)
                    rc = writeback(c);
            }
            const uint64_t t1 = now_ns();
            if (rc < 0) {
                c->error = rc;
                c->error_during = n < 0 ? "write" : "writeback";
                c->error_op = ph->done;
                return false;
            }
            hist_record(ph->total, t1 - t0);
            hist_record(ph->write, t_write - t0);
            if (ph->tracing) {
                c->rows[c->rows_used++] = (struct ckpt_row){
                    ph->done, t0 - c->origin_ns, t1 - t0, t_write - t0, c->counts.checkpoints, file,
                    offset,   t1 - t_write};
                if (c->rows_used == CKPT_TRACE_ROWS)
                    trace_out(c);
            }
            ph->done++;
            c->counts.pages++;
            *c->progress = ph->done;
        }
    }
    /* ProcessSyncRequests(): one sync per file written */
    for (unsigned f = 0; f < c->nfiles; f++) {
        if (!c->written[f])
            continue;
        const uint64_t t0 = now_ns();
        int rc = c->sync_fn(c->fds[f]) == 0 ? 0 : sync_retry(c->fds[f], c->sync_fn);
        const uint64_t t1 = now_ns();
        if (rc < 0) {
            c->error = rc;
            c->error_during = "sync";
            c->error_op = ph->done;
            return false;
        }
        hist_record(ph->sync, t1 - t0);
        c->counts.file_syncs++;
    }
    c->counts.checkpoints++;
    return true;
}

static void run_phase(struct ckpt *c, struct ckpt_phase *ph)
{
    while (ph->done < ph->limit) {
        if (!one_checkpoint(c, ph))
            break;
        if (now_ns() >= ph->deadline_ns)
            break;
    }
}

/* The runner core's steps for the checkpointer (runner.h): the warmup
 * (its failure ends the run, with nothing measured), then the measured
 * checkpoints from the common start. */
static bool ckpt_warm(void *ctx, unsigned w)
{
    struct ckpt *c = ctx;
    (void)w;
    if (c->cfg->warmup > 0)
        run_phase(c, &c->warm);
    return c->error != 0;
}

static bool ckpt_measure_step(void *ctx, unsigned w, const struct runner_phase *ph)
{
    struct ckpt *c = ctx;
    (void)w;
    c->origin_ns = ph->start_ns;
    c->measured.deadline_ns = ph->deadline_ns;
    run_phase(c, &c->measured);
    c->end_ns = now_ns();
    return c->error && c->error != -DISKIO_E_INTERRUPTED;
}

/* The checkpoint pattern's state: the dirty page map, the pending
 * writebacks, the data pool, the trace rows (and the trace's header
 * written), the warmup's histograms.  0 or -errno (*out is freed by
 * ckpt_free() either way). */
static int ckpt_new(const struct diskio_config *cfg, struct ckpt **out)
{
    static const struct runner_ops steps = {.warm = ckpt_warm, .measure = ckpt_measure_step};
    struct ckpt *c = calloc(1, sizeof(*c));
    *out = c;
    if (!c)
        return -ENOMEM;
    c->cfg = cfg;
    c->nfiles = cfg->checkpoint_files;
    c->bs = cfg->block_size;
    c->nblocks = cfg->file_size / cfg->block_size;
    c->rng = seed_state(cfg->seed);
    c->sync_fn = mode_sync_fn(mode_ops_of(cfg->mode)); /* a checkpoint's modes sync */
    c->trace_fd = cfg->trace_fd;
    for (unsigned f = 0; f < DISKIO_JOBS_MAX; f++)
        c->fds[f] = -1;
    int rc = runner_init(&c->r, cfg, 1, &steps, c);
    if (rc < 0)
        return rc;
    c->stop = runner_stop(&c->r);
    c->progress = runner_progress(&c->r, 0);
    c->trace_error = runner_trace_header(cfg);
    c->words = (size_t)(((uint64_t)c->nfiles * c->nblocks + 63) / 64);
    c->dirty = calloc(c->words, sizeof(uint64_t));
    c->pending =
        calloc(cfg->checkpoint_flush_after ? cfg->checkpoint_flush_after : 1, sizeof(uint64_t));
    c->rows = cfg->trace_fd >= 0 ? calloc(CKPT_TRACE_ROWS, sizeof(*c->rows)) : NULL;
    if (!c->dirty || !c->pending || (cfg->trace_fd >= 0 && !c->rows))
        return -ENOMEM;
    c->pool_blocks = data_pool_blocks(c->bs, 1, 1);
    return fill_buffer(&c->pool, c->pool_blocks * c->bs, cfg->seed + 0x9e3779b97f4a7c15u);
}

static void ckpt_free(struct ckpt *c)
{
    if (!c)
        return;
    runner_free(&c->r);
    for (unsigned f = 0; f < c->nfiles; f++)
        if (c->fds[f] >= 0)
            close(c->fds[f]);
    diskio_hist_free(c->warm.total);
    diskio_hist_free(c->warm.write);
    diskio_hist_free(c->warm.sync);
    free(c->dirty);
    free(c->pending);
    free(c->rows);
    free(c->pool);
    free(c);
}

/* The files, each filled once as every overwrite pattern's file is (the
 * target is the first, the others its own files beside it), opened with
 * the mode's flags; the warmup's histograms.  0 or -errno. */
static int ckpt_open(struct ckpt *c, struct diskio_target *target, const struct mode_ops *ops)
{
    const struct diskio_config *cfg = c->cfg;
    int rc;
    for (unsigned f = 0; f < c->nfiles; f++) {
        struct diskio_target *t = target;
        if (f > 0 && (rc = target_job_file(target, f, &t)) < 0)
            return rc;
        if (!t->is_device && (rc = target_fill(t, cfg->file_size, (size_t)c->bs, cfg->seed + f,
                                               c->stop, cfg->fill_progress)) < 0)
            return rc;
        t->fill_whole = false;
        c->fds[f] = target_open_for_mode(t, ops, cfg);
        if (c->fds[f] < 0) {
            rc = c->fds[f];
            c->fds[f] = -1;
            return rc;
        }
    }
    c->warm = (struct ckpt_phase){.limit = cfg->warmup, .deadline_ns = UINT64_MAX};
    if ((rc = diskio_hist_new(&c->warm.total)) < 0 || (rc = diskio_hist_new(&c->warm.write)) < 0 ||
        (rc = diskio_hist_new(&c->warm.sync)) < 0)
        return rc;
    return 0;
}

/* The measured checkpoints, from a clean cache, into the run; the run's
 * outcome.  Returns its error. */
static int ckpt_measure(struct ckpt *c, struct diskio_run *run, struct diskio_target *target)
{
    const struct diskio_config *cfg = c->cfg;
    memset(&c->counts, 0, sizeof(c->counts));
    /* dirty pages of the warmup, or of an earlier run, written back now
     * (untimed): the measured checkpoints start from a clean cache */
    for (unsigned f = 0; f < c->nfiles; f++)
        (void)fsync(c->fds[f]);
    c->measured = (struct ckpt_phase){.limit = cfg->count ? cfg->count : UINT64_MAX,
                                      .total = run->hist[DISKIO_PART_TOTAL],
                                      .write = run->hist[DISKIO_PART_WRITE],
                                      .sync = run->hist[DISKIO_PART_SYNC],
                                      .tracing = cfg->trace_fd >= 0};
    /* the devices' counters around the measured checkpoints (no
     * interference probe, as for the wal pattern) */
    struct run_probe probe = {.interference = false};
    probe_begin(&probe, target);
    (void)runner_measure(&c->r, run->hist[DISKIO_PART_TOTAL]);
    probe_end(&probe, target);
    if (c->rows_used)
        trace_out(c);
    const struct ckpt_phase *ph = &c->measured;
    if (!c->error && c->trace_error) {
        c->error = c->trace_error;
        c->error_during = "trace";
        c->error_op = ph->done;
    }
    struct diskio_run_info *info = &run->info;
    info->ops = ph->done;
    info->bytes = ph->done * c->bs;
    info->start_ns = c->r.phase.start_ns;
    info->duration_ns = c->end_ns - info->start_ns;
    info->error = c->error;
    info->error_op = c->error_op;
    info->error_during = c->error_during;
    info->complete = c->error == 0;
    info->checkpoint = c->counts;
    probe_record(run, &probe, target);
    return c->error;
}

int engine_run_checkpoint(const struct diskio_config *cfg, struct diskio_target *target,
                          struct diskio_run **out)
{
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    struct diskio_run *run = NULL;
    struct ckpt *c = NULL;

    /* the other files are made beside a file diskio created */
    if (cfg->checkpoint_files > 1 && (!target->created || target->is_device))
        return -EINVAL;
    if (target->is_device && target->size < cfg->file_size)
        return -EINVAL;
    int rc = ckpt_new(cfg, &c);
    if (rc == 0)
        rc = ckpt_open(c, target, ops);
    if (rc == 0)
        rc = run_new(cfg, ops, cfg->file_size, true, &run);
    if (rc != 0)
        goto done;
    if (!runner_warm(&c->r)) {
        run->info.error = c->error;
        run->info.error_during = c->error_during;
        run->info.complete = false;
        rc = c->error;
    } else {
        rc = ckpt_measure(c, run, target);
    }
    *out = run;
    run = NULL;

done:
    ckpt_free(c);
    diskio_run_free(run);
    return rc;
}
