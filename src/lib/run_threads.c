/* SPDX-License-Identifier: MIT */
/*
 * Custom runs of several threads (diskio_run_threads), each thread's own
 * figures (diskio_run_job, for these and for config.jobs), and a custom
 * run's parameters (diskio_run_set_param).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"
#include "runner.h"

/* A thread of a custom run: the runner core's worker (runner.h). */
struct worker {
    int64_t (*op)(void *arg, unsigned thread, uint64_t i);
    void *arg;
    unsigned index;
    uint64_t limit;
    struct diskio_hist *hist;
    uint64_t done, bytes, end_ns, fail_ns;
    int error;
};

static bool worker_warm(void *ctx, unsigned t)
{
    (void)ctx;
    (void)t;
    return false; /* a custom run has no warmup */
}

/* The thread's calls, each timed; the first failure stops the others
 * (the core's stop flag, read between calls only, with relaxed atomic
 * loads: a plain load on every common CPU). */
static bool worker_measure(void *ctx, unsigned t, const struct runner_phase *ph)
{
    struct worker *w = &((struct worker *)ctx)[t];
    int64_t (*const op)(void *, unsigned, uint64_t) = w->op;
    void *const arg = w->arg;
    const unsigned index = w->index;
    struct diskio_hist *const hist = w->hist;
    const volatile sig_atomic_t *const stop = ph->stop;
    uint64_t i = 0, bytes = 0;
    for (; i < w->limit; i++) {
        if (__atomic_load_n(stop, __ATOMIC_RELAXED)) {
            w->error = -DISKIO_E_INTERRUPTED;
            break;
        }
        const uint64_t start_ns = now_ns();
        const int64_t rc = op(arg, index, i);
        const uint64_t end_ns = now_ns();
        if (rc < 0) {
            w->error = rc < -INT32_MAX ? -EINVAL : (int)rc;
            w->fail_ns = end_ns;
            break;
        }
        diskio_hist_record(hist, end_ns - start_ns);
        bytes += (uint64_t)rc;
    }
    w->end_ns = now_ns();
    w->done = i;
    w->bytes = bytes;
    return w->error && w->error != -DISKIO_E_INTERRUPTED;
}

/* A thread's part of the run's outcome (runner_outcome()): a failed
 * call is the "op" at its index. */
static void worker_result(void *arg, unsigned t, struct runner_result *out)
{
    struct worker *x = &((struct worker *)arg)[t];
    *out = (struct runner_result){
        .error = x->error,
        .error_op = x->error ? x->done : 0,
        .error_during = x->error == -DISKIO_E_INTERRUPTED ? "interrupted"
                        : x->error                        ? "op"
                                                          : NULL,
        .fail_ns = x->fail_ns,
        .ops = x->done,
        .bytes = x->bytes,
        .end_ns = x->end_ns,
        .hist = &x->hist,
    };
}

int diskio_run_threads(struct diskio_run *run, unsigned nthreads,
                       int64_t (*op)(void *arg, unsigned thread, uint64_t i), void *arg,
                       uint64_t ops_per_thread)
{
    /* no stop, progress, runtime or live display of a caller's */
    static const struct diskio_config custom = {.trace_fd = -1};
    static const struct runner_ops steps = {.warm = worker_warm, .measure = worker_measure};
    if (!run || !op || nthreads < 1 || nthreads > DISKIO_JOBS_MAX || run->info.has_config ||
        run->jobs || diskio_hist_count(run->hist[DISKIO_PART_TOTAL]) != 0)
        return -EINVAL;
    struct worker *w = calloc(nthreads, sizeof(*w));
    struct run_job *jobs = calloc(nthreads, sizeof(*jobs));
    struct runner r;
    int rc = w && jobs ? runner_init(&r, &custom, nthreads, &steps, w) : -ENOMEM;
    if (!w || !jobs)
        goto out;
    r.threads = true; /* one thread too */
    for (unsigned t = 0; t < nthreads && rc == 0; t++) {
        w[t] = (struct worker){.op = op, .arg = arg, .index = t, .limit = ops_per_thread};
        rc = diskio_hist_new(&w[t].hist);
    }
    if (rc == 0) {
        /* a thread missing: nothing is timed, the threads made leave */
        (void)runner_warm(&r);
        (void)runner_measure(&r, NULL);
        rc = r.started < nthreads ? -EAGAIN : 0;
    }
    if (rc == 0) {
        /* the first thread to fail names the run's error (nothing stops
         * a custom run but a failure) */
        rc = runner_outcome(&r, worker_result, w, false, true, &run->info);
        run->jobs = jobs;
        jobs = NULL;
        runner_jobs(&r, worker_result, w, run);
    }
    runner_free(&r);

out:
    for (unsigned t = 0; w && t < nthreads; t++)
        diskio_hist_free(w[t].hist);
    free(w);
    free(jobs);
    return rc;
}

