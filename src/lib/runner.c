/* SPDX-License-Identifier: MIT */
/* The runner core (runner.h): how every pattern's run is driven. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "patterns.h"
#include "runner.h"
#include "steady.h"
#include "trace.h"

int runner_init(struct runner *r, const struct diskio_config *cfg, unsigned n,
                const struct runner_ops *ops, void *ctx)
{
    static const volatile sig_atomic_t never_stop = 0;
    *r = (struct runner){
        .cfg = cfg,
        .ops = ops,
        .ctx = ctx,
        .n = n,
        .threads = n > 1,
        .g = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER},
        .user_stop = cfg->stop ? cfg->stop : &never_stop,
    };
    if (!(r->workers = calloc(n, sizeof(*r->workers))))
        return -ENOMEM;
    for (unsigned w = 0; w < n; w++) {
        r->workers[w].r = r;
        r->workers[w].index = w;
    }
    return 0;
}

void runner_free(struct runner *r)
{
    if (r->watch) {
        steady_watch_free(r->watch);
        free(r->watch);
        r->watch = NULL;
    }
    free(r->workers);
    r->workers = NULL;
}

const volatile sig_atomic_t *runner_stop(const struct runner *r)
{
    return r->threads ? &r->stop : r->user_stop;
}

volatile uint64_t *runner_progress(struct runner *r, unsigned w)
{
    if (!r->threads)
        return r->cfg->progress ? r->cfg->progress : &r->progress_sink;
    return &r->workers[w].progress;
}

int runner_trace_header(const struct diskio_config *cfg)
{
    if (cfg->trace_fd < 0)
        return 0;
    const char *header = pattern_ops_of(cfg->pattern)->trace_header;
    return trace_write_all(cfg->trace_fd, header, strlen(header));
}

/* The caller's round while it waits at the gate: its stop flag relayed
 * to the workers, the watch polled, their progress summed for it. */
static void round_of_caller(void *ctx)
{
    struct runner *r = ctx;
    if (*r->user_stop)
        __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
    if (r->watch)
        steady_watch_poll(r->watch);
    if (r->cfg->progress) {
        uint64_t sum = 0;
        for (unsigned w = 0; w < r->n; w++)
            sum += r->workers[w].progress;
        *r->cfg->progress = sum;
    }
}

/* A worker's thread: its set-up, then the warmups together, then the
 * measured ops together, each step opened by the caller's thread through
 * the gate.  A failure stops the other workers. */
static void *worker_main(void *arg)
{
    struct runner_worker *wk = arg;
    struct runner *r = wk->r;
    struct start_gate *g = &r->g;
    bool failed = false;
    if (r->ops->setup)
        r->ops->setup(r->ctx, wk->index);
    if (gate_arrive(g, &g->ready, &g->warm_go))
        failed = r->ops->warm(r->ctx, wk->index);
    if (failed)
        __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
    if (gate_arrive(g, &g->warmed, &g->go) && r->ops->measure(r->ctx, wk->index, &r->phase))
        __atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
    if (r->ops->leave)
        r->ops->leave(r->ctx, wk->index);
    gate_leave(g, &g->done);
    return NULL;
}

bool runner_warm(struct runner *r)
{
    r->phase.stop = runner_stop(r);
    if (!r->threads) {
        r->started = 1;
        if (r->ops->setup)
            r->ops->setup(r->ctx, 0);
        return !r->ops->warm(r->ctx, 0);
    }
    struct start_gate *g = &r->g;
    for (unsigned w = 0; w < r->n; w++) {
        if (pthread_create(&r->workers[w].thread, NULL, worker_main, &r->workers[w]) != 0)
            break;
        r->workers[w].started = true;
        r->started++;
    }
    pthread_mutex_lock(&g->lock);
    gate_wait(g, &g->ready, r->started, round_of_caller, r);
    g->abort = r->started < r->n;
    gate_open(g, &g->warm_go);
    gate_wait(g, &g->warmed, r->started, round_of_caller, r);
    g->abort = r->started < r->n || r->stop || *r->user_stop;
    r->aborted = g->abort;
    pthread_mutex_unlock(&g->lock);
    return !r->aborted;
}

void runner_watch(struct runner *r, struct series *const *series, unsigned nseries)
{
    struct steady_watch *w = calloc(1, sizeof(*w));
    if (!w)
        return;
    if (steady_watch_init(w, r->cfg, series, nseries, &r->stop, r->user_stop) < 0 ||
        (!r->threads && steady_watch_start(w) < 0)) {
        steady_watch_free(w);
        free(w);
        return;
    }
    r->watch = w;
    r->phase.stop = &r->stop;
}

/* After the measured ops: the watch's verdict, and the watch gone. */
static void watch_end(struct runner *r)
{
    struct steady_watch *w = r->watch;
    if (!w)
        return;
    if (!r->threads)
        steady_watch_stop(w);
    r->steady_stopped = w->steady && !*r->user_stop;
    steady_watch_free(w);
    free(w);
    r->watch = NULL;
}

