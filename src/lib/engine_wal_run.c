/* SPDX-License-Identifier: MIT */
/*
 * A wal pattern run from start to end: the WAL set up (its buffer, its
 * first segment, the committers and their histograms), the committers'
 * warmup and measured commits (the runner core's workers, runner.h: on
 * the caller's thread, or threads started together), and the run's
 * outcome, error and pacing figures gathered from them; every segment
 * removed at the end.
 * The WAL, its segments and its commits: engine_wal.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "engine_loop.h"
#include "engine_slow.h"
#include "engine_wal.h"
#include "pipeline.h"
#include "runner.h"
#include "trace.h"

/* ---- the run ---- */

static void release_segments(struct wal *w)
{
    if (w->fd >= 0) {
        close(w->fd);
        w->fd = -1;
    }
    for (unsigned i = 0; i < WAL_SLOTS; i++)
        if (w->slots_used & (1u << i))
            wal_slot_release(w, w->slot_ids[i]);
}

/* The runner core's steps for a committer (runner.h): its warmup; the
 * trace's origin at the common start; its measured commits (none after
 * a failed warmup, its own or another's). */
static bool wal_warm(void *ctx, unsigned j)
{
    struct wal *w = ctx;
    if (w->cfg->warmup > 0) {
        struct wal_phase warm = {w->cfg->warmup, UINT64_MAX, false};
        wal_commit_loop(w, &w->jobs[j], &warm);
    }
    return w->jobs[j].error != 0;
}

static void wal_start(void *ctx, const struct runner_phase *ph)
{
    struct wal *w = ctx;
    w->trace_origin_ns = ph->start_ns;
}

static bool wal_measure(void *ctx, unsigned j, const struct runner_phase *ph)
{
    struct wal *w = ctx;
    struct wal_job *job = &w->jobs[j];
    if (wal_failed(w) || job->error)
        return false;
    const uint64_t count = w->cfg->count ? w->cfg->count : UINT64_MAX;
    struct wal_phase measured = {count, ph->deadline_ns, true};
    job->done = 0;
    wal_pace_from(job, ph->start_ns);
    wal_commit_loop(w, job, &measured);
    return job->error && job->error != -DISKIO_E_INTERRUPTED;
}

static const struct runner_ops wal_steps = {
    .warm = wal_warm,
    .start = wal_start,
    .measure = wal_measure,
};

/* The WAL of a run: its segments' slots and space, its buffer (filled
 * before the run) and a page of zeros; the trace's header written.  0 or
 * -errno (*out is freed by wal_free() either way). */
static int wal_new(const struct diskio_config *cfg, struct diskio_target *target, struct wal **out)
{
    const unsigned n = cfg->jobs ? cfg->jobs : 1;
    struct wal *w = calloc(1, sizeof(*w));
    *out = w;
    if (!w)
        return -ENOMEM;
    *w = (struct wal){
        .cfg = cfg,
        .ops = mode_ops_of(cfg->mode),
        .target = target,
        .page = cfg->block_size,
        .segsize = cfg->wal_segment_size,
        .sync_fn = mode_sync_fn(mode_ops_of(cfg->mode)),
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .changed = PTHREAD_COND_INITIALIZER,
        .trace_lock = PTHREAD_MUTEX_INITIALIZER,
        .fd = -1,
        .last_page = UINT64_MAX,
        .tracing = cfg->trace_fd >= 0,
    };
    int rc = runner_init(&w->r, cfg, n, &wal_steps, w);
    if (rc < 0)
        return rc;
    w->stop = runner_stop(&w->r);
    /* rows are written only by the measured commits */
    w->trace_error = runner_trace_header(cfg);
    w->buf_size = w->segsize < WAL_BUFFER_MAX ? w->segsize : WAL_BUFFER_MAX;
    /* three free own-file slots, from the last: the checkpoint pattern's
     * and the jobs' files take them from the first */
    for (unsigned s = DISKIO_JOBS_MAX - 1, i = 0; s > 0 && i < WAL_SLOTS; s--)
        if (!target->job_files[s])
            w->slot_ids[i++] = s;
    if (!w->slot_ids[WAL_SLOTS - 1])
        return -EBUSY;
    /* the current segment, the next one and (recycling) the spare */
    rc = diskio_target_check_space(target, 3 * w->segsize, NULL, NULL, NULL);
    if (rc < 0 || (rc = fill_buffer(&w->buf, w->buf_size, cfg->seed + 0x9e3779b97f4a7c15u)) < 0)
        return rc;
    w->zeros = calloc(1, (size_t)w->page);
    return w->zeros ? 0 : -ENOMEM;
}

/* The committers, each with its histograms (and trace rows).  0 or
 * -ENOMEM (*out is freed by wal_free() either way). */
