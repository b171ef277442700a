/* SPDX-License-Identifier: MIT */
/*
 * The runner of the plain patterns (seq, rand, append, create): a run is
 * its jobs, one unless config.jobs (diskio --jobs) says more.  Every job
 * goes through the same steps (pipeline.h): its engine set up (file,
 * descriptor, buffers, offsets, queue), its warmup, its measured ops,
 * then the run's outcome and record.
 *
 * The jobs are the runner core's workers (runner.h), which drives them.
 * One job runs on the caller's thread and records straight into the run
 * (the only job a fixed rate, a trace, an op hook or a live display
 * applies to).  Several jobs run a thread each, with an engine and
 * histograms of their own, so the timed loop is the one-job loop
 * unchanged: no lock, no atomic and nothing shared between its clock
 * reads.  The only shared state the loops read is the stop flag, between
 * operations.  What is the jobs' own: their set-up, their records closed
 * after the run (a trace's or series' failure found there is timed
 * then), and the parts and series the caller's thread merges; the run's
 * outcome is the core's (runner_outcome()).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patterns.h"
#include "pipeline.h"
#include "queue.h"
#include "runner.h"
#include "steady.h"
#include "trace.h"

struct job {
    struct runner *r;
    const struct mode_ops *ops;
    struct engine e;
    /* the warmup, into histograms of the job's own (its total, and with a
     * sync call its write and sync parts) */
    struct engine_phase warm;
    /* the measured ops.  One job: into the run's histograms and series,
     * with the job's own start lag histograms at a fixed rate and its
     * trace.  Several: into the job's own histograms and series
     * (own_measured), kept and merged into the run's (collect()). */
    struct engine_phase measured;
    bool own_measured;
    /* several jobs: the thread's own scheduling around its measured ops
     * (ifr_thread_sample; thread_before.threads 0: it measured none) */
    struct ifr_thread thread_before, thread_after;
    uint64_t end_ns, fail_ns;
    bool measured_ops; /* its measured ops ran (records to close) */
};

static int hist_new_if(bool wanted, struct diskio_hist **out)
{
    return wanted ? diskio_hist_new(out) : 0;
}

/* The histograms, series and trace job's phases record into (run's, or
 * the job's own with own_measured).  0 or -ENOMEM. */
static int job_records(struct job *job, struct diskio_run *run, int trace_error)
{
    const struct diskio_config *cfg = job->e.cfg;
    const bool parts = job->ops->sync != MODE_SYNC_NONE, paced = cfg->rate_interval_ns != 0;
    struct engine_phase *w = &job->warm, *m = &job->measured;
    int rc;
    if ((rc = hist_new_if(true, &w->total)) < 0 || (rc = hist_new_if(parts, &w->write)) < 0 ||
        (rc = hist_new_if(parts, &w->sync)) < 0 || (rc = hist_new_if(paced, &m->lag)) < 0 ||
        (rc = hist_new_if(paced, &m->late_start)) < 0)
        return rc;
    if (job->own_measured) {
        if ((rc = hist_new_if(true, &m->total)) < 0 || (rc = hist_new_if(parts, &m->write)) < 0 ||
            (rc = hist_new_if(parts, &m->sync)) < 0)
            return rc;
    } else {
        m->total = run->hist[DISKIO_PART_TOTAL];
        m->write = run->hist[DISKIO_PART_WRITE];
        m->sync = run->hist[DISKIO_PART_SYNC];
        m->service = run->hist[DISKIO_PART_SERVICE];
    }
    /* the series' intervals are allocated now, outside the run's time */
    struct series **series = job->own_measured ? &m->series : &run->series;
    if (cfg->interval_ns &&
        (rc = series_new(cfg->interval_ns, cfg->runtime_ns, cfg->block_size, series)) < 0)
        return rc;
    m->series = *series;
    /* one op stream's (the config allows no trace with several jobs) */
    if (cfg->trace_fd >= 0 && !job->own_measured) {
        if (!(m->trace = calloc(1, sizeof(*m->trace))))
            return -ENOMEM;
        m->trace->fd = cfg->trace_fd;
        m->trace->error = trace_error;
    }
    return 0;
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

/* Make job j ready to run: its file filled and opened, its buffers and
 * histograms allocated, its offsets placed.  0 or -errno. */
static int job_prepare(struct job *job, unsigned j, struct diskio_run *run,
                       struct diskio_target *target, uint64_t file_size, int trace_error)
{
    const struct diskio_config *cfg = job->e.cfg;
    struct diskio_target *t;
    int rc = job_target(cfg, target, j, &t);
    if (rc < 0 || (rc = engine_setup(&job->e, t, j, file_size)) < 0 ||
        (rc = job_records(job, run, trace_error)) < 0)
        return rc;
    job->warm.limit = cfg->warmup;
    job->warm.deadline_ns = UINT64_MAX;
    job->measured.limit = cfg->count ? cfg->count : UINT64_MAX;
    job->measured.hook = cfg->op_hook;
    return 0;
}

static void free_jobs(struct job *jobs, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        struct job *job = &jobs[j];
        engine_queue_close(&job->e);
        if (job->e.fd >= 0)
            close(job->e.fd);
        free(job->e.buf);
        diskio_hist_free(job->warm.total);
        diskio_hist_free(job->warm.write);
        diskio_hist_free(job->warm.sync);
        diskio_hist_free(job->measured.lag);
        diskio_hist_free(job->measured.late_start);
        free(job->measured.trace);
        if (job->own_measured) {
            diskio_hist_free(job->measured.total);
            diskio_hist_free(job->measured.write);
            diskio_hist_free(job->measured.sync);
            series_free(job->measured.series);
        }
    }
    free(jobs);
}

