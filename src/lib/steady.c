/* SPDX-License-Identifier: MIT */
/*
 * Steady state: whether a run's latency (or throughput) has settled,
 * judged on its interval series (series.c) as the SNIA Performance Test
 * Specification judges a measurement window: the last `window` whole
 * intervals after the ramp are steady when the range of the metric
 * (largest minus smallest) is within range_pct of their average and the
 * change of the least-squares line over the window (its slope times the
 * window's width) within slope_pct of it.  fio's ss= criteria are the
 * same two ideas (largest deviation from the mean, the slope).
 *
 * The judge (diskio_steady_*) is pure arithmetic over intervals handed
 * to it, for any program.  A run made with config.steady is watched
 * while it runs (steady_watch): never between two clock reads, but by
 * another thread (one job: a thread of the watch's own; several: the
 * caller's thread in its rounds), which reads the intervals the timed
 * loops have closed (series->closed, published after an interval is
 * closed, between two ops) and raises the run's stop flag once the
 * window is steady.  The run then ends complete, and its state is judged
 * again from its finished series (steady_record), so that what the
 * result says is what the series shows.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diskio_internal.h"
#include "steady.h"

static const char *const metric_names[] = {
    [DISKIO_STEADY_MEAN] = "mean",
    [DISKIO_STEADY_P99] = "p99",
    [DISKIO_STEADY_OPS] = "ops_per_s",
};
#define METRIC_COUNT (sizeof(metric_names) / sizeof(metric_names[0]))

const char *diskio_steady_metric_name(enum diskio_steady_metric m)
{
    return (unsigned)m < METRIC_COUNT ? metric_names[m] : NULL;
}

int diskio_steady_metric_parse(const char *name, enum diskio_steady_metric *out)
{
    if (!name || !out)
        return -EINVAL;
    for (unsigned m = 0; m < METRIC_COUNT; m++)
        if (strcmp(name, metric_names[m]) == 0) {
            *out = (enum diskio_steady_metric)m;
            return 0;
        }
    return -EINVAL;
}

void diskio_steady_spec_init(struct diskio_steady_spec *spec)
{
    if (!spec)
        return;
    memset(spec, 0, sizeof(*spec));
    spec->metric = DISKIO_STEADY_MEAN;
    spec->window = 5;
    spec->range_pct = 20.0;
    spec->slope_pct = 10.0;
}

int diskio_steady_spec_check(const struct diskio_steady_spec *spec)
{
    if (!spec || (unsigned)spec->metric >= METRIC_COUNT || spec->window < 2 ||
        spec->window > DISKIO_WINDOW_INTERVALS_MAX || !(spec->range_pct > 0) ||
        !(spec->slope_pct > 0) || !isfinite(spec->range_pct) || !isfinite(spec->slope_pct))
        return -EINVAL;
    return 0;
}

/* ---- the judge ---- */

struct judged {
    double value; /* the metric; NAN where it has none (no op completed) */
    size_t index; /* the interval's, among all added */
    uint64_t start_ns, end_ns;
};

struct diskio_steady {
    struct diskio_steady_spec spec;
    uint64_t interval_ns;
    size_t added;
    struct judged *v;
    size_t n, cap;
    struct diskio_steady_state state;
};

int diskio_steady_new(const struct diskio_steady_spec *spec, uint64_t interval_ns,
                      struct diskio_steady **out)
{
    if (!out)
        return -EINVAL;
    *out = NULL;
    if (diskio_steady_spec_check(spec) != 0 || interval_ns == 0)
        return -EINVAL;
    struct diskio_steady *s = calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    s->spec = *spec;
    s->interval_ns = interval_ns;
    s->state.average = s->state.range_pct = s->state.slope_pct = s->state.slope_per_min = NAN;
    *out = s;
    return 0;
}

void diskio_steady_free(struct diskio_steady *s)
{
    if (!s)
        return;
    free(s->v);
    free(s);
}

/* The metric of one interval, NAN where it has none. */
static double metric_of(enum diskio_steady_metric m, const struct diskio_interval *iv)
{
    if (m == DISKIO_STEADY_OPS)
        return (double)iv->ops * 1e9 / (double)iv->duration_ns;
    if (iv->ops == 0)
        return NAN;
    return m == DISKIO_STEADY_MEAN ? iv->mean_ns : (double)iv->p99_ns;
}

