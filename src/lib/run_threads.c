/* SPDX-License-Identifier: MIT */
/*
 * Custom runs of several threads (diskio_run_threads), each thread's own
 * figures (diskio_run_job, for these and for config.jobs), and a custom
 * run's parameters (diskio_run_set_param).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"

struct threads_gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool go;
    uint64_t start_ns;
    /* raised by the first failing thread; read between calls only, with
     * relaxed atomic loads (a plain load on every common CPU) */
    int stop;
};

struct worker {
    struct threads_gate *gate;
    int64_t (*op)(void *arg, unsigned thread, uint64_t i);
    void *arg;
    unsigned index;
    uint64_t limit;
    struct diskio_hist *hist;
    uint64_t done, bytes, end_ns, fail_ns;
    int error;
    pthread_t thread;
};

static void *worker_main(void *p)
{
    struct worker *w = p;
    struct threads_gate *g = w->gate;
    pthread_mutex_lock(&g->lock);
    while (!g->go)
        pthread_cond_wait(&g->changed, &g->lock);
    pthread_mutex_unlock(&g->lock);

    int64_t (*const op)(void *, unsigned, uint64_t) = w->op;
    void *const arg = w->arg;
    const unsigned index = w->index;
    struct diskio_hist *const hist = w->hist;
    const int *const stop = &g->stop;
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
            __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
            break;
        }
        diskio_hist_record(hist, end_ns - start_ns);
        bytes += (uint64_t)rc;
    }
    w->end_ns = now_ns();
    w->done = i;
    w->bytes = bytes;
    return NULL;
}

int diskio_run_threads(struct diskio_run *run, unsigned nthreads,
                       int64_t (*op)(void *arg, unsigned thread, uint64_t i), void *arg,
                       uint64_t ops_per_thread)
{
    if (!run || !op || nthreads < 1 || nthreads > DISKIO_JOBS_MAX || run->info.has_config ||
        run->jobs || diskio_hist_count(run->hist[DISKIO_PART_TOTAL]) != 0)
        return -EINVAL;
    struct threads_gate gate = {.lock = PTHREAD_MUTEX_INITIALIZER,
                                .changed = PTHREAD_COND_INITIALIZER};
    struct worker *w = calloc(nthreads, sizeof(*w));
    struct run_job *jobs = calloc(nthreads, sizeof(*jobs));
    int rc = w && jobs ? 0 : -ENOMEM;
    for (unsigned t = 0; t < nthreads && rc == 0; t++) {
        w[t] = (struct worker){
            .gate = &gate, .op = op, .arg = arg, .index = t, .limit = ops_per_thread};
        rc = diskio_hist_new(&w[t].hist);
    }
    unsigned started = 0;
    for (; started < nthreads && rc == 0; started++)
        if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]) != 0)
            rc = -EAGAIN;
    if (rc == -EAGAIN) {
        /* nothing is timed: the threads made leave at once */
        started--;
        __atomic_store_n(&gate.stop, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_lock(&gate.lock);
    gate.start_ns = now_ns();
    gate.go = true;
    pthread_cond_broadcast(&gate.changed);
    pthread_mutex_unlock(&gate.lock);
    for (unsigned t = 0; t < started; t++)
        pthread_join(w[t].thread, NULL);
    if (rc < 0)
        goto out;

    /* the first thread to fail names the run's error */
    int first = -1;
    uint64_t end_ns = gate.start_ns, ops = 0, bytes = 0;
    for (unsigned t = 0; t < nthreads; t++) {
        struct worker *x = &w[t];
        if (x->error && x->error != -DISKIO_E_INTERRUPTED &&
            (first < 0 || x->fail_ns < w[first].fail_ns))
            first = (int)t;
        if (x->end_ns > end_ns)
            end_ns = x->end_ns;
        ops += x->done;
        bytes += x->bytes;
        (void)diskio_hist_merge(run->hist[DISKIO_PART_TOTAL], x->hist);
        jobs[t] = (struct run_job){
            .ops = x->done,
            .bytes = x->bytes,
            .duration_ns = x->end_ns - gate.start_ns,
            .error = x->error,
            .error_op = x->error ? x->done : 0,
            .error_during = x->error == -DISKIO_E_INTERRUPTED ? "interrupted"
                            : x->error                        ? "op"
                                                              : NULL,
            .hist = x->hist,
        };
        x->hist = NULL;
    }
    struct diskio_run_info *info = &run->info;
    info->ops = ops;
    info->bytes = bytes;
    info->duration_ns = end_ns - gate.start_ns;
    info->start_ns = gate.start_ns;
    if (first >= 0) {
        rc = w[first].error;
        info->complete = false;
        info->error = rc;
        info->error_op = w[first].done;
        info->error_during = "op";
        info->error_job = first;
    }
    run->jobs = jobs;
    run->njobs = nthreads;
    jobs = NULL;

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
