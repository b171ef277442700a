/* SPDX-License-Identifier: MIT */
/*
 * Description: the interval series counts each op in the interval it ended in, and merges series.
 *
 * the interval series (series.c, config.interval_ns).  An op
 * is counted in the interval in which it ended, an op ending exactly on a
 * boundary in the next one; intervals in which no op ended are kept with
 * ops 0; the last interval of a run with a runtime takes the op that
 * ended past it; a series with only a count grows, up to
 * DISKIO_INTERVALS_MAX intervals, the last one then running to the end;
 * the config rule caps the intervals of a runtime; series of concurrent
 * runs merge interval by interval (their percentiles from the merged
 * counts), repetitions follow one another; the config rule names
 * interval_ns; a real run's intervals add up to its ops.
 */
#include "config.h"

#include <errno.h>

#include "diskio_internal.h"
#include "t_helpers.h"

#define MS UINT64_C(1000000)
#define ORIGIN (UINT64_C(5) * 1000 * MS)

/* What the timed loop does with an op that ended at end_ns. */
static void t_op(struct series *s, struct diskio_hist **live, uint64_t end_ns, uint64_t latency_ns)
{
    if (end_ns >= s->next_ns) {
        *live = series_advance(s, end_ns);
        ck_assert_ptr_nonnull(*live);
    }
    hist_record(*live, latency_ns);
}

/* A percentile reported for values of value_ns: within its bucket. */
static void t_in_bucket(uint64_t got_ns, uint64_t value_ns)
{
    uint64_t lo, hi;
    diskio_hist_bucket_bounds(value_ns, &lo, &hi);
    ck_assert_msg(got_ns >= lo && got_ns <= hi, "%llu is not in the bucket of %llu",
                  (unsigned long long)got_ns, (unsigned long long)value_ns);
}

static const struct diskio_interval *t_iv(const struct series *s, size_t i)
{
    ck_assert_uint_lt(i, s->count);
    return &s->iv[i].pub;
}

START_TEST(test_boundary_swap)
{
    struct series *s;
    ck_assert_int_eq(series_new(100 * MS, 1000 * MS, 4096, &s), 0);
    /* everything allocated before the run: no growth during it */
    ck_assert_uint_ge(s->cap, 10);
    struct diskio_hist *live = series_start(s, ORIGIN);
    ck_assert_uint_eq(s->next_ns, ORIGIN + 100 * MS);
    t_op(s, &live, ORIGIN + 10 * MS, 1000);
    t_op(s, &live, ORIGIN + 99 * MS, 3000);
    /* on the boundary: the next interval's */
    t_op(s, &live, ORIGIN + 100 * MS, 5000);
    t_op(s, &live, ORIGIN + 150 * MS, 7000);
    /* past the runtime: the last interval's */
    t_op(s, &live, ORIGIN + 1003 * MS, 9000);
    ck_assert_uint_eq(s->next_ns, UINT64_MAX);
    size_t cap = s->cap;
    ck_assert_int_eq(series_finish(s, ORIGIN + 1004 * MS), 0);
    ck_assert_uint_eq(s->cap, cap);
    ck_assert_uint_eq(s->count, 10);
    ck_assert_uint_eq(t_iv(s, 0)->ops, 2);
    ck_assert_uint_eq(t_iv(s, 0)->bytes, 2 * 4096);
    ck_assert_uint_eq(t_iv(s, 0)->min_ns, 1000);
    ck_assert_uint_eq(t_iv(s, 0)->max_ns, 3000);
    ck_assert_double_eq_tol(t_iv(s, 0)->mean_ns, 2000.0, 1e-9);
    ck_assert_uint_eq(t_iv(s, 1)->ops, 2);
    ck_assert_uint_eq(t_iv(s, 1)->start_ns, 100 * MS);
    ck_assert_uint_eq(t_iv(s, 1)->duration_ns, 100 * MS);
    t_in_bucket(t_iv(s, 1)->p50_ns, 5000);
    ck_assert_uint_eq(t_iv(s, 1)->max_ns, 7000);
    ck_assert_uint_eq(t_iv(s, 9)->ops, 1);
    ck_assert_uint_eq(t_iv(s, 9)->start_ns, 900 * MS);
    /* the last interval runs to the run's end */
    ck_assert_uint_eq(t_iv(s, 9)->duration_ns, 104 * MS);
    t_in_bucket(t_iv(s, 9)->p99_ns, 9000);
    series_free(s);
}
END_TEST

