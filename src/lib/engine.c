/* SPDX-License-Identifier: MIT */
/* Running one mode's workload (diskio_run_execute): setup before the timed
 * loop, the warmup and measured phases, teardown after. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine.h"

uint64_t seed_state(uint64_t seed)
{
    uint64_t z = seed + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z ? z : 1;
}

/* The target's own inode, reopened with the mode's flags (never by path
 * while /proc is there: see target_reopen()); read-write for a read mode
 * that writes blocks back (cfg may be NULL: the mode's own flags). */
int open_for_mode(const struct diskio_target *t, const struct mode_ops *ops,
                  const struct diskio_config *cfg)
{
    const int access = cfg && cfg->write_back ? O_RDWR : ops->reads ? O_RDONLY : O_WRONLY;
    int fd = target_reopen(t, access | ops->open_flags);
    if (fd == -EINVAL && ops->direct)
        return -DISKIO_E_NO_DIRECT;
    return fd;
}

int diskio_target_check_mode(const struct diskio_target *t, enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    if (!t || !ops)
        return -EINVAL;
    int fd = open_for_mode(t, ops, NULL);
    if (fd < 0)
        return fd;
    close(fd);
    return 0;
}

const char *open_flags_text(const struct mode_ops *ops, const struct diskio_config *cfg)
{
    if (cfg->write_back)
        return ops->direct ? "O_RDWR|O_DIRECT" : "O_RDWR";
    return ops->open_flags_text;
}

/*
 * How many distinct blocks the measured writes cycle through.  Written
 * data must neither compress nor deduplicate (ZFS/btrfs compression, VDO,
 * cloud volumes and many SSDs would report better latency than real data
 * gets): consecutive writes come from different random blocks, and the
 * pool is 8 MiB (at least 2 blocks, and one per request in flight), so
 * that no window of the written stream up to 8 MiB repeats a block - more
 * than any filesystem's compression record (128 KiB btrfs, 1 MiB ZFS
 * recordsize at most by default) or zlib's 32 KiB window.  Beyond the pool
 * period a block repeats except for its per-op stamps, which start every
 * 512-byte sector (stamp_sectors()), so no two written sectors are equal.
 * Memory stays bounded: 8 MiB, or 2 blocks (or iodepth) when larger.
 * Several jobs (engine_jobs.c) split the 8 MiB, at least 1 MiB each (256
 * jobs: 256 MiB): a job's own stream then repeats no block within 1 MiB,
 * still a whole ZFS record or more than a btrfs one, with every sector
 * stamped as above.
 */
uint64_t data_pool_blocks(uint64_t block_size, uint64_t in_flight, unsigned jobs)
{
    /* several jobs share the 8 MiB (at least 1 MiB each): each job's
     * stream is its own, with its own random blocks and stamps */
    uint64_t pool_bytes = (UINT64_C(8) << 20) / (jobs ? jobs : 1);
    if (pool_bytes < (UINT64_C(1) << 20))
        pool_bytes = UINT64_C(1) << 20;
    uint64_t n = pool_bytes / block_size;
    if (n < 2)
        n = 2;
    return n < in_flight ? in_flight : n;
}

/* The logical block size of the block device dev (a partition: of its
 * disk), from sysfs; 0 when unknown. */
static uint64_t logical_block_size(dev_t dev)
{
    for (int parent = 0; parent < 2; parent++) {
        char path[96];
        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%squeue/logical_block_size", major(dev),
                 minor(dev), parent ? "../" : "");
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        char line[32];
        const bool got = fgets(line, sizeof(line), f) != NULL;
        fclose(f);
        char *end;
        unsigned long long v = got ? strtoull(line, &end, 10) : 0;
        if (got && end != line && v >= 512)
            return v;
    }
    return 0;
}

/* STATX_DIOALIGN (Linux 6.1+, where the filesystem reports it): the
 * offset alignment with the buffers' in *mem, or 0 when unknown. */
static uint64_t statx_dio_align(int fd, uint64_t *mem)
{
#ifdef STATX_DIOALIGN
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        sx.stx_dio_offset_align > 0) {
        *mem = sx.stx_dio_mem_align;
        return sx.stx_dio_offset_align;
    }
#else
    (void)fd;
    (void)mem;
#endif
    return 0;
}

