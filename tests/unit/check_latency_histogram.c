/* SPDX-License-Identifier: MIT */
/*
 * Description: the latency histogram's buckets, statistics and percentiles are within their bound.
 *
 * the latency histogram: bucket math and its error bound,
 * exact count/min/max/mean/stddev, percentiles against the exact values
 * of sorted samples on several distributions, overflow, merge, iteration,
 * caller memory and coordinated-omission correction; a percentile whose
 * nearest rank is the last value is the max exactly; a live copy taken
 * while another thread records is a readable histogram between what was
 * recorded before and after it; recording n at once never wraps the
 * count.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include "diskio.h"
#include "t_helpers.h"

static uint64_t rng_state = 88172645463325252ull;
static uint64_t t_rand(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static double t_uniform(void)
{
    return (double)(t_rand() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

START_TEST(test_values_below_256_are_exact)
{
    for (uint64_t v = 0; v < 256; v++) {
        uint64_t lo, hi;
        diskio_hist_bucket_bounds(v, &lo, &hi);
        ck_assert_uint_eq(lo, v);
        ck_assert_uint_eq(hi, v);
    }
}
END_TEST

START_TEST(test_buckets_are_contiguous_and_within_one_128th)
{
    /* walk every bucket from 0 to the top of the range */
    uint64_t v = 0, buckets = 0;
    while (v <= DISKIO_HIST_MAX_TRACKABLE_NS) {
        uint64_t lo, hi;
        diskio_hist_bucket_bounds(v, &lo, &hi);
        ck_assert_uint_eq(lo, v);
        ck_assert_uint_ge(hi, lo);
        /* width <= lowest / 128: the 1% bound with room to spare */
        ck_assert_msg((hi - lo + 1) * 128 <= (lo < 128 ? 128 : lo), "bucket [%llu, %llu] too wide",
                      (unsigned long long)lo, (unsigned long long)hi);
        uint64_t lo2, hi2;
        diskio_hist_bucket_bounds(hi, &lo2, &hi2);
        ck_assert_uint_eq(lo2, lo);
        v = hi + 1;
        buckets++;
    }
    ck_assert_uint_eq(buckets, 4864);
    ck_assert_uint_eq(v, DISKIO_HIST_MAX_TRACKABLE_NS + 1);
}
END_TEST

START_TEST(test_range_covers_1ns_to_100s)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    diskio_hist_record(h, 1);
    diskio_hist_record(h, UINT64_C(100000000000));
    ck_assert_uint_eq(diskio_hist_overflow(h), 0);
    ck_assert_uint_eq(diskio_hist_percentile(h, 50), 1);
    uint64_t p100 = diskio_hist_percentile(h, 100);
    ck_assert_uint_eq(p100, UINT64_C(100000000000));
    uint64_t p99 = diskio_hist_percentile(h, 99);
    ck_assert_msg(fabs((double)p99 - 1e11) <= 1e11 / 256, "p99 %llu", (unsigned long long)p99);
    diskio_hist_free(h);
}
END_TEST

START_TEST(test_count_min_max_mean_stddev_are_exact)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    enum { N = 100000 };
    uint64_t min = UINT64_MAX, max = 0;
    long double sum = 0, sum_sq = 0;
    for (int i = 0; i < N; i++) {
        uint64_t v = 1000 + t_rand() % 5000000;
        diskio_hist_record(h, v);
        min = v < min ? v : min;
        max = v > max ? v : max;
        sum += v;
        sum_sq += (long double)v * v;
    }
    ck_assert_uint_eq(diskio_hist_count(h), N);
    ck_assert_uint_eq(diskio_hist_min(h), min);
    ck_assert_uint_eq(diskio_hist_max(h), max);
    long double mean = sum / N;
    ck_assert_double_eq_tol(diskio_hist_mean(h), (double)mean, 1e-6);
    /* two-pass reference for the standard deviation */
    double sd = sqrt((double)(sum_sq / N - mean * mean));
    ck_assert_double_eq_tol(diskio_hist_stddev(h), sd, sd * 1e-9);
    diskio_hist_free(h);
}
END_TEST

