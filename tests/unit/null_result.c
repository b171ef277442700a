/* SPDX-License-Identifier: MIT */
/* check_null's rows for capacity, device accounting, verdicts and the result:
 * one function per public function, NULL in every pointer (t_null.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_null.h"

static void null_capacity_phase_name(void)
{
    ck_assert_ptr_null(diskio_capacity_phase_name((enum diskio_capacity_phase)99));
}
static void null_capacity_spec_init(void)
{
    diskio_capacity_spec_init(NULL);
}
static int t_measure(void *ctx, double rate, unsigned committers, uint64_t runtime_ns,
                     struct diskio_run **out)
{
    (void)ctx;
    (void)rate;
    (void)committers;
    (void)runtime_ns;
    *out = NULL;
    return -EIO;
}
static void null_capacity_search(void)
{
    struct diskio_capacity_spec spec;
    struct diskio_run *run = (struct diskio_run *)&spec; /* to be cleared */
    diskio_capacity_spec_init(&spec);
    spec.target_ns = 1000000;
    ck_assert_int_eq(diskio_capacity_search(NULL, t_measure, NULL, &run), -EINVAL);
    ck_assert_ptr_null(run);
    ck_assert_int_eq(diskio_capacity_search(&spec, NULL, NULL, &run), -EINVAL);
    ck_assert_int_eq(diskio_capacity_search(&spec, t_measure, NULL, NULL), -EINVAL);
}
static void null_capacity_execute(void)
{
    struct diskio_capacity_spec spec;
    struct diskio_config cfg;
    struct diskio_run *run;
    diskio_capacity_spec_init(&spec);
    diskio_config_init(&cfg);
    ck_assert_int_eq(diskio_capacity_execute(NULL, NULL, &spec, &run), -EINVAL);
    ck_assert_int_eq(diskio_capacity_execute(&cfg, NULL, &spec, &run), -EINVAL);
}
static void null_capacity_execute_opts(void)
{
    struct diskio_capacity_spec spec;
    struct diskio_config cfg;
    struct diskio_run *run;
    diskio_capacity_spec_init(&spec);
    diskio_config_init(&cfg);
    ck_assert_int_eq(diskio_capacity_execute_opts(NULL, NULL, NULL, &spec, &run), -EINVAL);
    ck_assert_int_eq(diskio_capacity_execute_opts(&cfg, NULL, NULL, &spec, &run), -EINVAL);
    ck_assert_int_eq(diskio_capacity_execute_opts(&cfg, NULL, NULL, NULL, NULL), -EINVAL);
}
static void null_run_capacity(void)
{
    struct diskio_run *run = t_run();
    struct diskio_capacity cap;
    ck_assert_int_eq(diskio_run_capacity(NULL, &cap), -EINVAL);
    ck_assert_int_eq(diskio_run_capacity(run, NULL), -EINVAL);
    diskio_run_free(run);
}
static void null_run_capacity_step(void)
{
    ck_assert_ptr_null(diskio_run_capacity_step(NULL, 0));
}
static void null_run_device_count(void)
{
    ck_assert_uint_eq(diskio_run_device_count(NULL), 0);
}
static void null_run_device_io(void)
{
    ck_assert_ptr_null(diskio_run_device_io(NULL, 0));
}
static void null_run_verdicts(void)
{
    ck_assert_uint_eq(diskio_run_verdicts(NULL), 0);
}
static void null_run_direct(void)
{
    struct diskio_run *run = t_run();
    struct diskio_direct d;
    ck_assert_int_eq(diskio_run_direct(NULL, &d), -EINVAL);
    ck_assert_int_eq(diskio_run_direct(run, NULL), -EINVAL);
    diskio_run_free(run);
}
static void null_verdict_name(void)
{
    ck_assert_ptr_null(diskio_verdict_name((enum diskio_verdict)0));
}
static void null_verdict_text(void)
{
    ck_assert_ptr_null(diskio_verdict_text((enum diskio_verdict)0));
}
static void null_result_new(void)
{
    struct diskio_result *res = NULL;
    ck_assert_int_eq(diskio_result_new("x", NULL), -EINVAL);
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0); /* label is optional */
    diskio_result_free(res);
}
static void null_result_probe(void)
{
    struct diskio_result *res = NULL;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_probe(NULL, "."), -EINVAL);
    ck_assert_int_eq(diskio_result_probe(res, NULL), -EINVAL);
    diskio_result_free(res);
}
static void null_result_env(void)
{
    struct diskio_result *res = NULL;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_ptr_null(diskio_result_env(NULL, "kernel.release"));
    ck_assert_ptr_null(diskio_result_env(res, NULL));
    diskio_result_free(res);
}
static void null_result_add_run(void)
{
    struct diskio_result *res = NULL;
    struct diskio_run *run = t_run();
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(NULL, run), -EINVAL);
    ck_assert_int_eq(diskio_result_add_run(res, NULL), -EINVAL);
    ck_assert_uint_eq(diskio_result_run_count(res), 0);
    diskio_run_free(run); /* not taken: still the caller's */
    diskio_result_free(res);
}
static void null_result_run_count(void)
{
    ck_assert_uint_eq(diskio_result_run_count(NULL), 0);
}
static void null_result_run(void)
{
    ck_assert_ptr_null(diskio_result_run(NULL, 0));
}
static void null_result_set_incomplete(void)
{
    diskio_result_set_incomplete(NULL);
}
static void null_result_complete(void)
{
    ck_assert(!diskio_result_complete(NULL));
}
static void null_result_percentiles(void)
{
    const double *pcts = NULL;
    ck_assert_uint_gt(diskio_result_percentiles(NULL, &pcts), 0);
    ck_assert_ptr_nonnull(pcts);
    ck_assert_uint_gt(diskio_result_percentiles(NULL, NULL), 0);
}
static void null_result_set_percentiles(void)
{
    struct diskio_result *res = NULL;
    double p[1] = {50.0};
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_set_percentiles(NULL, p, 1), -EINVAL);
    ck_assert_int_eq(diskio_result_set_percentiles(res, NULL, 1), -EINVAL);
    diskio_result_free(res);
}
static void null_result_set_throughput_unit(void)
{
    ck_assert_int_eq(diskio_result_set_throughput_unit(NULL, DISKIO_THROUGHPUT_MB_PER_S), -EINVAL);
}
static void null_result_set_suite(void)
{
    struct diskio_result *res = NULL;
    struct diskio_suite_row row = {.label = "a", .column = "w", .run = 0};
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_set_suite(NULL, "s", NULL, NULL, &row, 1), -EINVAL);
    ck_assert_int_eq(diskio_result_set_suite(res, NULL, NULL, NULL, &row, 1), -EINVAL);
    ck_assert_int_eq(diskio_result_set_suite(res, "s", NULL, NULL, NULL, 1), -EINVAL);
    diskio_result_free(res);
}
static void null_result_write(void)
{
    struct diskio_result *res = NULL;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_write(NULL, DISKIO_FORMAT_JSON, stdout), -EINVAL);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_JSON, NULL), -EINVAL);
    diskio_result_free(res);
}
static void null_result_free(void)
{
    diskio_result_free(NULL);
}