static int wal_jobs_new(struct wal *w, unsigned n, struct wal_job **out)
{
    struct wal_job *jobs = calloc(n, sizeof(*jobs));
    *out = jobs;
    if (!jobs)
        return -ENOMEM;
    w->jobs = jobs;
    w->njobs = n;
    for (unsigned j = 0; j < n; j++) {
        int rc;
        jobs[j].w = w;
        jobs[j].index = j;
        jobs[j].progress = runner_progress(&w->r, j);
        if ((rc = diskio_hist_new(&jobs[j].total)) < 0 ||
            (rc = diskio_hist_new(&jobs[j].warm_total)) < 0)
            return rc;
        struct pacing *p = &jobs[j].pace;
        if (w->cfg->rate_interval_ns &&
            ((rc = diskio_hist_new(&p->service)) < 0 || (rc = diskio_hist_new(&p->lag)) < 0 ||
             (rc = diskio_hist_new(&p->late_start)) < 0))
            return rc;
        if (w->tracing && !(jobs[j].rows = calloc(WAL_TRACE_ROWS, sizeof(*jobs[j].rows))))
            return -ENOMEM;
    }
    return 0;
}

/* The warmup's parts and the run's record, with the switch part and
 * (several committers) room for each one's figures. */
static int wal_run_new(struct wal *w, unsigned n, struct diskio_run **out)
{
    static const enum diskio_part parts[] = {DISKIO_PART_WRITE, DISKIO_PART_SYNC,
                                             DISKIO_PART_SWITCH};
    int rc = 0;
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && rc == 0; i++)
        rc = diskio_hist_new(&w->warm[parts[i]]);
    if (rc == 0)
        rc = run_new(w->cfg, w->ops, w->cfg->file_size, true, out);
    if (rc == 0)
        rc = diskio_hist_new(&(*out)->hist[DISKIO_PART_SWITCH]);
    if (rc == 0 && n > 1 && !((*out)->jobs = calloc(n, sizeof(*(*out)->jobs))))
        rc = -ENOMEM;
    return rc;
}

static void wal_free(struct wal *w, struct wal_job *jobs, unsigned n)
{
    if (!w)
        return;
    release_segments(w);
    for (unsigned j = 0; jobs && j < n; j++) {
        diskio_hist_free(jobs[j].total);
        diskio_hist_free(jobs[j].warm_total);
        diskio_hist_free(jobs[j].pace.service);
        diskio_hist_free(jobs[j].pace.lag);
        diskio_hist_free(jobs[j].pace.late_start);
        free(jobs[j].rows);
    }
    free(jobs);
    runner_free(&w->r);
    for (int p = 0; p < DISKIO_PART_COUNT; p++)
        diskio_hist_free(w->warm[p]);
    free(w->buf);
    free(w->zeros);
    free(w);
}

/* The first segment, made as PostgreSQL makes one, and with wal_recycle
 * one more to recycle (untimed).  The WAL starts at the first segment's
 * beginning. */
static int wal_first_segment(struct wal *w)
{
    unsigned spare = 0, retired = 0;
    int rc;
    if (w->cfg->wal_recycle) {
        spare = wal_slot_take(w);
        if ((rc = wal_segment_create(w, spare, 0)) < 0)
            return rc;
    }
    wal_set_parts(w, w->warm);
    if ((rc = wal_segment_switch(w, WAL_FIRST_SEGMENT, &retired)) < 0)
        return rc;
    w->spare = spare;
    w->insert_lsn = w->flushed_lsn = WAL_FIRST_SEGMENT * w->segsize;
    return 0;
}

/* The committers as the run's outcome sees them: after a failed warmup
 * none of their commits is the run's. */
struct wal_results {
    struct wal_job *jobs;
    bool warm_failed;
};

/* A committer's part of the run's outcome (runner_outcome()). */
static void wal_result(void *arg, unsigned j, struct runner_result *out)
{
    const struct wal_results *res = arg;
    struct wal_job *job = &res->jobs[j];
    *out = (struct runner_result){
        .error = job->error,
        .error_op = job->error_op,
        .error_during = job->error_during,
        .fail_ns = job->fail_ns,
        .ops = res->warm_failed ? 0 : job->done,
        .end_ns = job->end_ns,
        .hist = &job->total,
    };
}

/* The run's outcome and each committer's figures (several: merged into
 * the run's total): the runner core's, with the WAL's counts, its bytes
 * (the pages written), and a failed trace as the run's error when no
 * committer's came first.  Returns the run's error. */
static int wal_outcome(struct wal *w, struct wal_job *jobs, unsigned n, bool warm_failed,
                       struct diskio_run *run)
{
    struct diskio_run_info *info = &run->info;
    struct wal_results res = {jobs, warm_failed};
    /* stopped: a committer's error, when none failed (a stop) */
    bool stopped = false;
    for (unsigned j = 0; j < n; j++)
        stopped = stopped || jobs[j].error != 0;
    int error = runner_outcome(&w->r, wal_result, &res, stopped, !warm_failed, info);
    if (!error && w->trace_error) {
        error = w->trace_error;
        info->error = error;
        info->complete = false;
        info->error_during = "trace";
        info->error_op = info->ops;
    }
    w->counts.commits = info->ops;
    info->wal = w->counts;
    info->bytes = w->counts.pages * w->page;
    if (n == 1)
        jobs[0].total = NULL; /* the run's own */
    runner_jobs(&w->r, wal_result, &res, run);
    return error;
}

