/* SPDX-License-Identifier: MIT */
/* The latency histogram: bucket math in histogram.h, reading here. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"

size_t diskio_hist_memory_size(void)
{
    return sizeof(struct diskio_hist);
}

static void hist_clear(struct diskio_hist *h)
{
    bool owned = h->owned;
    memset(h, 0, sizeof(*h));
    h->min = UINT64_MAX;
    h->owned = owned;
}

int diskio_hist_init(void *mem, size_t size, struct diskio_hist **out)
{
    if (!mem || !out || size < sizeof(struct diskio_hist) ||
        ((uintptr_t)mem % _Alignof(struct diskio_hist)) != 0)
        return -EINVAL;
    struct diskio_hist *h = mem;
    h->owned = false;
    hist_clear(h);
    *out = h;
    return 0;
}

int diskio_hist_new(struct diskio_hist **out)
{
    if (!out)
        return -EINVAL;
    struct diskio_hist *h = aligned_alloc(_Alignof(struct diskio_hist), sizeof(struct diskio_hist));
    if (!h)
        return -ENOMEM;
    h->owned = true;
    hist_clear(h);
    *out = h;
    return 0;
}

void diskio_hist_free(struct diskio_hist *h)
{
    if (h && h->owned)
        free(h);
}

void diskio_hist_reset(struct diskio_hist *h)
{
    if (h)
        hist_clear(h);
}

/* Reading adds up what recording does not keep. */
static uint64_t hist_overflow(const struct diskio_hist *h)
{
    uint64_t n = 0;
    for (size_t i = HIST_BUCKETS; i < HIST_ALL_BUCKETS; i++)
        n += h->counts[i];
    return n;
}

static uint64_t hist_count(const struct diskio_hist *h)
{
    uint64_t n = 0;
    for (size_t i = 0; i < HIST_ALL_BUCKETS; i++)
        n += h->counts[i];
    return n;
}

/* The public record path checks its histogram (the engine's timed loops
 * record through the inline hist_record(), unchecked). */
void diskio_hist_record(struct diskio_hist *h, uint64_t value_ns)
{
    if (DISKIO_LIKELY(h != NULL))
        hist_record(h, value_ns);
}

/* n values at once could take the count (the sum of the counters, read
 * as a uint64_t) past 2^64 - 1 and wrap it: then nothing is recorded.
 * The pass over the counters is this function's, never the record
 * path's (hist_record() stays as it is). */
bool diskio_hist_record_n(struct diskio_hist *h, uint64_t value_ns, uint64_t n)
{
    bool in_range = value_ns <= DISKIO_HIST_MAX_TRACKABLE_NS;
    if (!h || n > UINT64_MAX - hist_count(h))
        return false;
    if (n == 0)
        return in_range;
    h->counts[hist_index(value_ns)] += n;
    h->sum += value_ns * n;
    h->sum_sq += (unsigned __int128)value_ns * value_ns * n;
    if (value_ns < h->min)
        h->min = value_ns;
    if (value_ns > h->max)
        h->max = value_ns;
    return in_range;
}

uint64_t diskio_hist_record_corrected(struct diskio_hist *h, uint64_t value_ns,
                                      uint64_t expected_interval_ns)
{
    uint64_t recorded = 1;
    if (!h)
        return 0;
    hist_record(h, value_ns);
    if (expected_interval_ns == 0 || value_ns <= expected_interval_ns)
        return recorded;
    /* The ops that a fixed schedule would have issued while this one was
     * stuck would each have waited correspondingly less (HdrHistogram's
     * recordValueWithExpectedInterval). */
    for (uint64_t missing = value_ns - expected_interval_ns; missing >= expected_interval_ns;
         missing -= expected_interval_ns) {
        hist_record(h, missing);
        recorded++;
    }
    return recorded;
}

int diskio_hist_merge(struct diskio_hist *dst, const struct diskio_hist *src)
{
    if (!dst || !src)
        return -EINVAL;
    /* the two counts together must still fit: dst is left as it was */
    if (hist_count(src) > UINT64_MAX - hist_count(dst))
        return -EOVERFLOW;
    for (size_t i = 0; i < HIST_ALL_BUCKETS; i++)
        dst->counts[i] += src->counts[i];
    dst->sum += src->sum;
    dst->sum_sq += src->sum_sq;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    return 0;
}

/* The recorder stores plain uint64_t values; reading each once with a
 * relaxed atomic load keeps the compiler from splitting or repeating the
 * read, and an aligned 64-bit load is not torn on the 64-bit machines
 * diskio runs on.  The copy's count is the sum of its own counters, so
 * reading it (percentiles walk the counters up to that count) stays
 * within the array whatever the recorder did meanwhile. */
