/* SPDX-License-Identifier: MIT */
/* Command-line parsing: the options, the lists of modes and block sizes,
 * the command's own defaults, and the usage text. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_durable.h"
#include "cli_msg.h"
#include "cli_options.h"

#define MAX_FILE_SIZE (UINT64_C(1) << 50)

int cli_fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *mode_list(void)
{
    return "async, fsync, fdatasync, osync, odsync, direct, direct-dsync, aio, uring, all, "
           "read, direct-read, aio-read, uring-read, all-reads";
}

/* A mode listed twice would be measured twice, its second trace over the
 * first's: a usage error, found before anything is made. */
static int add_mode(struct cli_options *o, enum diskio_mode mode, const char *text, char *err,
                    size_t size)
{
    for (size_t i = 0; i < o->nmodes; i++)
        if (o->modes[i] == mode)
            return cli_fail(err, size,
                            "--mode: %s is listed twice in '%s' (each mode runs once per "
                            "block size%s)",
                            diskio_mode_name(mode), text,
                            strstr(text, "all") ? "; 'all' is every write mode, 'all-reads' "
                                                  "every read mode"
                                                : "");
    if (o->nmodes == sizeof(o->modes) / sizeof(o->modes[0]))
        return cli_fail(err, size, "--mode: too many modes (at most %zu)",
                        sizeof(o->modes) / sizeof(o->modes[0]));
    o->modes[o->nmodes++] = mode;
    return 0;
}

static int parse_modes(const char *text, struct cli_options *o, char *err, size_t size)
{
    char *copy = strdup(text);
    if (!copy)
        return cli_fail(err, size, "out of memory");
    o->nmodes = 0;
    int rc = 0;
    char *rest = copy;
    for (char *name = strsep(&rest, ","); name && rc == 0; name = strsep(&rest, ",")) {
        if (!*name) {
            rc =
                cli_fail(err, size, "--mode: empty item in '%s' (accepted: %s)", text, mode_list());
            break;
        }
        /* all: the write modes (the durability disciplines); all-reads:
         * the read modes */
        if (strcmp(name, "all") == 0 || strcmp(name, "all-reads") == 0) {
            const bool reads = name[3] != '\0';
            for (unsigned m = 0; m < diskio_mode_count() && rc == 0; m++)
                if (diskio_mode_is_read((enum diskio_mode)m) == reads)
                    rc = add_mode(o, (enum diskio_mode)m, text, err, size);
            continue;
        }
        enum diskio_mode mode;
        if (diskio_mode_parse(name, &mode) != 0)
            rc = cli_fail(err, size, "--mode: unknown mode '%s' (accepted: %s)", name, mode_list());
        else
            rc = add_mode(o, mode, text, err, size);
    }
    free(copy);
    return rc;
}

/* Like a mode, a block size listed twice is a usage error. */
static int add_size(struct cli_options *o, uint64_t bs, const char *text, char *err, size_t size)
{
    for (size_t i = 0; i < o->nsizes; i++)
        if (o->block_sizes[i] == bs)
            return cli_fail(err, size,
                            "--bs: %" PRIu64 " is listed twice in '%s' (each block size runs "
                            "once per mode)",
                            bs, text);
    if (o->nsizes == CLI_MAX_SIZES)
        return cli_fail(err, size, "--bs: too many sizes (at most %d)", CLI_MAX_SIZES);
    o->block_sizes[o->nsizes++] = bs;
    return 0;
}

static int parse_sizes(const char *text, struct cli_options *o, char *err, size_t size)
{
    char *copy = strdup(text);
    if (!copy)
        return cli_fail(err, size, "out of memory");
    o->nsizes = 0;
    int rc = 0;
    char *rest = copy;
    for (char *item = strsep(&rest, ","); item && rc == 0; item = strsep(&rest, ",")) {
        uint64_t bs;
        if (!*item)
            rc = cli_fail(err, size,
                          "--bs: empty item in '%s' (accepted: 512 to 64m, e.g. 8k or "
                          "4k,64k,1m)",
                          text);
        else if (cli_parse_size(item, &bs) != 0)
            rc = cli_fail(err, size,
                          "--bs: '%s' is not a size (accepted: 512 to 64m, with k/m/g suffixes)",
                          item);
        else if (bs < DISKIO_BS_MIN || bs > DISKIO_BS_MAX)
            rc = cli_fail(err, size, "--bs: '%s' is out of range (accepted: 512 to 64m)", item);
        else
            rc = add_size(o, bs, text, err, size);
    }
    free(copy);
    return rc;
}

/* --jobs 1,4,16: each count of concurrent writers is a run of its own,
 * like each --bs; a count listed twice is a usage error. */
