/* SPDX-License-Identifier: MIT */
/*
 * A run's interval series (config.interval_ns): the measured ops cut into
 * intervals by when they completed, each with its own latencies.
 *
 * The timed loop records into one full histogram, the live one, and
 * compares each op's end with the next boundary (one compare, after the
 * second clock read).  Past it, series_advance() closes the interval:
 * the live histogram's counters in use (from its minimum's bucket to its
 * maximum's) are copied out as a sparse list and cleared, so an interval
 * keeps a few hundred bytes instead of a histogram's 58 KiB, and an hour
 * at one-second intervals fits in a few MiB.  That work happens between
 * two ops, outside both ops' clocks.
 *
 * Series of concurrent runs (jobs sharing a start time) are added
 * interval by interval (series_merge); repetitions of a run follow one
 * another (series_append).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"

static const double iv_pcts[2] = {50.0, 99.0};

/* Room for interval index i (and the ones before it). */
static int series_reserve(struct series *s, size_t i)
{
    if (i < s->cap)
        return 0;
    size_t cap = s->cap ? s->cap : 16;
    while (cap <= i)
        cap *= 2;
    struct series_interval *iv = realloc(s->iv, cap * sizeof(*iv));
    if (!iv)
        return -ENOMEM;
    memset(iv + s->cap, 0, (cap - s->cap) * sizeof(*iv));
    s->iv = iv;
    s->cap = cap;
    return 0;
}

int series_new(uint64_t interval_ns, uint64_t runtime_ns, uint64_t block_size, struct series **out)
{
    if (interval_ns == 0 || !out)
        return -EINVAL;
    struct series *s = calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    s->interval_ns = interval_ns;
    s->block_size = block_size;
    /* with a runtime, the intervals that start before it: the last one
     * also takes the op that ended past the runtime; with only a count,
     * at most DISKIO_INTERVALS_MAX (the last one runs to the run's end) */
    uint64_t last = runtime_ns ? (runtime_ns - 1) / interval_ns : DISKIO_INTERVALS_MAX - 1;
    s->last_index = (size_t)(last < DISKIO_INTERVALS_MAX - 1 ? last : DISKIO_INTERVALS_MAX - 1);
    /* allocated now, before the run: every interval of a run with a
     * runtime; a run with only a count grows the list between ops */
    size_t want = runtime_ns ? s->last_index + 1 : 64;
    if (series_reserve(s, want - 1) < 0 || diskio_hist_new(&s->live) < 0) {
        series_free(s);
        return -ENOMEM;
    }
    *out = s;
    return 0;
}

void series_free(struct series *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        free(s->iv[i].buckets);
    free(s->iv);
    diskio_hist_free(s->live);
    free(s);
}

/* The end of interval i, or UINT64_MAX for the last one. */
static uint64_t boundary_after(const struct series *s, size_t i)
{
    if (i >= s->last_index)
        return UINT64_MAX;
    return s->origin_ns + (uint64_t)(i + 1) * s->interval_ns;
}

struct diskio_hist *series_start(struct series *s, uint64_t origin_ns)
{
    s->origin_ns = origin_ns;
    s->current = 0;
    s->count = 1;
    __atomic_store_n(&s->closed, 0, __ATOMIC_RELEASE);
    memset(&s->iv[0], 0, sizeof(s->iv[0]));
    s->next_ns = boundary_after(s, 0);
    return s->live;
}

/* Move the live histogram's counts into interval current as a sparse list,
 * and clear what was used of it. */
static int series_close(struct series *s)
{
    struct diskio_hist *h = s->live;
    struct series_interval *iv = &s->iv[s->current];
    if (h->min == UINT64_MAX)
        return 0;
    const size_t lo = hist_index(h->min), hi = hist_index(h->max);
    size_t n = 0;
    for (size_t b = lo; b <= hi; b++)
        n += h->counts[b] != 0;
    struct series_bucket *buckets = realloc(iv->buckets, (iv->nbuckets + n) * sizeof(*buckets));
    if (!buckets)
        return -ENOMEM;
    iv->buckets = buckets;
    const bool had_ops = iv->pub.ops > 0;
    for (size_t b = lo; b <= hi; b++) {
        if (h->counts[b] == 0)
            continue;
        buckets[iv->nbuckets++] = (struct series_bucket){(uint32_t)b, 0, h->counts[b]};
        iv->pub.ops += h->counts[b];
        h->counts[b] = 0;
    }
    iv->sum += h->sum;
    iv->sum_sq += h->sum_sq;
    if (!had_ops || h->min < iv->pub.min_ns)
        iv->pub.min_ns = h->min;
    if (h->max > iv->pub.max_ns)
        iv->pub.max_ns = h->max;
    h->sum = 0;
    h->sum_sq = 0;
    h->min = UINT64_MAX;
    h->max = 0;
    return 0;
}

