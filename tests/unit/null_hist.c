/* SPDX-License-Identifier: MIT */
/* check_null's rows for the clock, the version, strerror and the histogram:
 * one function per public function, NULL in every pointer (t_null.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_null.h"

static void null_version(void)
{
    ck_assert_ptr_nonnull(diskio_version()); /* no pointer argument */
}
static void null_check_version(void)
{
    ck_assert(diskio_check_version(0, 0, 0));
}
static void null_strerror(void)
{
    ck_assert_ptr_nonnull(diskio_strerror(-EINVAL));
}
static void null_now_ns(void)
{
    (void)diskio_now_ns();
}
static void null_timer_overhead_ns(void)
{
    (void)diskio_timer_overhead_ns();
}
static void null_hist_memory_size(void)
{
    ck_assert_uint_gt(diskio_hist_memory_size(), 0);
}
static void null_hist_new(void)
{
    ck_assert_int_eq(diskio_hist_new(NULL), -EINVAL);
}
static void null_hist_init(void)
{
    static char mem[1 << 17] __attribute__((aligned(64)));
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_init(NULL, sizeof(mem), &h), -EINVAL);
    ck_assert_int_eq(diskio_hist_init(mem, sizeof(mem), NULL), -EINVAL);
}
static void null_hist_free(void)
{
    diskio_hist_free(NULL);
}
static void null_hist_reset(void)
{
    diskio_hist_reset(NULL);
}
static void null_hist_record(void)
{
    diskio_hist_record(NULL, 1000);
}
static void null_hist_record_n(void)
{
    ck_assert(!diskio_hist_record_n(NULL, 1000, 3));
}
static void null_hist_record_corrected(void)
{
    ck_assert_uint_eq(diskio_hist_record_corrected(NULL, 1000, 10), 0);
}
static void null_hist_merge(void)
{
    struct diskio_hist *h = t_hist();
    ck_assert_int_eq(diskio_hist_merge(NULL, h), -EINVAL);
    ck_assert_int_eq(diskio_hist_merge(h, NULL), -EINVAL);
    diskio_hist_free(h);
}
static void null_hist_count(void)
{
    ck_assert_uint_eq(diskio_hist_count(NULL), 0);
}
static void null_hist_min(void)
{
    ck_assert_uint_eq(diskio_hist_min(NULL), 0);
}
static void null_hist_max(void)
{
    ck_assert_uint_eq(diskio_hist_max(NULL), 0);
}
static void null_hist_overflow(void)
{
    ck_assert_uint_eq(diskio_hist_overflow(NULL), 0);
}
static void null_hist_mean(void)
{
    ck_assert(diskio_hist_mean(NULL) == 0.0);
}
static void null_hist_stddev(void)
{
    ck_assert(diskio_hist_stddev(NULL) == 0.0);
}
static void null_hist_percentile(void)
{
    ck_assert_uint_eq(diskio_hist_percentile(NULL, 50.0), 0);
}
static void null_hist_percentiles(void)
{
    struct diskio_hist *h = t_hist();
    double pcts[1] = {50.0};
    uint64_t values[1];
    ck_assert_int_eq(diskio_hist_percentiles(NULL, pcts, values, 1), -EINVAL);
    ck_assert_int_eq(diskio_hist_percentiles(h, NULL, values, 1), -EINVAL);
    ck_assert_int_eq(diskio_hist_percentiles(h, pcts, NULL, 1), -EINVAL);
    diskio_hist_free(h);
}
static void null_hist_copy_live(void)
{
    struct diskio_hist *h = t_hist();
    diskio_hist_copy_live(NULL, h);
    diskio_hist_copy_live(h, NULL);
    diskio_hist_free(h);
}
static void null_hist_bucket_bounds(void)
{
    uint64_t v = 7;
    diskio_hist_bucket_bounds(1000, NULL, &v);
    diskio_hist_bucket_bounds(1000, &v, NULL);
    ck_assert_uint_eq(v, 7);
}
static void null_hist_iter_init(void)
{
    struct diskio_hist_iter it;
    diskio_hist_iter_init(NULL, NULL);
    diskio_hist_iter_init(&it, NULL); /* walks nothing */
    ck_assert(!diskio_hist_iter_next(&it));
}
static void null_hist_iter_next(void)
{
    ck_assert(!diskio_hist_iter_next(NULL));
}

const struct t_null_row t_null_hist_rows[] = {
    T_NULL_ROW(version),
    T_NULL_ROW(check_version),
    T_NULL_ROW(strerror),
    T_NULL_ROW(now_ns),
    T_NULL_ROW(timer_overhead_ns),
    T_NULL_ROW(hist_memory_size),
    T_NULL_ROW(hist_new),
    T_NULL_ROW(hist_init),
    T_NULL_ROW(hist_free),
    T_NULL_ROW(hist_reset),
    T_NULL_ROW(hist_record),
    T_NULL_ROW(hist_record_n),
    T_NULL_ROW(hist_record_corrected),
    T_NULL_ROW(hist_merge),
    T_NULL_ROW(hist_count),
    T_NULL_ROW(hist_min),
    T_NULL_ROW(hist_max),
    T_NULL_ROW(hist_overflow),
    T_NULL_ROW(hist_mean),
    T_NULL_ROW(hist_stddev),
    T_NULL_ROW(hist_percentile),
    T_NULL_ROW(hist_percentiles),
    T_NULL_ROW(hist_copy_live),
    T_NULL_ROW(hist_bucket_bounds),
    T_NULL_ROW(hist_iter_init),
    T_NULL_ROW(hist_iter_next),
};
const size_t t_null_hist_count = sizeof(t_null_hist_rows) / sizeof(t_null_hist_rows[0]);
