/* SPDX-License-Identifier: MIT */
/* check_null's rows for runs, their jobs, parameters, intervals, steady state and preconditions:
 * one function per public function, NULL in every pointer (t_null.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_null.h"

static void null_run_execute(void)
{
    struct diskio_config cfg;
    struct diskio_run *run;
    diskio_config_init(&cfg);
    ck_assert_int_eq(diskio_run_execute(NULL, NULL, &run), -EINVAL);
    ck_assert_int_eq(diskio_run_execute(&cfg, NULL, &run), -EINVAL);
    ck_assert_int_eq(diskio_run_execute(&cfg, NULL, NULL), -EINVAL);
}
static void null_run_options_init(void)
{
    diskio_run_options_init(NULL);
}
static void null_run_execute_opts(void)
{
    struct diskio_config cfg;
    struct diskio_run_options opts;
    struct diskio_run *run;
    diskio_config_init(&cfg);
    diskio_run_options_init(&opts);
    ck_assert_int_eq(diskio_run_execute_opts(NULL, &opts, NULL, &run), -EINVAL);
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, &opts, NULL, &run), -EINVAL);
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, NULL, NULL, NULL), -EINVAL);
}
static void null_run_new(void)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new(NULL, &run), -EINVAL);
    ck_assert_int_eq(diskio_run_new("x", NULL), -EINVAL);
}
static void null_run_enable_parts(void)
{
    ck_assert_int_eq(diskio_run_enable_parts(NULL), -EINVAL);
}
static void null_run_finish(void)
{
    diskio_run_finish(NULL, 1000, 4096);
}
static void null_part_count(void)
{
    ck_assert_uint_gt(diskio_part_count(), 0);
}
static void null_part_name(void)
{
    ck_assert_ptr_null(diskio_part_name((enum diskio_part)diskio_part_count()));
}
static void null_run_hist(void)
{
    ck_assert_ptr_null(diskio_run_hist(NULL, DISKIO_PART_TOTAL));
}
static void null_run_hist_const(void)
{
    ck_assert_ptr_null(diskio_run_hist_const(NULL, DISKIO_PART_TOTAL));
}
static void null_run_info(void)
{
    ck_assert_ptr_null(diskio_run_info(NULL));
}
static void null_run_free(void)
{
    diskio_run_free(NULL);
}
static void null_run_job_count(void)
{
    ck_assert_uint_eq(diskio_run_job_count(NULL), 0);
}
static void null_run_job(void)
{
    struct diskio_job_summary s;
    struct diskio_run *run = t_run();
    ck_assert_int_eq(diskio_run_job(NULL, 0, &s), -EINVAL);
    ck_assert_int_eq(diskio_run_job(run, 0, NULL), -EINVAL);
    diskio_run_free(run);
}
static void null_run_threads(void)
{
    struct diskio_run *run = t_run();
    ck_assert_int_eq(diskio_run_threads(NULL, 1, t_op, NULL, 1), -EINVAL);
    ck_assert_int_eq(diskio_run_threads(run, 1, NULL, NULL, 1), -EINVAL);
    diskio_run_free(run);
}
static void null_run_set_param(void)
{
    struct diskio_run *run = t_run();
    ck_assert_int_eq(diskio_run_set_param(NULL, "k", "v"), -EINVAL);
    ck_assert_int_eq(diskio_run_set_param(run, NULL, "v"), -EINVAL);
    ck_assert_int_eq(diskio_run_set_param(run, "k", NULL), -EINVAL);
    diskio_run_free(run);
}
static void null_run_param(void)
{
    struct diskio_run *run = t_run();
    ck_assert_ptr_null(diskio_run_param(NULL, "k"));
    ck_assert_ptr_null(diskio_run_param(run, NULL));
    diskio_run_free(run);
}
static void null_run_merge(void)
{
    struct diskio_run *run = t_run();
    ck_assert_int_eq(diskio_run_merge(NULL, run), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(run, NULL), -EINVAL);
    diskio_run_free(run);
}
static void null_run_repetitions(void)
{
    ck_assert_uint_eq(diskio_run_repetitions(NULL), 0);
}
static void null_run_interval_count(void)
{
    ck_assert_uint_eq(diskio_run_interval_count(NULL), 0);
}
static void null_run_interval(void)
{
    ck_assert_ptr_null(diskio_run_interval(NULL, 0));
}
static void null_run_interval_hist(void)
{
    struct diskio_run *run = t_run();
    struct diskio_hist *h = t_hist();
    ck_assert_int_eq(diskio_run_interval_hist(NULL, 0, h), -EINVAL);
    ck_assert_int_eq(diskio_run_interval_hist(run, 0, NULL), -EINVAL);
    diskio_hist_free(h);
    diskio_run_free(run);
}
static void null_steady_metric_name(void)
{
    ck_assert_ptr_null(diskio_steady_metric_name((enum diskio_steady_metric)99));
}
static void null_steady_metric_parse(void)
{
    enum diskio_steady_metric m;
    ck_assert_int_eq(diskio_steady_metric_parse(NULL, &m), -EINVAL);
    ck_assert_int_eq(diskio_steady_metric_parse("mean", NULL), -EINVAL);
}
static void null_steady_spec_init(void)
{
    diskio_steady_spec_init(NULL);
}
static void null_steady_spec_check(void)
{
    ck_assert_int_eq(diskio_steady_spec_check(NULL), -EINVAL);
}
static void null_steady_new(void)
{
    struct diskio_steady_spec spec;
    struct diskio_steady *s;
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(diskio_steady_new(NULL, 1000, &s), -EINVAL);
    ck_assert_int_eq(diskio_steady_new(&spec, 1000, NULL), -EINVAL);
}
static void null_steady_add(void)
{
    struct diskio_steady_spec spec;
    struct diskio_steady *s;
    struct diskio_interval iv;
    memset(&iv, 0, sizeof(iv));
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(diskio_steady_new(&spec, 1000, &s), 0);
    ck_assert_int_eq(diskio_steady_add(NULL, &iv), -EINVAL);
    ck_assert_int_eq(diskio_steady_add(s, NULL), -EINVAL);
    diskio_steady_free(s);
}
static void null_steady_state(void)
{
    struct diskio_steady_spec spec;
    struct diskio_steady *s;
    struct diskio_steady_state st;
    diskio_steady_spec_init(&spec);
    ck_assert_int_eq(diskio_steady_new(&spec, 1000, &s), 0);
    ck_assert_int_eq(diskio_steady_state(NULL, &st), -EINVAL);
    ck_assert_int_eq(diskio_steady_state(s, NULL), -EINVAL);
    diskio_steady_free(s);
}
static void null_steady_free(void)
{
    diskio_steady_free(NULL);
}
static void null_run_steady(void)
{
    struct diskio_run *run = t_run();
    struct diskio_steady_state st;
    ck_assert_int_eq(diskio_run_steady(NULL, 0, &st), -EINVAL);
    ck_assert_int_eq(diskio_run_steady(run, 0, NULL), -EINVAL);
    diskio_run_free(run);
}
static void null_target_precondition(void)
{
    struct diskio_precondition p;
    ck_assert_int_eq(diskio_target_precondition(NULL, 4096, NULL, NULL, &p), -EINVAL);
}
static void null_result_set_precondition(void)
{
    struct diskio_result *res = NULL;
    struct diskio_precondition p;
    memset(&p, 0, sizeof(p));
    ck_assert_int_eq(diskio_result_new("x", &res), 0);
    ck_assert_int_eq(diskio_result_set_precondition(NULL, &p), -EINVAL);
    ck_assert_int_eq(diskio_result_set_precondition(res, NULL), -EINVAL);
    diskio_result_free(res);
}

const struct t_null_row t_null_run_rows[] = {
    T_NULL_ROW(run_execute),
    T_NULL_ROW(run_options_init),
    T_NULL_ROW(run_execute_opts),
    T_NULL_ROW(run_new),
    T_NULL_ROW(part_count),
    T_NULL_ROW(part_name),
    T_NULL_ROW(run_enable_parts),
    T_NULL_ROW(run_finish),
    T_NULL_ROW(run_hist),
    T_NULL_ROW(run_hist_const),
    T_NULL_ROW(run_info),
    T_NULL_ROW(run_free),
    T_NULL_ROW(run_job_count),
    T_NULL_ROW(run_job),
    T_NULL_ROW(run_threads),
    T_NULL_ROW(run_set_param),
    T_NULL_ROW(run_param),
    T_NULL_ROW(run_merge),
    T_NULL_ROW(run_repetitions),
    T_NULL_ROW(run_interval_count),
    T_NULL_ROW(run_interval),
    T_NULL_ROW(run_interval_hist),
    T_NULL_ROW(steady_metric_name),
    T_NULL_ROW(steady_metric_parse),
    T_NULL_ROW(steady_spec_init),
    T_NULL_ROW(steady_spec_check),
    T_NULL_ROW(steady_new),
    T_NULL_ROW(steady_add),
    T_NULL_ROW(steady_state),
    T_NULL_ROW(steady_free),
    T_NULL_ROW(run_steady),
    T_NULL_ROW(target_precondition),
    T_NULL_ROW(result_set_precondition),
};
const size_t t_null_run_count = sizeof(t_null_run_rows) / sizeof(t_null_run_rows[0]);
