/* SPDX-License-Identifier: MIT */
/*
 * The capacity at a latency target (diskio_capacity_search): after "how
 * long does a commit take?" the question is "how many commits per second
 * can this storage take before p99 passes my target?".  Offered a fixed
 * rate (config.rate_interval_ns: each op due on a schedule and timed
 * from when it was due, so an op held up by its predecessor counts its
 * wait: coordinated omission corrected), a store keeps its latency until
 * it nears saturation, then the wait grows with every op due: the
 * percentile passes the target and stays past it.  The search finds the
 * highest offered rate whose percentile is at or under the target, as
 * fio's latency_target finds a queue depth:
 *
 *   1. saturation: one point as fast as possible gives the rate the
 *      store takes at all (R): no higher rate can be held;
 *   2. search: R itself, then halving the bracket between the highest
 *      rate that met the target and the lowest that missed it, until it
 *      is within 2% (or the time is up); a rate that meets it at R is
 *      tried 25% higher, up to 1.5 R; and a point at half the answer,
 *      where none was that low, for the curve's flat part;
 *   3. confirm: the answer run again for longer (near saturation a queue
 *      that grows slowly shows only in a longer run); when it misses,
 *      the next lower rate that met the target, or one 3% lower when
 *      that is higher, is confirmed instead, up to 5 times.
 *
 * With several counts of committers (config.jobs) each is searched in
 * its share of the time, and the best confirmed.  Every point's figures
 * are kept as the search's steps: they are the latency-versus-offered-
 * rate curve.  The whole search keeps within its budget (the time of a
 * point beyond its runtime, its fill, warmup and syncs, is measured and
 * allowed for); the run it returns is the confirming run, the search
 * attached.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"
#include "run_options.h"

#define NS_PER_S 1000000000.0
#define CAPACITY_BUDGET_NS (UINT64_C(60) * 1000000000u)
/* the bracket is narrow enough: within DISKIO_CAPACITY_BRACKET_PCT of
 * its top */
#define BRACKET_TOLERANCE (DISKIO_CAPACITY_BRACKET_PCT / 100.0)
/* a rate below 1% of the saturation rate that still misses: none meets it */
#define LOWEST_SHARE 0.01
/* a point "achieved" its offered rate at 95% of it */
#define ACHIEVED_SHARE 0.95
/* confirmations tried; a missed one steps down to the next rate that met
 * or, with none, this much lower */
#define CONFIRM_TRIES 5
#define CONFIRM_STEP 0.97

static const char *const phase_names[] = {
    [DISKIO_CAPACITY_SATURATION] = "saturation",
    [DISKIO_CAPACITY_SEARCH] = "search",
    [DISKIO_CAPACITY_CONFIRM] = "confirm",
};

const char *diskio_capacity_phase_name(enum diskio_capacity_phase p)
{
    return (unsigned)p < sizeof(phase_names) / sizeof(phase_names[0]) ? phase_names[p] : NULL;
}

void diskio_capacity_spec_init(struct diskio_capacity_spec *spec)
{
    if (!spec)
        return;
    memset(spec, 0, sizeof(*spec));
    spec->percentile = 99.0;
    spec->budget_ns = CAPACITY_BUDGET_NS;
}