const struct t_null_row t_null_result_rows[] = {
    T_NULL_ROW(capacity_phase_name),
    T_NULL_ROW(capacity_spec_init),
    T_NULL_ROW(capacity_search),
    T_NULL_ROW(capacity_execute),
    T_NULL_ROW(capacity_execute_opts),
    T_NULL_ROW(run_capacity),
    T_NULL_ROW(run_capacity_step),
    T_NULL_ROW(run_device_count),
    T_NULL_ROW(run_device_io),
    T_NULL_ROW(run_verdicts),
    T_NULL_ROW(run_direct),
    T_NULL_ROW(verdict_name),
    T_NULL_ROW(verdict_text),
    T_NULL_ROW(result_new),
    T_NULL_ROW(result_probe),
    T_NULL_ROW(result_env),
    T_NULL_ROW(result_add_run),
    T_NULL_ROW(result_run_count),
    T_NULL_ROW(result_run),
    T_NULL_ROW(result_set_incomplete),
    T_NULL_ROW(result_complete),
    T_NULL_ROW(result_set_percentiles),
    T_NULL_ROW(result_percentiles),
    T_NULL_ROW(result_set_throughput_unit),
    T_NULL_ROW(result_set_suite),
    T_NULL_ROW(result_write),
    T_NULL_ROW(result_free),
};
const size_t t_null_result_count = sizeof(t_null_result_rows) / sizeof(t_null_result_rows[0]);
