/* SPDX-License-Identifier: MIT */
/*
 * Description: results are valid JSON, CSV and text with every field a program sets.
 *
 * results and emitters: the JSON document parses with a real
 * JSON parser (Python's) and carries every field doc/result-schema.md
 * promises, with bucket counts that add up; CSV has one row per measured
 * part; the text table names every run; the environment probe fills in
 * what this machine has; an incomplete run makes the result incomplete;
 * the table shows the percentiles and throughput unit a program sets, and
 * marks a percentile that can only be the max; a run publishes its
 * histogram through its options' live_hist while it measures, and takes it back.
 * a suite's rows (diskio_result_set_suite) are copied into the JSON, each
 * naming its run or why it has none.  diskio_check_version() compares
 * each component on its own, refusing negative ones.  Whatever bytes the
 * names hold is check_hostile_strings'.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_result_mem.h"

static struct diskio_result *t_result_with_runs(const char *dir)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new("lab \"A\", rack 3", &res), 0);
    ck_assert_int_eq(diskio_result_probe(res, dir), 0);

    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    static const enum diskio_mode modes[] = {DISKIO_MODE_FSYNC, DISKIO_MODE_ASYNC};
    for (size_t i = 0; i < 2; i++) {
        struct diskio_config cfg;
        diskio_config_init(&cfg);
        cfg.mode = modes[i];
        cfg.count = 100;
        cfg.file_size = 1 << 20;
        struct diskio_run *run;
        ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), 0);
        ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    }
    diskio_target_free(t);

    struct diskio_run *custom;
    ck_assert_int_eq(diskio_run_new("my-op", &custom), 0);
    for (uint64_t v = 1; v <= 1000; v++)
        diskio_hist_record(diskio_run_hist(custom, DISKIO_PART_TOTAL), v * 1000);
    diskio_run_finish(custom, 2000000000u, 1000 * 512);
    ck_assert_int_eq(diskio_result_add_run(res, custom), 0);
    return res;
}

static char *t_write(const struct diskio_result *res, enum diskio_format fmt, const char *dir,
                     const char *name)
{
    char *path = malloc(512);
    snprintf(path, 512, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(diskio_result_write(res, fmt, f), 0);
    fclose(f);
    return path;
}

START_TEST(test_json_parses_and_has_schema_fields)
{
    const char *python = t_python3();
    char *dir = t_mkdtemp("json");
    struct diskio_result *res = t_result_with_runs(dir);
    ck_assert(diskio_result_complete(res));
    char *path = t_write(res, DISKIO_FORMAT_JSON, dir, "r.json");
    char cmd[2048];
    snprintf(
        cmd, sizeof(cmd),
        "%s -c '\n"
        "import json, sys\n"
        "d = json.load(open(sys.argv[1]))\n"
        "assert d[\"schema\"] == \"diskio-result\" and d[\"schema_version\"] == 2\n"
        "assert d[\"label\"] == \"lab \\\"A\\\", rack 3\", d[\"label\"]\n"
        "assert d[\"complete\"] is True\n"
        "env = d[\"environment\"]\n"
        "assert env[\"kernel\"][\"release\"] and env[\"cpu\"][\"cores\"] >= 1\n"
        "assert env[\"memory_bytes\"] > 0 and env[\"timer\"][\"overhead_ns\"] >= 0\n"
        "assert env[\"target\"][\"filesystem\"] and env[\"target\"][\"mount_point\"]\n"
        "runs = d[\"runs\"]\n"
        "assert [r[\"mode\"] for r in runs] == [\"fsync\", \"async\", \"my-op\"]\n"
        "for r in runs:\n"
        "    for key in (\"parameters\", \"complete\", \"error\", \"ops\", \"bytes\", "
        "\"duration_ns\",\n"
        "                \"ops_per_s\", \"mb_per_s\", \"latency\"):\n"
        "        assert key in r, key\n"
        "    for part, h in r[\"latency\"].items():\n"
        "        if h is None: continue\n"
        "        for key in (\"count\", \"min\", \"max\", \"mean\", \"stddev\", \"p50\", \"p90\",\n"
        "                    \"p99\", \"p99_9\", \"p99_99\", \"overflow\", \"buckets\"):\n"
        "            assert key in h, (part, key)\n"
        "        assert sum(b[2] for b in h[\"buckets\"]) + h[\"overflow\"] == h[\"count\"]\n"
        "        assert h[\"min\"] <= h[\"p50\"] <= h[\"p99\"] <= h[\"max\"]\n"
        "        lows = [b[0] for b in h[\"buckets\"]]\n"
        "        assert lows == sorted(lows) and all(b[0] <= b[1] for b in h[\"buckets\"])\n"
        "fs = runs[0]\n"
        "assert fs[\"ops\"] == 100 and fs[\"parameters\"][\"block_size\"] == 8192\n"
        "assert fs[\"latency\"][\"sync\"][\"count\"] == 100\n"
        "assert runs[1][\"latency\"][\"sync\"] is None\n"
        "assert runs[2][\"parameters\"] is None and runs[2][\"ops\"] == 1000\n"
        "assert abs(runs[2][\"ops_per_s\"] - 500) < 1e-6\n"
        "assert runs[2][\"latency\"][\"total\"][\"min\"] == 1000\n"
        "' %s",
        python, path);
    ck_assert_int_eq(system(cmd), 0);
    unlink(path);
    free(path);
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_csv_has_a_row_per_measured_part)
{
    char *dir = t_mkdtemp("csv");
    struct diskio_result *res = t_result_with_runs(dir);
    char *path = t_write(res, DISKIO_FORMAT_CSV, dir, "r.csv");
    FILE *f = fopen(path, "r");
    char line[1024];
    int rows = 0;
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
    ck_assert(strncmp(line, "label,mode,block_size,", 22) == 0);
    while (fgets(line, sizeof(line), f)) {
        /* the label has a comma and quotes: it must be quoted CSV */
        ck_assert(strncmp(line, "\"lab \"\"A\"\", rack 3\",", 20) == 0);
        rows++;
    }
    fclose(f);
    ck_assert_int_eq(rows, 3 + 1 + 1); /* fsync total/write/sync, async, my-op */
    unlink(path);
    free(path);
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

