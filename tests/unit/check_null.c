/* SPDX-License-Identifier: MIT */
/*
 * Description: every public function given NULL fails the way its man page says.
 *
 * the one rule for NULL (libdiskio(3), CONVENTIONS): every
 * public function given NULL for an object or for a place to write fails
 * the way its RETURN VALUE says it fails -- -EINVAL from a function that
 * returns an int, NULL from one that returns a pointer, 0, 0.0 or false
 * from one that returns a number or a bool, nothing at all from a void
 * one -- and never crashes.  One row per function of the public header;
 * a function the header declares that has no row fails the test, so a new
 * function cannot escape the rule.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskio.h"
#include "t_helpers.h"

#ifndef DISKIO_HEADER
#error "DISKIO_HEADER: the path of the generated include/diskio.h"
#endif

/* A histogram, run, result, target and config to pass beside a NULL. */
static struct diskio_hist *t_hist(void)
{
    struct diskio_hist *h = NULL;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    return h;
}

static struct diskio_run *t_run(void)
{
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_new("custom", &run), 0);
    return run;
}

static int64_t t_op(void *arg, unsigned thread, uint64_t i)
{
    (void)arg;
    (void)thread;
    (void)i;
    return 0;
}

/* ---- one function per public function: NULL in every pointer ---- */

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
static void null_mode_name(void)
{
    ck_assert_ptr_null(diskio_mode_name((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_count(void)
{
    ck_assert_uint_gt(diskio_mode_count(), 0); /* no pointer argument */
}
static void null_mode_parse(void)
{
    enum diskio_mode m;
    ck_assert_int_eq(diskio_mode_parse(NULL, &m), -EINVAL);
    ck_assert_int_eq(diskio_mode_parse("fsync", NULL), -EINVAL);
}
static void null_mode_is_direct(void)
{
    ck_assert(!diskio_mode_is_direct((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_is_queued(void)
{
    ck_assert(!diskio_mode_is_queued((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_syncs(void)
{
    ck_assert(!diskio_mode_syncs((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_is_read(void)
{
    ck_assert(!diskio_mode_is_read((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_is_durable(void)
{
    ck_assert(!diskio_mode_is_durable((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_pg_wal_sync_method(void)
{
    ck_assert_ptr_null(diskio_mode_pg_wal_sync_method((enum diskio_mode)diskio_mode_count()));
}
static void null_pattern_name(void)
{
    ck_assert_ptr_null(diskio_pattern_name((enum diskio_pattern)99));
}
static void null_pattern_count(void)
{
    ck_assert_uint_gt(diskio_pattern_count(), 0);
}
static void null_pattern_grows_file(void)
{
    ck_assert(!diskio_pattern_grows_file((enum diskio_pattern)diskio_pattern_count()));
}
static void null_pattern_parse(void)
{
    enum diskio_pattern p;
    ck_assert_int_eq(diskio_pattern_parse(NULL, &p), -EINVAL);
    ck_assert_int_eq(diskio_pattern_parse("seq", NULL), -EINVAL);
}
static void null_format_parse(void)
{
    enum diskio_format f;
    ck_assert_int_eq(diskio_format_parse(NULL, &f), -EINVAL);
    ck_assert_int_eq(diskio_format_parse("json", NULL), -EINVAL);
}
static void null_format_count(void)
{
    ck_assert_uint_gt(diskio_format_count(), 0);
}
static void null_format_name(void)
{
    ck_assert_ptr_null(diskio_format_name((enum diskio_format)diskio_format_count()));
}
static void null_config_init(void)
{
    diskio_config_init(NULL);
}
static void null_config_validate(void)
{
    struct diskio_config_verdict v;
    ck_assert_int_eq(diskio_config_validate(NULL, &v), -EINVAL);
    ck_assert_ptr_nonnull(v.message);
    ck_assert_int_eq(diskio_config_validate(NULL, NULL), -EINVAL);
}
static void null_config_validate_target(void)
{
    struct diskio_config_verdict v;
    ck_assert_int_eq(diskio_config_validate_target(NULL, DISKIO_TARGET_DEVICE, &v), -EINVAL);
    ck_assert_ptr_nonnull(v.message);
    ck_assert_int_eq(diskio_config_validate_target(NULL, 0, NULL), -EINVAL);
}
static void null_config_check(void)
{
    ck_assert_int_eq(diskio_config_check(NULL), -EINVAL);
}
static void null_config_problem(void)
{
    /* its failure is a sentence: NULL would say "nothing is wrong" */
    ck_assert_ptr_nonnull(diskio_config_problem(NULL));
}
static void null_target_open(void)
{
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(NULL, 4096, 0, &t), -EINVAL);
    ck_assert_int_eq(diskio_target_open(".", 4096, 0, NULL), -EINVAL);
}
static void null_target_check(void)
{
    ck_assert_int_eq(diskio_target_check(NULL, 0), -EINVAL);
}
static void null_target_path(void)
{
    ck_assert_ptr_null(diskio_target_path(NULL));
}
static void null_target_dir(void)
{
    ck_assert_ptr_null(diskio_target_dir(NULL));
}
static void null_target_check_mode(void)
{
    ck_assert_int_eq(diskio_target_check_mode(NULL, DISKIO_MODE_FSYNC), -EINVAL);
}
static void null_target_direct_align(void)
{
    uint64_t a, b;
    ck_assert_int_eq(diskio_target_direct_align(NULL, &a, &b), -EINVAL);
}
static void null_buffer_align(void)
{
    ck_assert_uint_ge(diskio_buffer_align(), 512); /* no pointer argument */
}
static void null_target_is_device(void)
{
    ck_assert(!diskio_target_is_device(NULL));
}
static void null_target_size(void)
{
    ck_assert_uint_eq(diskio_target_size(NULL), 0);
}
static void null_target_check_space(void)
{
    ck_assert_int_eq(diskio_target_check_space(NULL, 4096, NULL, NULL, NULL), -EINVAL);
}
static void null_target_remove(void)
{
    ck_assert_int_eq(diskio_target_remove(NULL), -EINVAL);
}
static void null_target_keep(void)
{
    ck_assert_int_eq(diskio_target_keep(NULL), -EINVAL);
}
static void null_target_free(void)
{
    diskio_target_free(NULL);
}
static void null_target_unlink_now(void)
{
    diskio_target_unlink_now(NULL);
}
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
static void null_config_validate_opts(void)
{
    struct diskio_config_verdict v;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    ck_assert_int_eq(diskio_config_validate_opts(NULL, &opts, 0, &v), -EINVAL);
    ck_assert_ptr_nonnull(v.message);
    ck_assert_int_eq(diskio_config_validate_opts(NULL, NULL, 0, NULL), -EINVAL);
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

#define ROW(fn)                                                                                    \
    {                                                                                              \
        "diskio_" #fn, null_##fn                                                                   \
    }
static const struct {
    const char *name;
    void (*call)(void);
} rows[] = {
    ROW(version),
    ROW(check_version),
    ROW(strerror),
    ROW(now_ns),
    ROW(timer_overhead_ns),
    ROW(hist_memory_size),
    ROW(hist_new),
    ROW(hist_init),
    ROW(hist_free),
    ROW(hist_reset),
    ROW(hist_record),
    ROW(hist_record_n),
    ROW(hist_record_corrected),
    ROW(hist_merge),
    ROW(hist_count),
    ROW(hist_min),
    ROW(hist_max),
    ROW(hist_overflow),
    ROW(hist_mean),
    ROW(hist_stddev),
    ROW(hist_percentile),
    ROW(hist_percentiles),
    ROW(hist_copy_live),
    ROW(hist_bucket_bounds),
    ROW(hist_iter_init),
    ROW(hist_iter_next),
    ROW(mode_count),
    ROW(mode_name),
    ROW(mode_parse),
    ROW(mode_is_direct),
    ROW(mode_is_queued),
    ROW(mode_syncs),
    ROW(mode_is_read),
    ROW(mode_is_durable),
    ROW(mode_pg_wal_sync_method),
    ROW(pattern_count),
    ROW(pattern_name),
    ROW(pattern_parse),
    ROW(pattern_grows_file),
    ROW(format_parse),
    ROW(format_count),
    ROW(format_name),
    ROW(config_init),
    ROW(config_validate),
    ROW(config_validate_target),
    ROW(config_check),
    ROW(config_problem),
    ROW(target_open),
    ROW(target_check),
    ROW(target_path),
    ROW(target_dir),
    ROW(target_check_mode),
    ROW(target_direct_align),
    ROW(buffer_align),
    ROW(target_is_device),
    ROW(target_size),
    ROW(target_check_space),
    ROW(target_remove),
    ROW(target_keep),
    ROW(target_free),
    ROW(target_unlink_now),
    ROW(run_execute),
    ROW(run_options_init),
    ROW(run_execute_opts),
    ROW(config_validate_opts),
    ROW(run_new),
    ROW(part_count),
    ROW(part_name),
    ROW(run_enable_parts),
    ROW(run_finish),
    ROW(run_hist),
    ROW(run_hist_const),
    ROW(run_info),
    ROW(run_free),
    ROW(run_job_count),
    ROW(run_job),
    ROW(run_threads),
    ROW(run_set_param),
    ROW(run_param),
    ROW(run_merge),
    ROW(run_repetitions),
    ROW(run_interval_count),
    ROW(run_interval),
    ROW(run_interval_hist),
    ROW(steady_metric_name),
    ROW(steady_metric_parse),
    ROW(steady_spec_init),
    ROW(steady_spec_check),
    ROW(steady_new),
    ROW(steady_add),
    ROW(steady_state),
    ROW(steady_free),
    ROW(run_steady),
    ROW(target_precondition),
    ROW(result_set_precondition),
    ROW(capacity_phase_name),
    ROW(capacity_spec_init),
    ROW(capacity_search),
    ROW(capacity_execute),
    ROW(capacity_execute_opts),
    ROW(run_capacity),
    ROW(run_capacity_step),
    ROW(run_device_count),
    ROW(run_device_io),
    ROW(run_verdicts),
    ROW(run_direct),
    ROW(verdict_name),
    ROW(verdict_text),
    ROW(result_new),
    ROW(result_probe),
    ROW(result_env),
    ROW(result_add_run),
    ROW(result_run_count),
    ROW(result_run),
    ROW(result_set_incomplete),
    ROW(result_complete),
    ROW(result_set_percentiles),
    ROW(result_set_throughput_unit),
    ROW(result_set_suite),
    ROW(result_write),
    ROW(result_free),
};
#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

/* Each function on its own (a fork each): one that crashes is named. */
START_TEST(test_null_is_refused_as_the_man_page_says)
{
    fprintf(stderr, "%s\n", rows[_i].name);
    rows[_i].call();
}
END_TEST

/* Every function the public header declares (as tests/check-exports.sh
 * reads it: each diskio_NAME followed by a parenthesis) has a row. */
START_TEST(test_every_declared_function_has_a_row)
{
    FILE *in = fopen(DISKIO_HEADER, "r");
    ck_assert_msg(in != NULL, "cannot read %s", DISKIO_HEADER);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof(text) - 1, in);
    fclose(in);
    text[len] = '\0';
    int declared = 0;
    for (const char *p = text; (p = strstr(p, "diskio_")) != NULL;) {
        const char *start = p;
        if (start > text && (isalnum((unsigned char)start[-1]) || start[-1] == '_')) {
            p += 7;
            continue;
        }
        p += 7;
        while (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_')
            p++;
        if (*p != '(')
            continue;
        char name[64];
        snprintf(name, sizeof(name), "%.*s", (int)(p - start), start);
        bool found = false;
        for (int r = 0; r < NROWS && !found; r++)
            found = strcmp(rows[r].name, name) == 0;
        ck_assert_msg(found, "%s is declared in diskio.h but has no row in check_null.c", name);
        declared++;
    }
    ck_assert_int_ge(declared, NROWS);
}
END_TEST

/* The mean of values whose sum passes 2^64 is still exact (the sum is
 * kept modulo 2^64 by the record path, which stays one add). */
START_TEST(test_mean_of_huge_values_is_exact)
{
    struct diskio_hist *h = t_hist();
    diskio_hist_record(h, UINT64_MAX);
    diskio_hist_record(h, UINT64_MAX);
    ck_assert_msg(diskio_hist_mean(h) == (double)UINT64_MAX, "mean %.17g", diskio_hist_mean(h));
    ck_assert(diskio_hist_stddev(h) == 0.0);
    diskio_hist_reset(h);
    /* a spread that passes 2^64 too: 3 * 2^63 and 1 */
    const uint64_t big = UINT64_C(1) << 63;
    diskio_hist_record_n(h, big, 3);
    diskio_hist_record(h, 1);
    double want = ((double)big * 3.0 + 1.0) / 4.0;
    ck_assert_msg(diskio_hist_mean(h) > want * 0.999999 && diskio_hist_mean(h) < want * 1.000001,
                  "mean %.17g, want %.17g", diskio_hist_mean(h), want);
    diskio_hist_free(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("null");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_null_is_refused_as_the_man_page_says, 0, NROWS);
    tcase_add_test(tc, test_every_declared_function_has_a_row);
    tcase_add_test(tc, test_mean_of_huge_values_is_exact);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
