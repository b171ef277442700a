/* SPDX-License-Identifier: MIT */
/*
 * Concurrent writers (config.jobs > 1, diskio --jobs): one thread per
 * job, each with an engine of its own (descriptor, buffers, offsets,
 * queue) and histograms of its own, so the timed loop is the one-job loop
 * unchanged: no lock, no atomic and nothing shared between its clock
 * reads.  The only shared state the loops read is the stop flag, between
 * operations.  The caller's thread starts the jobs together, relays its
 * stop flag and the progress, and merges what the jobs recorded.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "queue.h"

/* What the jobs and the caller's thread share, under lock. */
struct jobs_gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned ready;  /* jobs through their setup (queue) */
    bool warm_go;    /* the warmups may start: every job is ready */
    unsigned warmed; /* jobs through their warmup (or failed before) */
    unsigned done;   /* jobs through their measured phase */
    bool go;         /* the measured phase may start */
    bool abort;      /* a thread or a warmup failed: no job measures */
    uint64_t start_ns;
    uint64_t deadline_ns;
    /* the jobs' stop flag: raised by a failing job or relayed from the
     * caller's config.stop; read between operations only */
    volatile sig_atomic_t stop;
};

struct job {
    struct jobs_gate *gate;
    const struct mode_ops *ops;
    struct engine e;
    struct diskio_hist *hist[3]; /* total, write, sync: measured */
    struct diskio_hist *warm[3];
    /* config.interval_ns: the job's own series, started at the common
     * start and merged into the run's interval by interval */
    struct series *series;
    volatile uint64_t progress;
    uint64_t end_ns, fail_ns, done;
    int fd;
    bool started;
    pthread_t thread;
};

static void gate_bump(struct jobs_gate *g, unsigned *counter)
{
    pthread_mutex_lock(&g->lock);
    (*counter)++;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static void *job_main(void *arg)
{
    struct job *job = arg;
    struct jobs_gate *g = job->gate;
    struct engine *e = &job->e;
    const struct diskio_config *cfg = e->cfg;

    /* setup and warmup, each job on its own, untimed */
    if (job->ops->queued) {
        int rc = engine_queue_open(e, &e->error_during);
        if (rc < 0)
            e->error = rc;
    }
    /* the warmups start together too, so that each job warms up beside
     * the others, as it will be measured */
    pthread_mutex_lock(&g->lock);
    g->ready++;
    pthread_cond_broadcast(&g->changed);
    while (!g->warm_go)
        pthread_cond_wait(&g->changed, &g->lock);
    const bool warm_up = !g->abort;
    pthread_mutex_unlock(&g->lock);
    if (!e->error && warm_up && cfg->warmup > 0) {
        struct engine_phase warm = {
            .limit = cfg->warmup,
            .deadline_ns = UINT64_MAX,
            .total = job->warm[0],
            .write = job->warm[1],
            .sync = job->warm[2],
        };
        job->ops->run(e, &warm);
        if (!e->error)
            (void)engine_warmed(e, job->ops, warm.done);
    } else if (!e->error && warm_up) {
        (void)engine_warmed(e, job->ops, 0);
    }
    if (e->error && e->error != -DISKIO_E_INTERRUPTED) {
        job->fail_ns = now_ns();
        __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
    }
    e->error_op = 0;

    pthread_mutex_lock(&g->lock);
    g->warmed++;
    pthread_cond_broadcast(&g->changed);
    while (!g->go)
        pthread_cond_wait(&g->changed, &g->lock);
    const bool measure = !g->abort && !e->error;
    struct engine_phase ph = {
        .limit = cfg->count ? cfg->count : UINT64_MAX,
        .deadline_ns = g->deadline_ns,
        .total = job->hist[0],
        .write = job->hist[1],
        .sync = job->hist[2],
        .series = job->series,
    };
    if (job->series)
        (void)series_start(job->series, g->start_ns);
    pthread_mutex_unlock(&g->lock);

    if (measure) {
        *e->progress = 0;
        job->ops->run(e, &ph);
        job->end_ns = now_ns();
        job->done = ph.done;
        if (job->series && series_finish(job->series, job->end_ns) < 0 && !e->error) {
            e->error = -ENOMEM;
            e->error_during = "interval series";
        }
        if (e->error && e->error != -DISKIO_E_INTERRUPTED) {
            /* an error in one job stops them all */
            job->fail_ns = job->end_ns;
            __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
        }
    }
    engine_queue_close(e);
    gate_bump(g, &g->done);
    return NULL;
}

/* With g->lock held, until *counter reaches want: relay the caller's stop
 * flag to the jobs and sum their progress for the caller, every 5 ms. */
static void wait_relaying(struct jobs_gate *g, const unsigned *counter, unsigned want,
                          const struct job *jobs, unsigned n, const struct diskio_config *cfg,
                          const volatile sig_atomic_t *user_stop)
{
    while (*counter < want) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 5000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        (void)pthread_cond_timedwait(&g->changed, &g->lock, &until);
        if (*user_stop)
            __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
        if (cfg->progress) {
            uint64_t sum = 0;
            for (unsigned j = 0; j < n; j++)
                sum += jobs[j].progress;
            *cfg->progress = sum;
        }
    }
}

