/* SPDX-License-Identifier: MIT */
/*
 * Description: results are valid JSON, CSV and text with every field, whatever the names hold.
 *
 * results and emitters: the JSON document parses with a real
 * JSON parser (Python's) and carries every field doc/result-schema.md
 * promises, with bucket counts that add up; CSV has one row per measured
 * part; the text table names every run; the environment probe fills in
 * what this machine has; an incomplete run makes the result incomplete;
 * whatever bytes a label, a run's name or the target's path holds, every
 * format is valid UTF-8 with no control character for a terminal to act
 * on, and the JSON reads back as Python's UTF-8 decoder reads the bytes;
 * the table shows the percentiles and throughput unit a program sets, and
 * marks a percentile that can only be the max; a run publishes its
 * histogram through its options' live_hist while it measures, and takes it back.
 * a suite's rows (diskio_result_set_suite) are copied into the JSON, each
 * naming its run or why it has none.  diskio_check_version() compares
 * each component on its own, refusing negative ones.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
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
    /* the default, unchanged by the refused calls */
    ck_assert_ptr_nonnull(strstr(buf, " p50         p99       p99.9         max"));
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

/* ---- strings: whatever bytes a label, a run's name or the target's
 * path holds, every output is valid UTF-8 and holds no control character
 * a terminal would act on (issue 11, item 6) ---- */

/* Hostile strings: ill-formed UTF-8 (invalid bytes, overlong forms,
 * surrogates, beyond U+10FFFF, cut short at the end), control characters
 * (C0, DEL, C1, terminal escapes), separators and bidirectional overrides,
 * and well-formed text that must come through unchanged. */
static const char *const hostile[] = {
    "\xff", /* never in UTF-8 */
    "a\xfe"
    "b",                    /* never in UTF-8, inside text */
    "\xc0\x80",             /* overlong NUL */
    "\xc1\xbf",             /* overlong DEL */
    "\xe0\x80\xaf",         /* overlong '/' */
    "\xed\xa0\x80",         /* surrogate U+D800 */
    "\xed\xbf\xbf",         /* surrogate U+DFFF */
    "\xf4\x90\x80\x80",     /* U+110000 */
    "\xf5\x80\x80\x80",     /* lead byte beyond U+10FFFF */
    "\xf8\x88\x80\x80\x80", /* old 5-byte form */
    "\x80"
    "x\xbf",        /* lone continuation bytes */
    "ab\xe2\x82",   /* 3-byte sequence cut short at the end */
    "\xf0\x9f\x9a", /* 4-byte sequence cut short at the end */
    "\xe2\x82"
    "x",                                  /* cut short in the middle */
    "\x1b[31mred\x1b[0m\x1b]0;title\x07", /* colour and window title */
    "tab\there\r\nnew line\b\f",          /* short JSON escapes */
    "\x01\x1f\x7f",                       /* C0 and DEL */
    "\xc2\x9b"
    "31m\xc2\x85",              /* C1: 8-bit CSI and NEL */
    "\xe2\x80\xa8\xe2\x80\xa9", /* line and paragraph separators */
    "\xe2\x80\xae"
    "gnp.exe",                                                  /* right-to-left override */
    "quote\" back\\slash, comma",                               /* JSON and CSV specials */
    "Z\xc3\xbcrich \xe2\x98\x83 \xf0\x9f\x9a\x80 \xef\xbf\xbd", /* well-formed */
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

/* A strict UTF-8 validator, written apart from the library's decoder: it
 * decodes any lead byte's length, then rejects overlong forms, surrogates
 * and values above U+10FFFF by the value.  Returns the offset of the first
 * ill-formed byte, or -1 when all of buf[0..len) is well-formed. */
static long t_utf8_invalid_at(const unsigned char *buf, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned char c = buf[i];
        size_t n = c < 0x80             ? 1
                   : (c & 0xe0) == 0xc0 ? 2
                   : (c & 0xf0) == 0xe0 ? 3
                   : (c & 0xf8) == 0xf0 ? 4
                                        : 0;
        if (n == 0 || i + n > len)
            return (long)i;
        uint32_t cp = n == 1 ? c : (uint32_t)(c & (0x7f >> n));
        for (size_t k = 1; k < n; k++) {
            if ((buf[i + k] & 0xc0) != 0x80)
                return (long)i;
            cp = cp << 6 | (buf[i + k] & 0x3f);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
            return (long)i;
        i += n;
    }
    return -1;
}

/* Where buf holds a character a terminal acts on or that reorders the
 * line: a C0 control other than the line ends of the format itself, DEL,
 * a C1 control, U+2028/2029 or a bidirectional formatting character.
 * buf is well-formed UTF-8.  -1 when none. */
static long t_terminal_unsafe_at(const unsigned char *buf, size_t len)
{
    static const char *const bad[] = {
        "\xc2",         "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaa", "\xe2\x80\xab",
        "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7",
        "\xe2\x81\xa8", "\xe2\x81\xa9", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c"};
    for (size_t i = 0; i < len; i++) {
        if ((buf[i] < 0x20 && buf[i] != '\n') || buf[i] == 0x7f)
            return (long)i;
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
            size_t n = strlen(bad[k]);
            if (i + n <= len && memcmp(buf + i, bad[k], n) == 0 &&
                (n > 1 || (i + 1 < len && buf[i + 1] < 0xa0))) /* C2 80..9F: C1 */
                return (long)i;
        }
    }
    return -1;
}

/* A result labelled s, probed in dir, with one custom run named s. */
static struct diskio_result *t_result_named(const char *s, const char *dir)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(s, &res), 0);
    ck_assert_int_eq(diskio_result_probe(res, dir), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new(s, &run), 0);
    for (uint64_t v = 1; v <= 10; v++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), v * 1000);
    diskio_run_finish(run, 1000000, 10 * 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    return res;
}

