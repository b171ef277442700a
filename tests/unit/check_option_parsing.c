/* SPDX-License-Identifier: MIT */
/*
 * Description: the option parser takes every valid value and names the option of every bad one.
 *
 * diskio's option parsing: defaults, sizes with suffixes,
 * block-size sweeps, mode lists, durations, and every kind of bad value
 * (malformed, zero, negative, overflowing, out of range, conflicting, a mode
 * or block size listed twice) rejected with a message that names the option;
 * a label that is not printable UTF-8 text refused, naming the byte.
 */
#include "config.h"

#include <stdarg.h>

#include "cli_options.h"
#include "t_helpers.h"

/* Parse a NULL-terminated list of arguments after "diskio". */
static int t_parse(struct cli_options *o, char *err, size_t err_size, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = "diskio";
    va_list ap;
    va_start(ap, err_size);
    char *arg;
    while ((arg = va_arg(ap, char *)) && argc < 63)
        argv[argc++] = arg;
    va_end(ap);
    argv[argc] = NULL;
    err[0] = '\0';
    return cli_parse(argc, argv, o, err, err_size);
}

/* How many modes of the library's read (or write), as its table says. */
static size_t t_modes_reading(bool reads)
{
    size_t n = 0;
    for (unsigned m = 0; m < diskio_mode_count(); m++)
        n += diskio_mode_is_read((enum diskio_mode)m) == reads;
    return n;
}

START_TEST(test_defaults_run_every_mode_for_two_seconds)
{
    struct cli_options o;
    char err[512];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "/tmp", NULL), 0);
    ck_assert_str_eq(o.target, "/tmp");
    /* every write mode; the read modes are asked for by name */
    ck_assert_uint_eq(o.nmodes, t_modes_reading(false));
    for (size_t i = 0; i < o.nmodes; i++)
        ck_assert(!diskio_mode_is_read(o.modes[i]));
    ck_assert_uint_eq(o.nsizes, 1);
    ck_assert_uint_eq(o.block_sizes[0], 8192);
    ck_assert_uint_eq(o.runtime_ns, CLI_DEFAULT_RUNTIME_NS);
    ck_assert_uint_eq(o.count, 0);
    ck_assert_int_eq(o.pattern, DISKIO_PATTERN_SEQ);
    ck_assert_int_eq(o.format, DISKIO_FORMAT_TEXT);
}
END_TEST

START_TEST(test_sizes_accept_suffixes)
{
    static const struct {
        const char *text;
        uint64_t bytes;
    } good[] = {{"512", 512},       {"4k", 4096},     {"4K", 4096},
                {"4kb", 4096},      {"4KiB", 4096},   {"1m", 1 << 20},
                {"64M", 64u << 20}, {"1g", 1u << 30}, {"2t", UINT64_C(2) << 40},
                {"100b", 100}};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        uint64_t v = 0;
        ck_assert_msg(cli_parse_size(good[i].text, &v) == 0, "%s rejected", good[i].text);
        ck_assert_uint_eq(v, good[i].bytes);
    }
    static const char *const bad[] = {"",
                                      "k",
                                      "-1",
                                      "+4k",
                                      "4x",
                                      "4kk",
                                      "4 k",
                                      "0x10",
                                      "99999999999999999999k",
                                      "18014398509481984k",
                                      "4.5k",
                                      " 4k"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        uint64_t v;
        ck_assert_msg(cli_parse_size(bad[i], &v) != 0, "'%s' accepted", bad[i]);
    }
}
END_TEST

START_TEST(test_durations_accept_units)
{
    uint64_t ns;
    ck_assert_int_eq(cli_parse_duration("2", &ns), 0);
    ck_assert_uint_eq(ns, 2000000000u);
    ck_assert_int_eq(cli_parse_duration("0.5", &ns), 0);
    ck_assert_uint_eq(ns, 500000000u);
    ck_assert_int_eq(cli_parse_duration("500ms", &ns), 0);
    ck_assert_uint_eq(ns, 500000000u);
    ck_assert_int_eq(cli_parse_duration("1m", &ns), 0);
    ck_assert_uint_eq(ns, UINT64_C(60000000000));
    ck_assert_int_ne(cli_parse_duration("-1", &ns), 0);
    ck_assert_int_ne(cli_parse_duration("1e400", &ns), 0);
    ck_assert_int_ne(cli_parse_duration("nan", &ns), 0);
    ck_assert_int_ne(cli_parse_duration("2 s", &ns), 0);
    ck_assert_int_ne(cli_parse_duration("32d", &ns), 0);
}
END_TEST

