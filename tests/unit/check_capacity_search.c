/* SPDX-License-Identifier: MIT */
/*
 * Description: the capacity search finds a modelled capacity, keeps its curve, and confirms it or says not.
 *
 * diskio_capacity_search() with a measurement of its own (the way a
 * custom test calls it): a model of a store with a fixed service time S
 * per op, one op at a time per committer (a queue: an op due while its
 * committer's previous one runs waits, and its latency counts from when
 * it was due).  Its capacity is committers / S; the search must find it
 * within 2% (the bracket's tolerance) for a p90 target of 1.5 S, with
 * the saturation point first (offered 0, achieved 1 / S), every step
 * kept in order, a bracket (the lowest missed rate above the answer),
 * and a confirming run last.  A target below the service time is met by
 * no rate: not found, and said so.  Of two counts of committers the one
 * with the higher capacity is the answer.  A store whose capacity falls
 * on a longer run (burst credits) misses its confirmation: the search
 * steps down, and claims only a rate a confirming run met.  A failed measurement
 * ends the search with its error and its run.  A budget too small for
 * a searching point measures the saturation point only.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "diskio.h"
#include "t_helpers.h"

#define MS UINT64_C(1000000)
#define S_NS (10 * MS)

/* The model: service time, and what else it does. */
struct model {
    uint64_t service_ns;
    uint64_t long_run_ns;     /* runs this long or longer ... */
    uint64_t long_service_ns; /* ... have this service time (burst credits spent) */
    int fail_at;              /* the measurement that fails (from 1; 0: none) */
    int calls;
};

/* One committer's ops at rate r (0: back to back) for runtime ns into h:
 * each due every committers/r, started when due and its predecessor
 * done, ended S later; the run stops at the first op starting past its
 * runtime.  Returns the ops. */
static uint64_t t_committer(struct diskio_hist *h, double rate, unsigned committers, unsigned c,
                            uint64_t runtime_ns, uint64_t service_ns)
{
    const double interval = rate > 0 ? 1e9 * committers / rate : 0;
    double due = rate > 0 ? 1e9 * c / rate : 0, end = 0;
    uint64_t ops = 0;
    for (;;) {
        const double start = due > end ? due : end;
        if (start >= (double)runtime_ns)
            return ops;
        end = start + (double)service_ns;
        diskio_hist_record(h, (uint64_t)(end - (rate > 0 ? due : start)));
        ops++;
        due = rate > 0 ? due + interval : end;
    }
}

static int t_measure(void *ctx, double rate, unsigned committers, uint64_t runtime_ns,
                     struct diskio_run **out)
{
    struct model *m = ctx;
    ck_assert_int_eq(diskio_run_new("model", out), 0);
    if (++m->calls == m->fail_at) {
        diskio_run_finish(*out, 0, 0);
        return -EIO;
    }
    struct diskio_hist *h = diskio_run_hist(*out, DISKIO_PART_TOTAL);
    const uint64_t service =
        m->long_run_ns && runtime_ns >= m->long_run_ns ? m->long_service_ns : m->service_ns;
    uint64_t ops = 0;
    for (unsigned c = 0; c < committers; c++)
        ops += t_committer(h, rate, committers, c, runtime_ns, service);
    diskio_run_finish(*out, runtime_ns, ops * 8192);
    return 0;
}

static void t_spec(struct diskio_capacity_spec *spec, uint64_t target_ns)
{
    diskio_capacity_spec_init(spec);
    ck_assert(spec->percentile == 99.0 && spec->budget_ns == UINT64_C(60000000000));
    spec->percentile = 90.0;
    spec->target_ns = target_ns;
    spec->point_ns = UINT64_C(1000000000);
    spec->confirm_ns = UINT64_C(3000000000);
}

