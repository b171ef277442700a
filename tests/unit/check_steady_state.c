/* SPDX-License-Identifier: MIT */
/*
 * Description: the steady-state judge's range, slope and window on recorded series, as SNIA defines them.
 *
 * diskio_steady_* (steady.c) on series of intervals whose figures are
 * known: a window of the last `window` whole intervals after the ramp is
 * steady when (largest - smallest) / average is within range_pct and the
 * least-squares line's change over the window (slope x (window - 1)) /
 * average within slope_pct; a rising series is never steady while it
 * rises, and is once it has been flat for a window; the trend is the
 * slope per minute; the ramp and a run's last, short interval are not
 * judged; an interval without ops (a stall) is never part of a steady
 * window of latencies; the state stays at the first steady window; a
 * run's series is judged as its intervals are, and the intervals a timed
 * loop closed are published for the watch; repetitions keep their own
 * windows, indexed into the merged series.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "diskio_internal.h"
#include "steady.h"
#include "t_helpers.h"

#define S UINT64_C(1000000000)
#define MS UINT64_C(1000000)

/* Interval i of 1 s whose mean latency is mean_ns (ops 100). */
static struct diskio_interval t_iv(size_t i, double mean_ns)
{
    struct diskio_interval iv;
    memset(&iv, 0, sizeof(iv));
    iv.start_ns = i * S;
    iv.duration_ns = S;
    iv.ops = 100;
    iv.mean_ns = mean_ns;
    iv.p99_ns = (uint64_t)(2 * mean_ns);
    return iv;
}

/* A judge of SNIA's window fed values (n of them); returns the index of
 * the first add that made it steady, or -1. */
static int t_feed(struct diskio_steady **s, const double *v, size_t n)
{
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(diskio_steady_new(&spec, S, s), 0);
    int first = -1;
    for (size_t i = 0; i < n; i++) {
        struct diskio_interval iv = t_iv(i, v[i]);
        int rc = diskio_steady_add(*s, &iv);
        ck_assert_int_ge(rc, 0);
        if (rc == 1 && first < 0)
            first = (int)i;
    }
    return first;
}

