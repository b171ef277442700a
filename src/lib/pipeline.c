/* SPDX-License-Identifier: MIT */
/*
 * The steps of a run around its timed loop, the same for every runner
 * (engine_jobs.c, engine_wal.c, engine_checkpoint.c): a job's engine set
 * up (its file filled and opened with the mode's flags, its offsets,
 * generators and data pool), the warmup and what follows it, the run's
 * record made, the devices' and the machine's counters read around the
 * measured ops, a fixed rate's timer slack.  Nothing here is timed, and
 * nothing here calls back into a runner.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "engine_slow.h"
#include "pipeline.h"
#include "patterns.h"

uint64_t seed_state(uint64_t seed)
{
    uint64_t z = seed + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z ? z : 1;
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

/* After e->fd was opened for the mode (untimed): the create pattern's
 * empty file made durable, mode read's access advice.  0 or -errno. */
static int engine_opened(struct engine *e, const struct mode_ops *ops)
{
    const struct diskio_config *cfg = e->cfg;
    /* the new file starts empty on the storage too, not with the
     * truncation pending for the first timed sync */
    if (pattern_ops_of(cfg->pattern)->creates_file && fsync(e->fd) != 0)
        return -errno;
    if (ops->reads && !ops->direct) {
        /* readahead as fio sets it by default (fadvise_hint): none for
         * random reads, a larger window for sequential ones */
        (void)posix_fadvise(e->fd, 0, 0,
                            pattern_ops_of(cfg->pattern)->random_offsets ? POSIX_FADV_RANDOM
                                                                         : POSIX_FADV_SEQUENTIAL);
    }
    return 0;
}

/* After the warmup (untimed): the create pattern's file emptied again,
 * mode read's cache dropped or warmed.  0, or the error with e->error and
 * e->error_during set. */