size_t diskio_run_job_count(const struct diskio_run *run)
{
    return run ? run->njobs : 0;
}

int diskio_run_job(const struct diskio_run *run, size_t i, struct diskio_job_summary *out)
{
    if (!run || !out || i >= run->njobs)
        return -EINVAL;
    const struct run_job *j = &run->jobs[i];
    static const double pcts[2] = {50.0, 99.0};
    uint64_t v[2] = {0, 0};
    memset(out, 0, sizeof(*out));
    out->ops = j->ops;
    out->bytes = j->bytes;
    out->duration_ns = j->duration_ns;
    if (j->hist) {
        out->mean_ns = diskio_hist_mean(j->hist);
        (void)diskio_hist_percentiles(j->hist, pcts, v, 2);
        out->max_ns = diskio_hist_max(j->hist);
    }
    out->p50_ns = v[0];
    out->p99_ns = v[1];
    out->error = j->error;
    out->error_op = j->error_op;
    out->error_during = j->error_during;
    return 0;
}

static bool param_key_ok(const char *key)
{
    size_t n = strlen(key);
    if (n < 1 || n > 64)
        return false;
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '.' || *c == '-'))
            return false;
    return true;
}

/* Room for one more parameter: doubled as it fills, so that n keys cost
 * O(n) copies; DISKIO_RUN_PARAMS_MAX at most, so that finding a key (a
 * pass over them) stays bounded too. */
static int params_grow(struct diskio_run *run)
{
    if (run->nparams < run->params_room)
        return 0;
    if (run->nparams >= DISKIO_RUN_PARAMS_MAX)
        return -E2BIG;
    size_t room = run->params_room ? 2 * run->params_room : 8;
    if (room > DISKIO_RUN_PARAMS_MAX)
        room = DISKIO_RUN_PARAMS_MAX;
    struct run_param *grown = realloc(run->params, room * sizeof(*grown));
    if (!grown)
        return -ENOMEM;
    run->params = grown;
    run->params_room = room;
    return 0;
}

int diskio_run_set_param(struct diskio_run *run, const char *key, const char *value)
{
    if (!run || !key || !value || !param_key_ok(key))
        return -EINVAL;
    size_t i = 0;
    while (i < run->nparams && strcmp(run->params[i].key, key) != 0)
        i++;
    const int rc = i < run->nparams ? 0 : params_grow(run);
    if (rc < 0)
        return rc;
    char *v = strdup(value);
    char *k = i < run->nparams ? NULL : strdup(key);
    if (!v || (i == run->nparams && !k)) {
        free(k);
        free(v);
        return -ENOMEM;
    }
    if (i < run->nparams) {
        free(run->params[i].value);
        run->params[i].value = v;
    } else {
        run->params[run->nparams++] = (struct run_param){k, v};
    }
    return 0;
}

const char *diskio_run_param(const struct diskio_run *run, const char *key)
{
    for (size_t i = 0; run && key && i < run->nparams; i++)
        if (strcmp(run->params[i].key, key) == 0)
            return run->params[i].value;
    return NULL;
}