START_TEST(test_empty_intervals_kept)
{
    struct series *s;
    ck_assert_int_eq(series_new(100 * MS, 0, 512, &s), 0);
    struct diskio_hist *live = series_start(s, ORIGIN);
    t_op(s, &live, ORIGIN + 50 * MS, 1000);
    /* a stall: the next op ends 500 ms later */
    t_op(s, &live, ORIGIN + 560 * MS, 510 * MS);
    t_op(s, &live, ORIGIN + 570 * MS, 1000);
    ck_assert_int_eq(series_finish(s, ORIGIN + 580 * MS), 0);
    ck_assert_uint_eq(s->count, 6);
    for (size_t i = 1; i <= 4; i++) {
        const struct diskio_interval *iv = t_iv(s, i);
        ck_assert_uint_eq(iv->ops, 0);
        ck_assert_uint_eq(iv->max_ns, 0);
        ck_assert_uint_eq(iv->p99_ns, 0);
        ck_assert_uint_eq(iv->start_ns, i * 100 * MS);
        ck_assert_uint_eq(iv->duration_ns, 100 * MS);
    }
    ck_assert_uint_eq(t_iv(s, 5)->ops, 2);
    ck_assert_uint_eq(t_iv(s, 5)->max_ns, 510 * MS);
    ck_assert_uint_eq(t_iv(s, 5)->duration_ns, 80 * MS);
    series_free(s);
}
END_TEST

START_TEST(test_count_only_grows)
{
    struct series *s;
    ck_assert_int_eq(series_new(10 * MS, 0, 512, &s), 0);
    size_t cap = s->cap;
    struct diskio_hist *live = series_start(s, ORIGIN);
    for (uint64_t k = 0; k < 3 * cap; k++)
        t_op(s, &live, ORIGIN + k * 10 * MS + 1, 100 + k);
    ck_assert_int_eq(series_finish(s, ORIGIN + 3 * cap * 10 * MS), 0);
    ck_assert_uint_eq(s->count, 3 * cap + 1);
    uint64_t ops = 0;
    for (size_t i = 0; i < s->count; i++)
        ops += t_iv(s, i)->ops;
    ck_assert_uint_eq(ops, 3 * cap);
    ck_assert_uint_eq(t_iv(s, 3 * cap - 1)->max_ns, 100 + 3 * cap - 1);
    ck_assert_uint_eq(t_iv(s, 3 * cap)->ops, 0);
    series_free(s);

    /* at most DISKIO_INTERVALS_MAX: the last one runs to the end */
    ck_assert_int_eq(series_new(10 * MS, 0, 512, &s), 0);
    live = series_start(s, ORIGIN);
    const uint64_t past = ORIGIN + 2 * (uint64_t)DISKIO_INTERVALS_MAX * 10 * MS;
    t_op(s, &live, past, 7);
    ck_assert_uint_eq(s->next_ns, UINT64_MAX);
    t_op(s, &live, past + 1, 9);
    ck_assert_int_eq(series_finish(s, past + 2), 0);
    ck_assert_uint_eq(s->count, DISKIO_INTERVALS_MAX);
    const struct diskio_interval *last = t_iv(s, DISKIO_INTERVALS_MAX - 1);
    ck_assert_uint_eq(last->ops, 2);
    ck_assert_uint_eq(last->start_ns + last->duration_ns, past + 2 - ORIGIN);
    series_free(s);
}
END_TEST

