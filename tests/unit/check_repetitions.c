/* SPDX-License-Identifier: MIT */
/*
 * Description: repetitions of a run merge their histograms and keep each one's summary.
 *
 * repetitions of a run (diskio_run_merge): the histograms
 * and counts add up, each repetition keeps its own summary in the JSON
 * in the order it ran, a different workload is refused without changing
 * the run, and a failed repetition makes the run incomplete.
 */
#include "config.h"

#include <errno.h>

#include "diskio.h"
#include "t_helpers.h"

/* A custom run of n values from first_ns in steps of step_ns. */
static struct diskio_run *t_custom(const char *name, uint64_t first_ns, uint64_t step_ns,
                                   uint64_t n)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new(name, &run), 0);
    for (uint64_t i = 0; i < n; i++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), first_ns + i * step_ns);
    diskio_run_finish(run, n * 1000, n * 512);
    return run;
}

static struct diskio_run *t_measured(struct diskio_target *t, enum diskio_mode mode,
                                     uint64_t block_size, const volatile sig_atomic_t *stop)
{
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = mode;
    cfg.count = 50;
    cfg.block_size = block_size;
    cfg.file_size = 1 << 20;
    cfg.stop = stop;
    struct diskio_run *run = NULL;
    int rc = diskio_run_execute(&cfg, t, &run);
    ck_assert_msg(rc == 0 || (stop && rc == -DISKIO_E_INTERRUPTED), "run: %s", diskio_strerror(rc));
    ck_assert_ptr_nonnull(run);
    return run;
}

/* Run python code on the JSON of res; the test passes when it exits 0. */
static void t_check_json(const struct diskio_result *res, const char *dir, const char *code)
{
    const char *python = t_python3();
    char path[512];
    snprintf(path, sizeof(path), "%s/r.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_JSON, f), 0);
    fclose(f);
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "%s -c 'import json, sys\nd = json.load(open(sys.argv[1]))\n%s' %s",
             python, code, path);
    int status = system(cmd);
    unlink(path);
    ck_assert_msg(status == 0, "the JSON check failed (%d)", status);
}

START_TEST(test_merge_adds_counts_and_keeps_each_repetition)
{
    struct diskio_run *run = t_custom("op", 1000, 10, 100);  /* mean 1495 */
    struct diskio_run *rep2 = t_custom("op", 5000, 10, 300); /* mean 6495 */
    ck_assert_uint_eq(diskio_run_repetitions(run), 1);
    ck_assert_int_eq(diskio_run_merge(run, rep2), 0);
    diskio_run_free(rep2);
    ck_assert_uint_eq(diskio_run_repetitions(run), 2);

    const struct diskio_run_info *info = diskio_run_info(run);
    const struct diskio_hist *h = diskio_run_hist_const(run, DISKIO_PART_TOTAL);
    ck_assert_uint_eq(info->ops, 400);
    ck_assert_uint_eq(diskio_hist_count(h), 400);
    ck_assert_uint_eq(info->bytes, 400 * 512);
    ck_assert_uint_eq(info->duration_ns, 400 * 1000);
    ck_assert_uint_eq(diskio_hist_min(h), 1000);
    ck_assert_uint_eq(diskio_hist_max(h), 5000 + 299 * 10);
    ck_assert(info->complete);

    char *dir = t_mkdtemp("repeat");
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    t_check_json(res, dir,
                 "reps = d[\"runs\"][0][\"repetitions\"]\n"
                 "assert [r[\"ops\"] for r in reps] == [100, 300], reps\n"
                 "assert [r[\"latency\"][\"total\"][\"mean\"] for r in reps] == [1495, 6495]\n"
                 "assert [r[\"latency\"][\"total\"][\"min\"] for r in reps] == [1000, 5000]\n"
                 "assert reps[0][\"latency\"][\"write\"] is None\n"
                 "assert all(r[\"complete\"] and r[\"start_offset_ns\"] is None for r in reps)\n"
                 "assert d[\"runs\"][0][\"ops\"] == 400\n");
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_a_run_never_merged_has_no_repetitions_in_json)
{
    char *dir = t_mkdtemp("repeat");
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(res, t_custom("op", 1000, 1, 10)), 0);
    t_check_json(res, dir, "assert d[\"runs\"][0][\"repetitions\"] is None\n");
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_merge_refuses_a_different_workload_and_leaves_the_run_alone)
{
    struct diskio_run *run = t_custom("op", 1000, 10, 100);
    struct diskio_run *other_name = t_custom("other", 1000, 10, 100);
    struct diskio_run *with_parts = t_custom("op", 1000, 10, 100);
    ck_assert_int_eq(diskio_run_enable_parts(with_parts), 0);

    ck_assert_int_eq(diskio_run_merge(run, other_name), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(run, with_parts), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(run, run), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(run, NULL), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(NULL, run), -EINVAL);
    ck_assert_uint_eq(diskio_run_repetitions(run), 1);
    ck_assert_uint_eq(diskio_run_info(run)->ops, 100);

    /* measured runs: the same mode at another block size is another workload */
    char *dir = t_mkdtemp("repeat");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    struct diskio_run *small = t_measured(t, DISKIO_MODE_ASYNC, 4096, NULL);
    struct diskio_run *large = t_measured(t, DISKIO_MODE_ASYNC, 8192, NULL);
    struct diskio_run *fsync = t_measured(t, DISKIO_MODE_FSYNC, 4096, NULL);
    ck_assert_int_eq(diskio_run_merge(small, large), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(small, fsync), -EINVAL);
    ck_assert_int_eq(diskio_run_merge(small, run), -EINVAL);
    ck_assert_uint_eq(diskio_run_info(small)->ops, 50);
    diskio_target_free(t);
    t_rmdir_empty(dir);

    diskio_run_free(small);
    diskio_run_free(large);
    diskio_run_free(fsync);
    diskio_run_free(run);
    diskio_run_free(other_name);
    diskio_run_free(with_parts);
}
END_TEST