START_TEST(test_bs_list_sweeps_io_lengths)
{
    struct cli_options o;
    char err[512];
    ck_assert_int_eq(
        t_parse(&o, err, sizeof(err), "--bs", "4k,64k,1m,8m", "-m", "fsync", "d", NULL), 0);
    ck_assert_uint_eq(o.nsizes, 4);
    ck_assert_uint_eq(o.block_sizes[3], 8u << 20);
    /* the file grows to hold several of the largest blocks */
    ck_assert_uint_ge(o.file_size, 8u * (8u << 20));
}
END_TEST

START_TEST(test_jobs_list_sweeps_writers)
{
    struct cli_options o;
    char err[512];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-m", "fdatasync", "d", NULL), 0);
    ck_assert_uint_eq(o.njobs, 1);
    ck_assert_uint_eq(o.jobs[0], 1);
    ck_assert(!o.shared_file);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--jobs", "1,4,16", "--shared-file", "-m",
                             "fdatasync", "d", NULL),
                     0);
    ck_assert_uint_eq(o.njobs, 3);
    ck_assert_uint_eq(o.jobs[2], 16);
    ck_assert(o.shared_file);
    struct diskio_config cfg;
    cli_config(&o, DISKIO_MODE_FDATASYNC, 8192, &cfg);
    ck_assert_uint_eq(cfg.jobs, 1);
    ck_assert_uint_eq(cfg.shared_file, 1);

    static const char *const bad[][4] = {
        {"--jobs", "0", "-m", "fsync"},         {"--jobs", "257", "-m", "fsync"},
        {"--jobs", "4,,8", "-m", "fsync"},      {"--jobs", "x", "-m", "fsync"},
        {"--jobs", "4,4", "-m", "fsync"},       {"--jobs", "-1", "-m", "fsync"},
        {"--jobs", "2", "--rate", "10"},        {"--jobs", "1,2", "--trace", "t.csv"},
        {"--jobs", "2", "--pattern", "append"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int rc = i == 8 ? t_parse(&o, err, sizeof(err), bad[i][0], bad[i][1], bad[i][2], bad[i][3],
                                  "--shared-file", "-m", "fsync", "d", NULL)
                 : i >= 6 ? t_parse(&o, err, sizeof(err), bad[i][0], bad[i][1], bad[i][2],
                                    bad[i][3], "-m", "fsync", "d", NULL)
                          : t_parse(&o, err, sizeof(err), bad[i][0], bad[i][1], bad[i][2],
                                    bad[i][3], "d", NULL);
        ck_assert_msg(rc != 0, "accepted %s %s %s %s", bad[i][0], bad[i][1], bad[i][2], bad[i][3]);
        ck_assert_msg(strncmp(err, "--jobs", 6) == 0, "message: %s", err);
    }
    /* several jobs may append, each to its own file */
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--jobs", "2", "--pattern", "append", "-m",
                             "fsync", "d", NULL),
                     0);
}
END_TEST

START_TEST(test_mode_list_and_all)
{
    struct cli_options o;
    char err[512];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--mode", "fsync,aio", "d", NULL), 0);
    ck_assert_uint_eq(o.nmodes, 2);
    ck_assert_int_eq(o.modes[0], DISKIO_MODE_FSYNC);
    ck_assert_int_eq(o.modes[1], DISKIO_MODE_AIO);
    ck_assert(o.modes_explicit);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-m", "all", "d", NULL), 0);
    ck_assert_uint_eq(o.nmodes, t_modes_reading(false));
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-m", "all-reads", "d", NULL), 0);
    ck_assert_uint_eq(o.nmodes, t_modes_reading(true));
    for (size_t i = 0; i < o.nmodes; i++)
        ck_assert(diskio_mode_is_read(o.modes[i]));
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-m", "all,all-reads", "d", NULL), 0);
    ck_assert_uint_eq(o.nmodes, diskio_mode_count());
    ck_assert_uint_le(diskio_mode_count(), CLI_MAX_MODES); /* the command has room for all */
}
END_TEST