/*
 * The pause between a committer's commits (--wal-gap) stands for the
 * transaction's own work, and it must last what was asked: a nanosleep
 * overshoots by the timer slack (50 us by default) and the wake-up
 * latency, about 80 us here for a 50 us pause, and the sharing of
 * flushes among committers hangs on how the pause compares with a flush.
 * So the committers (threads inherit the slack of the thread that makes
 * them) sleep with a slack of 1 ns until shortly before the pause ends
 * and spin the rest, as a paced run does, and the margin is measured,
 * not guessed.  Returns the caller's slack to restore, or -1.
 */
static int pause_begin(struct wal *w)
{
    const struct diskio_config *cfg = w->cfg;
    if (cfg->wal_gap_ns)
        return precise_sleep_begin(PRECISE_SPIN_MAX_NS, &w->spin_margin_ns);
    if (!cfg->rate_interval_ns)
        return -1;
    /* a fixed rate: as a paced run's (pacing_begin()), each committer's
     * wait spinning at most a quarter of its interval */
    uint64_t cap = cfg->rate_interval_ns * (cfg->jobs ? cfg->jobs : 1) / 4;
    return precise_sleep_begin(cap < PRECISE_SPIN_MAX_NS ? cap : PRECISE_SPIN_MAX_NS,
                               &w->spin_margin_ns);
}

/* A fixed rate: every committer's service times into the run's, and how
 * well the schedule was kept (pacing_record()). */
static void wal_pacing_outcome(struct wal *w, struct wal_job *jobs, unsigned n,
                               struct diskio_run *run)
{
    struct diskio_hist *lag = NULL, *late = NULL;
    if (diskio_hist_new(&lag) < 0 || diskio_hist_new(&late) < 0) {
        diskio_hist_free(lag);
        return;
    }
    struct pacing_seen seen = {.lag = lag,
                               .late_start = late,
                               .spin_margin_ns = w->spin_margin_ns,
                               .stream_interval_ns = w->cfg->rate_interval_ns * n};
    for (unsigned j = 0; j < n; j++) {
        const struct pacing *p = &jobs[j].pace;
        (void)diskio_hist_merge(run->hist[DISKIO_PART_SERVICE], p->service);
        (void)diskio_hist_merge(lag, p->lag);
        (void)diskio_hist_merge(late, p->late_start);
        seen.max_lag_ns = p->max_lag_ns > seen.max_lag_ns ? p->max_lag_ns : seen.max_lag_ns;
        seen.backlog_ops += p->backlog_ops;
        if (p->backlog_max_ns > seen.backlog_max_ns)
            seen.backlog_max_ns = p->backlog_max_ns;
    }
    pacing_record(&run->info, &seen);
    diskio_hist_free(lag);
    diskio_hist_free(late);
}

int engine_run_wal(const struct diskio_config *cfg, struct diskio_target *target,
                   struct diskio_run **out)
{
    const unsigned n = cfg->jobs ? cfg->jobs : 1;
    struct diskio_run *run = NULL;
    struct wal_job *jobs = NULL;
    struct wal *w = NULL;
    int old_slack = -1;

    /* the segments are made beside a file diskio created */
    if (!target->created || target->is_device)
        return -EINVAL;
    int rc = wal_new(cfg, target, &w);
    if (rc == 0)
        rc = wal_jobs_new(w, n, &jobs);
    if (rc == 0)
        rc = wal_run_new(w, n, &run);
    if (rc != 0)
        goto done;
    old_slack = pause_begin(w);
    if ((rc = wal_first_segment(w)) < 0) {
        /* the segments could not be made: nothing was measured */
        run->info.error = rc;
        run->info.error_during = "segment";
        run->info.complete = false;
        *out = run;
        run = NULL;
        goto done;
    }
    (void)runner_warm(&w->r);
    const unsigned started = w->r.started;
    /* the warmup's failure is the run's, with nothing measured */
    bool warm_failed = w->failed || started < n;
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].error)
            warm_failed = true;

    memset(&w->counts, 0, sizeof(w->counts));
    wal_set_parts(w, run->hist);
    if (n == 1) {
        /* one committer records straight into the run */
        diskio_hist_free(jobs[0].total);
        jobs[0].total = run->hist[DISKIO_PART_TOTAL];
    }
    /* the devices' counters around the measured commits (no interference
     * probe: what it takes as a run's own device I/O does not count the
     * segments' zero-fill) */
    struct run_probe probe = {.interference = false};
    probe_begin(&probe, target);
    (void)runner_measure(&w->r, run->hist[DISKIO_PART_TOTAL]);
    probe_end(&probe, target);
    rc = wal_outcome(w, jobs, n, warm_failed, run);
    if (cfg->rate_interval_ns && run->info.ops > 0)
        wal_pacing_outcome(w, jobs, n, run);
    release_segments(w);
    probe_record(run, &probe, target);
    *out = run;
    run = NULL;

done:
    pacing_end(old_slack);
    wal_free(w, jobs, n);
    diskio_run_free(run);
    return rc;
}