static int parse_jobs(const char *text, struct cli_options *o, char *err, size_t size)
{
    char *copy = strdup(text);
    if (!copy)
        return cli_fail(err, size, "out of memory");
    o->njobs = 0;
    int rc = 0;
    char *rest = copy;
    for (char *item = strsep(&rest, ","); item && rc == 0; item = strsep(&rest, ",")) {
        uint64_t n;
        if (cli_parse_uint(item, 1, DISKIO_JOBS_MAX, &n) != 0) {
            rc = cli_fail(err, size,
                          "--jobs: '%s' is not a whole number from 1 to %u (e.g. 4, or 1,4,16 "
                          "to sweep)",
                          item, DISKIO_JOBS_MAX);
            break;
        }
        for (size_t i = 0; i < o->njobs && rc == 0; i++)
            if (o->jobs[i] == n)
                rc = cli_fail(err, size,
                              "--jobs: %u is listed twice in '%s' (each count runs once per "
                              "mode and size)",
                              (unsigned)n, text);
        if (rc == 0 && o->njobs == CLI_MAX_JOBS)
            rc = cli_fail(err, size, "--jobs: too many counts (at most %d)", CLI_MAX_JOBS);
        if (rc == 0)
            o->jobs[o->njobs++] = (unsigned)n;
    }
    free(copy);
    return rc;
}

/* A label names a result in every output and in the analysis commands'
 * reports, so it must be printable UTF-8 text: no byte that is not part of
 * well-formed UTF-8, no control character (C0, DEL, C1), no line or
 * paragraph separator and no bidirectional formatting character (U+202E
 * would show the rest of a report reversed: threat model, "Names and
 * numbers").  The first bad byte is named by its position; the label
 * itself is not echoed. */
static int check_label(const char *label, char *err, size_t size)
{
    const unsigned char *s = (const unsigned char *)label;
    for (size_t i = 0, n; s[i]; i += n) {
        const int32_t cp = utf8_decode(s + i, &n);
        if (cp < 0)
            return cli_fail(err, size,
                            "--label: byte %zu (0x%02x) is not part of UTF-8 text; give the "
                            "label as UTF-8",
                            i + 1, s[i]);
        if (cp < 0x20 || cp == 0x7f)
            return cli_fail(err, size,
                            "--label: byte %zu is the control character 0x%02x; give a label "
                            "of printable characters",
                            i + 1, s[i]);
        if (cp >= 0x80 && cp <= 0x9f)
            return cli_fail(err, size,
                            "--label: bytes %zu-%zu are the control character U+%04X; give a "
                            "label of printable characters",
                            i + 1, i + n, (unsigned)cp);
        if (display_unsafe(cp))
            return cli_fail(err, size,
                            "--label: bytes %zu-%zu are U+%04X, a %s character, which "
                            "reorders or breaks the text around it; give a label of printable "
                            "characters",
                            i + 1, i + n, (unsigned)cp,
                            cp == 0x2028 || cp == 0x2029 ? "line or paragraph separator"
                                                         : "bidirectional formatting");
    }
    return 0;
}

/* --percentiles 50,99,99.9: decimal numbers above 0 and at most 100
 * (1e-5 too), sorted, a repeated one dropped; no signs, hex, inf or nan. */