/* Distributions for the property test, in ns. */
static uint64_t dist_uniform(void)
{
    return 1 + t_rand() % 10000000;
}
static uint64_t dist_exponential(void)
{
    return (uint64_t)(-log(1 - t_uniform()) * 80000.0);
}
static uint64_t dist_lognormal(void)
{
    double u1 = t_uniform() + 1e-12, u2 = t_uniform();
    double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
    return (uint64_t)exp(11.0 + 1.5 * z); /* median ~60 us, long tail */
}
static uint64_t dist_bimodal(void)
{
    /* page-cache hits and device round trips, like a mixed workload */
    return (t_rand() % 10 < 8) ? 2000 + t_rand() % 500 : 5000000 + t_rand() % 3000000;
}
static uint64_t dist_tiny(void)
{
    return t_rand() % 300;
}
static uint64_t dist_constant(void)
{
    return 123456789;
}

START_TEST(test_percentiles_match_sorted_samples_within_bound)
{
    static uint64_t (*const dists[])(void) = {dist_uniform, dist_exponential, dist_lognormal,
                                              dist_bimodal, dist_tiny,        dist_constant};
    static const double pcts[] = {0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100};
    enum { NP = sizeof(pcts) / sizeof(pcts[0]) };
    static const size_t sizes[] = {1, 7, 1000, 200003};
    for (size_t d = 0; d < sizeof(dists) / sizeof(dists[0]); d++) {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            size_t n = sizes[s];
            uint64_t *samples = malloc(n * sizeof(*samples));
            struct diskio_hist *h;
            ck_assert_int_eq(diskio_hist_new(&h), 0);
            for (size_t i = 0; i < n; i++) {
                samples[i] = dists[d]();
                diskio_hist_record(h, samples[i]);
            }
            qsort(samples, n, sizeof(*samples), cmp_u64);
            uint64_t got[NP];
            ck_assert_int_eq(diskio_hist_percentiles(h, pcts, got, NP), 0);
            for (size_t k = 0; k < NP; k++) {
                /* nearest rank; the epsilon keeps 99.9% of 1000 at rank 999
                 * although 99.9 / 100 * 1000 is 999.0000000000001 in binary */
                size_t rank = (size_t)ceil(pcts[k] / 100.0 * (double)n - 1e-9);
                if (rank < 1)
                    rank = 1;
                uint64_t exact = samples[rank - 1];
                double tolerance = (double)exact / 256.0 + 0.5;
                ck_assert_msg(fabs((double)got[k] - (double)exact) <= tolerance,
                              "dist %zu n %zu p%g: got %llu exact %llu", d, n, pcts[k],
                              (unsigned long long)got[k], (unsigned long long)exact);
                /* the single-percentile call agrees with the batch */
                ck_assert_uint_eq(diskio_hist_percentile(h, pcts[k]), got[k]);
            }
            diskio_hist_free(h);
            free(samples);
        }
    }
}
END_TEST

START_TEST(test_p0_is_min_and_p100_is_max_exactly)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    /* 1000 and 1003 share a bucket whose midpoint is 1001 */
    diskio_hist_record(h, 1000);
    diskio_hist_record(h, 1003);
    ck_assert_uint_eq(diskio_hist_percentile(h, 0), 1000);
    ck_assert_uint_eq(diskio_hist_percentile(h, 100), 1003);
    diskio_hist_free(h);
}
END_TEST

/* p99.9 of 999 values is the 999th: the largest value, known exactly (not
 * its bucket's midpoint); of 1000 it is the 999th of 1000, a bucket's */
START_TEST(test_a_percentile_at_the_last_rank_is_the_max_exactly)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    for (uint64_t v = 1; v <= 999; v++)
        diskio_hist_record(h, v * 1000 + 3);
    uint64_t lo, hi;
    diskio_hist_bucket_bounds(999003, &lo, &hi);
    ck_assert_uint_lt(lo + (hi - lo) / 2, 999003); /* a midpoint would be below it */
    static const double pcts[] = {99.0, 99.9, 99.99};
    uint64_t v[3];
    ck_assert_int_eq(diskio_hist_percentiles(h, pcts, v, 3), 0);
    ck_assert_uint_lt(v[0], 999003);
    ck_assert_uint_eq(v[1], 999003);
    ck_assert_uint_eq(v[2], 999003);
    diskio_hist_record(h, 2000000);
    ck_assert_int_eq(diskio_hist_percentiles(h, pcts, v, 3), 0);
    ck_assert_uint_lt(v[1], 1000000); /* the 999th of 1000 */
    ck_assert_uint_eq(v[2], 2000000);
    diskio_hist_free(h);
}
END_TEST

struct t_recorder {
    struct diskio_hist *h;
    volatile int stop;
    uint64_t recorded;
};

static void *t_record_until_stopped(void *arg)
{
    struct t_recorder *r = arg;
    uint64_t n = 0;
    while (!r->stop || n < 100000) {
        diskio_hist_record(r->h, 1000 + (n * 7919) % 100000);
        n++;
    }
    r->recorded = n;
    return NULL;
}