static int engine_warmed(struct engine *e, const struct mode_ops *ops, uint64_t warm_done)
{
    const struct diskio_config *cfg = e->cfg;
    int rc;
    /* The create pattern's measured ops write a new file from its first
     * byte: whatever the warmup wrote is emptied again (untimed). */
    if (pattern_ops_of(cfg->pattern)->creates_file && warm_done > 0) {
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

/* The fill before the ops: an overwrite pattern needs the whole range
 * written once, so that a timed write never allocates a block (a WAL
 * segment is zero-filled before use for the same reason).  Every run
 * checks: a --force file may be sparse or fallocate()d, and an append run
 * in between truncated the file (t->written says what is known written).
 * Reads need the file filled just as much: a hole reads zeros without any
 * I/O.  A check of what was read needs the fill's own data, not what
 * earlier runs wrote over it: filled again unless the file is one fill
 * with this run's block size and seed.  Job j > 0 on a shared file finds
 * it filled by job 0. */
static int fill_file(const struct diskio_config *cfg, const struct mode_ops *ops,
                     struct diskio_target *t, unsigned j, uint64_t fill_seed,
                     const volatile sig_atomic_t *stop)
{
    if (pattern_grows_file(cfg->pattern)) {
        t->written = 0;
    } else if (!t->is_device && (j == 0 || !cfg->shared_file)) {
        if (cfg->verify &&
            !(t->fill_whole && t->fill_block == cfg->block_size && t->fill_seed == fill_seed))
            t->written = 0;
        int rc = target_fill(t, cfg->file_size, (size_t)cfg->block_size, fill_seed, stop,
                             cfg->fill_progress);
        if (rc < 0)
            return rc;
    }
    /* what a write run writes (or a read run writes back) is no longer
     * the fill's */
    if (!ops->reads || cfg->write_back)
        t->fill_whole = false;
    return 0;
}

int engine_setup(struct engine *e, struct diskio_target *t, unsigned j, uint64_t file_size)
{
    const struct diskio_config *cfg = e->cfg;
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    const unsigned njobs = cfg->jobs > 1 ? cfg->jobs : 1;
    /* job j's file is filled from seed + j; on a shared file job 0's */
    const uint64_t fill_seed = cfg->seed + (cfg->shared_file ? 0 : j);
    e->fd = -1;
    int rc = fill_file(cfg, ops, t, j, fill_seed, e->stop);
    if (rc < 0)
        return rc;
    e->fd = target_open_for_mode(t, ops, cfg);
    if (e->fd < 0) {
        rc = e->fd;
        e->fd = -1;
        return rc;
    }
    if (pattern_grows_file(cfg->pattern) && ftruncate(e->fd, 0) != 0)
        return -errno;
    e->fill_seed = fill_seed;
    if ((rc = engine_opened(e, ops)) < 0)
        return rc;
    e->block_size = cfg->block_size;
    e->file_size = file_size;
    e->nblocks = file_size / cfg->block_size;
    /* splitmix64 of the seed: every seed, 0 included, gives its own
     * non-zero xorshift state; each job its own random offsets, and on a
     * shared file its own place to start the sequential ones: job j at
     * its share of the file, so that the jobs do not write the same
     * blocks in step */
    e->rng = seed_state(cfg->seed + j);
    e->write_back = cfg->write_back;
    e->wb_rng = seed_state((cfg->seed + j) ^ UINT64_C(0x5752495445424143));
    e->next_offset = cfg->shared_file && pattern_ops_of(cfg->pattern)->spreads_shared_jobs
                         ? (uint64_t)((unsigned __int128)e->nblocks * j / njobs) * cfg->block_size
                         : 0;
    if (e->next_offset + cfg->block_size > file_size)
        e->next_offset = 0;
    e->sync_every = cfg->sync_every;
    e->rate_interval_ns = cfg->rate_interval_ns;
    /* queued modes give each request in flight a buffer of its own.  One
     * job's reads need nothing else (no data of theirs reaches the
     * storage); several jobs' reads cycle through their share of the
     * pool as their writes do. */
    const uint64_t in_flight = ops->queued ? cfg->iodepth : 1;
    e->pool_blocks =
        ops->reads && njobs == 1 ? in_flight : data_pool_blocks(cfg->block_size, in_flight, njobs);
    return fill_buffer(&e->buf, e->pool_blocks * cfg->block_size,
                       cfg->seed + 0x9e3779b97f4a7c15u + j);
}

void engine_warm(struct engine *e, const struct mode_ops *ops, struct engine_phase *warm)
{
    if (!e->error && warm->limit > 0)
        ops->run(e, warm);
    if (!e->error)
        (void)engine_warmed(e, ops, warm->done);
}

int run_new(const struct diskio_config *cfg, const struct mode_ops *ops, uint64_t file_size,
            bool parts, struct diskio_run **out)
{
    struct diskio_run *run;
    int rc = run_alloc(ops->name, parts, cfg->rate_interval_ns != 0, &run);
    if (rc < 0)
        return rc;
    run->info.has_config = true;
    run->info.config = *cfg;
    /* what the offsets cover: a device smaller than cfg->file_size
     * bounds them, and the run records that span, not the one asked for */
    run->info.config.file_size = file_size;
    /* the caller's own flag, counters, display and hook: none of them
     * outlives the call */
    run->info.config.stop = NULL;
    run->info.config.progress = NULL;
    run->info.config.fill_progress = NULL;
    run->info.config.live_hist = NULL;
    run->info.config.op_hook = NULL;
    run->open_flags_text = open_flags_text(ops, cfg);
    *out = run;
    return 0;
}

void probe_begin(struct run_probe *p, struct diskio_target *t)
{
    if (!t->devices.resolved)
        devstat_resolve(t->path, &t->devices);
    if (p->interference)
        ifr_sample(&p->ifr_before);
    devstat_sample_all(&t->devices, p->dev_before);
    /* the measuring thread's own, closest to its ops (several jobs:
     * each job's thread reads its own, engine_jobs.c) */
    if (p->interference)
        ifr_thread_sample(&p->ifr_before.thread);
}

void probe_end(struct run_probe *p, const struct diskio_target *t)
{
    struct ifr_thread thread;
    if (p->interference)
        ifr_thread_sample(&thread);
    devstat_sample_all(&t->devices, p->dev_after);
    if (p->interference) {
        ifr_sample(&p->ifr_after);
        p->ifr_after.thread = thread;
    }
}

void probe_record(struct diskio_run *run, const struct run_probe *p, const struct diskio_target *t)
{
    /* without memory for them the run simply has no device figures */
    (void)devstat_record(run, &t->devices, p->dev_before, p->dev_after);
    direct_record(run, t);
    if (p->interference)
        ifr_record(run, &p->ifr_before, &p->ifr_after);
}

int precise_sleep_begin(uint64_t cap_ns, uint64_t *spin_margin_ns)
{
    /*
     * The default timer slack (50 us) lets the kernel wake a sleeper that
     * much late to batch timers: lowered to 1 ns for the run and restored
     * after, as it is this thread's and the caller's (threads started
     * meanwhile inherit it).  The spin margin is then the measured
     * wake-up latency (99th percentile) plus 10 us, measured here,
     * outside the run's time, but at most cap_ns: a wake-up later than
     * that is preemption on a busy machine, which spinning cannot
     * prevent and makes worse (a thread that never sleeps loses its CPU
     * sooner).
     */
    int old_slack = -1;
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    if (slack >= 0 && prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) == 0)
        old_slack = slack;
    *spin_margin_ns = wakeup_overshoot_ns() + 10000u;
    if (*spin_margin_ns > cap_ns)
        *spin_margin_ns = cap_ns;
    return old_slack;
}

int pacing_begin(struct engine *e)
{
    /*
     * A paced run sleeps between ops, and every microsecond its wake-up
     * is late is charged to the storage (the op starts late): it sleeps
     * precisely, with a spin margin of at most a quarter interval and
     * 500 us.  Starts it makes late show as late_start.
     */
    if (!e->rate_interval_ns)
        return -1;
    uint64_t cap = e->rate_interval_ns / 4;
    if (cap > PRECISE_SPIN_MAX_NS)
        cap = PRECISE_SPIN_MAX_NS;
    return precise_sleep_begin(cap, &e->spin_margin_ns);
}

void pacing_end(int old_slack)
{
    if (old_slack >= 0)
        (void)prctl(PR_SET_TIMERSLACK, (unsigned long)old_slack, 0, 0, 0);
}

void pacing_record(struct diskio_run_info *in, const struct pacing_seen *seen)
{
    in->max_start_lag_ns = seen->max_lag_ns;
    in->start_lag_p99_ns = diskio_hist_percentile(seen->lag, 99.0);
    in->late_start_ops = diskio_hist_count(seen->late_start);
    in->late_start_p50_ns = diskio_hist_percentile(seen->late_start, 50.0);
    in->late_start_p99_ns = diskio_hist_percentile(seen->late_start, 99.0);
    in->late_start_max_ns = diskio_hist_max(seen->late_start);
    in->backlog_ops = seen->backlog_ops;
    in->backlog_max_lag_ns = seen->backlog_max_ns;
    in->spin_margin_ns = seen->spin_margin_ns;
    /* held when the ops took no longer than their schedule (+1%) and the
     * schedule was kept op by op: 99% of the ops started less than one
     * of their stream's intervals late.  An average rate reached by
     * bursts after stalls is not a fixed rate. */
    in->rate_held =
        (double)in->duration_ns <= 1.01 * (double)(in->ops * in->config.rate_interval_ns) &&
        in->start_lag_p99_ns < seen->stream_interval_ns;
}
