/* SPDX-License-Identifier: MIT */
/*
 * Description: several jobs or threads in one run: the rules, their files and their figures.
 *
 * several jobs in one run.  The config rules (jobs 1 to
 * DISKIO_JOBS_MAX, no fixed rate, trace or shared append with several);
 * diskio_run_execute with jobs: every job does count ops into its own
 * file (created beside the target's and removed with it) or into the one
 * shared file, and the per-job figures add up to the run's;
 * diskio_run_threads: the merged count is the sum of the threads', each
 * thread's figures are kept, an op error stops every thread and is
 * reported with its thread; a custom run's parameters.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "diskio.h"
#include "t_helpers.h"

static enum diskio_config_rule rule_of(const struct diskio_config *cfg)
{
    struct diskio_config_verdict v;
    diskio_config_validate(cfg, &v);
    return v.rule;
}

START_TEST(test_jobs_rules)
{
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    ck_assert_uint_eq(cfg.jobs, 1);
    cfg.jobs = 0; /* a caller's zeroed config: one job */
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_OK);
    cfg.jobs = DISKIO_JOBS_MAX;
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_OK);
    cfg.jobs = DISKIO_JOBS_MAX + 1;
    struct diskio_config_verdict v;
    ck_assert_int_eq(diskio_config_validate(&cfg, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_JOBS);
    ck_assert_int_eq(v.field, DISKIO_FIELD_JOBS);
    ck_assert_ptr_nonnull(v.message);

    cfg.jobs = 4;
    cfg.rate_interval_ns = 1000000;
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_JOBS_COMBINATION);
    cfg.rate_interval_ns = 0;
    cfg.trace_fd = 1;
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_JOBS_COMBINATION);
    cfg.trace_fd = -1;
    cfg.pattern = DISKIO_PATTERN_APPEND;
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_OK); /* each job its own file */
    cfg.shared_file = 1;
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_JOBS_COMBINATION);
    cfg.jobs = 1; /* one job may do all of these */
    ck_assert_int_eq(rule_of(&cfg), DISKIO_RULE_OK);
}
END_TEST

static struct diskio_run *run_jobs(struct diskio_target *t, unsigned jobs, bool shared)
{
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = DISKIO_MODE_FDATASYNC;
    cfg.count = 30;
    cfg.warmup = 3;
    cfg.block_size = 4096;
    cfg.file_size = 256 << 10;
    cfg.jobs = jobs;
    cfg.shared_file = shared;
    struct diskio_run *run = NULL;
    int rc = diskio_run_execute(&cfg, t, &run);
    ck_assert_msg(rc == 0, "run: %s", diskio_strerror(rc));
    return run;
}

static void assert_jobs_add_up(const struct diskio_run *run, unsigned jobs, uint64_t count)
{
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert_uint_eq(info->ops, jobs * count);
    ck_assert_uint_eq(diskio_hist_count(diskio_run_hist_const(run, DISKIO_PART_TOTAL)),
                      jobs * count);
    ck_assert_uint_eq(diskio_run_job_count(run), jobs);
    uint64_t ops = 0, bytes = 0;
    for (size_t j = 0; j < jobs; j++) {
        struct diskio_job_summary s;
        ck_assert_int_eq(diskio_run_job(run, j, &s), 0);
        ck_assert_uint_eq(s.ops, count);
        ck_assert_int_eq(s.error, 0);
        ck_assert(s.p50_ns > 0 && s.p50_ns <= s.p99_ns && s.p99_ns <= s.max_ns);
        ck_assert(s.duration_ns > 0 && s.duration_ns <= info->duration_ns);
        ops += s.ops;
        bytes += s.bytes;
    }
    ck_assert_uint_eq(ops, info->ops);
    ck_assert_uint_eq(bytes, info->bytes);
    struct diskio_job_summary s;
    ck_assert_int_eq(diskio_run_job(run, jobs, &s), -EINVAL);
}