int diskio_target_direct_align(const struct diskio_target *t, uint64_t *offset_align,
                               uint64_t *mem_align)
{
    if (!t || !offset_align || !mem_align)
        return -EINVAL;
    uint64_t mem = 0;
    uint64_t offset = statx_dio_align(t->fd, &mem);
    if (offset == 0) {
        /* no STATX_DIOALIGN (before Linux 6.1, or the filesystem does not
         * say): the logical block size of the device under it */
        struct stat st;
        if (fstat(t->fd, &st) != 0)
            return -errno;
        offset = logical_block_size(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
        if (offset == 0)
            offset = 512;
        mem = offset;
    }
    *offset_align = offset;
    *mem_align = mem;
    return 0;
}

int fill_buffer(unsigned char **out, uint64_t size, uint64_t seed)
{
    void *mem = NULL;
    int rc = posix_memalign(&mem, DISKIO_BUFFER_ALIGN, (size_t)size);
    if (rc != 0)
        return -rc;
    /* Random contents, every block its own (generated here, before any
     * timed region): zero-filled or repeated blocks can be compressed or
     * deduplicated by the filesystem or the device, which would flatter
     * them. */
    uint64_t state = seed;
    random_bytes(mem, (size_t)size, &state);
    *out = mem;
    return 0;
}

/* Mode read, before the measured ops: the whole file in the page cache
 * (cached: read once) or none of it (fsync, then POSIX_FADV_DONTNEED).
 * 0, -errno, or -DISKIO_E_INTERRUPTED when stop rises while it reads. */
static int read_cache_prepare(struct engine *e, int fd, bool cached)
{
    if (!cached) {
        if (fsync(fd) != 0 && errno != EINVAL)
            return -errno;
        int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        return rc == 0 ? 0 : -rc;
    }
    for (uint64_t pos = 0; pos + e->block_size <= e->file_size;) {
        if (*e->stop)
            return -DISKIO_E_INTERRUPTED;
        ssize_t n = pread(fd, e->buf, e->block_size, (off_t)pos);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return -DISKIO_E_SHORT_READ;
        pos += (uint64_t)n;
    }
    return 0;
}

int engine_opened(struct engine *e, const struct mode_ops *ops)
{
    const struct diskio_config *cfg = e->cfg;
    /* the new file starts empty on the storage too, not with the
     * truncation pending for the first timed sync */
    if (cfg->pattern == DISKIO_PATTERN_CREATE && fsync(e->fd) != 0)
        return -errno;
    if (ops->reads && !ops->direct) {
        /* readahead as fio sets it by default (fadvise_hint): none for
         * random reads, a larger window for sequential ones */
        (void)posix_fadvise(e->fd, 0, 0,
                            cfg->pattern == DISKIO_PATTERN_RAND ? POSIX_FADV_RANDOM
                                                                : POSIX_FADV_SEQUENTIAL);
    }
    return 0;
}

int engine_warmed(struct engine *e, const struct mode_ops *ops, uint64_t warm_done)
{
    const struct diskio_config *cfg = e->cfg;
    int rc;
    /* The create pattern's measured ops write a new file from its first
     * byte: whatever the warmup wrote is emptied again (untimed). */
    if (cfg->pattern == DISKIO_PATTERN_CREATE && warm_done > 0) {
        if (ftruncate(e->fd, 0) != 0 || fsync(e->fd) != 0) {
            e->error = -errno;
            e->error_during = "truncate";
            return e->error;
        }
        e->next_offset = 0;
    }
    /* Mode read: the page cache made cold (dropped after the file is
     * durable: dirty pages cannot be dropped) or warm (the file read
     * once, as hdparm -T does), after the warmup, which read through it. */
    if (ops->reads && !ops->direct && (rc = read_cache_prepare(e, e->fd, cfg->cached)) < 0) {
        e->error = rc;
        e->error_during = rc == -DISKIO_E_INTERRUPTED ? "interrupted"
                          : cfg->cached               ? "cache"
                                                      : "drop";
        return rc;
    }
    e->drop_on_wrap = ops->reads && !ops->direct && !cfg->cached;
    return 0;
}

static void finish_info(struct diskio_run *run, const struct engine *e,
                        const struct engine_phase *ph, uint64_t duration_ns)
{
    uint64_t ops = ph->done;
    if (e->rate_interval_ns && ops > 0) {
        struct diskio_run_info *in = &run->info;
        in->max_start_lag_ns = ph->max_lag_ns;
        in->start_lag_p99_ns = diskio_hist_percentile(ph->lag, 99.0);
        in->late_start_ops = diskio_hist_count(ph->late_start);
        in->late_start_p50_ns = diskio_hist_percentile(ph->late_start, 50.0);
        in->late_start_p99_ns = diskio_hist_percentile(ph->late_start, 99.0);
        in->late_start_max_ns = diskio_hist_max(ph->late_start);
        in->backlog_ops = ph->backlog_ops;
        in->backlog_max_lag_ns = ph->backlog_max_ns;
        in->spin_margin_ns = e->spin_margin_ns;
        /* held when the ops took no longer than their schedule (+1%) and
         * the schedule was kept op by op: 99% of the ops started less
         * than one interval late.  An average rate reached by bursts
         * after stalls is not a fixed rate. */
        in->rate_held = (double)duration_ns <= 1.01 * (double)(ops * e->rate_interval_ns) &&
                        in->start_lag_p99_ns < e->rate_interval_ns;
    }
    run->info.ops = ops;
    run->info.bytes = ops * e->block_size;
    run->info.duration_ns = duration_ns;
    run->info.error = e->error;
    run->info.error_op = e->error_op;
    run->info.error_during = e->error_during;
    run->info.complete = e->error == 0;
}

int diskio_run_execute(const struct diskio_config *cfg, struct diskio_target *target,
                       struct diskio_run **out)
{
    static const volatile sig_atomic_t never_stop = 0;
    volatile uint64_t progress_sink = 0;
    struct diskio_hist *scratch[5] = {NULL, NULL, NULL, NULL, NULL};
    int old_slack = -1;
    struct diskio_run *run = NULL;
    struct trace *trace = NULL;
    unsigned char *buf = NULL;
    int fd = -1, rc;

    if (!cfg || !target || !out)
        return -EINVAL;
    *out = NULL;
    if (diskio_config_validate_target(cfg, target->is_device ? DISKIO_TARGET_DEVICE : 0, NULL) != 0)
        return -EINVAL;
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    if (ops->direct) {
        /* O_DIRECT lengths and offsets (multiples of block_size) the
         * target cannot take would fail at op 0: refused before anything */
        uint64_t offset_align = 512, mem_align = 0;
        rc = diskio_target_direct_align(target, &offset_align, &mem_align);
        if (rc == 0 && (cfg->block_size % offset_align != 0 || mem_align > DISKIO_BUFFER_ALIGN))
            return -EINVAL;
    }
    /* PostgreSQL's WAL and checkpoints: loops and files of their own */
    if (cfg->pattern == DISKIO_PATTERN_WAL)
        return engine_run_wal(cfg, target, out);
    if (cfg->pattern == DISKIO_PATTERN_CHECKPOINT)
        return engine_run_checkpoint(cfg, target, out);
    /* A trace is a complete CSV whatever happens next: the header goes
     * out now, rows (if any) follow.  A failure is the run's "trace"
     * error, reported like a failed row. */
    const int trace_header_error = cfg->trace_fd >= 0 ? trace_write_header(cfg->trace_fd) : 0;

    /* the patterns that empty the file need a file diskio fills (a check
     * of what the fill wrote too: diskio_config_validate_target()) */
    const bool empties =
        cfg->pattern == DISKIO_PATTERN_APPEND || cfg->pattern == DISKIO_PATTERN_CREATE;
    if (target->is_device && empties)
        return -EINVAL;
    /* a device smaller than file_size bounds the offsets */
    uint64_t file_size = cfg->file_size;
    if (target->is_device && target->size < file_size)
        file_size = target->size - target->size % cfg->block_size;
    if (file_size < cfg->block_size)
        return -EINVAL;
    /* truncating is only for files diskio made: never shrink the user's */
    if (empties && !target->created)
        return -DISKIO_E_TARGET_EXISTS;
    if (cfg->jobs > 1)
        return engine_run_jobs(cfg, target, file_size, out);

    struct engine e = {
        .cfg = cfg,
        .block_size = cfg->block_size,
        .file_size = file_size,
        .nblocks = file_size / cfg->block_size,
        /* splitmix64 of the seed: every seed, 0 included, gives its own
         * non-zero xorshift state */
        .rng = seed_state(cfg->seed),
        .fill_seed = cfg->seed,
        .write_back = cfg->write_back,
        .wb_rng = seed_state(cfg->seed ^ UINT64_C(0x5752495445424143)),
        .sync_every = cfg->sync_every,
        .rate_interval_ns = cfg->rate_interval_ns,
        .stop = cfg->stop ? cfg->stop : &never_stop,
        .progress = cfg->progress ? cfg->progress : &progress_sink,
    };

    /* queued modes give each request in flight a buffer of its own; reads
     * need nothing else (no data of theirs reaches the storage) */
    const uint64_t in_flight = ops->queued ? cfg->iodepth : 1;
    e.pool_blocks = ops->reads ? in_flight : data_pool_blocks(cfg->block_size, in_flight, 1);
    rc = fill_buffer(&buf, e.pool_blocks * cfg->block_size, cfg->seed + 0x9e3779b97f4a7c15u);
    if (rc < 0)
        return rc;
    e.buf = buf;

    /* Overwrite patterns need the whole range written once, so that a
     * timed write never allocates a block (a WAL segment is zero-filled
     * before use for the same reason).  Every run checks: a --force file
     * may be sparse or fallocate()d, and an append run in between
     * truncated the file (target->written says what is known written). */
    if (empties)
        target->written = 0;
    else if (!target->is_device) {
        /* Reads need the file filled just as much: a hole reads zeros
         * without any I/O.  A check of what was read needs the fill's own
         * data, not what earlier runs wrote over it: filled again unless
         * the file is one fill with this run's block size and seed. */
        if (cfg->verify && !(target->fill_whole && target->fill_block == cfg->block_size &&
                             target->fill_seed == cfg->seed))
            target->written = 0;
        rc = target_fill(target, cfg->file_size, (size_t)cfg->block_size, cfg->seed, e.stop,
                         cfg->fill_progress);
        if (rc < 0)
            goto fail;
    }
    /* what a write run writes (or a read run writes back) is no longer
     * the fill's */
    if (!ops->reads || cfg->write_back)
        target->fill_whole = false;

    fd = open_for_mode(target, ops, cfg);
    if (fd < 0) {
        rc = fd;
        goto fail;
    }
    e.fd = fd;
    if (empties && ftruncate(fd, 0) != 0) {
        rc = -errno;
        goto fail;
    }
    if ((rc = engine_opened(&e, ops)) < 0)
        goto fail;

    rc = run_alloc(ops->name, ops->syncs, cfg->rate_interval_ns != 0, &run);
    if (rc < 0)
        goto fail;
    run->info.has_config = true;
    run->info.config = *cfg;
    /* what the offsets cover: a device smaller than cfg->file_size
     * bounds them, and the run records that span, not the one asked for */
    run->info.config.file_size = file_size;
    run->info.config.stop = NULL;
    run->info.config.progress = NULL;
    run->info.config.fill_progress = NULL;
    run->info.config.live_hist = NULL;
    run->info.config.op_hook = NULL;
    run->open_flags_text = open_flags_text(ops, cfg);
    /* the series' intervals are allocated now, outside the run's time */
    if (cfg->interval_ns &&
        (rc = series_new(cfg->interval_ns, cfg->runtime_ns, cfg->block_size, &run->series)) < 0)
        goto fail;
    for (int i = 0; i < 5; i++) {
        bool needed = i == 0 || (i < 3 && ops->syncs) || (i >= 3 && cfg->rate_interval_ns);
        if (needed && (rc = diskio_hist_new(&scratch[i])) < 0)
            goto fail;
    }
    if (cfg->trace_fd >= 0) {
        trace = calloc(1, sizeof(*trace));
        if (!trace) {
            rc = -ENOMEM;
            goto fail;
        }
        trace->fd = cfg->trace_fd;
        trace->error = trace_header_error;
    }

    /* Warmup: the same loop into scratch histograms, so that the measured
     * loop needs no "are we warm yet" test. */
    struct engine_phase warm = {
        .limit = cfg->warmup,
        .deadline_ns = UINT64_MAX,
        .total = scratch[0],
        .write = scratch[1],
        .sync = scratch[2],
    };
    /* the AIO context or ring, outside both phases' time */
    if (ops->queued && (rc = engine_queue_open(&e, &e.error_during)) < 0)
        e.error = rc;
    else if (warm.limit > 0)
        ops->run(&e, &warm);
    if (e.error) {
        /* nothing was measured yet, but say where it failed */
        e.error_op = 0;
        warm.done = 0;
        finish_info(run, &e, &warm, 0);
        *out = run;
        rc = e.error;
        run = NULL;
        goto fail;
    }

    if ((rc = engine_warmed(&e, ops, warm.done)) < 0) {
        e.error_op = 0;
        warm.done = 0;
        finish_info(run, &e, &warm, 0);
        *out = run;
        run = NULL;
        goto fail;
    }

    /* The block devices' counters, read outside the timed region: the
     * device I/O of the measured ops (not of the fill, the warmup or the
     * final fdatasync below). */
    if (!target->devices.resolved)
        devstat_resolve(target->path, &target->devices);
    struct devstat_sample dev_before[DEVSTAT_MAX], dev_after[DEVSTAT_MAX];
    /* what else the machine does, from just before the measured ops to
     * just after them (interference.c) */
    struct ifr_sample ifr_before, ifr_after;
    ifr_sample(&ifr_before);
    devstat_sample_all(&target->devices, dev_before);

    if (cfg->rate_interval_ns) {
        /*
         * A paced run sleeps between ops, and every microsecond its
         * wake-up is late is charged to the storage (the op starts late).
         * The default timer slack (50 us) lets the kernel wake a sleeper
         * that much late to batch timers: lowered to 1 ns for the run and
         * restored after, as it is this thread's and the caller's.  The
         * spin margin is then the measured wake-up latency (99th
         * percentile) plus 10 us, measured here, outside the run's time,
         * but at most a quarter interval and 500 us: a wake-up later than
         * that is preemption on a busy machine, which spinning cannot
         * prevent and makes worse (a thread that never sleeps loses its
         * CPU sooner).  Starts it makes late show as late_start.
         */
        int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
        if (slack >= 0 && prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) == 0)
            old_slack = slack;
        uint64_t cap = cfg->rate_interval_ns / 4;
        if (cap > 500000u)
            cap = 500000u;
        e.spin_margin_ns = wakeup_overshoot_ns() + 10000u;
        if (e.spin_margin_ns > cap)
            e.spin_margin_ns = cap;
    }

    /* for a live display (diskio_hist_copy_live()); set once, before
     * the run's time starts */
    if (cfg->live_hist)
        *cfg->live_hist = run->hist[DISKIO_PART_TOTAL];
    e.op_base = 0;
    uint64_t start_ns = now_ns();
    struct engine_phase measured = {
        .limit = cfg->count ? cfg->count : UINT64_MAX,
        .deadline_ns = cfg->runtime_ns ? start_ns + cfg->runtime_ns : UINT64_MAX,
        .total = run->hist[DISKIO_PART_TOTAL],
        .write = run->hist[DISKIO_PART_WRITE],
        .sync = run->hist[DISKIO_PART_SYNC],
        .service = run->hist[DISKIO_PART_SERVICE],
        .trace = trace,
        .schedule_ns = start_ns,
        .lag = scratch[3],
        .late_start = scratch[4],
        .series = run->series,
        .hook = cfg->op_hook,
    };
    if (trace)
        trace->origin_ns = start_ns;
    if (run->series)
        (void)series_start(run->series, start_ns);
    ops->run(&e, &measured);
    uint64_t end_ns = now_ns();
    if (cfg->live_hist)
        *cfg->live_hist = NULL;
    engine_queue_close(&e);
    devstat_sample_all(&target->devices, dev_after);
    ifr_sample(&ifr_after);
    if (old_slack >= 0) {
        (void)prctl(PR_SET_TIMERSLACK, (unsigned long)old_slack, 0, 0, 0);
        old_slack = -1;
    }

    if (trace) {
        trace_flush(trace);
        if (trace->error && !e.error) {
            e.error = trace->error;
            e.error_during = "trace";
            e.error_op = measured.done;
        }
    }
    if (run->series && (rc = series_finish(run->series, end_ns)) < 0 && !e.error) {
        e.error = rc;
        e.error_during = "interval series";
        e.error_op = measured.done;
    }
    /* Leave nothing dirty for the next run to pay for (untimed). */
    (void)fdatasync(fd);
    finish_info(run, &e, &measured, end_ns - start_ns);
    run->info.start_ns = start_ns;
    /* without memory for them the run simply has no device figures */
    (void)devstat_record(run, &target->devices, dev_before, dev_after);
    ifr_record(run, &ifr_before, &ifr_after);
    *out = run;
    run = NULL;
    rc = e.error;

fail:
    if (old_slack >= 0)
        (void)prctl(PR_SET_TIMERSLACK, (unsigned long)old_slack, 0, 0, 0);
    engine_queue_close(&e);
    if (fd >= 0)
        close(fd);
    free(buf);
    free(trace);
    for (int i = 0; i < 5; i++)
        diskio_hist_free(scratch[i]);
    diskio_run_free(run);
    return rc;
}