void steady_window_figures(const double *y, size_t n, double interval_s,
                           struct diskio_steady_state *st)
{
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        sum += y[i];
        lo = y[i] < lo ? y[i] : lo;
        hi = y[i] > hi ? y[i] : hi;
    }
    const double avg = sum / (double)n, xbar = (double)(n - 1) / 2.0;
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += ((double)i - xbar) * (y[i] - avg);
        sxx += ((double)i - xbar) * ((double)i - xbar);
    }
    /* the least-squares slope per interval, and its change over the
     * window's width (n - 1 steps between the first and last interval) */
    const double slope = sxx > 0 ? sxy / sxx : 0.0;
    st->average = avg;
    st->range_pct = avg > 0 ? 100.0 * (hi - lo) / avg : NAN;
    st->slope_pct = avg > 0 ? 100.0 * fabs(slope) * (double)(n - 1) / avg : NAN;
    st->slope_per_min = slope / interval_s * 60.0;
}

/* The state of the last window (or of what was judged, while fewer). */
static void judge_last(struct diskio_steady *s)
{
    struct diskio_steady_state *st = &s->state;
    const size_t n = s->n < s->spec.window ? s->n : s->spec.window;
    const struct judged *w = s->v + (s->n - n);
    double y[DISKIO_WINDOW_INTERVALS_MAX];
    size_t finite = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(w[i].value))
            y[finite++] = w[i].value;
    st->first = w[0].index;
    st->count = n;
    st->judged = s->n;
    st->start_ns = w[0].start_ns;
    st->end_ns = w[n - 1].end_ns;
    st->average = st->range_pct = st->slope_pct = st->slope_per_min = NAN;
    if (finite >= 2)
        steady_window_figures(y, finite, (double)s->interval_ns / 1e9, st);
    /* a window is whole, every interval of it has the metric (a stall
     * has no latency: no steady window holds one) and it is within both
     * limits */
    st->attained = n == s->spec.window && finite == n && st->average > 0 &&
                   st->range_pct <= s->spec.range_pct && st->slope_pct <= s->spec.slope_pct;
}

int diskio_steady_add(struct diskio_steady *s, const struct diskio_interval *iv)
{
    if (!s || !iv)
        return -EINVAL;
    const size_t index = s->added++;
    if (s->state.attained)
        return 1;
    /* the run's last interval, cut short by its end, and the ramp are
     * not judged */
    if (iv->duration_ns < s->interval_ns || iv->start_ns < s->spec.ramp_ns)
        return 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct judged *v = realloc(s->v, cap * sizeof(*v));
        if (!v)
            return -ENOMEM;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = (struct judged){metric_of(s->spec.metric, iv), index, iv->start_ns,
                                   iv->start_ns + iv->duration_ns};
    judge_last(s);
    return s->state.attained ? 1 : 0;
}

int diskio_steady_state(const struct diskio_steady *s, struct diskio_steady_state *out)
{
    if (!s || !out)
        return -EINVAL;
    *out = s->state;
    return 0;
}

/* ---- a run's steady state ---- */

int steady_judge_series(const struct series *series, size_t from, size_t to,
                        const struct diskio_steady_spec *spec, uint64_t interval_ns,
                        struct diskio_steady_state *out)
{
    struct diskio_steady *s;
    int rc = diskio_steady_new(spec, interval_ns, &s);
    if (rc < 0)
        return rc;
    const uint64_t origin = to > from ? series->iv[from].pub.start_ns : 0;
    for (size_t i = from; i < to && rc >= 0; i++) {
        struct diskio_interval iv = series->iv[i].pub;
        iv.start_ns -= origin; /* a repetition's ramp counts from its own start */
        rc = diskio_steady_add(s, &iv);
    }
    (void)diskio_steady_state(s, out);
    diskio_steady_free(s);
    if (rc < 0)
        return rc;
    /* indices into the series; times from the first interval judged */
    out->first += from;
    return 0;
}

int steady_record(struct diskio_run *run, const struct diskio_steady_spec *spec,
                  uint64_t interval_ns)
{
    struct run_steady *rs = &run->steady;
    rs->on = true;
    rs->spec = *spec;
    rs->interval_ns = interval_ns;
    struct diskio_steady_state st;
    memset(&st, 0, sizeof(st));
    st.average = st.range_pct = st.slope_pct = st.slope_per_min = NAN;
    int rc = 0;
    if (run->series)
        rc = steady_judge_series(run->series, 0, run->series->count, spec, interval_ns, &st);
    if (!(rs->states = malloc(sizeof(*rs->states))))
        return -ENOMEM;
    rs->states[0] = st;
    rs->nstates = 1;
    return rc;
}

