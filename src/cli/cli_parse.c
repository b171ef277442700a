/* SPDX-License-Identifier: MIT */
/* Command-line parsing (cli_parse): argv read by the option table, from
 * the defaults (cli_defaults.c) on, and the checks between options that
 * come before the library's (cli_config.c). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_durable.h"
#include "cli_fail.h"
#include "cli_options.h"

/* A whole number into the field of opt (4 or 8 bytes). */
static void store(struct cli_options *o, const struct cli_option *opt, uint64_t v)
{
    char *field = (char *)o + opt->off;
    if (opt->size == sizeof(uint64_t))
        memcpy(field, &v, sizeof(v));
    else {
        unsigned u = (unsigned)v;
        memcpy(field, &u, sizeof(u));
    }
}

/* Read text, the value of opt, into o: 0, or -1 with the message. */
static int read_value(const struct cli_option *opt, const char *text, struct cli_options *o,
                      char *err, size_t size)
{
    uint64_t v = 0;
    int rc = 0;
    char bad[256] = ""; /* opt->bad, its {min} and {max} the row's */
    if (opt->bad)
        cli_expand(opt, opt->bad, bad, sizeof(bad));
    switch (opt->type) {
    case CLI_FLAG: *((bool *)((char *)o + opt->off)) = true; return 0;
    case CLI_FUNC: return opt->parse(text, o, err, size);
    case CLI_TEXT:
        if (opt->bad && !*text)
            return cli_fail(err, size, "--%s: %s", opt->name, bad);
        memcpy((char *)o + opt->off, &text, sizeof(text));
        return 0;
    case CLI_UINT: rc = cli_parse_uint(text, 0, UINT64_MAX, &v); break;
    case CLI_SIZE: rc = cli_parse_size(text, &v); break;
    case CLI_DURATION: rc = cli_parse_duration(text, &v); break;
    }
    if (rc != 0 || v < opt->min || v > opt->max) {
        if (opt->bad)
            return cli_fail(err, size, "--%s: '%s' %s", opt->name, text, bad);
        return cli_fail(err, size, "--%s: '%s' is not a whole number from %" PRIu64 " to %" PRIu64,
                        opt->name, text, opt->min, opt->max);
    }
    store(o, opt, v);
    return 0;
}

/* The options of argv into o, the operands left from optind on: 0, or -1
 * with the message. */
static int read_options(int argc, char **argv, struct cli_options *o, char *err, size_t size)
{
    /* getopt's view of the table: a long option's val is its short name,
     * or 256 and its row */
    static struct option longopts[CLI_OPTIONS_MAX + 1];
    char shortopts[3 * CLI_OPTIONS_MAX + 2] = ":";
    size_t n = 0, s = 1;
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++, n++) {
        const int has_arg = !opt->arg                           ? no_argument
                            : (opt->flags & CLI_OPTIONAL_VALUE) ? optional_argument
                                                                : required_argument;
        longopts[n] = (struct option){opt->name, has_arg, NULL,
                                      opt->short_name ? opt->short_name : 256 + (int)n};
        if (opt->short_name) {
            shortopts[s++] = (char)opt->short_name;
            if (opt->arg)
                shortopts[s++] = ':';
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    shortopts[s] = '\0';

    optind = 0; /* glibc: full reinitialisation, so tests can parse repeatedly */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == ':')
            return cli_fail(err, size, "%s needs a value", argv[optind - 1]);
        const struct cli_option *opt = c >= 256 ? &cli_option_table[c - 256] : NULL;
        for (size_t i = 0; !opt && c != '?' && i < n; i++)
            if (cli_option_table[i].short_name == c)
                opt = &cli_option_table[i];
        if (!opt) {
            if (optopt)
                return cli_fail(err, size, "unknown option '-%c'", optopt);
            return cli_fail(err, size, "unknown option '%s'", argv[optind - 1]);
        }
        /* the options a suite's rows set, named as given */
        if (!o->workload_option && (opt->flags & CLI_ROW_SETS))
            o->workload_option = argv[optind - 1][0] == '-' ? argv[optind - 1] : argv[optind - 2];
        if (read_value(opt, optarg, o, err, size) != 0)
            return -1;
        o->given |= UINT64_C(1) << (opt - cli_option_table);
        if (opt->given_off)
            *((bool *)((char *)o + opt->given_off)) = true;
        if (opt->flags & CLI_ENDS_PARSING)
            return 0;
    }
    return 0;
}

/* ---- the options together ---- */