START_TEST(test_a_live_copy_is_a_readable_histogram)
{
    struct diskio_hist *src, *copy;
    ck_assert_int_eq(diskio_hist_new(&src), 0);
    ck_assert_int_eq(diskio_hist_new(&copy), 0);
    /* quiet: the copy is the histogram */
    for (uint64_t v = 1; v <= 5000; v++)
        diskio_hist_record(src, v * 97);
    diskio_hist_copy_live(copy, src);
    ck_assert_uint_eq(diskio_hist_count(copy), 5000);
    ck_assert_uint_eq(diskio_hist_min(copy), diskio_hist_min(src));
    ck_assert_uint_eq(diskio_hist_max(copy), diskio_hist_max(src));
    ck_assert_double_eq_tol(diskio_hist_mean(copy), diskio_hist_mean(src), 1e-9);
    ck_assert_uint_eq(diskio_hist_percentile(copy, 99), diskio_hist_percentile(src, 99));

    /* while another thread records: each copy holds at least what the
     * one before held and at most what is recorded in the end, and its
     * percentiles lie within the recorded values */
    diskio_hist_reset(src);
    struct t_recorder r = {.h = src};
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, t_record_until_stopped, &r), 0);
    uint64_t last = 0;
    for (int i = 0; i < 200; i++) {
        diskio_hist_copy_live(copy, src);
        uint64_t n = diskio_hist_count(copy);
        ck_assert_uint_ge(n, last);
        last = n;
        if (n > 0) {
            static const double pcts[] = {50.0, 99.0};
            uint64_t v[2];
            ck_assert_int_eq(diskio_hist_percentiles(copy, pcts, v, 2), 0);
            ck_assert_uint_ge(v[0], 1000);
            ck_assert_uint_le(v[1], 101000);
        }
    }
    r.stop = 1;
    pthread_join(thread, NULL);
    ck_assert_uint_le(last, r.recorded);
    diskio_hist_copy_live(copy, src);
    ck_assert_uint_eq(diskio_hist_count(copy), r.recorded);
    diskio_hist_free(copy);
    diskio_hist_free(src);
}
END_TEST

START_TEST(test_percentiles_reject_unsorted_or_out_of_range)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    diskio_hist_record(h, 10);
    uint64_t out[2];
    double unsorted[] = {99, 50};
    double too_big[] = {50, 101};
    double nan_pct[] = {NAN};
    ck_assert_int_eq(diskio_hist_percentiles(h, unsorted, out, 2), -EINVAL);
    ck_assert_int_eq(diskio_hist_percentiles(h, too_big, out, 2), -EINVAL);
    ck_assert_int_eq(diskio_hist_percentiles(h, nan_pct, out, 1), -EINVAL);
    diskio_hist_free(h);
}
END_TEST

START_TEST(test_empty_histogram_reports_zeros)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    ck_assert_uint_eq(diskio_hist_count(h), 0);
    ck_assert_uint_eq(diskio_hist_min(h), 0);
    ck_assert_uint_eq(diskio_hist_max(h), 0);
    ck_assert_uint_eq(diskio_hist_percentile(h, 99), 0);
    ck_assert_double_eq(diskio_hist_mean(h), 0.0);
    struct diskio_hist_iter it;
    diskio_hist_iter_init(&it, h);
    ck_assert(!diskio_hist_iter_next(&it));
    diskio_hist_free(h);
}
END_TEST

START_TEST(test_overflow_is_counted_not_clamped)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    uint64_t huge = DISKIO_HIST_MAX_TRACKABLE_NS + 12345;
    diskio_hist_record(h, 1000);
    ck_assert_uint_eq(diskio_hist_overflow(h), 0);
    diskio_hist_record(h, huge);
    ck_assert_uint_eq(diskio_hist_overflow(h), 1);
    /* the largest value there is lands in the overflow too */
    diskio_hist_record(h, UINT64_MAX);
    ck_assert_uint_eq(diskio_hist_overflow(h), 2);
    ck_assert_uint_eq(diskio_hist_max(h), UINT64_MAX);
    ck_assert(!diskio_hist_record_n(h, huge, 2));
    ck_assert(diskio_hist_record_n(h, 5, 2));
    ck_assert_uint_eq(diskio_hist_overflow(h), 4);
    ck_assert_uint_eq(diskio_hist_count(h), 7);
    diskio_hist_reset(h);
    diskio_hist_record(h, 1000);
    diskio_hist_record(h, huge);
    ck_assert_uint_eq(diskio_hist_count(h), 2);
    ck_assert_uint_eq(diskio_hist_max(h), huge);
    ck_assert_uint_eq(diskio_hist_percentile(h, 100), huge);
    /* 1000 shares a 4 ns wide bucket [1000, 1003]: its midpoint is reported */
    ck_assert_uint_le(diskio_hist_percentile(h, 50) - 1000, 1000 / 256);
    /* the overflowed value is in no bucket */
    struct diskio_hist_iter it;
    diskio_hist_iter_init(&it, h);
    uint64_t bucketed = 0;
    while (diskio_hist_iter_next(&it))
        bucketed += it.count;
    ck_assert_uint_eq(bucketed, 1);
    diskio_hist_free(h);
}
END_TEST