/* The interval an op that ended at t_ns belongs to. */
static size_t index_of(const struct series *s, uint64_t t_ns)
{
    uint64_t k = t_ns > s->origin_ns ? (t_ns - s->origin_ns) / s->interval_ns : 0;
    return k > s->last_index ? s->last_index : (size_t)k;
}

/* Intervals up to and including index i exist (the ones in between
 * empty), and i is current. */
static int series_move_to(struct series *s, size_t i)
{
    if (i < s->current)
        return 0;
    int rc = series_reserve(s, i);
    if (rc < 0)
        return rc;
    for (size_t k = s->count; k <= i; k++)
        memset(&s->iv[k], 0, sizeof(s->iv[k]));
    if (i + 1 > s->count)
        s->count = i + 1;
    s->current = i;
    s->next_ns = boundary_after(s, i);
    return 0;
}

struct diskio_hist *series_advance(struct series *s, uint64_t t_ns)
{
    if (series_close(s) < 0 || series_move_to(s, index_of(s, t_ns)) < 0)
        return NULL;
    /* the intervals before the current one are closed: a watch on
     * another thread may read them now (steady.c) */
    __atomic_store_n(&s->closed, s->current, __ATOMIC_RELEASE);
    return s->live;
}

/* Interval iv's latencies added to h. */
static void expand(const struct series_interval *iv, struct diskio_hist *h)
{
    for (size_t b = 0; b < iv->nbuckets; b++)
        h->counts[iv->buckets[b].index] += iv->buckets[b].count;
    if (iv->pub.ops == 0)
        return;
    h->sum += iv->sum;
    h->sum_sq += iv->sum_sq;
    if (iv->pub.min_ns < h->min)
        h->min = iv->pub.min_ns;
    if (iv->pub.max_ns > h->max)
        h->max = iv->pub.max_ns;
}

/* The public figures of interval iv from its buckets (scratch: any
 * histogram, cleared here). */
static void summarise(struct series_interval *iv, uint64_t block_size, struct diskio_hist *scratch)
{
    iv->pub.bytes = iv->pub.ops * block_size;
    if (iv->pub.ops == 0) {
        iv->pub.mean_ns = 0;
        iv->pub.min_ns = iv->pub.max_ns = iv->pub.p50_ns = iv->pub.p99_ns = 0;
        return;
    }
    diskio_hist_reset(scratch);
    expand(iv, scratch);
    iv->pub.mean_ns = diskio_hist_mean(scratch);
    uint64_t v[2];
    diskio_hist_percentiles(scratch, iv_pcts, v, 2);
    iv->pub.p50_ns = v[0];
    iv->pub.p99_ns = v[1];
}

/* Every interval's figures again, with the live histogram as scratch. */
static void summarise_all(struct series *s)
{
    for (size_t i = 0; i < s->count; i++)
        summarise(&s->iv[i], s->block_size, s->live);
    diskio_hist_reset(s->live);
}

int series_finish(struct series *s, uint64_t end_ns)
{
    if (s->count == 0)
        return 0; /* never started */
    int rc = series_close(s);
    if (rc == 0)
        rc = series_move_to(s, index_of(s, end_ns));
    for (size_t i = 0; i < s->count; i++) {
        struct series_interval *iv = &s->iv[i];
        iv->pub.start_ns = (uint64_t)i * s->interval_ns;
        iv->pub.duration_ns = s->interval_ns;
        iv->pub.repetition = s->repetition;
    }
    /* the last interval ends with the run */
    struct series_interval *last = &s->iv[s->count - 1];
    const uint64_t end = end_ns > s->origin_ns ? end_ns - s->origin_ns : 0;
    last->pub.duration_ns = end > last->pub.start_ns ? end - last->pub.start_ns : 0;
    summarise_all(s);
    return rc;
}