/* A finished series of n intervals of 100 ms, interval i holding
 * per_interval values of value_ns (interval skip: none). */
static struct series *t_series(size_t n, uint64_t per_interval, uint64_t value_ns, size_t skip)
{
    struct series *s;
    ck_assert_int_eq(series_new(100 * MS, n * 100 * MS, 4096, &s), 0);
    struct diskio_hist *live = series_start(s, ORIGIN);
    for (size_t i = 0; i < n; i++)
        for (uint64_t k = 0; k < per_interval && i != skip; k++)
            t_op(s, &live, ORIGIN + i * 100 * MS + k + 1, value_ns);
    ck_assert_int_eq(series_finish(s, ORIGIN + n * 100 * MS), 0);
    return s;
}

START_TEST(test_merge_by_index)
{
    /* job A: 3 intervals of 99 ops at 1 us; job B: 4 intervals of 1 op at
     * 1 ms, nothing in its interval 1 */
    struct series *a = t_series(3, 99, 1000, SIZE_MAX);
    struct series *b = t_series(4, 1, 1000000, 1);
    ck_assert_int_eq(series_merge(a, b), 0);
    ck_assert_uint_eq(a->count, 4);
    ck_assert_uint_eq(t_iv(a, 0)->ops, 100);
    ck_assert_uint_eq(t_iv(a, 0)->bytes, 100 * 4096);
    t_in_bucket(t_iv(a, 0)->p50_ns, 1000);
    ck_assert_uint_eq(t_iv(a, 0)->min_ns, 1000);
    ck_assert_uint_eq(t_iv(a, 0)->max_ns, 1000000);
    ck_assert_double_eq_tol(t_iv(a, 0)->mean_ns, (99 * 1000.0 + 1e6) / 100, 1e-6);
    /* B's empty interval 1 leaves A's as it was */
    ck_assert_uint_eq(t_iv(a, 1)->ops, 99);
    ck_assert_uint_eq(t_iv(a, 1)->max_ns, 1000);
    /* interval 3 is B's alone */
    ck_assert_uint_eq(t_iv(a, 3)->ops, 1);
    ck_assert_uint_eq(t_iv(a, 3)->start_ns, 300 * MS);
    t_in_bucket(t_iv(a, 3)->p50_ns, 1000000);
    ck_assert_uint_eq(t_iv(a, 3)->min_ns, 1000000);
    /* the merged counts, not the intervals' percentiles */
    struct diskio_hist *h;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    ck_assert_int_eq(series_expand(a, 0, h), 0);
    ck_assert_uint_eq(diskio_hist_count(h), 100);
    ck_assert_uint_eq(diskio_hist_max(h), 1000000);
    ck_assert_int_eq(series_expand(a, 4, h), -EINVAL);
    diskio_hist_free(h);
    /* merging twice adds twice */
    ck_assert_int_eq(series_merge(a, b), 0);
    ck_assert_uint_eq(t_iv(a, 0)->ops, 101);
    ck_assert_uint_eq(t_iv(a, 3)->ops, 2);
    series_free(b);

    /* other interval lengths: refused, nothing changed */
    struct series *c;
    ck_assert_int_eq(series_new(200 * MS, 0, 4096, &c), 0);
    (void)series_start(c, ORIGIN);
    ck_assert_int_eq(series_finish(c, ORIGIN + 1), 0);
    ck_assert_int_eq(series_merge(a, c), -EINVAL);
    ck_assert_int_eq(series_merge(a, a), -EINVAL);
    ck_assert_uint_eq(a->count, 4);
    series_free(c);
    series_free(a);
}
END_TEST