/* The options that apply to --suite only, given without it. */
static int check_suite_options(const struct cli_options *o, char *err, size_t size)
{
    for (const struct cli_option *opt = cli_option_table; opt->name && !o->suite; opt++)
        if ((opt->flags & CLI_SUITE_ONLY) && cli_option_given(o, opt))
            return cli_fail(err, size, "--%s applies to --suite only", opt->name);
    if (o->suite && o->workload_option)
        return cli_fail(err, size,
                        "%s: with --suite the suite's rows set the workload; only --size, "
                        "--count, --runtime and --warmup override every row's",
                        o->workload_option);
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The runs of an ordinary command line (not a suite's), with the
 * command's defaults that depend on other options; 0, or -1. */
static int resolve_runs(struct cli_options *o, char *err, size_t size)
{
    /* PostgreSQL's WAL and checkpoints: the modes PostgreSQL, configured
     * by default, writes them in (the library's
     * diskio_pattern_pg_default_mode()) */
    if (!o->modes_explicit) {
        enum diskio_mode pg[CLI_MAX_MODES];
        size_t npg = 0;
        for (unsigned m = 0; m < diskio_mode_count() && npg < CLI_MAX_MODES; m++)
            if (diskio_pattern_pg_default_mode(o->pattern, (enum diskio_mode)m))
                pg[npg++] = (enum diskio_mode)m;
        if (npg > 0) {
            memcpy(o->modes, pg, npg * sizeof(pg[0]));
            o->nmodes = npg;
        }
    }
    /* --target: the modes that take a fixed rate (not aio, uring) */
    if (!o->modes_explicit && o->capacity_on) {
        size_t kept = 0;
        for (size_t m = 0; m < o->nmodes; m++)
            if (!diskio_mode_is_queued(o->modes[m]))
                o->modes[kept++] = o->modes[m];
        o->nmodes = kept;
    }
    if (cli_check_target(o, err, size) != 0)
        return -1;
    uint64_t largest_bs = 0;
    for (size_t i = 0; i < o->nsizes; i++)
        if (o->block_sizes[i] > largest_bs)
            largest_bs = o->block_sizes[i];
    if (!o->size_given && o->file_size < largest_bs * CLI_DEFAULT_FILE_BLOCKS)
        o->file_size = largest_bs * CLI_DEFAULT_FILE_BLOCKS;
    if (cli_check_runs(o, largest_bs, err, size) != 0)
        return -1;
    if (cli_check_steady(o, err, size) != 0)
        return -1;

    if (o->output && o->trace && strcmp(o->output, o->trace) == 0)
        return cli_fail(err, size, "--output and --trace name the same file");
    if (o->interval_csv && !o->interval_ns)
        return cli_fail(err, size,
                        "--interval-csv: there is no series to write without --interval");
    if (o->format == DISKIO_FORMAT_INTERVALS && !o->interval_ns)
        return cli_fail(err, size,
                        "--format intervals: there is no series to write without --interval "
                        "(give --interval DURATION, e.g. --interval 1)");
    if (o->interval_csv && o->output && strcmp(o->output, o->interval_csv) == 0)
        return cli_fail(err, size, "--output and --interval-csv name the same file");
    return 0;
}

int cli_parse(int argc, char **argv, struct cli_options *o, char *err, size_t err_size)
{
    cli_defaults(o);
    if (read_options(argc, argv, o, err, err_size) != 0)
        return -1;
    if (o->help || o->version)
        return 0;

    if (optind >= argc)
        return cli_fail(err, err_size,
                        o->verify_durability
                            ? "no file: give the file the durability run wrote"
                            : "no target: give the directory to test in (e.g. 'diskio .')");
    if (argc - optind > 1)
        return cli_fail(err, err_size, "one target only, got '%s' and '%s'", argv[optind],
                        argv[optind + 1]);
    o->target = argv[optind];

    bool verify_only;
    if (cli_durable_check(o, &verify_only, err, err_size) != 0)
        return -1;
    if (verify_only)
        return 0; /* a check of a file: no run */
    /* --steady: up to 5 minutes, judged second by second */
    if (!o->runtime_ns && (o->steady_on || !o->count))
        o->runtime_ns = o->steady_on ? CLI_STEADY_RUNTIME_NS : CLI_DEFAULT_RUNTIME_NS;
    if (o->steady_on && !o->interval_ns)
        o->interval_ns = CLI_STEADY_INTERVAL_NS;
    if (check_suite_options(o, err, err_size) != 0)
        return -1;
    /* the format of --output FILE.json or FILE.csv */
    if (o->output && !o->format_given) {
        if (ends_with(o->output, ".json"))
            o->format = DISKIO_FORMAT_JSON;
        else if (ends_with(o->output, ".csv"))
            o->format = DISKIO_FORMAT_CSV;
    }
    /* a suite's rows are checked one by one (cli_suite.c) */
    return o->suite ? 0 : resolve_runs(o, err, err_size);
}