/* The AIO context or ring, outside both phases' time. */
static void job_open_queue(struct job *job)
{
    struct engine *e = &job->e;
    int rc;
    if (job->ops->queued && (rc = engine_queue_open(e, job->ops->backend, &e->error_during)) < 0)
        e->error = rc;
}

/* The measured ops, from start_ns (the schedule's origin at a fixed
 * rate) until the count, deadline_ns, a stop or a failure. */
static void job_measure(struct job *job, uint64_t start_ns, uint64_t deadline_ns)
{
    struct engine_phase *ph = &job->measured;
    job->e.op_base = 0;
    ph->deadline_ns = deadline_ns;
    ph->schedule_ns = start_ns;
    if (ph->trace)
        ph->trace->origin_ns = start_ns;
    if (ph->series)
        (void)series_start(ph->series, start_ns);
    job->ops->run(&job->e, ph);
    job->end_ns = now_ns();
}

/* After the measured ops (untimed): the trace's last rows written out,
 * the series' last interval closed; a failure of either is the job's. */
static void job_close_records(struct job *job)
{
    struct engine *e = &job->e;
    struct engine_phase *ph = &job->measured;
    int rc;
    if (ph->trace) {
        trace_flush(ph->trace);
        if (ph->trace->error && !e->error) {
            e->error = ph->trace->error;
            e->error_during = "trace";
            e->error_op = ph->done;
        }
    }
    if (ph->series && (rc = series_finish(ph->series, job->end_ns)) < 0 && !e->error) {
        e->error = rc;
        e->error_during = "interval series";
        e->error_op = ph->done;
    }
}

/* Leave nothing dirty for the next run to pay for (untimed). */
static void jobs_sync(const struct job *jobs, unsigned n, const struct diskio_config *cfg)
{
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].e.fd >= 0 && (j == 0 || !cfg->shared_file))
            (void)fdatasync(jobs[j].e.fd);
}

/* A job's part of the run's outcome (runner_outcome()): its measured
 * ops, its error, and its total histogram (several jobs: its own). */
static void job_result(void *arg, unsigned j, struct runner_result *out)
{
    struct job *job = &((struct job *)arg)[j];
    *out = (struct runner_result){
        .error = job->e.error,
        .error_op = job->e.error_op,
        .error_during = job->e.error_during,
        .fail_ns = job->fail_ns,
        .ops = job->measured.done,
        .bytes = job->measured.done * job->e.block_size,
        .end_ns = job->end_ns,
        .hist = &job->measured.total,
    };
}

/* A fixed rate: how well the schedule was kept (one job only). */
static void record_pacing(struct diskio_run_info *in, const struct job *job)
{
    const struct engine_phase *ph = &job->measured;
    const struct pacing_seen seen = {.lag = ph->lag,
                                     .late_start = ph->late_start,
                                     .max_lag_ns = ph->max_lag_ns,
                                     .backlog_ops = ph->backlog_ops,
                                     .backlog_max_ns = ph->backlog_max_ns,
                                     .spin_margin_ns = job->e.spin_margin_ns,
                                     .stream_interval_ns = job->e.rate_interval_ns};
    pacing_record(in, &seen);
}

/* The runner core's steps for a job (runner.h): the AIO context or
 * ring; the warmup (a failure before the measured ops ends the run there,
 * with nothing measured); the measured ops; the queue closed. */
static void job_setup(void *ctx, unsigned j)
{
    job_open_queue(&((struct job *)ctx)[j]);
}

