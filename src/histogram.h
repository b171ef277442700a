/* SPDX-License-Identifier: MIT */
/*
 * Private layout of the histogram, so that the engine's timed loops can
 * inline the record path (a call through the PLT would cost more than
 * the record itself).  Programs outside the library use
 * diskio_hist_record().
 *
 * Bucket scheme (derivation, so the constants below can be checked):
 *   A value v is placed by its magnitude m = floor(log2(v | 255)) >= 7.
 *   shift = m - 7 drops all but the top 8 significant bits, so
 *   v >> shift lies in [128, 255] (or [0, 255] when shift = 0), and
 *   index = (shift << 7) + (v >> shift) is contiguous:
 *     v in [0, 255]        -> index v          (one bucket per ns: exact)
 *     v in [256, 511]      -> 256..383         (2 ns wide)
 *     v in [2^k, 2^(k+1))  -> 128 buckets, 2^(k-7) ns wide
 *   A bucket is at most 2^(k-7) / 2^k = 1/128 of its lowest value wide,
 *   so its midpoint is within 1/256 (0.39%) of any value in it.
 *   OR-ing 255 into v before the count-leading-zeros removes both the
 *   clz(0) case and the branch for small values (HdrHistogram's trick).
 *   Range: up to 2^44 - 1 ns (4.9 hours): max shift 36, max index
 *   36 * 128 + 255 = 4863, so 4864 counters of 8 bytes = 38 KiB.
 */
#ifndef DISKIO_HISTOGRAM_H
#define DISKIO_HISTOGRAM_H

#include "diskio.h"

#define HIST_SUB_BITS 7
#define HIST_LINEAR_MASK ((UINT64_C(1) << (HIST_SUB_BITS + 1)) - 1) /* 255 */
#define HIST_MAX_SHIFT (44 - 1 - HIST_SUB_BITS)                      /* 36 */
#define HIST_BUCKETS (((size_t)HIST_MAX_SHIFT << HIST_SUB_BITS) + HIST_LINEAR_MASK + 1)

#define DISKIO_LIKELY(x) __builtin_expect(!!(x), 1)
#define DISKIO_UNLIKELY(x) __builtin_expect(!!(x), 0)

struct diskio_hist {
    uint64_t count;    /* every recorded value, overflow included */
    uint64_t sum;      /* ns; wraps only after 584 years of latency */
    uint64_t min;      /* UINT64_MAX while empty */
    uint64_t max;
    uint64_t overflow; /* values above DISKIO_HIST_MAX_TRACKABLE_NS */
    unsigned __int128 sum_sq; /* exact: values < 2^64, squares < 2^128 */
    bool owned;        /* allocated by diskio_hist_new() */
    uint64_t counts[HIST_BUCKETS];
};

static inline size_t hist_index(uint64_t value)
{
    unsigned magnitude = 63u - (unsigned)__builtin_clzll(value | HIST_LINEAR_MASK);
    unsigned shift = magnitude - HIST_SUB_BITS;
    return ((size_t)shift << HIST_SUB_BITS) + (size_t)(value >> shift);
}

bool hist_record_overflow(struct diskio_hist *h, uint64_t value);

static inline bool hist_record(struct diskio_hist *h, uint64_t value)
{
    if (DISKIO_UNLIKELY(value > DISKIO_HIST_MAX_TRACKABLE_NS))
        return hist_record_overflow(h, value);
    h->counts[hist_index(value)]++;
    h->count++;
    h->sum += value;
    h->sum_sq += (unsigned __int128)value * value;
    if (value < h->min)
        h->min = value;
    if (value > h->max)
        h->max = value;
    return true;
}

#endif