START_TEST(test_merge_equals_recording_everything_in_one)
{
    struct diskio_hist *a, *b, *all;
    ck_assert_int_eq(diskio_hist_new(&a), 0);
    ck_assert_int_eq(diskio_hist_new(&b), 0);
    ck_assert_int_eq(diskio_hist_new(&all), 0);
    for (int i = 0; i < 50000; i++) {
        uint64_t v = dist_lognormal();
        diskio_hist_record(i % 3 ? a : b, v);
        diskio_hist_record(all, v);
    }
    ck_assert_int_eq(diskio_hist_merge(a, b), 0);
    ck_assert_uint_eq(diskio_hist_count(a), diskio_hist_count(all));
    ck_assert_uint_eq(diskio_hist_min(a), diskio_hist_min(all));
    ck_assert_uint_eq(diskio_hist_max(a), diskio_hist_max(all));
    ck_assert_double_eq_tol(diskio_hist_mean(a), diskio_hist_mean(all), 1e-9);
    ck_assert_double_eq_tol(diskio_hist_stddev(a), diskio_hist_stddev(all), 1e-6);
    struct diskio_hist_iter ia, iall;
    diskio_hist_iter_init(&ia, a);
    diskio_hist_iter_init(&iall, all);
    while (diskio_hist_iter_next(&iall)) {
        ck_assert(diskio_hist_iter_next(&ia));
        ck_assert_uint_eq(ia.lowest_ns, iall.lowest_ns);
        ck_assert_uint_eq(ia.count, iall.count);
    }
    ck_assert(!diskio_hist_iter_next(&ia));
    diskio_hist_free(a);
    diskio_hist_free(b);
    diskio_hist_free(all);
}
END_TEST

START_TEST(test_iterator_walks_nonempty_buckets_ascending)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    diskio_hist_record_n(h, 5000000, 3);
    diskio_hist_record(h, 7);
    diskio_hist_record(h, 7);
    diskio_hist_record(h, 300);
    struct diskio_hist_iter it;
    diskio_hist_iter_init(&it, h);
    ck_assert(diskio_hist_iter_next(&it));
    ck_assert_uint_eq(it.lowest_ns, 7);
    ck_assert_uint_eq(it.count, 2);
    ck_assert(diskio_hist_iter_next(&it));
    ck_assert_uint_le(it.lowest_ns, 300);
    ck_assert_uint_ge(it.highest_ns, 300);
    ck_assert_uint_eq(it.cumulative, 3);
    ck_assert(diskio_hist_iter_next(&it));
    ck_assert_uint_le(it.lowest_ns, 5000000);
    ck_assert_uint_ge(it.highest_ns, 5000000);
    ck_assert_uint_eq(it.count, 3);
    ck_assert_uint_eq(it.cumulative, 6);
    ck_assert(!diskio_hist_iter_next(&it));
    diskio_hist_free(h);
}
END_TEST

START_TEST(test_init_uses_caller_memory)
{
    size_t size = diskio_hist_memory_size();
    ck_assert_uint_ge(size, 4864 * 8);
    void *mem = aligned_alloc(64, (size + 63) / 64 * 64);
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_init(mem, size - 1, &h), -EINVAL);
    ck_assert_int_eq(diskio_hist_init(mem, size, &h), 0);
    ck_assert_ptr_eq(h, mem);
    diskio_hist_record(h, 42);
    ck_assert_uint_eq(diskio_hist_count(h), 1);
    diskio_hist_free(h); /* must not free caller memory */
    ck_assert_uint_eq(diskio_hist_count(h), 1);
    diskio_hist_reset(h);
    ck_assert_uint_eq(diskio_hist_count(h), 0);
    free(mem);
}
END_TEST