/* Add bucket list b (nb, sorted) into interval iv's. */
static int merge_buckets(struct series_interval *iv, const struct series_bucket *b, size_t nb)
{
    if (nb == 0)
        return 0;
    struct series_bucket *out = malloc((iv->nbuckets + nb) * sizeof(*out));
    if (!out)
        return -ENOMEM;
    size_t i = 0, j = 0, n = 0;
    while (i < iv->nbuckets || j < nb) {
        if (j == nb || (i < iv->nbuckets && iv->buckets[i].index < b[j].index))
            out[n++] = iv->buckets[i++];
        else if (i == iv->nbuckets || b[j].index < iv->buckets[i].index)
            out[n++] = b[j++];
        else {
            out[n] = iv->buckets[i++];
            out[n++].count += b[j++].count;
        }
    }
    free(iv->buckets);
    iv->buckets = out;
    iv->nbuckets = n;
    return 0;
}

int series_merge(struct series *into, const struct series *from)
{
    if (!into || !from || into == from || into->interval_ns != from->interval_ns)
        return -EINVAL;
    int rc = series_reserve(into, from->count ? from->count - 1 : 0);
    if (rc < 0)
        return rc;
    for (size_t i = into->count; i < from->count; i++) {
        memset(&into->iv[i], 0, sizeof(into->iv[i]));
        into->iv[i].pub = from->iv[i].pub;
        into->iv[i].pub.ops = 0;
        into->iv[i].pub.min_ns = into->iv[i].pub.max_ns = 0;
    }
    if (from->count > into->count)
        into->count = from->count;
    for (size_t i = 0; i < from->count; i++) {
        struct series_interval *a = &into->iv[i];
        const struct series_interval *b = &from->iv[i];
        if ((rc = merge_buckets(a, b->buckets, b->nbuckets)) < 0)
            return rc;
        if (b->pub.ops > 0) {
            a->pub.min_ns =
                a->pub.ops == 0 || b->pub.min_ns < a->pub.min_ns ? b->pub.min_ns : a->pub.min_ns;
            if (b->pub.max_ns > a->pub.max_ns)
                a->pub.max_ns = b->pub.max_ns;
        }
        a->pub.ops += b->pub.ops;
        a->sum += b->sum;
        a->sum_sq += b->sum_sq;
        if (b->pub.duration_ns > a->pub.duration_ns)
            a->pub.duration_ns = b->pub.duration_ns;
    }
    summarise_all(into);
    return 0;
}

int series_append(struct series *into, const struct series *from, unsigned repetition)
{
    if (!into || !from || into == from || into->interval_ns != from->interval_ns)
        return -EINVAL;
    if (from->count == 0)
        return 0;
    int rc = series_reserve(into, into->count + from->count - 1);
    if (rc < 0)
        return rc;
    /* a first repetition that measured nothing (it failed in its warmup)
     * has no start: the series starts with this one */
    if (into->count == 0)
        into->origin_ns = from->origin_ns;
    /* start_ns stays the time since the first repetition began */
    const uint64_t offset =
        from->origin_ns > into->origin_ns ? from->origin_ns - into->origin_ns : 0;
    for (size_t i = 0; i < from->count; i++) {
        const struct series_interval *b = &from->iv[i];
        struct series_interval *a = &into->iv[into->count + i];
        *a = *b;
        a->buckets = NULL;
        a->nbuckets = 0;
        if (b->nbuckets) {
            a->buckets = malloc(b->nbuckets * sizeof(*a->buckets));
            if (!a->buckets) {
                for (size_t k = 0; k < i; k++)
                    free(into->iv[into->count + k].buckets);
                return -ENOMEM;
            }
            memcpy(a->buckets, b->buckets, b->nbuckets * sizeof(*a->buckets));
            a->nbuckets = b->nbuckets;
        }
        a->pub.start_ns += offset;
        a->pub.repetition = repetition;
    }
    into->count += from->count;
    return 0;
}

int series_expand(const struct series *s, size_t i, struct diskio_hist *into)
{
    if (!s || !into || i >= s->count)
        return -EINVAL;
    expand(&s->iv[i], into);
    return 0;
}

size_t diskio_run_interval_count(const struct diskio_run *run)
{
    return run && run->series ? run->series->count : 0;
}

const struct diskio_interval *diskio_run_interval(const struct diskio_run *run, size_t i)
{
    if (!run || !run->series || i >= run->series->count)
        return NULL;
    return &run->series->iv[i].pub;
}

int diskio_run_interval_hist(const struct diskio_run *run, size_t i, struct diskio_hist *into)
{
    return run ? series_expand(run->series, i, into) : -EINVAL;
}