/* The file job j writes: the target (job 0, or shared_file), or its own
 * file next to it. */
static int job_target(const struct diskio_config *cfg, struct diskio_target *target, unsigned j,
                      struct diskio_target **out)
{
    if (j == 0 || cfg->shared_file) {
        *out = target;
        return 0;
    }
    return target_job_file(target, j, out);
}

static void free_jobs(struct job *jobs, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        if (jobs[j].fd >= 0)
            close(jobs[j].fd);
        free(jobs[j].e.buf);
        for (int i = 0; i < 3; i++) {
            diskio_hist_free(jobs[j].hist[i]);
            diskio_hist_free(jobs[j].warm[i]);
        }
        series_free(jobs[j].series);
    }
    free(jobs);
}

/* Make job j ready to run: its file filled and opened, its buffers and
 * histograms allocated, its offsets placed.  0 or -errno. */
static int job_prepare(struct job *job, unsigned j, const struct diskio_config *cfg,
                       struct diskio_target *target, uint64_t file_size,
                       const volatile sig_atomic_t *user_stop)
{
    const struct mode_ops *ops = job->ops;
    struct diskio_target *t;
    int rc = job_target(cfg, target, j, &t);
    if (rc < 0)
        return rc;
    const bool empties =
        cfg->pattern == DISKIO_PATTERN_APPEND || cfg->pattern == DISKIO_PATTERN_CREATE;
    /* job j's file is filled from seed + j; on a shared file job 0's */
    const uint64_t fill_seed = cfg->seed + (cfg->shared_file ? 0 : j);
    if (empties)
        t->written = 0;
    else if (!t->is_device && (j == 0 || !cfg->shared_file)) {
        /* as diskio_run_execute(): a check of the reads needs the fill's
         * own data */
        if (cfg->verify &&
            !(t->fill_whole && t->fill_block == cfg->block_size && t->fill_seed == fill_seed))
            t->written = 0;
        rc = target_fill(t, cfg->file_size, (size_t)cfg->block_size, fill_seed, user_stop,
                         cfg->fill_progress);
        if (rc < 0)
            return rc;
    }
    if (!ops->reads || cfg->write_back)
        t->fill_whole = false;
    job->fd = target_open_for_mode(t, ops, cfg);
    if (job->fd < 0)
        return job->fd;
    if (empties && ftruncate(job->fd, 0) != 0)
        return -errno;

    struct engine *e = &job->e;
    e->cfg = cfg;
    e->fd = job->fd;
    e->fill_seed = fill_seed;
    if ((rc = engine_opened(e, ops)) < 0)
        return rc;
    e->block_size = cfg->block_size;
    e->file_size = file_size;
    e->nblocks = file_size / cfg->block_size;
    /* each job its own random offsets, and on a shared file its own
     * place to start the sequential ones: job j at its share of the
     * file, so that the jobs do not write the same blocks in step */
    e->rng = seed_state(cfg->seed + j);
    e->write_back = cfg->write_back;
    e->wb_rng = seed_state((cfg->seed + j) ^ UINT64_C(0x5752495445424143));
    e->next_offset =
        cfg->shared_file && cfg->pattern == DISKIO_PATTERN_SEQ
            ? (uint64_t)((unsigned __int128)e->nblocks * j / cfg->jobs) * cfg->block_size
            : 0;
    if (e->next_offset + cfg->block_size > file_size)
        e->next_offset = 0;
    e->sync_every = cfg->sync_every;
    e->stop = &job->gate->stop;
    e->progress = &job->progress;
    e->pool_blocks = data_pool_blocks(cfg->block_size, ops->queued ? cfg->iodepth : 1, cfg->jobs);
    rc =
        fill_buffer(&e->buf, e->pool_blocks * cfg->block_size, cfg->seed + 0x9e3779b97f4a7c15u + j);
    if (rc < 0)
        return rc;
    for (int i = 0; i < 3; i++) {
        if (i > 0 && !ops->syncs)
            continue;
        if ((rc = diskio_hist_new(&job->hist[i])) < 0 || (rc = diskio_hist_new(&job->warm[i])) < 0)
            return rc;
    }
    /* allocated now, outside the run's time */
    if (cfg->interval_ns &&
        (rc = series_new(cfg->interval_ns, cfg->runtime_ns, cfg->block_size, &job->series)) < 0)
        return rc;
    return 0;
}