static char *t_write_mem(const struct diskio_result *res, enum diskio_format fmt, size_t *size)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(diskio_result_write(res, fmt, f), 0);
    fclose(f);
    return buf;
}

static void t_save(const char *path, const void *buf, size_t size)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, size, f), size);
    fclose(f);
}

/* Every output of the result labelled and named s, probed in target, is
 * well-formed UTF-8 without a control character; the first problem goes
 * to why (left as it is when there is none).  With dir, the outputs are
 * saved there as N.json, N.csv, N.text for Python to read. */
static void t_check_outputs(size_t i, const char *target, const char *dir, char *why,
                            size_t why_size)
{
    static const enum diskio_format formats[] = {DISKIO_FORMAT_JSON, DISKIO_FORMAT_CSV,
                                                 DISKIO_FORMAT_TEXT};
    static const char *const names[] = {"json", "csv", "text"};
    struct diskio_result *res = t_result_named(hostile[i], target);
    for (size_t f = 0; f < 3; f++) {
        size_t size;
        char *out = t_write_mem(res, formats[f], &size);
        long bad = t_utf8_invalid_at((const unsigned char *)out, size);
        long unsafe = t_terminal_unsafe_at((const unsigned char *)out, size);
        size_t lines = 0;
        for (size_t k = 0; k < size; k++)
            lines += out[k] == '\n';
        if (*why)
            ; /* the first problem is the one reported */
        else if (bad >= 0)
            snprintf(why, why_size, "case %zu, %s: ill-formed UTF-8 at byte %ld: %.40s", i,
                     names[f], bad, out + bad);
        else if (unsafe >= 0)
            snprintf(why, why_size, "case %zu, %s: control character at byte %ld: %.40s", i,
                     names[f], unsafe, out + unsafe);
        else if (formats[f] == DISKIO_FORMAT_CSV && lines != 2) /* a header, one record */
            snprintf(why, why_size, "case %zu: CSV has %zu lines", i, lines);
        if (dir) {
            char path[700];
            snprintf(path, sizeof(path), "%s/%zu.%s", dir, i, names[f]);
            t_save(path, out, size);
        }
        free(out);
    }
    diskio_result_free(res);
}

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