/* Two custom runs of one name that differ only in their own parameters
 * (diskio_run_set_param) differ in the CSV's params column. */
START_TEST(test_csv_tells_custom_runs_apart_by_their_params)
{
    char *dir = t_mkdtemp("csvparams");
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    static const char *const devices[] = {"sda", "sdb"};
    for (size_t i = 0; i < 2; i++) {
        struct diskio_run *run;
        ck_assert_int_eq(diskio_run_new("my-op", &run), 0);
        ck_assert_int_eq(diskio_run_set_param(run, "dev", devices[i]), 0);
        ck_assert_int_eq(diskio_run_set_param(run, "bs", "8k"), 0);
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
        diskio_run_finish(run, 1000000u, 8192);
        ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    }
    char *path = t_write(res, DISKIO_FORMAT_CSV, dir, "r.csv");
    FILE *f = fopen(path, "r");
    char line[2048];
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
    ck_assert_ptr_nonnull(strstr(line, ",params,"));
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
    ck_assert_ptr_nonnull(strstr(line, ",\"dev=sda, bs=8k\","));
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
    ck_assert_ptr_nonnull(strstr(line, ",\"dev=sdb, bs=8k\","));
    ck_assert_ptr_null(fgets(line, sizeof(line), f));
    fclose(f);
    unlink(path);
    free(path);
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_text_table_names_every_run_and_part)
{
    char *dir = t_mkdtemp("text");
    struct diskio_result *res = t_result_with_runs(dir);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_TEXT, f), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "ops/s"));
    ck_assert_ptr_nonnull(strstr(buf, "p99.9"));
    ck_assert_ptr_nonnull(strstr(buf, "\nfsync "));
    ck_assert_ptr_nonnull(strstr(buf, "\n  write "));
    ck_assert_ptr_nonnull(strstr(buf, "\n  sync "));
    ck_assert_ptr_nonnull(strstr(buf, "\nasync "));
    ck_assert_ptr_nonnull(strstr(buf, "\nmy-op "));
    ck_assert_ptr_null(strstr(buf, "INCOMPLETE"));
    free(buf);
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_table_percentiles_and_unit_are_chosen)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("op", &run), 0);
    /* 500 values: p99 is a value's, p99.9 can only be the max */
    for (uint64_t v = 1; v <= 500; v++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), v * 1000);
    diskio_run_finish(run, 1000000000u, 500 * 4096); /* 2.048 MB in 1 s */
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);

    static const double bad_order[] = {99.0, 50.0}, bad_zero[] = {0.0}, bad_high[] = {100.5},
                        twice[] = {50.0, 50.0}, nine[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    ck_assert_int_eq(diskio_result_set_percentiles(res, bad_order, 2), -EINVAL);
    ck_assert_int_eq(diskio_result_set_percentiles(res, bad_zero, 1), -EINVAL);
    ck_assert_int_eq(diskio_result_set_percentiles(res, bad_high, 1), -EINVAL);
    ck_assert_int_eq(diskio_result_set_percentiles(res, twice, 2), -EINVAL);
    ck_assert_int_eq(diskio_result_set_percentiles(res, nine, 9), -EINVAL);
    ck_assert_int_eq(diskio_result_set_percentiles(res, nine, 0), -EINVAL);
    ck_assert_int_eq(diskio_result_set_throughput_unit(res, (enum diskio_throughput_unit)7),
                     -EINVAL);

    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_TEXT, f), 0);
    fclose(f);
    /* the default, unchanged by the refused calls, and as the library
     * says it is */
    ck_assert_ptr_nonnull(strstr(buf, " p50         p99       p99.9         max"));
    const double *shown = NULL, *defaults = NULL;
    ck_assert_uint_eq(diskio_result_percentiles(res, &shown), 3);
    ck_assert_uint_eq(diskio_result_percentiles(NULL, &defaults), 3);
    ck_assert(shown[0] == 50.0 && shown[1] == 99.0 && shown[2] == 99.9);
    ck_assert(defaults[0] == 50.0 && defaults[1] == 99.0 && defaults[2] == 99.9);
    ck_assert_ptr_nonnull(strstr(buf, "MB/s"));
    ck_assert_ptr_nonnull(strstr(buf, " 2.05 "));
    ck_assert_ptr_nonnull(strstr(buf, "500 us*"));
    ck_assert_ptr_nonnull(strstr(buf, "\n* p99.9 = max: fewer than 1000 ops\n"));
    free(buf);

    static const double pcts[] = {90.0, 99.0, 100.0};
    ck_assert_int_eq(diskio_result_set_percentiles(res, pcts, 3), 0);
    ck_assert_int_eq(diskio_result_set_throughput_unit(res, DISKIO_THROUGHPUT_MBIT_PER_S), 0);
    buf = NULL;
    f = open_memstream(&buf, &size);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_TEXT, f), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, " p90        p99       p100        max"));
    ck_assert_ptr_nonnull(strstr(buf, "Mbit/s"));
    ck_assert_ptr_nonnull(strstr(buf, " 16.4 "));
    ck_assert_ptr_null(strstr(buf, "*")); /* p100 is the max by definition */
    free(buf);
    ck_assert_uint_eq(diskio_result_percentiles(res, &shown), 3);
    ck_assert(shown[0] == 90.0 && shown[1] == 99.0 && shown[2] == 100.0);
    ck_assert_uint_eq(diskio_result_percentiles(NULL, &defaults), 3);
    ck_assert(defaults[0] == 50.0);
    diskio_result_free(res);
}
END_TEST