static bool job_warm(void *ctx, unsigned j)
{
    struct job *job = &((struct job *)ctx)[j];
    struct engine *e = &job->e;
    e->stop = runner_stop(job->r); /* several jobs: the core's from now */
    engine_warm(e, job->ops, &job->warm);
    if (e->error && e->error != -DISKIO_E_INTERRUPTED)
        job->fail_ns = now_ns();
    /* nothing was measured yet, but say where it failed */
    e->error_op = 0;
    return e->error != 0;
}

static bool job_measure_step(void *ctx, unsigned j, const struct runner_phase *ph)
{
    struct job *job = &((struct job *)ctx)[j];
    struct engine *e = &job->e;
    if (e->error)
        return false;
    e->stop = ph->stop;
    if (job->own_measured) {
        *e->progress = 0;
        ifr_thread_sample(&job->thread_before);
    }
    job_measure(job, ph->start_ns, ph->deadline_ns);
    if (job->own_measured)
        ifr_thread_sample(&job->thread_after);
    job->measured_ops = true;
    /* an error in one job stops them all */
    const bool failed = e->error && e->error != -DISKIO_E_INTERRUPTED;
    if (failed)
        job->fail_ns = job->end_ns;
    return failed;
}

static void job_leave(void *ctx, unsigned j)
{
    engine_queue_close(&((struct job *)ctx)[j].e);
}

static const struct runner_ops job_steps = {
    .setup = job_setup,
    .warm = job_warm,
    .measure = job_measure_step,
    .leave = job_leave,
};

/* A job stopped by a steady-state watch (and not by the caller) ended
 * as it should: complete. */
static void steady_stop_is_no_error(struct job *job)
{
    if (job->e.error == -DISKIO_E_INTERRUPTED) {
        job->e.error = 0;
        job->e.error_during = NULL;
    }
}

/* Each job's figures kept in the run, its total histogram merged
 * into the run's (runner_jobs()), and its write and sync parts and
 * series merged into the run's. */
static void collect(struct runner *r, struct diskio_run *run, struct job *jobs, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        const struct engine_phase *m = &jobs[j].measured;
        if (m->write && run->hist[DISKIO_PART_WRITE])
            (void)diskio_hist_merge(run->hist[DISKIO_PART_WRITE], m->write);
        if (m->sync && run->hist[DISKIO_PART_SYNC])
            (void)diskio_hist_merge(run->hist[DISKIO_PART_SYNC], m->sync);
    }
    runner_jobs(r, job_result, jobs, run);
    for (unsigned j = 0; j < n; j++) {
        struct engine_phase *m = &jobs[j].measured;
        /* interval k of every job into the run's interval k: the jobs'
         * series all start at the common start */
        if (m->series && m->done > 0) {
            if (!run->series) {
                run->series = m->series;
                m->series = NULL;
            } else {
                (void)series_merge(run->series, m->series);
            }
        }
    }
}

/* The jobs' threads' own scheduling around their measured ops, in place
 * of the caller's thread's (which waited at the gate meanwhile). */
static void probe_job_threads(struct run_probe *probe, const struct job *jobs, unsigned n)
{
    struct ifr_thread *before = &probe->ifr_before.thread, *after = &probe->ifr_after.thread;
    memset(before, 0, sizeof(*before));
    memset(after, 0, sizeof(*after));
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].thread_before.threads) {
            ifr_thread_add(before, &jobs[j].thread_before);
            ifr_thread_add(after, &jobs[j].thread_after);
        }
}

/* After the jobs' threads ended: each measured job's records closed (its
 * series' last interval: here, once no watch reads the series any more). */
static void jobs_close_records(struct job *jobs, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        struct job *job = &jobs[j];
        if (!job->measured_ops)
            continue;
        const int before = job->e.error;
        job_close_records(job);
        if (!before && job->e.error)
            job->fail_ns = job->end_ns;
    }
}

/* config.steady: the watch over the jobs' series (the run's, with one
 * job).  Returns the series' list the watch reads, to free after it. */
static struct series **jobs_watch(struct runner *r, const struct job *jobs, unsigned n)
{
    struct series **series = r->cfg->steady ? calloc(n, sizeof(*series)) : NULL;
    if (!series)
        return NULL;
    for (unsigned j = 0; j < n; j++)
        series[j] = jobs[j].measured.series;
    if (series[0])
        runner_watch(r, series, n);
    return series;
}

/* The jobs driven by the runner core: set up, warmed up, then (unless
 * one job's warmup failed) the devices' counters and the machine's
 * around the measured ops (not the fill's, the warmup's or the final
 * fdatasync's), the jobs' records closed, the run's outcome. */