void diskio_hist_copy_live(struct diskio_hist *dst, const struct diskio_hist *src)
{
    if (!dst || !src)
        return;
    for (size_t i = 0; i < HIST_ALL_BUCKETS; i++)
        dst->counts[i] = __atomic_load_n(&src->counts[i], __ATOMIC_RELAXED);
    dst->sum = __atomic_load_n(&src->sum, __ATOMIC_RELAXED);
    /* 128 bits cannot be loaded at once without a lock: no stddev */
    dst->sum_sq = 0;
    dst->min = __atomic_load_n(&src->min, __ATOMIC_RELAXED);
    dst->max = __atomic_load_n(&src->max, __ATOMIC_RELAXED);
}

uint64_t diskio_hist_count(const struct diskio_hist *h)
{
    return h ? hist_count(h) : 0;
}
uint64_t diskio_hist_min(const struct diskio_hist *h)
{
    return !h || h->min == UINT64_MAX ? 0 : h->min;
}
uint64_t diskio_hist_max(const struct diskio_hist *h)
{
    return h ? h->max : 0;
}
uint64_t diskio_hist_overflow(const struct diskio_hist *h)
{
    return h ? hist_overflow(h) : 0;
}

static void bucket_bounds(size_t index, uint64_t *lowest, uint64_t *highest);

/* The middle of bucket i, within 1/256 of every value in it. */
static uint64_t bucket_middle(size_t i)
{
    uint64_t lowest, highest;
    bucket_bounds(i, &lowest, &highest);
    return lowest + (highest - lowest) / 2;
}

/*
 * The sum of the values recorded.  The record path keeps it in 64 bits
 * (one add; the engine's loops are not slowed for values no latency
 * reaches), so it holds the true sum modulo 2^64: two values of
 * UINT64_MAX leave 2^64 - 2.  The true sum lies between count * min and
 * count * max; when those are less than 2^64 apart it is the one value
 * with the kept remainder within 2^63 of their middle, exactly.
 * Otherwise the buckets (each within 1/256 of its values) estimate it,
 * and the remainder is placed nearest the estimate: exact up to sums of
 * 2^71.
 */
static unsigned __int128 hist_sum(const struct diskio_hist *h, uint64_t count)
{
    typedef unsigned __int128 u128;
    if (count == 0)
        return 0;
    const u128 low = (u128)count * h->min, high = (u128)count * h->max;
    if (high - low < ((u128)1 << 64)) {
        /* the value with the kept remainder nearest the middle of the
         * range (the true sum is within 2^63 of it, any other 2^63 or
         * more away; nearest rather than the first above count * min
         * also keeps a live copy's sum, a value or two behind its
         * counters, from reading as 2^64) */
        const u128 mid = low + (high - low) / 2;
        const uint64_t below = (uint64_t)mid - h->sum; /* mid - S, modulo 2^64 */
        if (below <= mid && below <= UINT64_C(1) << 63)
            return mid - below;
        return mid + (uint64_t)(0 - below);
    }
    long double estimate = 0;
    for (size_t i = 0; i < HIST_ALL_BUCKETS; i++)
        if (h->counts[i])
            estimate += (long double)h->counts[i] * (long double)bucket_middle(i);
    const long double wrap = 18446744073709551616.0L; /* 2^64 */
    long double k = (estimate - (long double)h->sum) / wrap;
    u128 wraps = k > 0 ? (u128)(k + 0.5L) : 0;
    return wraps * ((u128)1 << 64) + h->sum;
}

double diskio_hist_mean(const struct diskio_hist *h)
{
    uint64_t count = h ? hist_count(h) : 0;
    return count ? (double)((long double)hist_sum(h, count) / (long double)count) : 0.0;
}

/* The sum of the squares, kept modulo 2^128 the same way: placed in
 * [count * min^2, count * max^2] when that is narrower than 2^128 (always
 * below values of 2^63), else nearest the buckets' estimate. */
static long double hist_sum_sq(const struct diskio_hist *h, uint64_t count)
{
    const long double wrap = 340282366920938463463374607431768211456.0L; /* 2^128 */
    const long double kept = (long double)h->sum_sq;
    const long double n = (long double)count;
    const long double low = n * h->min * h->min, high = n * h->max * h->max;
    if (high < wrap)
        return kept;
    long double estimate = (low + high) / 2;
    if (high - low >= wrap) {
        estimate = 0;
        for (size_t i = 0; i < HIST_ALL_BUCKETS; i++) {
            if (!h->counts[i])
                continue;
            long double mid = (long double)bucket_middle(i);
            estimate += (long double)h->counts[i] * mid * mid;
        }
    }
    long double k = (estimate - kept) / wrap;
    return kept + (k > 0 ? floorl(k + 0.5L) : 0) * wrap;
}

double diskio_hist_stddev(const struct diskio_hist *h)
{
    uint64_t count = h ? hist_count(h) : 0;
    if (count < 2 || h->min == h->max)
        return 0.0;
    /* long double keeps 64 bits of mantissa: E[x^2] - E[x]^2 stays
     * accurate to well below a nanosecond for latencies up to seconds. */
    long double n = (long double)count;
    long double mean = (long double)hist_sum(h, count) / n;
    long double variance = hist_sum_sq(h, count) / n - mean * mean;
    return variance > 0 ? (double)sqrtl(variance) : 0.0;
}