/* A duration within [lo, hi]. */
static uint64_t clamp_ns(uint64_t v, uint64_t lo, uint64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

struct search {
    const struct diskio_capacity_spec *spec;
    int (*measure)(void *, double, unsigned, uint64_t, struct diskio_run **);
    void *ctx;
    uint64_t start_ns, point_ns, confirm_ns;
    uint64_t overhead_ns; /* the most a point took beyond its runtime */
    struct diskio_capacity_step *steps;
    size_t nsteps, cap;
    struct diskio_run *last; /* the run measured last (kept, returned) */
};

/* A point's figures from its run. */
static void step_of(const struct search *s, const struct diskio_run *run, double offered,
                    struct diskio_capacity_step *st)
{
    const struct diskio_run_info *info = diskio_run_info(run);
    const struct diskio_hist *h = diskio_run_hist_const(run, DISKIO_PART_TOTAL);
    if (info->has_config && offered > 0 && info->config.rate_interval_ns)
        offered = NS_PER_S / (double)info->config.rate_interval_ns;
    st->offered_ops_per_s = offered;
    st->ops = info->ops;
    st->duration_ns = info->duration_ns;
    st->achieved_ops_per_s =
        info->duration_ns ? (double)info->ops * NS_PER_S / (double)info->duration_ns : 0.0;
    st->mean_ns = diskio_hist_mean(h);
    st->p50_ns = diskio_hist_percentile(h, 50.0);
    st->p99_ns = diskio_hist_percentile(h, 99.0);
    st->pct_ns = diskio_hist_percentile(h, s->spec->percentile);
    st->max_ns = diskio_hist_max(h);
    st->rate_held = offered > 0 && info->rate_held;
    st->error = info->error;
    st->met = info->complete && !info->error && st->ops > 0 && st->pct_ns <= s->spec->target_ns &&
              (offered == 0 || st->achieved_ops_per_s >= ACHIEVED_SHARE * offered);
}

static int add_step(struct search *s, const struct diskio_capacity_step *st)
{
    if (s->nsteps == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        struct diskio_capacity_step *v = realloc(s->steps, cap * sizeof(*v));
        if (!v)
            return -ENOMEM;
        s->steps = v;
        s->cap = cap;
    }
    s->steps[s->nsteps++] = *st;
    return 0;
}

/* One point: measured, its step kept (and told), its run kept as the
 * last.  0 with *met, or the measurement's error (its run kept). */
static int point(struct search *s, enum diskio_capacity_phase phase, double rate,
                 unsigned committers, uint64_t runtime_ns, bool *met)
{
    struct diskio_run *run = NULL;
    const uint64_t t0 = now_ns();
    int rc = s->measure(s->ctx, rate, committers, runtime_ns, &run);
    const uint64_t took = now_ns() - t0;
    if (took > runtime_ns && took - runtime_ns > s->overhead_ns)
        s->overhead_ns = took - runtime_ns;
    if (!run)
        return rc < 0 ? rc : -EINVAL;
    diskio_run_free(s->last);
    s->last = run;
    struct diskio_capacity_step st;
    memset(&st, 0, sizeof(st));
    st.phase = phase;
    st.committers = committers;
    step_of(s, run, rate, &st);
    if (add_step(s, &st) < 0)
        return -ENOMEM;
    if (s->spec->step_done)
        s->spec->step_done(s->spec->ctx, &st);
    *met = st.met;
    return rc < 0 ? rc : st.error;
}

/* Whether a point of runtime_ns still ends by until_ns. */
static bool fits(const struct search *s, uint64_t runtime_ns, uint64_t until_ns)
{
    return now_ns() + runtime_ns + s->overhead_ns <= until_ns;
}

/* Whether a searching point still fits its share, and leaves the
 * confirmation its time within the budget. */
static bool point_fits(const struct search *s, uint64_t until_ns)
{
    return fits(s, s->point_ns, until_ns) &&
           fits(s, s->point_ns + s->overhead_ns + s->confirm_ns, s->start_ns + s->spec->budget_ns);
}

/* The next rate to try in the bracket [lo (met), hi (missed; 0: none
 * yet)] under saturation rate r, or 0 when the search is done. */
static double next_rate(double lo, double hi, double r)
{
    if (hi == 0)
        return lo >= 1.5 * r ? 0 : lo * 1.25;
    if (hi - lo <= BRACKET_TOLERANCE * hi || (lo == 0 && hi < LOWEST_SHARE * r))
        return 0;
    return (lo + hi) / 2;
}

/* The curve below the knee: a point at half the answer with committers
 * c, when the search measured none that low and there is time (the flat
 * part the knee is seen against).  0 or a measurement's error. */
static int curve_point(struct search *s, unsigned c, double answer, uint64_t until_ns)
{
    for (size_t i = 0; i < s->nsteps; i++) {
        const struct diskio_capacity_step *st = &s->steps[i];
        if (st->committers == c && st->offered_ops_per_s > 0 &&
            st->offered_ops_per_s <= 0.75 * answer)
            return 0;
    }
    bool met;
    if (answer <= 0 || !point_fits(s, until_ns))
        return 0;
    int rc = point(s, DISKIO_CAPACITY_SEARCH, answer / 2, c, s->point_ns, &met);
    return rc < 0 ? rc : 0;
}

/* The search with committers c until until_ns: *lo the highest rate that
 * met the target (0: none), *hi the lowest above it that missed. */
static int search_committers(struct search *s, unsigned c, uint64_t until_ns, double *lo,
                             double *hi)
{
    bool met;
    *lo = *hi = 0;
    int rc = point(s, DISKIO_CAPACITY_SATURATION, 0, c, s->point_ns, &met);
    if (rc < 0)
        return rc;
    const double r = s->steps[s->nsteps - 1].achieved_ops_per_s;
    double rate = r;
    while (rate > 0 && point_fits(s, until_ns)) {
        if ((rc = point(s, DISKIO_CAPACITY_SEARCH, rate, c, s->point_ns, &met)) < 0)
            return rc;
        /* the rate as offered (a whole number of ns between ops) */
        const double offered = s->steps[s->nsteps - 1].offered_ops_per_s;
        if (met)
            *lo = offered;
        else
            *hi = offered;
        rate = next_rate(*lo, *hi, r);
    }
    return curve_point(s, c, *lo, until_ns);
}

/* The highest rate below rate that met the target with committers c,
 * among the steps so far; 0 when none. */
static double met_below(const struct search *s, double rate, unsigned c)
{
    double best = 0;
    for (size_t i = 0; i < s->nsteps; i++) {
        const struct diskio_capacity_step *st = &s->steps[i];
        if (st->met && st->committers == c && st->offered_ops_per_s > best &&
            st->offered_ops_per_s < rate && st->phase == DISKIO_CAPACITY_SEARCH)
            best = st->offered_ops_per_s;
    }
    return best;
}

/* The answer measured again for confirm_ns; one that misses gives way to
 * the next lower rate that met, or one 3% lower when that is higher,
 * while the budget and the tries last. */
static int confirm(struct search *s, struct diskio_capacity *ans, uint64_t until_ns)
{
    for (int tries = 0; tries < CONFIRM_TRIES && ans->ops_per_s > 0; tries++) {
        if (tries > 0 && !fits(s, s->confirm_ns, until_ns))
            break;
        bool met;
        int rc =
            point(s, DISKIO_CAPACITY_CONFIRM, ans->ops_per_s, ans->committers, s->confirm_ns, &met);
        if (rc < 0)
            return rc;
        /* the rate as offered (a whole number of ns between ops) */
        ans->ops_per_s = s->steps[s->nsteps - 1].offered_ops_per_s;
        if (met) {
            ans->confirmed = true;
            return 0;
        }
        ans->high_ops_per_s = ans->ops_per_s;
        const double below = met_below(s, ans->ops_per_s, ans->committers);
        const double step = ans->ops_per_s * CONFIRM_STEP;
        ans->ops_per_s = below > step ? below : step;
    }
    /* no try met it (or the time ran out): the answer is the highest
     * rate a searching point met below the last that missed, unconfirmed */
    if (!ans->confirmed && ans->ops_per_s > 0 &&
        s->steps[s->nsteps - 1].phase == DISKIO_CAPACITY_CONFIRM)
        ans->ops_per_s = met_below(s, ans->high_ops_per_s, ans->committers);
    ans->found = ans->ops_per_s > 0;
    return 0;
}

/* Each count of committers searched in its share of the budget (the
 * confirmation's kept aside), the best answer into ans. */
static int search_all(struct search *s, struct diskio_capacity *ans)
{
    static const unsigned one = 1;
    const struct diskio_capacity_spec *spec = s->spec;
    const unsigned *counts = spec->committers && spec->ncommitters ? spec->committers : &one;
    const size_t n = spec->committers && spec->ncommitters ? spec->ncommitters : 1;
    const uint64_t searching =
        spec->budget_ns > s->confirm_ns ? spec->budget_ns - s->confirm_ns : 0;
    for (size_t k = 0; k < n; k++) {
        double lo, hi;
        const uint64_t until = s->start_ns + searching / n * (k + 1);
        int rc = search_committers(s, counts[k], until, &lo, &hi);
        if (rc < 0)
            return rc;
        /* the highest rate; among equal ones, the fewer committers */
        if (lo > ans->ops_per_s) {
            ans->ops_per_s = lo;
            ans->high_ops_per_s = hi;
            ans->committers = counts[k];
        }
    }
    ans->found = ans->ops_per_s > 0;
    if (!ans->found)
        ans->committers = counts[0];
    return confirm(s, ans, s->start_ns + spec->budget_ns);
}

/* The search's answer and steps into run (which takes them). */
static int attach(struct search *s, struct diskio_run *run, struct diskio_capacity *ans)
{
    ans->duration_ns = now_ns() - s->start_ns;
    ans->nsteps = s->nsteps;
    if (!(run->capacity = malloc(sizeof(*run->capacity))))
        return -ENOMEM;
    *run->capacity = *ans;
    run->capacity_steps = s->steps;
    s->steps = NULL;
    return 0;
}

int diskio_capacity_search(const struct diskio_capacity_spec *spec,
                           int (*measure)(void *ctx, double ops_per_s, unsigned committers,
                                          uint64_t runtime_ns, struct diskio_run **out),
                           void *ctx, struct diskio_run **out)
{
    if (!out)
        return -EINVAL;
    *out = NULL;
    if (!spec || !measure || !(spec->percentile > 0) || spec->percentile > 100 ||
        spec->target_ns == 0 || spec->budget_ns == 0)
        return -EINVAL;
    for (size_t k = 0; spec->committers && k < spec->ncommitters; k++)
        if (spec->committers[k] == 0)
            return -EINVAL;
    /* the points from the budget: 30 of them, and a confirmation of
     * 2.5 points, unless the spec says */
    struct search s = {.spec = spec, .measure = measure, .ctx = ctx, .start_ns = now_ns()};
    s.point_ns = spec->point_ns ? spec->point_ns
                                : clamp_ns(spec->budget_ns / 30, 250000000u, UINT64_C(5000000000));
    s.confirm_ns = spec->confirm_ns ? spec->confirm_ns : s.point_ns * 5 / 2;
    struct diskio_capacity ans = {
        .percentile = spec->percentile, .target_ns = spec->target_ns, .budget_ns = spec->budget_ns};
    int rc = search_all(&s, &ans);
    if (s.last) {
        int arc = attach(&s, s.last, &ans);
        *out = s.last;
        if (rc == 0)
            rc = arc;
    }
    free(s.steps);
    return rc;
}

/* diskio_capacity_execute()'s measurement: cfg at the rate, for the
 * runtime, with the committers. */
struct execute_ctx {
    const struct diskio_config *cfg;
    struct diskio_target *target;
};

static int execute_point(void *ctx, double ops_per_s, unsigned committers, uint64_t runtime_ns,
                         struct diskio_run **out)
{
    const struct execute_ctx *x = ctx;
    struct diskio_config cfg = *x->cfg;
    cfg.rate_interval_ns = ops_per_s > 0 ? (uint64_t)(NS_PER_S / ops_per_s + 0.5) : 0;
    if (ops_per_s > 0 && cfg.rate_interval_ns == 0)
        cfg.rate_interval_ns = 1;
    cfg.jobs = committers;
    cfg.count = 0;
    cfg.runtime_ns = runtime_ns;
    cfg.interval_ns = 0;
    cfg.steady = NULL;
    return diskio_run_execute(&cfg, x->target, out);
}

/* every point with the caller's hooks, resolved once into the copy the
 * points start from (run_options.h) */
int diskio_capacity_execute_opts(const struct diskio_config *cfg,
                                 const struct diskio_run_options *opts,
                                 struct diskio_target *target,
                                 const struct diskio_capacity_spec *spec, struct diskio_run **out)
{
    if (!cfg || !target || !spec || !out)
        return -EINVAL;
    struct diskio_config run;
    run_options_resolve(cfg, opts, &run);
    struct execute_ctx x = {&run, target};
    return diskio_capacity_search(spec, execute_point, &x, out);
}

int diskio_capacity_execute(const struct diskio_config *cfg, struct diskio_target *target,
                            const struct diskio_capacity_spec *spec, struct diskio_run **out)
{
    return diskio_capacity_execute_opts(cfg, NULL, target, spec, out);
}

int diskio_run_capacity(const struct diskio_run *run, struct diskio_capacity *out)
{
    if (!run || !out)
        return -EINVAL;
    if (!run->capacity)
        return -ENOENT;
    *out = *run->capacity;
    return 0;
}

const struct diskio_capacity_step *diskio_run_capacity_step(const struct diskio_run *run, size_t i)
{
    if (!run || !run->capacity || i >= run->capacity->nsteps)
        return NULL;
    return &run->capacity_steps[i];
}