/* Keep each job's figures in the run and merge its histograms into the
 * run's (the job's total histogram moves into the run). */
static void collect(struct diskio_run *run, struct job *jobs, unsigned n, uint64_t start_ns)
{
    for (unsigned j = 0; j < n; j++) {
        struct job *job = &jobs[j];
        struct run_job *rj = &run->jobs[j];
        rj->ops = job->done;
        rj->bytes = job->done * job->e.block_size;
        rj->duration_ns = job->end_ns > start_ns ? job->end_ns - start_ns : 0;
        rj->error = job->e.error;
        rj->error_op = job->e.error_op;
        rj->error_during = job->e.error_during;
        for (int i = 0; i < 3; i++)
            if (job->hist[i] && run->hist[i])
                (void)diskio_hist_merge(run->hist[i], job->hist[i]);
        rj->hist = job->hist[0];
        job->hist[0] = NULL;
        /* interval k of every job into the run's interval k: the jobs'
         * series all start at the common start */
        if (job->series && job->done > 0) {
            if (!run->series) {
                run->series = job->series;
                job->series = NULL;
            } else {
                (void)series_merge(run->series, job->series);
            }
        }
    }
    run->njobs = n;
}

int engine_run_jobs(const struct diskio_config *cfg, struct diskio_target *target,
                    uint64_t file_size, struct diskio_run **out)
{
    static const volatile sig_atomic_t never_stop = 0;
    const unsigned n = cfg->jobs;
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    const volatile sig_atomic_t *user_stop = cfg->stop ? cfg->stop : &never_stop;
    struct diskio_run *run = NULL;
    int rc;

    /* own files are made next to a file diskio created, never beside a
     * device or a user's file */
    if (!cfg->shared_file && !target->created)
        return -EINVAL;
    struct jobs_gate gate = {.lock = PTHREAD_MUTEX_INITIALIZER,
                             .changed = PTHREAD_COND_INITIALIZER};
    struct job *jobs = calloc(n, sizeof(*jobs));
    if (!jobs)
        return -ENOMEM;
    for (unsigned j = 0; j < n; j++) {
        jobs[j].fd = -1;
        jobs[j].gate = &gate;
        jobs[j].ops = ops;
    }
    for (unsigned j = 0; j < n; j++)
        if ((rc = job_prepare(&jobs[j], j, cfg, target, file_size, user_stop)) < 0)
            goto fail;

    rc = run_alloc(ops->name, ops->syncs, false, &run);
    if (rc < 0)
        goto fail;
    run->jobs = calloc(n, sizeof(*run->jobs));
    if (!run->jobs) {
        rc = -ENOMEM;
        goto fail;
    }
    run->info.has_config = true;
    run->info.config = *cfg;
    run->info.config.file_size = file_size; /* the span the offsets cover */
    run->info.config.stop = NULL;
    run->info.config.progress = NULL;
    run->info.config.fill_progress = NULL;
    /* the jobs' histograms are merged and freed inside the call: none is
     * published for a live display (config.live_hist stays NULL) */
    run->info.config.live_hist = NULL;
    run->info.config.op_hook = NULL;
    run->open_flags_text = open_flags_text(ops, cfg);

    unsigned started = 0;
    for (unsigned j = 0; j < n; j++) {
        if (pthread_create(&jobs[j].thread, NULL, job_main, &jobs[j]) != 0)
            break;
        jobs[j].started = true;
        started++;
    }

    /* every job set up: the warmups together (none if a thread is
     * missing); every job warmed up (or failed): the devices' counters,
     * then the common start */
    pthread_mutex_lock(&gate.lock);
    wait_relaying(&gate, &gate.ready, started, jobs, n, cfg, user_stop);
    gate.abort = started < n;
    gate.warm_go = true;
    pthread_cond_broadcast(&gate.changed);
    wait_relaying(&gate, &gate.warmed, started, jobs, n, cfg, user_stop);
    gate.abort = started < n || gate.stop || *user_stop;
    pthread_mutex_unlock(&gate.lock);
    if (!target->devices.resolved)
        devstat_resolve(target->path, &target->devices);
    struct devstat_sample dev_before[DEVSTAT_MAX], dev_after[DEVSTAT_MAX];
    struct ifr_sample ifr_before, ifr_after;
    ifr_sample(&ifr_before);
    devstat_sample_all(&target->devices, dev_before);
    pthread_mutex_lock(&gate.lock);
    gate.start_ns = now_ns();
    gate.deadline_ns = cfg->runtime_ns ? gate.start_ns + cfg->runtime_ns : UINT64_MAX;
    gate.go = true;
    pthread_cond_broadcast(&gate.changed);
    /* until the last job ends: relay a stop and sum the progress */
    wait_relaying(&gate, &gate.done, started, jobs, n, cfg, user_stop);
    const uint64_t start_ns = gate.start_ns;
    const bool aborted = gate.abort;
    pthread_mutex_unlock(&gate.lock);
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].started)
            pthread_join(jobs[j].thread, NULL);
    devstat_sample_all(&target->devices, dev_after);
    ifr_sample(&ifr_after);

    /* the run's error: the job that failed first; else an interruption */
    int error = 0;
    int error_job = -1;
    for (unsigned j = 0; j < n; j++) {
        const struct job *job = &jobs[j];
        if (!job->e.error || job->e.error == -DISKIO_E_INTERRUPTED)
            continue;
        if (error_job < 0 || job->fail_ns < jobs[error_job].fail_ns)
            error_job = (int)j;
    }
    uint64_t end_ns = start_ns, ops_done = 0;
    for (unsigned j = 0; j < n; j++) {
        if (jobs[j].end_ns > end_ns)
            end_ns = jobs[j].end_ns;
        ops_done += jobs[j].done;
        /* leave nothing dirty for the next run to pay for (untimed) */
        if (jobs[j].fd >= 0 && (j == 0 || !cfg->shared_file))
            (void)fdatasync(jobs[j].fd);
    }
    struct diskio_run_info *info = &run->info;
    if (error_job >= 0) {
        error = jobs[error_job].e.error;
        info->error_op = jobs[error_job].e.error_op;
        info->error_during = jobs[error_job].e.error_during;
    } else if (started < n) {
        error = -EAGAIN;
        info->error_during = "thread";
    } else if (aborted || gate.stop) {
        error = -DISKIO_E_INTERRUPTED;
        info->error_during = "interrupted";
        for (unsigned j = 0; j < n; j++)
            if (jobs[j].e.error) {
                info->error_op = jobs[j].e.error_op;
                break;
            }
    }
    info->error_job = error_job;
    info->error = error;
    info->complete = error == 0;
    info->ops = ops_done;
    info->bytes = ops_done * cfg->block_size;
    info->duration_ns = aborted ? 0 : end_ns - start_ns;
    info->start_ns = start_ns;
    collect(run, jobs, n, start_ns);
    (void)devstat_record(run, &target->devices, dev_before, dev_after);
    ifr_record(run, &ifr_before, &ifr_after);
    *out = run;
    run = NULL;
    rc = error;

fail:
    free_jobs(jobs, n);
    diskio_run_free(run);
    return rc;
}