START_TEST(test_corrected_recording_fills_in_missed_intervals)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    /* a 10 ms stall with ops due every 1 ms: 10 values 10,9,...,1 ms */
    ck_assert_uint_eq(diskio_hist_record_corrected(h, 10000000, 1000000), 10);
    ck_assert_uint_eq(diskio_hist_count(h), 10);
    ck_assert_uint_eq(diskio_hist_min(h), 1000000);
    ck_assert_uint_eq(diskio_hist_max(h), 10000000);
    /* a fast op is recorded once */
    ck_assert_uint_eq(diskio_hist_record_corrected(h, 500, 1000000), 1);
    diskio_hist_free(h);
}
END_TEST

/* Recording n at once never wraps the count: n that would take it past
 * UINT64_MAX records nothing (false, the histogram unchanged); up to
 * UINT64_MAX exactly is taken. */
START_TEST(test_record_n_never_wraps_the_count)
{
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    ck_assert(diskio_hist_record_n(h, 1000, UINT64_MAX));
    ck_assert_uint_eq(diskio_hist_count(h), UINT64_MAX);
    ck_assert(!diskio_hist_record_n(h, 1000, UINT64_MAX));
    ck_assert(!diskio_hist_record_n(h, 2000, 1));
    ck_assert_uint_eq(diskio_hist_count(h), UINT64_MAX);
    ck_assert_uint_eq(diskio_hist_max(h), 1000);
    ck_assert(diskio_hist_record_n(h, 2000, 0)); /* nothing to record */
    diskio_hist_reset(h);
    /* across buckets: the count is the sum of them all */
    ck_assert(diskio_hist_record_n(h, 5, UINT64_MAX - 10));
    ck_assert(!diskio_hist_record_n(h, 5000000, 11));
    ck_assert_uint_eq(diskio_hist_count(h), UINT64_MAX - 10);
    ck_assert(diskio_hist_record_n(h, 5000000, 10));
    ck_assert_uint_eq(diskio_hist_count(h), UINT64_MAX);
    ck_assert_uint_eq(diskio_hist_max(h), 5000000);
    diskio_hist_free(h);
}
END_TEST

START_TEST(test_merge_never_wraps_the_count)
{
    struct diskio_hist *a, *b;
    ck_assert_int_eq(diskio_hist_new(&a), 0);
    ck_assert_int_eq(diskio_hist_new(&b), 0);
    ck_assert(diskio_hist_record_n(a, 1000, UINT64_MAX - 1));
    ck_assert(diskio_hist_record_n(b, 7, 2));
    ck_assert_int_eq(diskio_hist_merge(a, b), -EOVERFLOW);
    ck_assert_uint_eq(diskio_hist_count(a), UINT64_MAX - 1);
    ck_assert_uint_eq(diskio_hist_min(a), 1000); /* left as it was */
    diskio_hist_reset(b);
    ck_assert(diskio_hist_record_n(b, 7, 1));
    ck_assert_int_eq(diskio_hist_merge(a, b), 0);
    ck_assert_uint_eq(diskio_hist_count(a), UINT64_MAX);
    ck_assert_uint_eq(diskio_hist_min(a), 7);
    diskio_hist_free(a);
    diskio_hist_free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("histogram");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_values_below_256_are_exact);
    tcase_add_test(tc, test_buckets_are_contiguous_and_within_one_128th);
    tcase_add_test(tc, test_range_covers_1ns_to_100s);
    tcase_add_test(tc, test_count_min_max_mean_stddev_are_exact);
    tcase_add_test(tc, test_percentiles_match_sorted_samples_within_bound);
    tcase_add_test(tc, test_p0_is_min_and_p100_is_max_exactly);
    tcase_add_test(tc, test_percentiles_reject_unsorted_or_out_of_range);
    tcase_add_test(tc, test_a_percentile_at_the_last_rank_is_the_max_exactly);
    tcase_add_test(tc, test_a_live_copy_is_a_readable_histogram);
    tcase_add_test(tc, test_empty_histogram_reports_zeros);
    tcase_add_test(tc, test_overflow_is_counted_not_clamped);
    tcase_add_test(tc, test_merge_equals_recording_everything_in_one);
    tcase_add_test(tc, test_iterator_walks_nonempty_buckets_ascending);
    tcase_add_test(tc, test_init_uses_caller_memory);
    tcase_add_test(tc, test_corrected_recording_fills_in_missed_intervals);
    tcase_add_test(tc, test_record_n_never_wraps_the_count);
    tcase_add_test(tc, test_merge_never_wraps_the_count);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