START_TEST(test_jobs_write_their_own_files_and_add_up)
{
    char *dir = t_mkdtemp("jobs");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 256 << 10, 0, &t), 0);
    struct diskio_run *run = run_jobs(t, 3, false);
    assert_jobs_add_up(run, 3, 30);
    /* the target's file and one more per further job */
    ck_assert_int_eq(t_dir_entries(dir), 3);
    diskio_run_free(run);
    /* a second run reuses them */
    run = run_jobs(t, 2, false);
    assert_jobs_add_up(run, 2, 30);
    ck_assert_int_eq(t_dir_entries(dir), 3);
    diskio_run_free(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_shared_file_jobs_write_one_file)
{
    char *dir = t_mkdtemp("jobs");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 256 << 10, 0, &t), 0);
    struct diskio_run *run = run_jobs(t, 4, true);
    assert_jobs_add_up(run, 4, 30);
    ck_assert_int_eq(t_dir_entries(dir), 1);
    diskio_run_free(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_jobs_need_a_created_file_unless_shared)
{
    char *dir = t_mkdtemp("jobs");
    char path[4096];
    snprintf(path, sizeof(path), "%s/mine", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(path, 256 << 10, DISKIO_TARGET_FORCE, &t), 0);
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.count = 5;
    cfg.file_size = 256 << 10;
    cfg.jobs = 2;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), -EINVAL);
    ck_assert_ptr_null(run);
    ck_assert_int_eq(t_dir_entries(dir), 1); /* nothing made beside it */
    diskio_target_free(t);
    ck_assert_int_eq(unlink(path), 0);
    t_rmdir_empty(dir);
}
END_TEST

/* ---- diskio_run_threads ---- */

struct op_state {
    unsigned fail_thread; /* fails at fail_op; UINT32_MAX: never */
    uint64_t fail_op;
    uint64_t calls[8];
};

static int64_t op_counting(void *arg, unsigned thread, uint64_t i)
{
    struct op_state *st = arg;
    st->calls[thread]++;
    if (thread == st->fail_thread && i == st->fail_op)
        return -EIO;
    /* a little work, so other threads are still running when one fails */
    usleep(200);
    return 100;
}

START_TEST(test_threads_merge_and_keep_each_threads_figures)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("threads", &run), 0);
    struct op_state st = {.fail_thread = UINT32_MAX};
    ck_assert_int_eq(diskio_run_threads(run, 4, op_counting, &st, 25), 0);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert_uint_eq(info->ops, 100);
    ck_assert_uint_eq(info->bytes, 100 * 100);
    ck_assert(info->complete);
    ck_assert_int_eq(info->error_job, -1);
    ck_assert_uint_eq(diskio_hist_count(diskio_run_hist(run, DISKIO_PART_TOTAL)), 100);
    ck_assert_uint_eq(diskio_run_job_count(run), 4);
    for (unsigned t = 0; t < 4; t++) {
        struct diskio_job_summary s;
        ck_assert_int_eq(diskio_run_job(run, t, &s), 0);
        ck_assert_uint_eq(s.ops, 25);
        ck_assert_uint_eq(st.calls[t], 25);
        ck_assert_uint_eq(s.bytes, 2500);
        ck_assert(s.p50_ns >= 200000 / 2); /* the usleep, at least */
        ck_assert(s.duration_ns <= info->duration_ns);
    }
    /* a run holds one threaded measurement */
    ck_assert_int_eq(diskio_run_threads(run, 2, op_counting, &st, 1), -EINVAL);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_an_op_error_stops_every_thread_and_names_it)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("threads", &run), 0);
    struct op_state st = {.fail_thread = 2, .fail_op = 5};
    ck_assert_int_eq(diskio_run_threads(run, 4, op_counting, &st, 100000), -EIO);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(!info->complete);
    ck_assert_int_eq(info->error, -EIO);
    ck_assert_int_eq(info->error_job, 2);
    ck_assert_uint_eq(info->error_op, 5);
    struct diskio_job_summary s;
    ck_assert_int_eq(diskio_run_job(run, 2, &s), 0);
    ck_assert_int_eq(s.error, -EIO);
    ck_assert_uint_eq(s.ops, 5);
    uint64_t sum = 0;
    for (unsigned t = 0; t < 4; t++) {
        ck_assert_int_eq(diskio_run_job(run, t, &s), 0);
        sum += s.ops;
        /* the others stopped long before their 100000 ops */
        ck_assert(s.ops < 100000);
        if (t != 2)
            ck_assert_int_eq(s.error, -DISKIO_E_INTERRUPTED);
    }
    ck_assert_uint_eq(sum, info->ops);
    ck_assert_uint_eq(diskio_hist_count(diskio_run_hist(run, DISKIO_PART_TOTAL)), sum);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_threads_refuse_bad_arguments)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("threads", &run), 0);
    struct op_state st = {.fail_thread = UINT32_MAX};
    ck_assert_int_eq(diskio_run_threads(run, 0, op_counting, &st, 1), -EINVAL);
    ck_assert_int_eq(diskio_run_threads(run, DISKIO_JOBS_MAX + 1, op_counting, &st, 1), -EINVAL);
    ck_assert_int_eq(diskio_run_threads(run, 2, NULL, &st, 1), -EINVAL);
    ck_assert_int_eq(diskio_run_threads(NULL, 2, op_counting, &st, 1), -EINVAL);
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 5);
    ck_assert_int_eq(diskio_run_threads(run, 2, op_counting, &st, 1), -EINVAL);
    ck_assert_uint_eq(diskio_run_job_count(run), 0);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_params_show_in_json_and_text)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("mine", &run), 0);
    ck_assert_int_eq(diskio_run_set_param(run, "bs", "8k"), 0);
    ck_assert_int_eq(diskio_run_set_param(run, "pattern", "rand"), 0);
    ck_assert_int_eq(diskio_run_set_param(run, "bs", "16k"), 0);
    ck_assert_int_eq(diskio_run_set_param(run, "bad key", "x"), -EINVAL);
    ck_assert_int_eq(diskio_run_set_param(run, "", "x"), -EINVAL);
    ck_assert_int_eq(diskio_run_set_param(run, "k", NULL), -EINVAL);
    ck_assert_str_eq(diskio_run_param(run, "bs"), "16k");
    ck_assert_ptr_null(diskio_run_param(run, "nope"));
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
    diskio_run_finish(run, 1000, 8192);
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_JSON, f), 0);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_TEXT, f), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"params\": {\"bs\": \"16k\", \"pattern\": \"rand\"}"));
    ck_assert_ptr_nonnull(strstr(buf, "params bs=16k pattern=rand"));
    free(buf);
    diskio_result_free(res);
}
END_TEST