static int parse_percentiles(const char *text, struct cli_options *o, char *err, size_t size)
{
    static const char accepted[] = "accepted: up to 8 numbers above 0 and at most 100 "
                                   "(100 is the max), e.g. 50,90,99,99.9,99.99";
    o->npercentiles = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[32];
        if (len == 0)
            return cli_fail(err, size, "--percentiles: empty item in '%s' (%s)", text, accepted);
        const char *end = NULL;
        double v = 0;
        if (len < sizeof(item)) {
            memcpy(item, p, len);
            item[len] = '\0';
        }
        if (len >= sizeof(item) || cli_parse_number(item, &v, &end) != 0 || *end)
            return cli_fail(err, size,
                            "--percentiles: '%.*s' is not a decimal number such as 99.9 or 1e-5 "
                            "(no sign, hex, inf or nan; %s)",
                            len > 40 ? 40 : (int)len, p, accepted);
        if (!(v > 0.0 && v <= 100.0))
            return cli_fail(err, size, "--percentiles: '%s' is out of range (%s)", item, accepted);
        /* insert in order, once */
        size_t i = 0;
        while (i < o->npercentiles && o->percentiles[i] < v)
            i++;
        if (i == o->npercentiles || o->percentiles[i] != v) {
            if (o->npercentiles == DISKIO_PERCENTILES_MAX)
                return cli_fail(err, size, "--percentiles: more than %d in '%s' (%s)",
                                DISKIO_PERCENTILES_MAX, text, accepted);
            memmove(o->percentiles + i + 1, o->percentiles + i,
                    (o->npercentiles - i) * sizeof(double));
            o->percentiles[i] = v;
            o->npercentiles++;
        }
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

enum {
    OPT_SYNC_EVERY = 256,
    OPT_TRACE,
    OPT_FORCE,
    OPT_ALLOW_DEVICE,
    OPT_SEED,
    OPT_RATE,
    OPT_REPEAT,
    OPT_REPEAT_PAUSE,
    OPT_BATCH,
    OPT_PERCENTILES,
    OPT_MBPS,
    OPT_INTERVAL,
    OPT_INTERVAL_CSV,
    OPT_JOBS,
    OPT_SHARED_FILE,
    OPT_SUITE,
    OPT_SUITE_PATH,
    OPT_SUITE_RUNS,
    OPT_SUITE_MAX_BS,
    OPT_CACHED,
    OPT_VERIFY,
    OPT_WRITE_BACK,
    OPT_DURABILITY,
    OPT_VERIFY_DURABILITY,
    OPT_RUN_ID,
    OPT_WAL_BYTES,
    OPT_WAL_SEGMENT_SIZE,
    OPT_WAL_RECYCLE,
    OPT_WAL_GAP,
    OPT_CHECKPOINT_FILES,
    OPT_CHECKPOINT_PAGES,
    OPT_CHECKPOINT_FLUSH_AFTER,
};

static const struct option long_options[] = {
    {"mode", required_argument, NULL, 'm'},
    {"bs", required_argument, NULL, 'b'},
    {"count", required_argument, NULL, 'n'},
    {"runtime", required_argument, NULL, 't'},
    {"size", required_argument, NULL, 's'},
    {"pattern", required_argument, NULL, 'p'},
    {"warmup", required_argument, NULL, 'w'},
    {"iodepth", required_argument, NULL, 'd'},
    {"sync-every", required_argument, NULL, OPT_SYNC_EVERY},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"shared-file", no_argument, NULL, OPT_SHARED_FILE},
    {"label", required_argument, NULL, 'l'},
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"trace", required_argument, NULL, OPT_TRACE},
    {"seed", required_argument, NULL, OPT_SEED},
    {"rate", required_argument, NULL, OPT_RATE},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"repeat-pause", required_argument, NULL, OPT_REPEAT_PAUSE},
    {"percentiles", required_argument, NULL, OPT_PERCENTILES},
    {"mbps", no_argument, NULL, OPT_MBPS},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"interval-csv", required_argument, NULL, OPT_INTERVAL_CSV},
    {"suite", required_argument, NULL, OPT_SUITE},
    {"suite-path", required_argument, NULL, OPT_SUITE_PATH},
    {"suite-runs", required_argument, NULL, OPT_SUITE_RUNS},
    {"suite-max-bs", required_argument, NULL, OPT_SUITE_MAX_BS},
    {"quiet", no_argument, NULL, 'q'},
    {"force", no_argument, NULL, OPT_FORCE},
    {"allow-device", no_argument, NULL, OPT_ALLOW_DEVICE},
    {"cached", no_argument, NULL, OPT_CACHED},
    {"verify", no_argument, NULL, OPT_VERIFY},
    {"write-back", required_argument, NULL, OPT_WRITE_BACK},
    {"durability", required_argument, NULL, OPT_DURABILITY},
    {"verify-durability", required_argument, NULL, OPT_VERIFY_DURABILITY},
    {"run-id", required_argument, NULL, OPT_RUN_ID},
    {"wal-bytes", required_argument, NULL, OPT_WAL_BYTES},
    {"wal-segment-size", required_argument, NULL, OPT_WAL_SEGMENT_SIZE},
    {"wal-recycle", no_argument, NULL, OPT_WAL_RECYCLE},
    {"wal-gap", required_argument, NULL, OPT_WAL_GAP},
    {"checkpoint-files", required_argument, NULL, OPT_CHECKPOINT_FILES},
    {"checkpoint-pages", required_argument, NULL, OPT_CHECKPOINT_PAGES},
    {"checkpoint-flush-after", required_argument, NULL, OPT_CHECKPOINT_FLUSH_AFTER},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int cli_parse(int argc, char **argv, struct cli_options *o, char *err, size_t err_size)
{
    /* the library's defaults, and the command's own: a warmup, and a
     * runtime rather than a count (set below) */
    struct diskio_config defaults;
    diskio_config_init(&defaults);
    memset(o, 0, sizeof(*o));
    o->block_sizes[0] = defaults.block_size;
    o->nsizes = 1;
    o->file_size = defaults.file_size;
    o->pattern = defaults.pattern;
    o->warmup = CLI_DEFAULT_WARMUP;
    o->iodepth = defaults.iodepth;
    o->batch = defaults.batch;
    o->sync_every = defaults.sync_every;
    o->seed = defaults.seed;
    o->repeat = 1;
    o->jobs[0] = 1;
    o->njobs = 1;
    o->format = DISKIO_FORMAT_TEXT;
    o->wal_bytes = defaults.wal_bytes;
    o->wal_segment_size = defaults.wal_segment_size;
    o->checkpoint_files = defaults.checkpoint_files;
    o->checkpoint_pages = defaults.checkpoint_pages;
    o->checkpoint_flush_after = defaults.checkpoint_flush_after;
    for (unsigned m = 0; m < diskio_mode_count(); m++)
        if (!diskio_mode_is_read((enum diskio_mode)m))
            o->modes[o->nmodes++] = (enum diskio_mode)m;
    bool size_given = false;

    optind = 0; /* glibc: full reinitialisation, so tests can parse repeatedly */
    opterr = 0;
    int c;
    uint64_t v;
    while ((c = getopt_long(argc, argv, ":m:b:n:t:s:p:w:d:l:f:o:qhV", long_options, NULL)) != -1) {
        /* the options a suite's rows set, named as given */
        if (!o->workload_option &&
            (c == 'm' || c == 'b' || c == 'p' || c == 'd' || c == OPT_BATCH ||
             c == OPT_SYNC_EVERY || c == OPT_RATE || c == OPT_REPEAT || c == OPT_TRACE ||
             c == OPT_SEED || c == OPT_CACHED || c == OPT_VERIFY || c == OPT_JOBS ||
             c == OPT_SHARED_FILE || c == OPT_WRITE_BACK || c == OPT_WAL_BYTES ||
             c == OPT_WAL_SEGMENT_SIZE || c == OPT_WAL_RECYCLE || c == OPT_WAL_GAP ||
             c == OPT_CHECKPOINT_FILES || c == OPT_CHECKPOINT_PAGES ||
             c == OPT_CHECKPOINT_FLUSH_AFTER))
            o->workload_option = argv[optind - 1][0] == '-' ? argv[optind - 1] : argv[optind - 2];
        switch (c) {
        case 'm':
            if (parse_modes(optarg, o, err, err_size) != 0)
                return -1;
            o->modes_explicit = true;
            break;
        case 'b':
            if (parse_sizes(optarg, o, err, err_size) != 0)
                return -1;
            break;
        case 'n':
            if (cli_parse_uint(optarg, 1, UINT64_C(1) << 40, &o->count) != 0)
                return cli_fail(err, err_size,
                                "--count: '%s' is not a whole number from 1 to 1099511627776",
                                optarg);
            break;
        case 't':
            if (cli_parse_duration(optarg, &o->runtime_ns) != 0 || o->runtime_ns == 0)
                return cli_fail(err, err_size,
                                "--runtime: '%s' is not a positive duration up to 31 days "
                                "(seconds, or with ms/s/m/h, e.g. 2, 0.5, 500ms)",
                                optarg);
            break;
        case 's':
            if (cli_parse_size(optarg, &o->file_size) != 0 || o->file_size == 0 ||
                o->file_size > MAX_FILE_SIZE)
                return cli_fail(err, err_size,
                                "--size: '%s' is not a size up to 1024t "
                                "(with k/m/g/t suffixes; at least one block of --bs)",
                                optarg);
            size_given = true;
            o->size_given = true;
            break;
        case 'p':
            if (diskio_pattern_parse(optarg, &o->pattern) != 0)
                return cli_fail(err, err_size,
                                "--pattern: unknown pattern '%s' (accepted: seq, rand, append, "
                                "create, wal, checkpoint)",
                                optarg);
            break;
        case OPT_WAL_BYTES:
            if (cli_parse_size(optarg, &o->wal_bytes) != 0 || o->wal_bytes == 0 ||
                o->wal_bytes > DISKIO_WAL_SEGMENT_MAX)
                return cli_fail(err, err_size,
                                "--wal-bytes: '%s' is not a size from 1 to 1g (the WAL bytes "
                                "of one commit, e.g. 174 or 8k)",
                                optarg);
            o->wal_option_given = true;
            break;
        case OPT_WAL_SEGMENT_SIZE:
            if (cli_parse_size(optarg, &o->wal_segment_size) != 0 || o->wal_segment_size == 0 ||
                o->wal_segment_size > DISKIO_WAL_SEGMENT_MAX)
                return cli_fail(err, err_size,
                                "--wal-segment-size: '%s' is not a size up to 1g (e.g. 16m, "
                                "PostgreSQL's default)",
                                optarg);
            o->wal_option_given = true;
            break;
        case OPT_WAL_RECYCLE:
            o->wal_recycle = true;
            o->wal_option_given = true;
            break;
        case OPT_WAL_GAP:
            if (cli_parse_duration(optarg, &o->wal_gap_ns) != 0 ||
                o->wal_gap_ns > UINT64_C(10) * 1000000000u)
                return cli_fail(err, err_size,
                                "--wal-gap: '%s' is not a duration from 0 to 10 s (e.g. 0.15ms, "
                                "or 0 for none)",
                                optarg);
            o->wal_option_given = true;
            break;
        case OPT_CHECKPOINT_FILES:
            if (cli_parse_uint(optarg, 1, DISKIO_JOBS_MAX, &v) != 0)
                return cli_fail(err, err_size,
                                "--checkpoint-files: '%s' is not a whole number from 1 to %u",
                                optarg, DISKIO_JOBS_MAX);
            o->checkpoint_files = (unsigned)v;
            o->checkpoint_option_given = true;
            break;
        case OPT_CHECKPOINT_PAGES:
            if (cli_parse_uint(optarg, 1, UINT64_C(1) << 40, &o->checkpoint_pages) != 0)
                return cli_fail(err, err_size,
                                "--checkpoint-pages: '%s' is not a whole number of pages (1 or "
                                "more)",
                                optarg);
            o->checkpoint_option_given = true;
            break;
        case OPT_CHECKPOINT_FLUSH_AFTER:
            if (cli_parse_uint(optarg, 0, 1u << 20, &v) != 0)
                return cli_fail(err, err_size,
                                "--checkpoint-flush-after: '%s' is not a whole number of pages "
                                "from 0 (no writeback hints) to 1048576",
                                optarg);
            o->checkpoint_flush_after = (unsigned)v;
            o->checkpoint_option_given = true;
            break;
        case 'w':
            if (cli_parse_uint(optarg, 0, UINT64_C(1) << 40, &o->warmup) != 0)
                return cli_fail(err, err_size,
                                "--warmup: '%s' is not a whole number of ops (0 or more)", optarg);
            o->warmup_given = true;
            break;
        case OPT_SUITE:
            if (!*optarg)
                return cli_fail(err, err_size, "--suite: empty suite name");
            o->suite = optarg;
            break;
        case OPT_SUITE_PATH: o->suite_path = optarg; break;
        case OPT_SUITE_RUNS:
            if (cli_parse_uint(optarg, 1, 100, &v) != 0)
                return cli_fail(err, err_size,
                                "--suite-runs: '%s' is not a whole number from 1 to 100", optarg);
            o->suite_runs = (unsigned)v;
            break;
        case OPT_SUITE_MAX_BS:
            if (cli_parse_size(optarg, &o->suite_max_bs) != 0 || o->suite_max_bs < DISKIO_BS_MIN)
                return cli_fail(err, err_size,
                                "--suite-max-bs: '%s' is not a size of at least 512 (with "
                                "k/m/g suffixes)",
                                optarg);
            break;
        case 'd':
            if (cli_parse_uint(optarg, 1, DISKIO_IODEPTH_MAX, &v) != 0)
                return cli_fail(err, err_size, "--iodepth: '%s' is not a whole number from 1 to %u",
                                optarg, DISKIO_IODEPTH_MAX);
            o->iodepth = (unsigned)v;
            break;
        case OPT_BATCH:
            if (cli_parse_uint(optarg, 1, DISKIO_IODEPTH_MAX, &v) != 0)
                return cli_fail(err, err_size,
                                "--batch: '%s' is not a whole number from 1 to --iodepth", optarg);
            o->batch = (unsigned)v;
            break;
        case OPT_JOBS:
            if (parse_jobs(optarg, o, err, err_size) != 0)
                return -1;
            break;
        case OPT_SHARED_FILE: o->shared_file = true; break;
        case OPT_SYNC_EVERY:
            if (cli_parse_uint(optarg, 1, 1000000, &v) != 0)
                return cli_fail(err, err_size,
                                "--sync-every: '%s' is not a whole number from 1 to 1000000",
                                optarg);
            o->sync_every = (unsigned)v;
            break;
        case OPT_RATE: {
            const char *end = NULL;
            double rate = 0;
            if (cli_parse_number(optarg, &rate, &end) != 0 || *end || rate < 0.001 || rate > 10e6)
                return cli_fail(err, err_size,
                                "--rate: '%s' is not a rate from 0.001 to 10000000 ops/s", optarg);
            o->rate_interval_ns = (uint64_t)(1e9 / rate + 0.5);
            break;
        }
        case OPT_REPEAT:
            if (cli_parse_uint(optarg, 1, CLI_REPEAT_MAX, &v) != 0)
                return cli_fail(err, err_size, "--repeat: '%s' is not a whole number from 1 to %u",
                                optarg, CLI_REPEAT_MAX);
            o->repeat = (unsigned)v;
            break;
        case OPT_REPEAT_PAUSE:
            if (cli_parse_duration(optarg, &o->repeat_pause_ns) != 0 ||
                o->repeat_pause_ns > CLI_REPEAT_PAUSE_MAX_NS)
                return cli_fail(err, err_size,
                                "--repeat-pause: '%s' is not a duration from 0 to 1h (such as "
                                "30s or 2m)",
                                optarg);
            break;
        case OPT_SEED:
            if (cli_parse_uint(optarg, 0, UINT64_MAX, &o->seed) != 0)
                return cli_fail(err, err_size, "--seed: '%s' is not a whole number", optarg);
            break;
        case 'l':
            if (!*optarg || strlen(optarg) > 200)
                return cli_fail(err, err_size, "--label: must be 1 to 200 characters");
            if (check_label(optarg, err, err_size) != 0)
                return -1;
            o->label = optarg;
            break;
        case 'f':
            if (diskio_format_parse(optarg, &o->format) != 0)
                return cli_fail(
                    err, err_size,
                    "--format: unknown format '%s' (accepted: text, json, csv, intervals)", optarg);
            o->format_given = true;
            break;
        case 'o':
            if (!*optarg)
                return cli_fail(err, err_size, "--output: empty file name");
            o->output = optarg;
            break;
        case OPT_INTERVAL:
            if (cli_parse_duration(optarg, &o->interval_ns) != 0 || o->interval_ns == 0)
                return cli_fail(err, err_size,
                                "--interval: '%s' is not a positive duration (seconds, or with "
                                "ms/s/m/h, e.g. 1, 0.5, 100ms)",
                                optarg);
            break;
        case OPT_INTERVAL_CSV:
            if (!*optarg)
                return cli_fail(err, err_size, "--interval-csv: empty file name");
            o->interval_csv = optarg;
            break;
        case OPT_TRACE:
            if (!*optarg)
                return cli_fail(err, err_size, "--trace: empty file name");
            o->trace = optarg;
            break;
        case OPT_PERCENTILES:
            if (parse_percentiles(optarg, o, err, err_size) != 0)
                return -1;
            break;
        case OPT_MBPS: o->mbps = true; break;
        case 'q': o->quiet = true; break;
        case OPT_FORCE: o->force = true; break;
        case OPT_ALLOW_DEVICE: o->allow_device = true; break;
        case OPT_CACHED: o->cached = true; break;
        case OPT_VERIFY: o->verify = true; break;
        case OPT_WRITE_BACK:
            if (cli_parse_uint(optarg, 0, 100, &v) != 0)
                return cli_fail(err, err_size,
                                "--write-back: '%s' is not a whole percentage from 0 to 100 (100: "
                                "every block read is written back, as bonnie++'s Rewrite)",
                                optarg);
            o->write_back = (unsigned)v;
            break;
        /* checked with the others they combine with (cli_durable.c) */
        case OPT_DURABILITY: o->durability = optarg; break;
        case OPT_VERIFY_DURABILITY: o->verify_durability = optarg; break;
        case OPT_RUN_ID: o->run_id = optarg; break;
        case 'h': o->help = true; return 0;
        case 'V': o->version = true; return 0;
        case ':': return cli_fail(err, err_size, "%s needs a value", argv[optind - 1]);
        default:
            if (optopt)
                return cli_fail(err, err_size, "unknown option '-%c'", optopt);
            return cli_fail(err, err_size, "unknown option '%s'", argv[optind - 1]);
        }
    }

    if (optind >= argc)
        return cli_fail(err, err_size,
                        o->verify_durability
                            ? "no file: give the file the durability run wrote"
                            : "no target: give the directory to test in (e.g. 'diskio .')");
    if (argc - optind > 1)
        return cli_fail(err, err_size, "one target only, got '%s' and '%s'", argv[optind],
                        argv[optind + 1]);
    o->target = argv[optind];

    o->timing_given = o->count || o->runtime_ns;
    bool verify_only;
    if (cli_durable_check(o, &verify_only, err, err_size) != 0)
        return -1;
    if (verify_only)
        return 0; /* a check of a file: no run */
    if (!o->count && !o->runtime_ns)
        o->runtime_ns = CLI_DEFAULT_RUNTIME_NS;
    if (!o->suite && (o->suite_path || o->suite_runs || o->suite_max_bs))
        return cli_fail(err, err_size, "%s applies to --suite only",
                        o->suite_path   ? "--suite-path"
                        : o->suite_runs ? "--suite-runs"
                                        : "--suite-max-bs");
    if (o->suite && o->workload_option)
        return cli_fail(err, err_size,
                        "%s: with --suite the suite's rows set the workload; only --size, "
                        "--count, --runtime and --warmup override every row's",
                        o->workload_option);
    if (o->suite) {
        /* the rows are checked one by one (cli_suite.c) */
        if (o->output && !o->format_given) {
            if (ends_with(o->output, ".json"))
                o->format = DISKIO_FORMAT_JSON;
            else if (ends_with(o->output, ".csv"))
                o->format = DISKIO_FORMAT_CSV;
        }
        return 0;
    }

    /* PostgreSQL's WAL and checkpoints: the modes PostgreSQL syncs them
     * with by default (every wal_sync_method; the checkpointer's fsync) */
    if (!o->modes_explicit && o->pattern == DISKIO_PATTERN_WAL) {
        static const enum diskio_mode wal_modes[] = {DISKIO_MODE_FDATASYNC, DISKIO_MODE_FSYNC,
                                                     DISKIO_MODE_ODSYNC, DISKIO_MODE_OSYNC};
        o->nmodes = 0;
        for (size_t i = 0; i < sizeof(wal_modes) / sizeof(wal_modes[0]); i++)
            o->modes[o->nmodes++] = wal_modes[i];
    } else if (!o->modes_explicit && o->pattern == DISKIO_PATTERN_CHECKPOINT) {
        o->modes[0] = DISKIO_MODE_FSYNC;
        o->nmodes = 1;
    }
    uint64_t largest_bs = 0;
    for (size_t i = 0; i < o->nsizes; i++)
        if (o->block_sizes[i] > largest_bs)
            largest_bs = o->block_sizes[i];
    if (!size_given && o->file_size < largest_bs * 8)
        o->file_size = largest_bs * 8;
    if (cli_check_runs(o, largest_bs, err, err_size) != 0)
        return -1;

    if (o->output && !o->format_given) {
        if (ends_with(o->output, ".json"))
            o->format = DISKIO_FORMAT_JSON;
        else if (ends_with(o->output, ".csv"))
            o->format = DISKIO_FORMAT_CSV;
    }
    if (o->output && o->trace && strcmp(o->output, o->trace) == 0)
        return cli_fail(err, err_size, "--output and --trace name the same file");
    if (o->interval_csv && !o->interval_ns)
        return cli_fail(err, err_size,
                        "--interval-csv: there is no series to write without --interval");
    if (o->format == DISKIO_FORMAT_INTERVALS && !o->interval_ns)
        return cli_fail(err, err_size,
                        "--format intervals: there is no series to write without --interval "
                        "(give --interval DURATION, e.g. --interval 1)");
    if (o->interval_csv && o->output && strcmp(o->output, o->interval_csv) == 0)
        return cli_fail(err, err_size, "--output and --interval-csv name the same file");
    return 0;
}