START_TEST(test_append_repetition)
{
    struct series *a = t_series(2, 5, 1000, SIZE_MAX);
    struct series *b;
    ck_assert_int_eq(series_new(100 * MS, 200 * MS, 4096, &b), 0);
    struct diskio_hist *live = series_start(b, ORIGIN + 700 * MS);
    t_op(b, &live, ORIGIN + 750 * MS, 2000);
    ck_assert_int_eq(series_finish(b, ORIGIN + 900 * MS), 0);
    ck_assert_int_eq(series_append(a, b, 1), 0);
    series_free(b);
    ck_assert_uint_eq(a->count, 4);
    ck_assert_uint_eq(t_iv(a, 1)->repetition, 0);
    ck_assert_uint_eq(t_iv(a, 2)->repetition, 1);
    ck_assert_uint_eq(t_iv(a, 2)->start_ns, 700 * MS);
    ck_assert_uint_eq(t_iv(a, 3)->start_ns, 800 * MS);
    ck_assert_uint_eq(t_iv(a, 2)->ops, 1);
    ck_assert_uint_eq(t_iv(a, 2)->max_ns, 2000);
    ck_assert_uint_eq(t_iv(a, 3)->ops, 0);
    series_free(a);
}
END_TEST

START_TEST(test_config_rule)
{
    struct diskio_config cfg;
    struct diskio_config_verdict v;
    diskio_config_init(&cfg);
    cfg.runtime_ns = 3000 * MS;
    cfg.interval_ns = 9 * MS;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_INTERVAL);
    ck_assert_int_eq(v.field, DISKIO_FIELD_INTERVAL);
    cfg.interval_ns = DISKIO_INTERVAL_MIN_NS;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), 0);
    cfg.interval_ns = 3000 * MS;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), 0);
    cfg.interval_ns = 3001 * MS;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_INTERVAL);
    /* at most DISKIO_INTERVALS_MAX intervals in the runtime */
    cfg.runtime_ns = DISKIO_INTERVALS_MAX * 10 * MS;
    cfg.interval_ns = 10 * MS;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), 0);
    cfg.runtime_ns += 10 * MS;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_INTERVAL);
    /* only a count: any length from 10 ms */
    cfg.runtime_ns = 0;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), 0);
}
END_TEST

/* A real run with a count only: the series grows as the run goes, and
 * its intervals hold every op; a run without interval_ns has none. */
START_TEST(test_run_series)
{
    char *dir = t_mkdtemp("series");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = DISKIO_MODE_ASYNC;
    cfg.file_size = 1 << 20;
    cfg.count = 200000;
    cfg.interval_ns = 10 * MS;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), 0);
    size_t n = diskio_run_interval_count(run);
    ck_assert_uint_ge(n, 1);
    uint64_t ops = 0, max = 0, prev_start = 0;
    for (size_t i = 0; i < n; i++) {
        const struct diskio_interval *iv = diskio_run_interval(run, i);
        ck_assert_ptr_nonnull(iv);
        ck_assert(i == 0 || iv->start_ns > prev_start);
        prev_start = iv->start_ns;
        ops += iv->ops;
        if (iv->max_ns > max)
            max = iv->max_ns;
    }
    ck_assert_ptr_null(diskio_run_interval(run, n));
    ck_assert_uint_eq(ops, diskio_run_info(run)->ops);
    ck_assert_uint_eq(max, diskio_hist_max(diskio_run_hist_const(run, DISKIO_PART_TOTAL)));
    diskio_run_free(run);

    cfg.interval_ns = 0;
    cfg.count = 100;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), 0);
    ck_assert_uint_eq(diskio_run_interval_count(run), 0);
    ck_assert_ptr_null(diskio_run_interval(run, 0));
    diskio_run_free(run);
    diskio_target_free(t);
    ck_assert_int_eq(rmdir(dir), 0);
    free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("series");
    TCase *tc = tcase_create("series");
    tcase_add_test(tc, test_boundary_swap);
    tcase_add_test(tc, test_empty_intervals_kept);
    tcase_add_test(tc, test_count_only_grows);
    tcase_add_test(tc, test_merge_by_index);
    tcase_add_test(tc, test_append_repetition);
    tcase_add_test(tc, test_config_rule);
    tcase_add_test(tc, test_run_series);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
