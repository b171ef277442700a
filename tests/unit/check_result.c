/* SPDX-License-Identifier: MIT */
/*
 * Description: results and emitters: the JSON document parses with a real
 * JSON parser (Python's) and carries every field doc/result-schema.md
 * promises, with bucket counts that add up; CSV has one row per measured
 * part; the text table names every run; the environment probe fills in
 * what this machine has; an incomplete run makes the result incomplete.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"

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
    const char *python = getenv("PYTHON3");
    if (!python || !*python) {
        fprintf(stderr, "SKIP: no python3 to parse the JSON with\n");
        return;
    }
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

int main(void)
{
    Suite *s = suite_create("result");
    TCase *tc = tcase_create("emitters");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_json_parses_and_has_schema_fields);
    tcase_add_test(tc, test_csv_has_a_row_per_measured_part);
    tcase_add_test(tc, test_text_table_names_every_run_and_part);
    tcase_add_test(tc, test_incomplete_run_marks_the_result);
    tcase_add_test(tc, test_probe_finds_kernel_filesystem_and_timer);
    tcase_add_test(tc, test_strerror_names_library_codes_and_errno);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
