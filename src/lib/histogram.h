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
 *   36 * 128 + 255 = 4863, so 4864 counters are reported.
 *
 *   The array goes on to the largest uint64_t (shift 56, 7424 counters,
 *   58 KiB), so recording needs no range check at all: values above 2^44
 *   land in counters that reading adds up as the overflow count.  The
 *   count is likewise the sum of all counters, worked out when read.  The
 *   record path is then the index, one increment, the sums and min/max:
 *   about 20 instructions, and no branch that can mispredict but the
 *   rare new minimum or maximum.
 */
#ifndef DISKIO_HISTOGRAM_H
#define DISKIO_HISTOGRAM_H

#include "diskio.h"

#define HIST_SUB_BITS 7
#define HIST_LINEAR_MASK ((UINT64_C(1) << (HIST_SUB_BITS + 1)) - 1) /* 255 */
#define HIST_MAX_SHIFT (44 - 1 - HIST_SUB_BITS)                     /* 36 */
#define HIST_BUCKETS (((size_t)HIST_MAX_SHIFT << HIST_SUB_BITS) + HIST_LINEAR_MASK + 1)
#define HIST_ALL_BUCKETS (((size_t)(63 - HIST_SUB_BITS) << HIST_SUB_BITS) + HIST_LINEAR_MASK + 1)

#define DISKIO_LIKELY(x) __builtin_expect(!!(x), 1)
#define DISKIO_UNLIKELY(x) __builtin_expect(!!(x), 0)

struct diskio_hist {
    uint64_t sum; /* ns, modulo 2^64 (one add): hist_sum() recovers the true sum */
    uint64_t min; /* UINT64_MAX while empty */
    uint64_t max;
    unsigned __int128 sum_sq; /* exact: values < 2^64, squares < 2^128 */
    bool owned;               /* allocated by diskio_hist_new() */
    /* [0, HIST_BUCKETS): reported buckets; beyond: the overflow */
    uint64_t counts[HIST_ALL_BUCKETS];
};

static inline size_t hist_index(uint64_t value)
{
    unsigned magnitude = 63u - (unsigned)__builtin_clzll(value | HIST_LINEAR_MASK);
    unsigned shift = magnitude - HIST_SUB_BITS;
    return ((size_t)shift << HIST_SUB_BITS) + (size_t)(value >> shift);
}

static inline void hist_record(struct diskio_hist *h, uint64_t value)
{
    h->counts[hist_index(value)]++;
    h->sum += value;
    h->sum_sq += (unsigned __int128)value * value;
    if (DISKIO_UNLIKELY(value < h->min))
        h->min = value;
    if (DISKIO_UNLIKELY(value > h->max))
        h->max = value;
}

/* The fewest values for which the pct-th percentile (nearest rank) is
 * not the largest of them: 1000 for 99.9, 2 for 50; UINT64_MAX for 100
 * (always the max) and anything outside 0..100. */
uint64_t hist_pct_min_count(double pct) __attribute__((visibility("hidden")));

#endif