START_TEST(test_hostile_strings_give_valid_utf8_without_controls)
{
    const char *python = t_python3();
    char *dir = t_mkdtemp("strings");
    /* a target directory whose name is not UTF-8 and holds an escape */
    char target[512];
    snprintf(target, sizeof(target), "%s/dir\xff\x1b[2J\xed\xa0\x80", dir);
    ck_assert_int_eq(mkdir(target, 0700), 0);
    char why[512] = "";
    char list[600];
    snprintf(list, sizeof(list), "%s/cases", dir);
    FILE *cases = fopen(list, "w");
    for (size_t i = 0; i < NHOSTILE; i++) {
        t_check_outputs(i, target, cases ? dir : NULL, why, sizeof(why));
        if (cases) {
            fprintf(cases, "%zu ", i);
            for (const unsigned char *p = (const unsigned char *)hostile[i]; *p; p++)
                fprintf(cases, "%02x", *p);
            fputc('\n', cases);
        }
    }
    int python_status = -1;
    if (cases) {
        /* Python's json module reads every document, and what it reads is
         * what Python's own UTF-8 decoder makes of the bytes, U+FFFD for
         * each maximal ill-formed subpart; CSV records keep their width */
        fclose(cases);
        char cmd[2048];
        snprintf(
            cmd, sizeof(cmd),
            "%s -c '\n"
            "import csv, io, json, sys\n"
            "d = sys.argv[1]\n"
            "for line in open(d + \"/cases\"):\n"
            "    i, h = line.split()\n"
            "    want = bytes.fromhex(h).decode(\"utf-8\", \"replace\")\n"
            "    doc = json.load(open(\"%%s/%%s.json\" %% (d, i), encoding=\"utf-8\"))\n"
            "    assert doc[\"label\"] == want, (i, doc[\"label\"], want)\n"
            "    assert doc[\"runs\"][0][\"mode\"] == want, (i, doc[\"runs\"][0][\"mode\"])\n"
            "    got = doc[\"environment\"][\"target\"][\"directory\"]\n"
            "    assert got.endswith(\"/dir\\ufffd\\x1b[2J\\ufffd\\ufffd\\ufffd\"), got\n"
            "    text = open(\"%%s/%%s.csv\" %% (d, i), encoding=\"utf-8\", newline=\"\").read()\n"
            "    rows = list(csv.reader(io.StringIO(text)))\n"
            "    assert len(rows) == 2 and len(rows[1]) == len(rows[0]), (i, rows)\n"
            "    assert rows[1][1] == rows[1][0], (i, rows[1][:2])\n"
            "print(\"python read\", int(i) + 1, \"cases\")\n"
            "' %s",
            python, dir);
        python_status = system(cmd);
        for (size_t i = 0; i < NHOSTILE; i++) {
            static const char *const names[] = {"json", "csv", "text"};
            for (size_t f = 0; f < 3; f++) {
                char path[700];
                snprintf(path, sizeof(path), "%s/%zu.%s", dir, i, names[f]);
                unlink(path);
            }
        }
        unlink(list);
    }
    /* clean up before judging: a failure leaves nothing behind */
    rmdir(target);
    t_rmdir_empty(dir);
    ck_assert_msg(!*why, "%s", why);
    ck_assert_msg(python_status == 0, "Python could not read the outputs back as expected");
}
END_TEST

/* The text table shows what the JSON cannot keep: each byte of an
 * ill-formed sequence or a control character as \xHH. */
START_TEST(test_text_shows_hostile_bytes_escaped)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new("lab\x1b[31m\xff\xc2\x9b", &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("op\x1b[2J\xe2\x80\xae", &run), 0);
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
    diskio_run_finish(run, 1000000, 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    size_t size;
    char *text = t_write_mem(res, DISKIO_FORMAT_TEXT, &size);
    char *json = t_write_mem(res, DISKIO_FORMAT_JSON, &size);
    char *csv = t_write_mem(res, DISKIO_FORMAT_CSV, &size);
    diskio_result_free(res);
    ck_assert_msg(strstr(text, "label lab\\x1b[31m\\xff\\xc2\\x9b\n") != NULL, "%s", text);
    /* the name column is padded to its width after escaping */
    ck_assert_msg(strstr(text, "\nop\\x1b[2J\\xe2\\x80\\xae ") != NULL, "%s", text);
    ck_assert_msg(strstr(json, "\"label\": \"lab\\u001b[31m\\ufffd\\u009b\"") != NULL, "%s", json);
    ck_assert_msg(strstr(json, "\"mode\": \"op\\u001b[2J\\u202e\"") != NULL, "%s", json);
    ck_assert_msg(strstr(csv, "\nlab\\x1b[31m\\xff\\xc2\\x9b,op\\x1b[2J\\xe2\\x80\\xae,") != NULL,
                  "%s", csv);
    free(text);
    free(json);
    free(csv);
}
END_TEST

/* A backslash is shown doubled in the table and CSV, so that a name
 * holding the four characters \x1b never looks like one holding ESC; the
 * JSON keeps its own escaping. */
START_TEST(test_text_and_csv_show_a_backslash_doubled)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new("lit\\x1b esc\x1b", &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("a\\b", &run), 0);
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
    diskio_run_finish(run, 1000000, 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    size_t size;
    char *text = t_write_mem(res, DISKIO_FORMAT_TEXT, &size);
    char *json = t_write_mem(res, DISKIO_FORMAT_JSON, &size);
    char *csv = t_write_mem(res, DISKIO_FORMAT_CSV, &size);
    diskio_result_free(res);
    ck_assert_msg(strstr(text, "label lit\\\\x1b esc\\x1b\n") != NULL, "%s", text);
    /* the name column is padded to the width of what it shows */
    ck_assert_msg(strstr(text, "\na\\\\b ") != NULL, "%s", text);
    ck_assert_msg(strstr(csv, "\nlit\\\\x1b esc\\x1b,a\\\\b,") != NULL, "%s", csv);
    ck_assert_msg(strstr(json, "\"label\": \"lit\\\\x1b esc\\u001b\"") != NULL, "%s", json);
    free(text);
    free(json);
    free(csv);
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
    tcase_add_test(tc, test_hostile_strings_give_valid_utf8_without_controls);
    tcase_add_test(tc, test_text_shows_hostile_bytes_escaped);
    tcase_add_test(tc, test_text_and_csv_show_a_backslash_doubled);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