/* A run's parameters are bounded: DISKIO_RUN_PARAMS_MAX keys, then a new
 * key is refused (-E2BIG, the run unchanged) while a key it holds can
 * still be set; many refused calls stay cheap (each a bounded pass). */
START_TEST(test_params_are_bounded_and_a_held_key_can_still_be_set)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("many", &run), 0);
    char key[32];
    for (unsigned i = 0; i < DISKIO_RUN_PARAMS_MAX; i++) {
        snprintf(key, sizeof(key), "k%u", i);
        ck_assert_int_eq(diskio_run_set_param(run, key, "v"), 0);
    }
    for (unsigned i = 0; i < 200000; i++) {
        snprintf(key, sizeof(key), "more%u", i);
        ck_assert_int_eq(diskio_run_set_param(run, key, "v"), -E2BIG);
    }
    ck_assert_ptr_null(diskio_run_param(run, "more0"));
    ck_assert_int_eq(diskio_run_set_param(run, "k0", "again"), 0);
    ck_assert_str_eq(diskio_run_param(run, "k0"), "again");
    snprintf(key, sizeof(key), "k%u", DISKIO_RUN_PARAMS_MAX - 1);
    ck_assert_int_eq(diskio_run_set_param(run, key, "last"), 0);
    ck_assert_str_eq(diskio_run_param(run, key), "last");
    ck_assert_str_eq(diskio_run_param(run, "k1"), "v");
    diskio_run_free(run);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jobs");
    TCase *tc = tcase_create("jobs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_jobs_rules);
    tcase_add_test(tc, test_jobs_write_their_own_files_and_add_up);
    tcase_add_test(tc, test_shared_file_jobs_write_one_file);
    tcase_add_test(tc, test_jobs_need_a_created_file_unless_shared);
    tcase_add_test(tc, test_threads_merge_and_keep_each_threads_figures);
    tcase_add_test(tc, test_an_op_error_stops_every_thread_and_names_it);
    tcase_add_test(tc, test_threads_refuse_bad_arguments);
    tcase_add_test(tc, test_params_show_in_json_and_text);
    tcase_add_test(tc, test_params_are_bounded_and_a_held_key_can_still_be_set);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