struct t_watcher {
    const struct diskio_hist *volatile live;
    volatile int stop;
    int seen;           /* polls that found the histogram published */
    uint64_t max_count; /* the most values a live copy held */
    struct diskio_hist *copy;
};

/* What a progress display does: poll the published pointer and copy. */
static void *t_watch(void *arg)
{
    struct t_watcher *w = arg;
    while (!w->stop) {
        const struct diskio_hist *h = w->live;
        if (h) {
            w->seen++;
            diskio_hist_copy_live(w->copy, h);
            uint64_t n = diskio_hist_count(w->copy);
            if (n > w->max_count)
                w->max_count = n;
        }
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    return NULL;
}

START_TEST(test_a_run_publishes_its_histogram_while_it_measures)
{
    char *dir = t_mkdtemp("live");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, 0, &t), 0);
    struct t_watcher w = {0};
    ck_assert_int_eq(diskio_hist_new(&w.copy), 0);
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, t_watch, &w), 0);
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = DISKIO_MODE_ASYNC;
    cfg.count = 0;
    cfg.runtime_ns = 300000000u;
    cfg.file_size = 1 << 20;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.live_hist = &w.live;
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, &opts, t, &run), 0);
    /* taken back before the call returned */
    ck_assert_ptr_null((const void *)w.live);
    w.stop = 1;
    pthread_join(thread, NULL);
    ck_assert_int_gt(w.seen, 0);
    ck_assert_uint_gt(w.max_count, 0);
    ck_assert_uint_le(w.max_count, diskio_run_info(run)->ops);
    ck_assert_ptr_null((const void *)diskio_run_info(run)->config.live_hist);
    diskio_run_free(run);
    diskio_hist_free(w.copy);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_incomplete_run_marks_the_result)
{
    static volatile sig_atomic_t stop = 1;
    char *dir = t_mkdtemp("incomplete");
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 1 << 20, DISKIO_TARGET_PREALLOCATE, &t), 0);
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.file_size = 1 << 20;
    cfg.stop = &stop;
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), -DISKIO_E_INTERRUPTED);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    ck_assert(!diskio_result_complete(res));
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_JSON, f), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"complete\": false"));
    ck_assert_ptr_nonnull(strstr(buf, "\"during\": \"interrupted\""));
    free(buf);
    diskio_target_free(t);
    diskio_result_free(res);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_probe_finds_kernel_filesystem_and_timer)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_probe(res, "."), 0);
    ck_assert_ptr_nonnull(diskio_result_env(res, "kernel.release"));
    ck_assert_ptr_nonnull(diskio_result_env(res, "target.filesystem"));
    ck_assert_ptr_nonnull(diskio_result_env(res, "target.mount_point"));
    ck_assert_ptr_nonnull(diskio_result_env(res, "timer.overhead_ns"));
    ck_assert_ptr_nonnull(diskio_result_env(res, "cpu.cores"));
    ck_assert_ptr_null(diskio_result_env(res, "no.such.key"));
    diskio_result_free(res);
}
END_TEST