static void jobs_run(struct runner *r, struct job *jobs, unsigned n, struct diskio_run *run,
                     struct diskio_target *target)
{
    const struct diskio_config *cfg = r->cfg;
    struct engine *e = &jobs[0].e;
    if (!runner_warm(r) && n == 1) {
        (void)runner_outcome(r, job_result, jobs, e->error == -DISKIO_E_INTERRUPTED, false,
                             &run->info);
        return;
    }
    struct run_probe probe = {.interference = true};
    probe_begin(&probe, target);
    const int old_slack = pacing_begin(e);
    struct series **series = jobs_watch(r, jobs, n);
    bool stopped = runner_measure(r, run->hist[DISKIO_PART_TOTAL]);
    probe_end(&probe, target);
    pacing_end(old_slack);
    free(series);
    if (n > 1)
        probe_job_threads(&probe, jobs, n);
    for (unsigned j = 0; j < n && r->steady_stopped; j++)
        steady_stop_is_no_error(&jobs[j]);
    jobs_close_records(jobs, n);
    jobs_sync(jobs, n, cfg);
    if (n == 1)
        stopped = e->error == -DISKIO_E_INTERRUPTED;
    (void)runner_outcome(r, job_result, jobs, r->aborted || stopped, !r->aborted, &run->info);
    if (n > 1)
        collect(r, run, jobs, n);
    if (e->rate_interval_ns && run->info.ops > 0)
        record_pacing(&run->info, &jobs[0]);
    probe_record(run, &probe, target);
    if (cfg->steady)
        (void)steady_record(run, cfg->steady, cfg->interval_ns);
}

/* What the target allows of cfg: 0 with the offsets' range in
 * *file_size, -EINVAL, or -DISKIO_E_TARGET_EXISTS. */
static int target_takes(const struct diskio_config *cfg, const struct diskio_target *target,
                        uint64_t *file_size)
{
    /* the patterns that empty the file need a file diskio fills (a check
     * of what the fill wrote too: diskio_config_validate_target()) */
    const bool empties = pattern_grows_file(cfg->pattern);
    if (target->is_device && empties)
        return -EINVAL;
    /* a device smaller than file_size bounds the offsets */
    *file_size = cfg->file_size;
    if (target->is_device && target->size < *file_size)
        *file_size = target->size - target->size % cfg->block_size;
    if (*file_size < cfg->block_size)
        return -EINVAL;
    /* truncating is only for files diskio made: never shrink the user's */
    if (empties && !target->created)
        return -DISKIO_E_TARGET_EXISTS;
    return 0;
}

int engine_run_jobs(const struct diskio_config *cfg, struct diskio_target *target,
                    struct diskio_run **out)
{
    /* A trace is a complete CSV whatever happens next: the header goes
     * out now, rows (if any) follow.  A failure is the run's "trace"
     * error, reported like a failed row. */
    const int trace_error = runner_trace_header(cfg);
    uint64_t file_size;
    int rc = target_takes(cfg, target, &file_size);
    if (rc < 0)
        return rc;
    const unsigned n = cfg->jobs > 1 ? cfg->jobs : 1;
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    struct job *jobs = NULL;
    struct runner r;
    struct diskio_run *run = NULL;

    /* own files are made next to a file diskio created, never beside a
     * device or a user's file */
    if (n > 1 && !cfg->shared_file && !target->created)
        return -EINVAL;
    jobs = calloc(n, sizeof(*jobs));
    rc = jobs ? runner_init(&r, cfg, n, &job_steps, jobs) : -ENOMEM;
    if (!jobs)
        return rc;
    for (unsigned j = 0; j < n && rc == 0; j++) {
        struct job *job = &jobs[j];
        job->r = &r;
        job->ops = ops;
        job->e.fd = -1;
        job->e.cfg = cfg;
        job->own_measured = n > 1;
        job->e.stop = r.user_stop; /* the fill's; several jobs then the core's */
        job->e.progress = runner_progress(&r, j);
    }
    if (rc < 0 || (rc = run_new(cfg, ops, file_size, ops->sync != MODE_SYNC_NONE, &run)) < 0)
        goto fail;
    if (n > 1 && !(run->jobs = calloc(n, sizeof(*run->jobs)))) {
        rc = -ENOMEM;
        goto fail;
    }
    for (unsigned j = 0; j < n; j++)
        if ((rc = job_prepare(&jobs[j], j, run, target, file_size, trace_error)) < 0)
            goto fail;
    jobs_run(&r, jobs, n, run, target);
    rc = run->info.error;
    *out = run;
    run = NULL;

fail:
    runner_free(&r);
    free_jobs(jobs, n);
    diskio_run_free(run);
    return rc;
}