START_TEST(test_finds_the_capacity_of_a_fixed_service_time)
{
    struct model m = {.service_ns = S_NS};
    struct diskio_capacity_spec spec;
    t_spec(&spec, S_NS * 3 / 2);
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), 0);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), 0);
    printf("capacity %.2f/s (bracket to %.2f), %zu steps\n", cap.ops_per_s, cap.high_ops_per_s,
           cap.nsteps);
    ck_assert(cap.found && cap.confirmed);
    ck_assert_uint_eq(cap.committers, 1);
    /* 1 / 10 ms: 100 per second, within the bracket's 2% */
    ck_assert(fabs(cap.ops_per_s - 100.0) <= 2.0);
    ck_assert(cap.high_ops_per_s > cap.ops_per_s);
    ck_assert(cap.high_ops_per_s - cap.ops_per_s <= 0.02 * cap.high_ops_per_s + 1e-9);
    ck_assert(cap.percentile == 90.0 && cap.target_ns == S_NS * 3 / 2);
    /* the steps: saturation first, the confirmation last, at the answer */
    const struct diskio_capacity_step *first = diskio_run_capacity_step(run, 0);
    const struct diskio_capacity_step *last = diskio_run_capacity_step(run, cap.nsteps - 1);
    ck_assert_ptr_null(diskio_run_capacity_step(run, cap.nsteps));
    ck_assert_int_eq(first->phase, DISKIO_CAPACITY_SATURATION);
    ck_assert(first->offered_ops_per_s == 0);
    ck_assert(fabs(first->achieved_ops_per_s - 100.0) < 1.0);
    ck_assert_int_eq(last->phase, DISKIO_CAPACITY_CONFIRM);
    ck_assert(last->met && last->offered_ops_per_s == cap.ops_per_s);
    /* each step says what it measured: met when its p90 is within */
    for (size_t i = 1; i + 1 < cap.nsteps; i++) {
        const struct diskio_capacity_step *st = diskio_run_capacity_step(run, i);
        ck_assert_int_eq(st->phase, DISKIO_CAPACITY_SEARCH);
        ck_assert(st->met == (st->pct_ns <= spec.target_ns));
        ck_assert(st->p50_ns <= st->pct_ns && st->pct_ns <= st->max_ns);
        ck_assert(st->met || st->offered_ops_per_s > 100.0);
    }
    ck_assert_str_eq(diskio_capacity_phase_name(DISKIO_CAPACITY_CONFIRM), "confirm");
    diskio_run_free(run);
}
END_TEST