/* The formats are listed by name, from 0 until NULL, each name parsed
 * back to its format: what diskio's usage and completion list. */
START_TEST(test_format_names_list_every_format_once)
{
    static const char *const want[] = {"text", "json", "csv", "intervals"};
    unsigned f = 0;
    for (const char *name; (name = diskio_format_name((enum diskio_format)f)) != NULL; f++) {
        ck_assert_uint_lt(f, sizeof(want) / sizeof(want[0]));
        ck_assert_str_eq(name, want[f]);
        enum diskio_format back;
        ck_assert_int_eq(diskio_format_parse(name, &back), 0);
        ck_assert_int_eq(back, (enum diskio_format)f);
    }
    ck_assert_uint_eq(f, sizeof(want) / sizeof(want[0]));
    ck_assert_ptr_null(diskio_format_name((enum diskio_format) - 1));
}
END_TEST

START_TEST(test_strerror_names_library_codes_and_errno)
{
    ck_assert_str_eq(diskio_strerror(-ENOSPC), "No space left on device");
    ck_assert_ptr_nonnull(strstr(diskio_strerror(-DISKIO_E_NO_DIRECT), "O_DIRECT"));
    ck_assert_str_eq(diskio_strerror(-99999), "Unknown error");
    ck_assert(diskio_check_version(0, 0, 1));
    ck_assert(!diskio_check_version(99, 0, 0));
    ck_assert_str_eq(diskio_version(), DISKIO_VERSION);
}
END_TEST

/* Versions compare component by component: no component overflows or
 * spills into its neighbour, and a negative one is never "at least". */