int steady_merge(struct diskio_run *into, const struct diskio_run *rep, size_t offset)
{
    struct run_steady *a = &into->steady;
    const struct run_steady *b = &rep->steady;
    if (!a->on || !b->on || b->nstates == 0)
        return 0;
    struct diskio_steady_state *st = realloc(a->states, (a->nstates + b->nstates) * sizeof(*st));
    if (!st)
        return -ENOMEM;
    a->states = st;
    for (size_t i = 0; i < b->nstates; i++) {
        struct diskio_steady_state s = b->states[i];
        s.first += offset;
        a->states[a->nstates++] = s;
    }
    return 0;
}

int diskio_run_steady(const struct diskio_run *run, size_t repetition,
                      struct diskio_steady_state *out)
{
    if (!run || !out)
        return -EINVAL;
    if (!run->steady.on)
        return -ENOENT;
    if (repetition >= run->steady.nstates)
        return -EINVAL;
    *out = run->steady.states[repetition];
    return 0;
}

int steady_window_hist(const struct diskio_run *run, const struct diskio_steady_state *st,
                       struct diskio_hist *into)
{
    for (size_t i = st->first; i < st->first + st->count; i++) {
        int rc = series_expand(run->series, i, into);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* ---- watching a run ---- */

int steady_watch_init(struct steady_watch *w, const struct diskio_config *cfg,
                      struct series *const *series, unsigned nseries, volatile sig_atomic_t *raise,
                      const volatile sig_atomic_t *user_stop)
{
    memset(w, 0, sizeof(*w));
    w->series = series;
    w->nseries = nseries;
    w->raise = raise;
    w->user_stop = user_stop;
    w->interval_ns = cfg->interval_ns;
    int rc = diskio_steady_new(cfg->steady, cfg->interval_ns, &w->judge);
    if (rc == 0 && (rc = diskio_hist_new(&w->scratch)) < 0) {
        diskio_steady_free(w->judge);
        w->judge = NULL;
    }
    return rc;
}

void steady_watch_free(struct steady_watch *w)
{
    diskio_steady_free(w->judge);
    diskio_hist_free(w->scratch);
    w->judge = NULL;
    w->scratch = NULL;
}

/* The intervals every series has closed. */
static size_t closed_everywhere(const struct steady_watch *w)
{
    size_t n = SIZE_MAX;
    for (unsigned j = 0; j < w->nseries; j++) {
        size_t c = w->series[j] ? __atomic_load_n(&w->series[j]->closed, __ATOMIC_ACQUIRE) : 0;
        n = c < n ? c : n;
    }
    return n == SIZE_MAX ? 0 : n;
}

/* Interval i as the run will see it: every series' interval i added up
 * (the jobs' series share their start). */
static void interval_of(struct steady_watch *w, size_t i, struct diskio_interval *iv)
{
    diskio_hist_reset(w->scratch);
    for (unsigned j = 0; j < w->nseries; j++)
        (void)series_expand(w->series[j], i, w->scratch);
    memset(iv, 0, sizeof(*iv));
    iv->start_ns = (uint64_t)i * w->interval_ns;
    iv->duration_ns = w->interval_ns;
    iv->ops = diskio_hist_count(w->scratch);
    if (iv->ops) {
        iv->mean_ns = diskio_hist_mean(w->scratch);
        iv->p99_ns = diskio_hist_percentile(w->scratch, 99.0);
    }
}

void steady_watch_poll(struct steady_watch *w)
{
    if (*w->user_stop)
        __atomic_store_n(w->raise, 1, __ATOMIC_RELAXED);
    if (w->steady)
        return;
    for (size_t closed = closed_everywhere(w); w->next < closed; w->next++) {
        struct diskio_interval iv;
        interval_of(w, w->next, &iv);
        if (diskio_steady_add(w->judge, &iv) == 1) {
            w->steady = true;
            __atomic_store_n(w->raise, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

#define WATCH_TICK_NS 5000000L

static void *watch_main(void *arg)
{
    struct steady_watch *w = arg;
    while (!__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE)) {
        steady_watch_poll(w);
        struct timespec tick = {0, WATCH_TICK_NS};
        nanosleep(&tick, NULL);
    }
    return NULL;
}

int steady_watch_start(struct steady_watch *w)
{
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0)
        return -EAGAIN;
    w->running = true;
    return 0;
}

void steady_watch_stop(struct steady_watch *w)
{
    if (!w->running)
        return;
    __atomic_store_n(&w->quit, true, __ATOMIC_RELEASE);
    pthread_join(w->thread, NULL);
    w->running = false;
}