START_TEST(test_an_interrupted_repetition_makes_the_run_incomplete)
{
    static const volatile sig_atomic_t stop_now = 1;
    char *dir = t_mkdtemp("repeat");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    struct diskio_run *run = t_measured(t, DISKIO_MODE_FSYNC, 8192, NULL);
    struct diskio_run *stopped = t_measured(t, DISKIO_MODE_FSYNC, 8192, &stop_now);
    ck_assert(!diskio_run_info(stopped)->complete);
    ck_assert_int_eq(diskio_run_merge(run, stopped), 0);
    diskio_run_free(stopped);
    diskio_target_free(t);

    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(!info->complete);
    ck_assert_int_eq(info->error, -DISKIO_E_INTERRUPTED);
    ck_assert_uint_eq(diskio_run_repetitions(run), 2);
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    ck_assert(!diskio_result_complete(res));
    t_check_json(res, dir,
                 "reps = d[\"runs\"][0][\"repetitions\"]\n"
                 "assert [r[\"complete\"] for r in reps] == [True, False], reps\n"
                 "assert reps[0][\"ops\"] == 50 and d[\"runs\"][0][\"complete\"] is False\n");
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_interleaved_repetitions_show_the_order_they_ran)
{
    char *dir = t_mkdtemp("repeat");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    struct diskio_run *merged[2] = {NULL, NULL};
    static const enum diskio_mode modes[2] = {DISKIO_MODE_FDATASYNC, DISKIO_MODE_ASYNC};
    for (int rep = 0; rep < 3; rep++)
        for (int m = 0; m < 2; m++) {
            struct diskio_run *run = t_measured(t, modes[m], 8192, NULL);
            if (!merged[m]) {
                merged[m] = run;
            } else {
                ck_assert_int_eq(diskio_run_merge(merged[m], run), 0);
                diskio_run_free(run);
            }
        }
    diskio_target_free(t);
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(res, merged[0]), 0);
    ck_assert_int_eq(diskio_result_add_run(res, merged[1]), 0);
    t_check_json(res, dir,
                 "a, b = (r[\"repetitions\"] for r in d[\"runs\"])\n"
                 "order = [x[\"start_offset_ns\"] for pair in zip(a, b) for x in pair]\n"
                 "assert order[0] == 0 and order == sorted(order), order\n"
                 "assert len(set(order)) == 6, order\n"
                 "assert all(r[\"ops\"] == 50 for r in a + b)\n"
                 "assert d[\"runs\"][0][\"latency\"][\"sync\"][\"count\"] == 150\n"
                 "assert all(r[\"latency\"][\"sync\"][\"count\"] == 50 for r in a)\n");
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_merged_device_figures_add_up_over_the_repetitions)
{
    char *dir = t_mkdtemp("repeat");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    struct diskio_run *run = t_measured(t, DISKIO_MODE_FSYNC, 8192, NULL);
    struct diskio_run *rep = t_measured(t, DISKIO_MODE_FSYNC, 8192, NULL);
    diskio_target_free(t);
    size_t n = diskio_run_device_count(run);
    if (n == 0 || diskio_run_device_count(rep) != n) {
        fprintf(stderr, "SKIP: no block device counted under %s\n", dir);
    } else {
        struct diskio_device_io a = *diskio_run_device_io(run, n);
        struct diskio_device_io b = *diskio_run_device_io(rep, n);
        ck_assert_int_eq(diskio_run_merge(run, rep), 0);
        const struct diskio_device_io *sum = diskio_run_device_io(run, n);
        ck_assert_uint_eq(diskio_run_device_count(run), n);
        ck_assert_uint_eq(sum->writes, a.writes + b.writes);
        ck_assert_uint_eq(sum->write_sectors, a.write_sectors + b.write_sectors);
        ck_assert_uint_eq(sum->flushes, a.flushes + b.flushes);
    }
    diskio_run_free(run);
    diskio_run_free(rep);
    t_rmdir_empty(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("repeat");
    TCase *tc = tcase_create("merge");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_merge_adds_counts_and_keeps_each_repetition);
    tcase_add_test(tc, test_a_run_never_merged_has_no_repetitions_in_json);
    tcase_add_test(tc, test_merge_refuses_a_different_workload_and_leaves_the_run_alone);
    tcase_add_test(tc, test_an_interrupted_repetition_makes_the_run_incomplete);
    tcase_add_test(tc, test_interleaved_repetitions_show_the_order_they_ran);
    tcase_add_test(tc, test_merged_device_figures_add_up_over_the_repetitions);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