START_TEST(test_output_extension_picks_format)
{
    struct cli_options o;
    char err[512];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-o", "r.json", "d", NULL), 0);
    ck_assert_int_eq(o.format, DISKIO_FORMAT_JSON);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-o", "r.csv", "d", NULL), 0);
    ck_assert_int_eq(o.format, DISKIO_FORMAT_CSV);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "-f", "text", "-o", "r.json", "d", NULL), 0);
    ck_assert_int_eq(o.format, DISKIO_FORMAT_TEXT);
}
END_TEST

/* Each bad command line, and a word its message must contain. */
/* --percentiles: sorted (one listed twice is a bad line below); --mbps */
START_TEST(test_percentiles_are_sorted_and_mbps_is_a_flag)
{
    struct cli_options o;
    char err[512];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "d", NULL), 0);
    ck_assert_uint_eq(o.npercentiles, 0); /* the library's default */
    ck_assert(!o.mbps);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--percentiles", "99.99,50,99.9,100,0.5",
                             "--mbps", "d", NULL),
                     0);
    static const double want[] = {0.5, 50.0, 99.9, 99.99, 100.0};
    ck_assert_uint_eq(o.npercentiles, 5);
    for (size_t i = 0; i < 5; i++)
        ck_assert_double_eq(o.percentiles[i], want[i]);
    ck_assert(o.mbps);
}
END_TEST

static const struct {
    const char *args[8];
    const char *names;
} bad_lines[] = {
    {{"--percentiles", "0", "d"}, "--percentiles"},
    {{"--percentiles", "100.01", "d"}, "--percentiles"},
    {{"--percentiles", "-50", "d"}, "--percentiles"},
    {{"--percentiles", "1e3", "d"}, "--percentiles: '1e3' is out of range"},
    {{"--percentiles", "nan", "d"}, "--percentiles"},
    {{"--percentiles", "50,", "d"}, "--percentiles: empty item"},
    {{"--percentiles", "1,2,3,4,5,6,7,8,9", "d"}, "--percentiles: more than 8"},
    {{"--percentiles", "50,99,50", "d"}, "--percentiles: 50 is listed twice in '50,99,50'"},
    {{"--percentiles", "99.9,50,99.90", "d"}, "--percentiles: 99.90 is listed twice"},
    {{"--percentiles", "1,2,3,4,5,6,7,8,8", "d"}, "--percentiles: 8 is listed twice"},
    {{"--bs", "99999999999999999999k", "d"}, "--bs"},
    {{"--bs", "256", "d"}, "--bs"},
    {{"--bs", "128m", "d"}, "--bs"},
    {{"--bs", "-4k", "d"}, "--bs"},
    {{"--bs", "4k,,8k", "d"}, "empty item"},
    {{"--bs", "8k,", "d"}, "--bs"},
    {{"--bs", "", "d"}, "--bs"},
    {{"--bs", "1000", "-m", "direct", "d"}, "512"},
    {{"--count", "0", "d"}, "--count"},
    {{"--count", "-5", "d"}, "--count"},
    {{"--count", "12abc", "d"}, "--count"},
    {{"--count", "99999999999999999999", "d"}, "--count"},
    {{"--runtime", "0", "d"}, "--runtime"},
    {{"--runtime", "soon", "d"}, "--runtime"},
    {{"--size", "0", "d"}, "--size"},
    {{"--size", "4k", "--bs", "8k", "d"}, "--size"},
    {{"--pattern", "zigzag", "d"}, "--pattern"},
    {{"--mode", "fsnyc", "d"}, "fsnyc"},
    {{"--mode", "", "d"}, "--mode"},
    {{"--mode", "fsync,fdatasync,fsync", "d"}, "fsync is listed twice"},
    {{"--mode", "all,osync", "d"}, "osync is listed twice"},
    {{"--bs", "8k,4k,8192", "d"}, "8192 is listed twice"},
    {{"--iodepth", "0", "d"}, "--iodepth"},
    {{"--iodepth", "2000", "d"}, "--iodepth"},
    {{"--iodepth", "8", "-m", "fsync", "d"}, "aio"},
    {{"--sync-every", "4", "-m", "async", "d"}, "--sync-every"},
    {{"--sync-every", "0", "d"}, "--sync-every"},
    {{"--format", "xml", "d"}, "--format"},
    {{"--warmup", "-1", "d"}, "--warmup"},
    {{"--label", "", "d"}, "--label"},
    {{"-m", "aio", "--pattern", "append", "--iodepth", "4", "d"}, "append"},
    {{"-m", "aio", "--bs", "64m", "--iodepth", "8", "d"}, "--iodepth"},
    {{"--bogus", "d"}, "--bogus"},
    {{"--count"}, "--count"},
    {{"d", "e"}, "one target"},
    {{"--count", "5"}, "target"},
    {{"-o", "x", "--trace", "x", "d"}, "same file"},
    {{"--interval", "0", "d"}, "--interval"},
    {{"--interval", "5ms", "d"}, "--interval: 0.005 s is shorter than 10ms"},
    {{"--interval", "3s", "d"}, "longer than the --runtime"},
    {{"--interval", "10ms", "-t", "1001", "d"}, "use at least 11 ms"},
    {{"--interval-csv", "x.csv", "d"}, "--interval-csv"},
    {{"--interval", "1", "--interval-csv", "", "d"}, "--interval-csv"},
    {{"--interval", "1", "-o", "x", "--interval-csv", "x", "d"}, "same file"},
    /* one reader of numbers with a fraction: no hex, inf, nan or sign */
    {{"--runtime", "0x10", "d"}, "--runtime: '0x10'"},
    {{"--runtime", "inf", "d"}, "--runtime: 'inf'"},
    {{"--runtime", "nan", "d"}, "--runtime: 'nan'"},
    {{"--runtime", "+2", "d"}, "--runtime: '+2'"},
    {{"--runtime", " 2", "d"}, "--runtime"},
    {{"--runtime", "1e400", "d"}, "--runtime"},
    {{"--interval", "0x1", "d"}, "--interval: '0x1'"},
    {{"--rate", "0x10", "d"}, "--rate: '0x10'"},
    {{"--rate", "infinity", "d"}, "--rate"},
    {{"--percentiles", "0x10", "d"}, "--percentiles: '0x10' is not a decimal number"},
    {{"--percentiles", "nan", "d"}, "--percentiles: 'nan' is not a decimal number"},
    {{"--percentiles", "99,-1", "d"}, "--percentiles: '-1' is not a decimal number"},
    {{"--percentiles", "1e-500", "d"}, "--percentiles: '1e-500' is out of range"},
    {{"--format", "intervals", "d"},
     "--format intervals: there is no series to write without "
     "--interval"},
};