static void bucket_bounds(size_t index, uint64_t *lowest, uint64_t *highest)
{
    if (index <= HIST_LINEAR_MASK) {
        *lowest = *highest = index;
        return;
    }
    unsigned shift = (unsigned)(index >> HIST_SUB_BITS) - 1;
    uint64_t sub = (index & ((1u << HIST_SUB_BITS) - 1)) + (1u << HIST_SUB_BITS);
    *lowest = sub << shift;
    *highest = *lowest + (UINT64_C(1) << shift) - 1;
}

void diskio_hist_bucket_bounds(uint64_t value_ns, uint64_t *lowest_ns, uint64_t *highest_ns)
{
    if (!lowest_ns || !highest_ns)
        return;
    if (value_ns > DISKIO_HIST_MAX_TRACKABLE_NS) {
        *lowest_ns = DISKIO_HIST_MAX_TRACKABLE_NS + 1;
        *highest_ns = UINT64_MAX;
        return;
    }
    bucket_bounds(hist_index(value_ns), lowest_ns, highest_ns);
}

/* Nearest rank: the smallest rank r with r >= pct/100 * count. */
static uint64_t rank_for(uint64_t count, double pct)
{
    double exact = pct / 100.0 * (double)count;
    uint64_t rank = (uint64_t)ceil(exact - 1e-9 * exact);
    if (rank < 1)
        rank = 1;
    if (rank > count)
        rank = count;
    return rank;
}

uint64_t hist_pct_min_count(double pct)
{
    if (!(pct > 0.0 && pct < 100.0))
        return UINT64_MAX;
    /* count - rank = floor(count * (1 - pct / 100)) never decreases as
     * count grows: start just below the exact bound and step up */
    double bound = 100.0 / (100.0 - pct);
    uint64_t n = bound > 2.0 ? (uint64_t)bound - 1 : 1;
    while (n < UINT64_MAX / 2 && rank_for(n, pct) >= n)
        n++;
    return n;
}

static uint64_t clamp_to_range(const struct diskio_hist *h, uint64_t v)
{
    if (v < h->min)
        return h->min;
    if (v > h->max)
        return h->max;
    return v;
}

int diskio_hist_percentiles(const struct diskio_hist *h, const double *pcts, uint64_t *values_ns,
                            size_t n)
{
    if (!h || !pcts || !values_ns)
        return -EINVAL;
    for (size_t k = 0; k < n; k++) {
        if (!(pcts[k] >= 0.0 && pcts[k] <= 100.0) || (k > 0 && pcts[k] < pcts[k - 1]))
            return -EINVAL;
    }
    size_t bucket = 0;
    uint64_t cumulative = 0;
    const uint64_t count = hist_count(h), overflow = hist_overflow(h);
    for (size_t k = 0; k < n; k++) {
        if (count == 0) {
            values_ns[k] = 0;
            continue;
        }
        if (pcts[k] == 0.0) {
            values_ns[k] = h->min;
            continue;
        }
        if (pcts[k] == 100.0) {
            values_ns[k] = h->max;
            continue;
        }
        uint64_t rank = rank_for(count, pcts[k]);
        if (rank == count) {
            /* the largest value, known exactly: too few values for this
             * percentile to be anything else (hist_pct_min_count()) */
            values_ns[k] = h->max;
            continue;
        }
        if (rank > count - overflow) {
            /* it lies among the overflowed values: only max is known */
            values_ns[k] = h->max;
            continue;
        }
        while (cumulative + h->counts[bucket] < rank) {
            cumulative += h->counts[bucket];
            bucket++;
        }
        uint64_t lowest, highest;
        bucket_bounds(bucket, &lowest, &highest);
        values_ns[k] = clamp_to_range(h, lowest + (highest - lowest) / 2);
    }
    return 0;
}

uint64_t diskio_hist_percentile(const struct diskio_hist *h, double pct)
{
    uint64_t value = 0;
    if (pct < 0.0)
        pct = 0.0;
    if (pct > 100.0)
        pct = 100.0;
    (void)diskio_hist_percentiles(h, &pct, &value, 1);
    return value;
}

void diskio_hist_iter_init(struct diskio_hist_iter *it, const struct diskio_hist *h)
{
    if (!it)
        return;
    memset(it, 0, sizeof(*it));
    it->hist_ = h;
}

bool diskio_hist_iter_next(struct diskio_hist_iter *it)
{
    const struct diskio_hist *h = it ? it->hist_ : NULL;
    while (h && it->index_ < HIST_BUCKETS) {
        size_t i = it->index_++;
        if (h->counts[i] == 0)
            continue;
        bucket_bounds(i, &it->lowest_ns, &it->highest_ns);
        it->count = h->counts[i];
        it->cumulative += h->counts[i];
        return true;
    }
    return false;
}