void cli_usage(FILE *out)
{
    fputs("Usage: diskio [OPTION]... TARGET\n"
          "Measure the latency of single writes under each durability mode.\n"
          "\n"
          "TARGET is a directory (diskio creates its test file there and removes it),\n"
          "a path that does not exist yet, an existing file (with --force) or a block\n"
          "device (with --allow-device).\n"
          "\n"
          "Workload:\n"
          "  -m, --mode MODE[,MODE...]  async, fsync, fdatasync, osync, odsync, direct,\n"
          "                             direct-dsync, aio, uring, or all (default: all);\n"
          "                             the reads: read, direct-read, aio-read,\n"
          "                             uring-read, or all-reads\n"
          "  -b, --bs SIZE[,SIZE...]    bytes per write, 512 to 64m; a list sweeps\n"
          "                             (default: 8k)\n"
          "  -n, --count N              recorded writes per run\n"
          "  -t, --runtime DURATION     seconds per run, or 500ms, 1m... (default: 2s\n"
          "                             when --count is not given; both: first wins)\n"
          "  -s, --size SIZE            test file size (default: 64m, or 8 blocks)\n"
          "  -p, --pattern PATTERN      seq, rand (overwrite a preallocated file; the\n"
          "                             only ones for reads), append (the file grows),\n"
          "                             create (a new file from its first byte, the\n"
          "                             run ends when it reaches --size), wal\n"
          "                             (PostgreSQL's WAL: commits into the page\n"
          "                             filling, segment switches; --jobs: committers\n"
          "                             of one WAL) or checkpoint (a checkpoint's pages\n"
          "                             over several files, then one sync per file)\n"
          "                             (default: seq)\n"
          "      --wal-bytes SIZE       wal: WAL bytes per commit (default: 174)\n"
          "      --wal-segment-size SIZE  wal: segment file size (default: 16m)\n"
          "      --wal-recycle          wal: a new segment is the oldest one renamed\n"
          "      --wal-gap DURATION     wal: each committer's pause between its commits\n"
          "                             (default: 0)\n"
          "      --checkpoint-files N   checkpoint: files the pages are over (default: 16)\n"
          "      --checkpoint-pages N   checkpoint: dirty pages each (default: 2048)\n"
          "      --checkpoint-flush-after N  checkpoint: pages between writeback hints\n"
          "                             (default: 32; 0: none)\n"
          "  -w, --warmup N             writes before recording starts (default: 10)\n"
          "  -d, --iodepth N            aio, uring, aio-read, uring-read: ops in flight,\n"
          "                             1 to 1024 (default: 1)\n"
          "      --batch N              the same modes: ops per submission, 1 to --iodepth\n"
          "                             (default: 1; more lets the block layer merge them)\n"
          "      --jobs N[,N...]        concurrent writers, 1 to 256, each a thread with\n"
          "                             its own file (created beside the first) and\n"
          "                             histograms; --count is per job, --runtime\n"
          "                             common; a list sweeps (default: 1)\n"
          "      --shared-file          the jobs write one file, each from its own offset\n"
          "      --sync-every N         fsync/fdatasync: one sync per N writes\n"
          "      --seed N               random offsets for --pattern rand (default: 1)\n"
          "      --cached               mode read: from a warm page cache (the file read\n"
          "                             once first, like hdparm -T); default: uncached\n"
          "      --verify               read modes: check every block read against what\n"
          "                             the fill wrote (after its clock stopped); a\n"
          "                             mismatch fails the run\n"
          "      --write-back PCT       read, direct-read: write PCT%% of the blocks read\n"
          "                             back where they came from, in the op's time\n"
          "                             (100: read-modify-write, bonnie++'s Rewrite)\n"
          "      --rate OPS             issue OPS writes per second on a fixed schedule and\n"
          "                             measure each from when it was due (corrects for\n"
          "                             coordinated omission; not for aio and uring)\n"
          "      --repeat N             run every mode and size N times, interleaved\n"
          "                             (round 1 of every run, then round 2...); each\n"
          "                             repetition's figures are kept beside the merged\n"
          "                             ones, for diskio-compare's noise band (default: 1)\n"
          "      --repeat-pause DURATION\n"
          "                             wait DURATION between rounds of --repeat, so that\n"
          "                             a slow drift of the machine shows in the spread\n"
          "                             (default: 0)\n"
          "      --interval DURATION    also keep every run's latency over time: ops, MB/s,\n"
          "                             mean, p50, p99 and max per interval of DURATION\n"
          "                             (10ms up to --runtime; e.g. 1, 0.5, 100ms)\n"
          "\n"
          "Suites (diskio-suite(5)):\n"
          "      --suite NAME|FILE      run a suite's rows and show its own view: crystal\n"
          "                             (CrystalDiskMark's eight tests, best of 5), sweep\n"
          "                             (8 KiB to 16 MiB, mean of 3), pg (PostgreSQL's\n"
          "                             WAL and data files), or a suite file of your own\n"
          "      --suite-path DIR[:DIR] where to look for NAME.suite before\n"
          "                             $DISKIO_SUITE_PATH and the installed suites\n"
          "      --suite-runs N         runs of each row, 1 to 100 (default: the suite's)\n"
          "      --suite-max-bs SIZE    leave out the rows with a larger --bs\n"
          "                             (--size, --count, --runtime and --warmup given\n"
          "                             here override every row's)\n"
          "\n"
          "Output:\n"
          "  -l, --label NAME           name of this environment in the result\n"
          "  -f, --format FORMAT        text, json or csv (default: text, or from the\n"
          "                             --output file's .json/.csv extension)\n"
          "  -o, --output FILE          write the result to FILE (created; never\n"
          "                             overwritten without --force); the table still\n"
          "                             goes to stdout unless --quiet\n"
          "      --percentiles P[,P...] the latency percentiles the table shows, up to 8,\n"
          "                             each above 0 and at most 100 (default: 50,99,99.9;\n"
          "                             the JSON and CSV hold them too)\n"
          "      --mbps                 throughput in the table in megabits per second\n"
          "                             (default: MB/s, 10^6 bytes per second)\n"
          "      --interval-csv FILE    write the --interval series as CSV, one row per\n"
          "                             interval (created; never overwritten without --force)\n"
          "      --trace FILE           stream every write as CSV\n"
          "                             op,start_ns,latency_ns,write_ns,sync_ns\n"
          "                             (several runs: one FILE.MODE-BS per run;\n"
          "                             with --repeat, FILE.MODE-BS-rN per repetition)\n"
          "  -q, --quiet                no table on stdout, no progress, no warnings\n"
          "      --force                use an existing TARGET file (its contents are\n"
          "                             overwritten) and overwrite existing output files\n"
          "      --allow-device         use a block device as TARGET (DESTROYS ITS DATA)\n"
          "\n"
          "Durability (doc/durability.md; a listener on another machine: diskio-durable(1)):\n"
          "      --durability HOST:PORT every write of the one --mode (fsync, fdatasync,\n"
          "                             osync, odsync or direct-dsync) is a checkable record,\n"
          "                             acknowledged to the listener once its sync returned\n"
          "                             (outside its timed section); the test file is kept\n"
          "      --run-id RUNID         the run's id, one the listener expects\n"
          "      --verify-durability HOST:PORT FILE\n"
          "                             after the power cut: check FILE against what the\n"
          "                             listener holds; exit 0 durable, 4 acknowledged\n"
          "                             writes lost or torn, 5 the file or run id does not\n"
          "                             match\n"
          "  -h, --help                 this text\n"
          "  -V, --version              the version\n"
          "\n"
          "Exit status: 0 ok; 1 a write or sync failed (partial result written), or\n"
          "a trace, the result or standard output could not be written (said so);\n"
          "2 bad usage (nothing created); 3 the target or an output file cannot be\n"
          "used; 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP (partial result\n"
          "written).  With several runs, --trace FILE.csv becomes one FILE.MODE-BS.csv\n"
          "per run.\n"
          "See diskio(1).\n",
          out);
}