/* Numbers with a fraction are read by one reader: decimal digits with a
 * fraction and an exponent are taken, for every option alike. */
START_TEST(test_numbers_with_an_exponent_are_taken)
{
    struct cli_options o;
    char err[256];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--percentiles", "1e-5,99.9", "d", NULL), 0);
    ck_assert_uint_eq(o.npercentiles, 2);
    ck_assert(o.percentiles[0] == 1e-5);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--runtime", "1.5e1", "d", NULL), 0);
    ck_assert_uint_eq(o.runtime_ns, UINT64_C(15000000000));
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--runtime", ".5ms", "d", NULL), 0);
    ck_assert_uint_eq(o.runtime_ns, 500000u);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--rate", "2.5e2", "-m", "fsync", "d", NULL), 0);
    ck_assert_uint_eq(o.rate_interval_ns, 4000000u);
    ck_assert_int_eq(
        t_parse(&o, err, sizeof(err), "--format", "intervals", "--interval", "1", "d", NULL), 0);
}
END_TEST

/* --interval takes the durations --runtime does; with only a count, any
 * length from 10 ms. */
START_TEST(test_interval_takes_a_duration)
{
    struct cli_options o;
    char err[256];
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--interval", "0.5", "d", NULL), 0);
    ck_assert_uint_eq(o.interval_ns, 500000000u);
    struct diskio_config cfg;
    cli_config(&o, DISKIO_MODE_ASYNC, 4096, &cfg);
    ck_assert_uint_eq(cfg.interval_ns, 500000000u);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--interval", "250ms", "-n", "10", "d", NULL),
                     0);
    ck_assert_uint_eq(o.interval_ns, 250000000u);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "--interval", "1h", "-n", "10", "d", NULL), 0);
    ck_assert_int_eq(t_parse(&o, err, sizeof(err), "d", NULL), 0);
    ck_assert_uint_eq(o.interval_ns, 0);
}
END_TEST