/* The start and deadline of the measured ops, from now. */
static void phase_start(struct runner *r)
{
    r->phase.start_ns = now_ns();
    r->phase.deadline_ns = r->cfg->runtime_ns ? r->phase.start_ns + r->cfg->runtime_ns : UINT64_MAX;
}

bool runner_measure(struct runner *r, struct diskio_hist *live)
{
    const struct diskio_config *cfg = r->cfg;
    if (!r->threads) {
        /* for a live display (diskio_hist_copy_live()); set once,
         * before the run's time starts */
        if (cfg->live_hist)
            *cfg->live_hist = live;
        phase_start(r);
        if (r->ops->start)
            r->ops->start(r->ctx, &r->phase);
        const bool failed = r->ops->measure(r->ctx, 0, &r->phase);
        if (cfg->live_hist)
            *cfg->live_hist = NULL;
        if (r->ops->leave)
            r->ops->leave(r->ctx, 0);
        watch_end(r);
        return failed;
    }
    struct start_gate *g = &r->g;
    pthread_mutex_lock(&g->lock);
    phase_start(r);
    g->start_ns = r->phase.start_ns;
    g->deadline_ns = r->phase.deadline_ns;
    if (r->ops->start)
        r->ops->start(r->ctx, &r->phase);
    gate_open(g, &g->go);
    /* until the last worker ends: relay a stop, sum the progress */
    gate_wait(g, &g->done, r->started, round_of_caller, r);
    pthread_mutex_unlock(&g->lock);
    for (unsigned w = 0; w < r->n; w++)
        if (r->workers[w].started)
            pthread_join(r->workers[w].thread, NULL);
    watch_end(r);
    return r->stop && !r->steady_stopped;
}

/* The worker that failed first (a stop is no failure), or -1. */
static int first_failure(const struct runner *r, runner_result_fn *result, void *arg)
{
    int first = -1;
    uint64_t first_ns = 0;
    for (unsigned w = 0; w < r->n; w++) {
        struct runner_result res = {0};
        result(arg, w, &res);
        if (!res.error || res.error == -DISKIO_E_INTERRUPTED)
            continue;
        if (first < 0 || res.fail_ns < first_ns) {
            first = (int)w;
            first_ns = res.fail_ns;
        }
    }
    return first;
}

/* The run's error and where it was found, into info. */
static int outcome_error(const struct runner *r, runner_result_fn *result, void *arg, bool stopped,
                         bool measured, struct diskio_run_info *info)
{
    const int first = first_failure(r, result, arg);
    struct runner_result res = {0};
    int error = 0;
    if (first >= 0) {
        result(arg, (unsigned)first, &res);
        error = res.error;
        info->error_op = measured ? res.error_op : 0;
        info->error_during = res.error_during;
    } else if (r->started < r->n) {
        error = -EAGAIN;
        info->error_during = "thread";
    } else if (stopped) {
        error = -DISKIO_E_INTERRUPTED;
        info->error_during = "interrupted";
        for (unsigned w = 0; w < r->n; w++) {
            result(arg, w, &res);
            if (res.error) {
                info->error_op = res.error_op;
                break;
            }
        }
    }
    info->error_job = r->threads ? first : -1;
    return error;
}

int runner_outcome(const struct runner *r, runner_result_fn *result, void *arg, bool stopped,
                   bool measured, struct diskio_run_info *info)
{
    const uint64_t start_ns = r->phase.start_ns;
    uint64_t end_ns = start_ns, ops = 0, bytes = 0;
    for (unsigned w = 0; w < r->n; w++) {
        struct runner_result res = {0};
        result(arg, w, &res);
        if (res.end_ns > end_ns)
            end_ns = res.end_ns;
        ops += res.ops;
        bytes += res.bytes;
    }
    const int error = outcome_error(r, result, arg, stopped, measured, info);
    info->error = error;
    info->complete = error == 0;
    info->ops = ops;
    info->bytes = bytes;
    info->duration_ns = measured ? end_ns - start_ns : 0;
    info->start_ns = start_ns;
    return error;
}

void runner_jobs(const struct runner *r, runner_result_fn *result, void *arg,
                 struct diskio_run *run)
{
    if (!r->threads)
        return;
    const uint64_t start_ns = r->phase.start_ns;
    for (unsigned w = 0; w < r->n; w++) {
        struct runner_result res = {0};
        result(arg, w, &res);
        struct run_job *rj = &run->jobs[w];
        *rj = (struct run_job){
            .ops = res.ops,
            .bytes = res.bytes,
            .duration_ns = res.end_ns > start_ns ? res.end_ns - start_ns : 0,
            .error = res.error,
            .error_op = res.error_op,
            .error_during = res.error_during,
        };
        if (res.hist) {
            (void)diskio_hist_merge(run->hist[DISKIO_PART_TOTAL], *res.hist);
            rj->hist = *res.hist;
            *res.hist = NULL;
        }
    }
    run->njobs = r->n;
}