START_TEST(test_snia_window_figures)
{
    /* average 100, range 20 (20%, the limit: steady), least-squares
     * slope -1.5 per interval over 4 steps: 6% */
    const double v[] = {100, 110, 90, 105, 95};
    struct diskio_steady *s;
    ck_assert_int_eq(t_feed(&s, v, 5), 4);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert(st.attained);
    ck_assert_uint_eq(st.first, 0);
    ck_assert_uint_eq(st.count, 5);
    ck_assert_uint_eq(st.judged, 5);
    ck_assert_double_eq_tol(st.average, 100.0, 1e-9);
    ck_assert_double_eq_tol(st.range_pct, 20.0, 1e-9);
    ck_assert_double_eq_tol(st.slope_pct, 6.0, 1e-9);
    ck_assert_double_eq_tol(st.slope_per_min, -90.0, 1e-9);
    ck_assert_uint_eq(st.start_ns, 0);
    ck_assert_uint_eq(st.end_ns, 5 * S);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_range_beyond_its_limit)
{
    const double v[] = {100, 121, 100, 100, 100};
    struct diskio_steady *s;
    ck_assert_int_eq(t_feed(&s, v, 5), -1);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert(!st.attained);
    ck_assert_double_eq_tol(st.range_pct, 2100.0 / 104.2, 1e-9);
    ck_assert(st.slope_pct <= 10.0);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_slope_beyond_its_limit)
{
    /* a steady climb: range 12/106 = 11.3% (within 20%), the line's
     * change 12/106 as well (beyond 10%) */
    const double v[] = {100, 103, 106, 109, 112};
    struct diskio_steady *s;
    ck_assert_int_eq(t_feed(&s, v, 5), -1);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert(st.range_pct <= 20.0);
    ck_assert_double_eq_tol(st.slope_pct, 1200.0 / 106.0, 1e-9);
    /* 3 per interval of 1 s: 180 per minute, rising */
    ck_assert_double_eq_tol(st.slope_per_min, 180.0, 1e-9);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_rising_then_flat)
{
    /* 1 ms rising by 1 ms a second to 10 ms, then flat: not steady while
     * it rises, steady once the window has (nearly) left the rise */
    double v[30];
    for (size_t i = 0; i < 30; i++)
        v[i] = (double)((i < 10 ? i : 9) + 1) * 1e6;
    struct diskio_steady *s;
    int first = t_feed(&s, v, 10);
    ck_assert_int_eq(first, -1);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert(!st.attained);
    ck_assert_double_eq_tol(st.slope_per_min, 60e6, 1e-3); /* 1 ms a second */
    diskio_steady_free(s);
    first = t_feed(&s, v, 30);
    /* the window of 9, 10, 10, 10, 10 ms (ending at interval 12: range
     * 10.2%, the line's change 8.2%) is the first within both limits;
     * none holding two intervals of the rise is */
    ck_assert_int_ge(first, 10);
    ck_assert_int_le(first, 13);
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert(st.attained);
    ck_assert_uint_eq(st.first, (size_t)first - 4);
    ck_assert(st.average >= 9e6 && st.average <= 10e6);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_ramp_and_short_interval_not_judged)
{
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    spec.window = 3;
    spec.ramp_ns = 2 * S;
    struct diskio_steady *s;
    ck_assert_int_eq(diskio_steady_new(&spec, S, &s), 0);
    /* intervals 0 and 1 in the ramp (wildly off), 2 and 3 flat */
    const double v[] = {1e9, 1, 100, 100};
    for (size_t i = 0; i < 4; i++) {
        struct diskio_interval iv = t_iv(i, v[i]);
        ck_assert_int_eq(diskio_steady_add(s, &iv), 0);
    }
    /* the run's last interval, cut short: not judged */
    struct diskio_interval last = t_iv(4, 100);
    last.duration_ns = S / 2;
    ck_assert_int_eq(diskio_steady_add(s, &last), 0);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert_uint_eq(st.judged, 2);
    ck_assert_uint_eq(st.count, 2);
    ck_assert_uint_eq(st.first, 2);
    ck_assert(!st.attained);
    /* a whole one completes the window: intervals 2, 3, 5 */
    struct diskio_interval iv = t_iv(5, 100);
    ck_assert_int_eq(diskio_steady_add(s, &iv), 1);
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert_uint_eq(st.first, 2);
    ck_assert_uint_eq(st.judged, 3);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_stall_is_never_steady)
{
    struct diskio_steady *s;
    const double v[] = {100, 100, 100, 100};
    ck_assert_int_eq(t_feed(&s, v, 4), -1);
    struct diskio_interval stall = t_iv(4, 0);
    stall.ops = 0;
    ck_assert_int_eq(diskio_steady_add(s, &stall), 0);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert(!st.attained);
    /* the next four flat ones still hold the stall: the fifth does not */
    for (size_t i = 5; i < 9; i++) {
        struct diskio_interval iv = t_iv(i, 100);
        ck_assert_int_eq(diskio_steady_add(s, &iv), 0);
    }
    struct diskio_interval iv = t_iv(9, 100);
    ck_assert_int_eq(diskio_steady_add(s, &iv), 1);
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert_uint_eq(st.first, 5);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_ops_per_second_metric)
{
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    spec.metric = DISKIO_STEADY_OPS;
    spec.window = 2;
    struct diskio_steady *s;
    ck_assert_int_eq(diskio_steady_new(&spec, S / 2, &s), 0);
    struct diskio_interval a = t_iv(0, 1), b = t_iv(1, 1);
    a.duration_ns = b.duration_ns = S / 2;
    a.ops = 500;
    b.ops = 600; /* 1000 and 1200 per second: range 18% */
    ck_assert_int_eq(diskio_steady_add(s, &a), 0);
    ck_assert_int_eq(diskio_steady_add(s, &b), 0); /* slope 200 over one step: 18% */
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert_double_eq_tol(st.average, 1100.0, 1e-9);
    ck_assert_double_eq_tol(st.range_pct, 20000.0 / 1100.0, 1e-9);
    /* 200 per half second: 24000 per minute */
    ck_assert_double_eq_tol(st.slope_per_min, 24000.0, 1e-6);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_state_stays_at_the_first_steady_window)
{
    struct diskio_steady *s;
    const double v[] = {100, 100, 100, 100, 100};
    ck_assert_int_eq(t_feed(&s, v, 5), 4);
    struct diskio_interval wild = t_iv(5, 1e9);
    ck_assert_int_eq(diskio_steady_add(s, &wild), 1);
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_steady_state(s, &st), 0);
    ck_assert_uint_eq(st.first, 0);
    ck_assert_double_eq_tol(st.average, 100.0, 1e-9);
    diskio_steady_free(s);
}
END_TEST

START_TEST(test_spec_checked)
{
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(diskio_steady_spec_check(&spec), 0);
    ck_assert_uint_eq(spec.window, 5);
    ck_assert(spec.range_pct == 20.0 && spec.slope_pct == 10.0 && spec.ramp_ns == 0);
    struct diskio_steady *s = NULL;
    spec.window = 1;
    ck_assert_int_eq(diskio_steady_new(&spec, S, &s), -EINVAL);
    ck_assert_ptr_null(s);
    spec.window = DISKIO_WINDOW_INTERVALS_MAX + 1;
    ck_assert_int_eq(diskio_steady_spec_check(&spec), -EINVAL);
    spec.window = 5;
    spec.range_pct = 0;
    ck_assert_int_eq(diskio_steady_spec_check(&spec), -EINVAL);
    spec.range_pct = NAN;
    ck_assert_int_eq(diskio_steady_spec_check(&spec), -EINVAL);
    spec.range_pct = 20;
    spec.metric = (enum diskio_steady_metric)3;
    ck_assert_int_eq(diskio_steady_spec_check(&spec), -EINVAL);
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(diskio_steady_new(&spec, 0, &s), -EINVAL);
    for (unsigned m = 0; diskio_steady_metric_name((enum diskio_steady_metric)m); m++) {
        enum diskio_steady_metric got;
        ck_assert_int_eq(diskio_steady_metric_parse(diskio_steady_metric_name(m), &got), 0);
        ck_assert_int_eq(got, m);
    }
    enum diskio_steady_metric got;
    ck_assert_int_eq(diskio_steady_metric_parse("median", &got), -EINVAL);
}
END_TEST