START_TEST(test_check_version_compares_each_component)
{
    const int major = DISKIO_VERSION_MAJOR, minor = DISKIO_VERSION_MINOR;
    const int micro = DISKIO_VERSION_MICRO;
    ck_assert(diskio_check_version(major, minor, micro));
    ck_assert(!diskio_check_version(major, minor, micro + 1));
    ck_assert(!diskio_check_version(major, minor + 1, 0));
    ck_assert(!diskio_check_version(major + 1, 0, 0));
    /* a large lower component does not outweigh a higher one */
    if (micro < 300)
        ck_assert(!diskio_check_version(major, minor, 300));
    if (minor > 0)
        ck_assert(diskio_check_version(major, minor - 1, 300));
    if (major > 0)
        ck_assert(diskio_check_version(major - 1, 300, 300));
    ck_assert(!diskio_check_version(major, minor, INT_MAX));
    ck_assert(!diskio_check_version(major, INT_MAX, 0));
    ck_assert(!diskio_check_version(INT_MAX, 0, 0));
    ck_assert(!diskio_check_version(INT_MAX, INT_MAX, INT_MAX));
    ck_assert(!diskio_check_version(-1, -1, -1));
    ck_assert(!diskio_check_version(-1, 0, 0));
    ck_assert(!diskio_check_version(major, -1, 0));
    ck_assert(!diskio_check_version(major, minor, -1));
    ck_assert(!diskio_check_version(INT_MIN, INT_MIN, INT_MIN));
}
END_TEST

START_TEST(test_suite_rows_name_their_runs_in_the_json)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("read", &run), 0);
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
    diskio_run_finish(run, 1000000, 8192);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    char label[] = "SEQ \"1M\"", column[] = "read";
    struct diskio_suite_row rows[] = {
        {.label = label, .column = column, .run = 0},
        {.label = "RND4K Q1T1",
         .column = "write",
         .run = SIZE_MAX,
         .note = "not run: O_DIRECT refused"},
    };
    /* a row without a label, or no name: refused, nothing kept */
    struct diskio_suite_row bad = {.label = NULL, .column = "read", .run = 0};
    ck_assert_int_eq(diskio_result_set_suite(res, "x", NULL, "best", &bad, 1), -EINVAL);
    ck_assert_int_eq(diskio_result_set_suite(res, NULL, NULL, "best", rows, 2), -EINVAL);
    size_t size;
    char *buf = t_write_mem(res, DISKIO_FORMAT_JSON, &size);
    ck_assert_ptr_null(strstr(buf, "\"suite\""));
    free(buf);
    /* a first call replaced by a second; the strings are copies */
    ck_assert_int_eq(diskio_result_set_suite(res, "old", NULL, "mean", rows, 1), 0);
    ck_assert_int_eq(diskio_result_set_suite(res, "crystal", "Crystal", "best", rows, 2), 0);
    label[0] = 'X';
    buf = t_write_mem(res, DISKIO_FORMAT_JSON, &size);
    ck_assert_ptr_null(strstr(buf, "\"old\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"suite\": {\"name\": \"crystal\", \"title\": "
                                      "\"Crystal\", \"summary\": \"best\""));
    ck_assert_ptr_nonnull(strstr(buf, "{\"label\": \"SEQ \\\"1M\\\"\", \"column\": \"read\", "
                                      "\"run\": 0, \"note\": null}"));
    ck_assert_ptr_nonnull(strstr(buf, "{\"label\": \"RND4K Q1T1\", \"column\": \"write\", "
                                      "\"run\": null, \"note\": \"not run: O_DIRECT refused\"}"));
    free(buf);
    diskio_result_free(res);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("result");
    TCase *tc = tcase_create("emitters");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_json_parses_and_has_schema_fields);
    tcase_add_test(tc, test_csv_has_a_row_per_measured_part);
    tcase_add_test(tc, test_csv_tells_custom_runs_apart_by_their_params);
    tcase_add_test(tc, test_text_table_names_every_run_and_part);
    tcase_add_test(tc, test_incomplete_run_marks_the_result);
    tcase_add_test(tc, test_table_percentiles_and_unit_are_chosen);
    tcase_add_test(tc, test_a_run_publishes_its_histogram_while_it_measures);
    tcase_add_test(tc, test_suite_rows_name_their_runs_in_the_json);
    tcase_add_test(tc, test_probe_finds_kernel_filesystem_and_timer);
    tcase_add_test(tc, test_format_names_list_every_format_once);
    tcase_add_test(tc, test_strerror_names_library_codes_and_errno);
    tcase_add_test(tc, test_check_version_compares_each_component);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