START_TEST(test_a_target_below_the_service_time_is_not_met)
{
    struct model m = {.service_ns = S_NS};
    struct diskio_capacity_spec spec;
    t_spec(&spec, S_NS / 2);
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), 0);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), 0);
    ck_assert(!cap.found && !cap.confirmed);
    ck_assert(cap.ops_per_s == 0);
    for (size_t i = 0; i < cap.nsteps; i++)
        ck_assert(!diskio_run_capacity_step(run, i)->met);
    /* it went down to a hundredth of the saturation rate */
    ck_assert(diskio_run_capacity_step(run, cap.nsteps - 1)->offered_ops_per_s < 2.0);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_the_committers_with_the_higher_capacity_win)
{
    struct model m = {.service_ns = S_NS};
    struct diskio_capacity_spec spec;
    t_spec(&spec, S_NS * 3 / 2);
    const unsigned counts[] = {1, 2};
    spec.committers = counts;
    spec.ncommitters = 2;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), 0);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), 0);
    ck_assert_uint_eq(cap.committers, 2);
    ck_assert(fabs(cap.ops_per_s - 200.0) <= 4.0);
    /* both counts were searched, each from its own saturation point */
    unsigned saturations = 0;
    for (size_t i = 0; i < cap.nsteps; i++)
        saturations += diskio_run_capacity_step(run, i)->phase == DISKIO_CAPACITY_SATURATION;
    ck_assert_uint_eq(saturations, 2);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_a_confirmation_missed_is_not_claimed)
{
    /* runs of the confirmation's length see 10.5 ms of service: 95.2/s */
    struct model m = {
        .service_ns = S_NS, .long_run_ns = UINT64_C(3000000000), .long_service_ns = S_NS * 21 / 20};
    struct diskio_capacity_spec spec;
    t_spec(&spec, S_NS * 3 / 2);
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), 0);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), 0);
    unsigned confirms = 0;
    double first_confirm = 0;
    for (size_t i = 0; i < cap.nsteps; i++) {
        const struct diskio_capacity_step *st = diskio_run_capacity_step(run, i);
        if (st->phase == DISKIO_CAPACITY_CONFIRM && confirms++ == 0)
            first_confirm = st->offered_ops_per_s;
    }
    ck_assert_uint_ge(confirms, 2);
    ck_assert(cap.ops_per_s < first_confirm);
    /* confirmed at what the long run holds (95.2/s, stepping down 3%),
     * by a confirming run of its own */
    ck_assert(cap.confirmed);
    const struct diskio_capacity_step *last = diskio_run_capacity_step(run, cap.nsteps - 1);
    ck_assert_int_eq(last->phase, DISKIO_CAPACITY_CONFIRM);
    ck_assert(last->met && last->offered_ops_per_s == cap.ops_per_s);
    ck_assert(cap.ops_per_s <= 1e9 / (double)m.long_service_ns && cap.ops_per_s >= 90.0);
    ck_assert(cap.high_ops_per_s > cap.ops_per_s);
    printf("confirmed %s at %.2f/s after %u confirmations (the first at %.2f/s)\n",
           cap.confirmed ? "yes" : "no", cap.ops_per_s, confirms, first_confirm);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_a_failed_measurement_ends_the_search)
{
    struct model m = {.service_ns = S_NS, .fail_at = 3};
    struct diskio_capacity_spec spec;
    t_spec(&spec, S_NS * 3 / 2);
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), -EIO);
    ck_assert_ptr_nonnull(run);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), 0);
    ck_assert_uint_eq(cap.nsteps, 3);
    ck_assert_int_eq(m.calls, 3);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_a_budget_too_small_measures_the_saturation_only)
{
    struct model m = {.service_ns = S_NS};
    struct diskio_capacity_spec spec;
    t_spec(&spec, S_NS * 3 / 2);
    spec.budget_ns = MS;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), 0);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), 0);
    ck_assert_uint_eq(cap.nsteps, 1);
    ck_assert(!cap.found);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_bad_specs_are_refused)
{
    struct model m = {.service_ns = S_NS};
    struct diskio_capacity_spec spec;
    struct diskio_run *run = NULL;
    t_spec(&spec, 0);
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), -EINVAL);
    t_spec(&spec, S_NS);
    spec.percentile = 101;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), -EINVAL);
    t_spec(&spec, S_NS);
    const unsigned none[] = {0};
    spec.committers = none;
    spec.ncommitters = 1;
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, &m, &run), -EINVAL);
    ck_assert_ptr_null(run);
    ck_assert_int_eq(m.calls, 0);
    /* a run without a search has no capacity */
    ck_assert_int_eq(diskio_run_new("plain", &run), 0);
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(run, &cap), -ENOENT);
    ck_assert_ptr_null(diskio_run_capacity_step(run, 0));
    diskio_run_free(run);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("capacity search");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, test_finds_the_capacity_of_a_fixed_service_time);
    tcase_add_test(tc, test_a_target_below_the_service_time_is_not_met);
    tcase_add_test(tc, test_the_committers_with_the_higher_capacity_win);
    tcase_add_test(tc, test_a_confirmation_missed_is_not_claimed);
    tcase_add_test(tc, test_a_failed_measurement_ends_the_search);
    tcase_add_test(tc, test_a_budget_too_small_measures_the_saturation_only);
    tcase_add_test(tc, test_bad_specs_are_refused);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