START_TEST(test_bad_values_are_rejected_naming_the_option)
{
    struct cli_options o;
    char err[512];
    for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
        char *argv[10] = {"diskio"};
        int argc = 1;
        for (int k = 0; k < 8 && bad_lines[i].args[k]; k++)
            argv[argc++] = (char *)bad_lines[i].args[k];
        argv[argc] = NULL;
        err[0] = '\0';
        int rc = cli_parse(argc, argv, &o, err, sizeof(err));
        ck_assert_msg(rc != 0, "line %zu (%s %s) accepted", i, argv[1], argc > 2 ? argv[2] : "");
        ck_assert_msg(strstr(err, bad_lines[i].names) != NULL,
                      "line %zu: message '%s' does not mention '%s'", i, err, bad_lines[i].names);
    }
}
END_TEST

/* A label is printable UTF-8 text: ill-formed UTF-8 and control
 * characters are refused at parse time (exit status 2), naming the byte,
 * never echoing the label; any printable text is taken as it is. */
START_TEST(test_label_must_be_printable_utf8)
{
    static const struct {
        const char *label, *says;
    } bad[] = {
        {"a\xff", "byte 2 (0xff) is not part of UTF-8"},
        {"\xc0\x80", "byte 1 (0xc0) is not part of UTF-8"},      /* overlong NUL */
        {"x\xe0\x80\xaf", "byte 2 (0xe0) is not part of UTF-8"}, /* overlong '/' */
        {"x\xed\xa0\x80", "byte 2 (0xed) is not part of UTF-8"}, /* surrogate */
        {"\xf4\x90\x80\x80", "byte 1 (0xf4)"},                   /* above U+10FFFF */
        {"ab\xe2\x82", "byte 3 (0xe2) is not part of UTF-8"},    /* cut short */
        {"\x80", "byte 1 (0x80)"},                               /* lone continuation */
        {"a\x1b[31m", "byte 2 is the control character 0x1b"},
        {"a\tb", "byte 2 is the control character 0x09"},
        {"a\nb", "byte 2 is the control character 0x0a"},
        {"del\x7f", "byte 4 is the control character 0x7f"},
        {"a\xc2\x9b", "bytes 2-3 are the control character U+009B"},
        {"a\xe2\x80\xae"
         "b",
         "bytes 2-4 are U+202E, a bidirectional formatting character"},
        {"\xe2\x81\xa6x", "bytes 1-3 are U+2066, a bidirectional formatting character"},
        {"a\xd8\x9c", "bytes 2-3 are U+061C, a bidirectional formatting character"},
        {"a\xe2\x80\xa8", "bytes 2-4 are U+2028, a line or paragraph separator"},
    };
    struct cli_options o;
    char err[512];
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(t_parse(&o, err, sizeof(err), "--label", bad[i].label, "d", NULL) != 0,
                      "bad label %zu accepted", i);
        ck_assert_msg(strstr(err, "--label: ") == err && strstr(err, bad[i].says),
                      "bad label %zu: message '%s' does not say '%s'", i, err, bad[i].says);
        ck_assert_msg(strstr(err, bad[i].label) == NULL, "bad label %zu echoed", i);
    }
    static const char *const good[] = {"db1", "lab \"A\", rack 3",
                                       "Z\xc3\xbcrich \xe2\x98\x83 \xf0\x9f\x9a\x80",
                                       "\xc2\xa0nbsp \xef\xbf\xbd \xf4\x8f\xbf\xbf"};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ck_assert_msg(t_parse(&o, err, sizeof(err), "--label", good[i], "d", NULL) == 0,
                      "good label %zu refused: %s", i, err);
        ck_assert_str_eq(o.label, good[i]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_defaults_run_every_mode_for_two_seconds);
    tcase_add_test(tc, test_sizes_accept_suffixes);
    tcase_add_test(tc, test_durations_accept_units);
    tcase_add_test(tc, test_bs_list_sweeps_io_lengths);
    tcase_add_test(tc, test_jobs_list_sweeps_writers);
    tcase_add_test(tc, test_mode_list_and_all);
    tcase_add_test(tc, test_output_extension_picks_format);
    tcase_add_test(tc, test_bad_values_are_rejected_naming_the_option);
    tcase_add_test(tc, test_percentiles_are_sorted_and_mbps_is_a_flag);
    tcase_add_test(tc, test_interval_takes_a_duration);
    tcase_add_test(tc, test_label_must_be_printable_utf8);
    tcase_add_test(tc, test_numbers_with_an_exponent_are_taken);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