/* What the timed loop does with an op that ended at end_ns. */
static void t_op(struct series *s, struct diskio_hist **live, uint64_t end_ns, uint64_t latency_ns)
{
    if (end_ns >= s->next_ns) {
        *live = series_advance(s, end_ns);
        ck_assert_ptr_nonnull(*live);
    }
    hist_record(*live, latency_ns);
}

/* A series of 12 intervals of 1 s, 10 ops each, rising 1 ms a second
 * for 5 s, then flat at 5 ms. */
static struct series *t_rising_series(void)
{
    struct series *s;
    ck_assert_int_eq(series_new(S, 12 * S, 4096, &s), 0);
    struct diskio_hist *live = series_start(s, 0);
    for (uint64_t i = 0; i < 12; i++) {
        const uint64_t lat = (i < 5 ? i + 1 : 5) * MS;
        for (uint64_t k = 0; k < 10; k++)
            t_op(s, &live, i * S + k * (S / 10), lat);
        /* what a watch may read: the intervals before the current one */
        ck_assert_uint_eq(__atomic_load_n(&s->closed, __ATOMIC_ACQUIRE), i);
    }
    ck_assert_int_eq(series_finish(s, 12 * S), 0);
    return s;
}

START_TEST(test_series_judged_as_its_intervals)
{
    struct series *s = t_rising_series();
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    struct diskio_steady_state st, fed;
    ck_assert_int_eq(steady_judge_series(s, 0, s->count, &spec, S, &st), 0);
    struct diskio_steady *judge;
    ck_assert_int_eq(diskio_steady_new(&spec, S, &judge), 0);
    for (size_t i = 0; i < s->count; i++)
        ck_assert_int_ge(diskio_steady_add(judge, &s->iv[i].pub), 0);
    ck_assert_int_eq(diskio_steady_state(judge, &fed), 0);
    diskio_steady_free(judge);
    ck_assert(st.attained && fed.attained);
    ck_assert_uint_eq(st.first, fed.first);
    ck_assert_double_eq_tol(st.average, 5e6, 1e-3);
    /* the window holds no interval of the rise */
    ck_assert_uint_ge(st.first, 4);
    series_free(s);
}
END_TEST

START_TEST(test_repetitions_keep_their_windows)
{
    struct diskio_run *a, *b;
    ck_assert_int_eq(run_alloc("fsync", false, false, &a), 0);
    ck_assert_int_eq(run_alloc("fsync", false, false, &b), 0);
    a->series = t_rising_series();
    b->series = t_rising_series();
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(steady_record(a, &spec, S), 0);
    ck_assert_int_eq(steady_record(b, &spec, S), 0);
    const size_t offset = a->series->count;
    ck_assert_int_eq(diskio_run_merge(a, b), 0);
    struct diskio_steady_state first, second;
    ck_assert_int_eq(diskio_run_steady(a, 0, &first), 0);
    ck_assert_int_eq(diskio_run_steady(a, 1, &second), 0);
    ck_assert_int_eq(diskio_run_steady(a, 2, &second), -EINVAL);
    ck_assert_int_eq(diskio_run_steady(a, 1, &second), 0);
    ck_assert_uint_eq(second.first, first.first + offset);
    /* the second repetition's window, read from the merged series */
    const struct diskio_interval *iv = diskio_run_interval(a, second.first);
    ck_assert_ptr_nonnull(iv);
    ck_assert_uint_eq(iv->repetition, 1);
    diskio_run_free(a);
    diskio_run_free(b);
    /* a run made without config.steady has none */
    struct diskio_run *plain;
    ck_assert_int_eq(diskio_run_new("custom", &plain), 0);
    ck_assert_int_eq(diskio_run_steady(plain, 0, &first), -ENOENT);
    diskio_run_free(plain);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("steady state");
    TCase *tc = tcase_create("judge");
    tcase_add_test(tc, test_snia_window_figures);
    tcase_add_test(tc, test_range_beyond_its_limit);
    tcase_add_test(tc, test_slope_beyond_its_limit);
    tcase_add_test(tc, test_rising_then_flat);
    tcase_add_test(tc, test_ramp_and_short_interval_not_judged);
    tcase_add_test(tc, test_stall_is_never_steady);
    tcase_add_test(tc, test_ops_per_second_metric);
    tcase_add_test(tc, test_state_stays_at_the_first_steady_window);
    tcase_add_test(tc, test_spec_checked);
    tcase_add_test(tc, test_series_judged_as_its_intervals);
    tcase_add_test(tc, test_repetitions_keep_their_windows);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
