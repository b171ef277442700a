/* SPDX-License-Identifier: MIT */
/* Command-line parsing: the option table, the readers of its values (the
 * lists of modes and block sizes, percentiles, a label), the command's
 * own defaults, and the checks between options that come before the
 * library's (cli_config.c). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_durable.h"
#include "cli_msg.h"
#include "cli_options.h"
#include "cli_suite.h"

#define MAX_FILE_SIZE (UINT64_C(1) << 50)
#define MAX_COUNT (UINT64_C(1) << 40)
#define NS_PER_S UINT64_C(1000000000)

int cli_fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* What --mode accepts: the library's write modes, all, its read modes,
 * all-reads. */
static void mode_list(char *out, size_t size)
{
    char writes[200], reads[200];
    cli_names(CLI_WRITE_MODES, ", ", ", ", writes, sizeof(writes));
    cli_names(CLI_READ_MODES, ", ", ", ", reads, sizeof(reads));
    snprintf(out, size, "%s, all, %s, all-reads", writes, reads);
}

/* An item of a list option (--mode, --bs, --jobs, --percentiles) given
 * twice: the same usage error for every list, saying why once is all. */
static int listed_twice(char *err, size_t size, const char *option, const char *item,
                        const char *text, const char *why)
{
    return cli_fail(err, size, "%s: %s is listed twice in '%s' (%s)", option, item, text, why);
}

/* A mode listed twice would be measured twice, its second trace over the
 * first's: a usage error, found before anything is made. */
static int add_mode(struct cli_options *o, enum diskio_mode mode, const char *text, char *err,
                    size_t size)
{
    for (size_t i = 0; i < o->nmodes; i++)
        if (o->modes[i] == mode)
            return listed_twice(err, size, "--mode", diskio_mode_name(mode), text,
                                strstr(text, "all") ? "each mode runs once per block size; 'all' "
                                                      "is every write mode, 'all-reads' every "
                                                      "read mode"
                                                    : "each mode runs once per block size");
    if (o->nmodes == sizeof(o->modes) / sizeof(o->modes[0]))
        return cli_fail(err, size, "--mode: too many modes (at most %zu)",
                        sizeof(o->modes) / sizeof(o->modes[0]));
    o->modes[o->nmodes++] = mode;
    return 0;
}

static int parse_modes(const char *text, struct cli_options *o, char *err, size_t size)
{
    char accepted[512];
    mode_list(accepted, sizeof(accepted));
    char *copy = strdup(text);
    if (!copy)
        return cli_fail(err, size, "out of memory");
    o->nmodes = 0;
    int rc = 0;
    char *rest = copy;
    for (char *name = strsep(&rest, ","); name && rc == 0; name = strsep(&rest, ",")) {
        if (!*name) {
            rc = cli_fail(err, size, "--mode: empty item in '%s' (accepted: %s)", text, accepted);
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
            rc = cli_fail(err, size, "--mode: unknown mode '%s' (accepted: %s)", name, accepted);
        else
            rc = add_mode(o, mode, text, err, size);
    }
    free(copy);
    return rc;
}

/* Like a mode, a block size listed twice is a usage error. */
static int add_size(struct cli_options *o, uint64_t bs, const char *text, char *err, size_t size)
{
    char item[24];
    snprintf(item, sizeof(item), "%" PRIu64, bs);
    for (size_t i = 0; i < o->nsizes; i++)
        if (o->block_sizes[i] == bs)
            return listed_twice(err, size, "--bs", item, text,
                                "each block size runs once per mode");
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
        char count[24];
        snprintf(count, sizeof(count), "%u", (unsigned)n);
        for (size_t i = 0; i < o->njobs && rc == 0; i++)
            if (o->jobs[i] == n)
                rc = listed_twice(err, size, "--jobs", count, text,
                                  "each count runs once per mode and size");
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
 * (1e-5 too), sorted; no signs, hex, inf or nan, and (like a mode or a
 * size) none listed twice, however it is spelled. */
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
        /* insert in order */
        size_t i = 0;
        while (i < o->npercentiles && o->percentiles[i] < v)
            i++;
        if (i < o->npercentiles && o->percentiles[i] == v)
            return listed_twice(err, size, "--percentiles", item, text,
                                "each percentile is one column of the table");
        if (o->npercentiles == DISKIO_PERCENTILES_MAX)
            return cli_fail(err, size, "--percentiles: more than %d in '%s' (%s)",
                            DISKIO_PERCENTILES_MAX, text, accepted);
        memmove(o->percentiles + i + 1, o->percentiles + i, (o->npercentiles - i) * sizeof(double));
        o->percentiles[i] = v;
        o->npercentiles++;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

static int parse_pattern(const char *text, struct cli_options *o, char *err, size_t size)
{
    if (diskio_pattern_parse(text, &o->pattern) == 0)
        return 0;
    char accepted[256];
    cli_names(CLI_PATTERNS, ", ", ", ", accepted, sizeof(accepted));
    return cli_fail(err, size, "--pattern: unknown pattern '%s' (accepted: %s)", text, accepted);
}

static int parse_format(const char *text, struct cli_options *o, char *err, size_t size)
{
    if (diskio_format_parse(text, &o->format) == 0)
        return 0;
    char accepted[256];
    cli_names(CLI_FORMATS, ", ", ", ", accepted, sizeof(accepted));
    return cli_fail(err, size, "--format: unknown format '%s' (accepted: %s)", text, accepted);
}

static int parse_label(const char *text, struct cli_options *o, char *err, size_t size)
{
    if (!*text || strlen(text) > 200)
        return cli_fail(err, size, "--label: must be 1 to 200 characters");
    if (check_label(text, err, size) != 0)
        return -1;
    o->label = text;
    return 0;
}

/* --rate OPS: ops per second, kept as the interval between them */
static int parse_rate(const char *text, struct cli_options *o, char *err, size_t size)
{
    const char *end = NULL;
    double rate = 0;
    if (cli_parse_number(text, &rate, &end) != 0 || *end || rate < 0.001 || rate > 10e6)
        return cli_fail(err, size, "--rate: '%s' is not a rate from 0.001 to 10000000 ops/s", text);
    o->rate_interval_ns = (uint64_t)(1e9 / rate + 0.5);
    return 0;
}

/* ---- the table ---- */

#define FIELD(f)                                                                                   \
    .off = offsetof(struct cli_options, f), .size = sizeof(((struct cli_options *)0)->f)
#define CFG(f)                                                                                     \
    .cfg_off = offsetof(struct diskio_config, f), .cfg_size = sizeof(((struct diskio_config *)0)->f)
#define GIVEN(f) .given_off = offsetof(struct cli_options, f)

const struct cli_option cli_option_table[] = {
    /* ---- the workload ---- */
    {.name = "mode",
     .short_name = 'm',
     .arg = "MODE[,MODE...]",
     .type = CLI_FUNC,
     .parse = parse_modes,
     GIVEN(modes_explicit),
     .flags = CLI_ROW_SETS | CLI_LIST,
     .complete = CLI_COMPLETE_MODES,
     .help = "{write-modes}, or all (default: all); the reads: {read-modes}, or all-reads"},
    {.name = "bs",
     .short_name = 'b',
     .arg = "SIZE[,SIZE...]",
     .type = CLI_FUNC,
     .parse = parse_sizes,
     .flags = CLI_ROW_SETS | CLI_LIST,
     .complete = CLI_COMPLETE_WORDS,
     .words = "512 4k 8k 16k 64k 256k 1m 4m",
     .help = "bytes per write, 512 to 64m; a list sweeps (default: 8k)"},
    {.name = "count",
     .short_name = 'n',
     .arg = "N",
     .type = CLI_UINT,
     FIELD(count),
     .min = 1,
     .max = MAX_COUNT,
     GIVEN(timing_given),
     CFG(count),
     .help = "recorded writes per run"},
    {.name = "runtime",
     .short_name = 't',
     .arg = "DURATION",
     .type = CLI_DURATION,
     FIELD(runtime_ns),
     .min = 1,
     .max = UINT64_MAX,
     GIVEN(timing_given),
     CFG(runtime_ns),
     .bad = "is not a positive duration up to 31 days (seconds, or with ms/s/m/h, e.g. 2, 0.5, "
            "500ms)",
     .help = "seconds per run, or 500ms, 1m... (default: 2s when --count is not given; both: "
             "first wins)"},
    {.name = "size",
     .short_name = 's',
     .arg = "SIZE",
     .type = CLI_SIZE,
     FIELD(file_size),
     .min = 1,
     .max = MAX_FILE_SIZE,
     GIVEN(size_given),
     .bad = "is not a size up to 1024t (with k/m/g/t suffixes; at least one block of --bs)",
     .help = "test file size (default: 64m, or 8 blocks)"},
    {.name = "pattern",
     .short_name = 'p',
     .arg = "PATTERN",
     .type = CLI_FUNC,
     .parse = parse_pattern,
     FIELD(pattern),
     CFG(pattern),
     .flags = CLI_ROW_SETS,
     .complete = CLI_COMPLETE_PATTERNS,
     .help = "seq, rand (overwrite a preallocated file; the only ones for reads), append (the "
             "file grows), create (a new file from its first byte, the run ends when it reaches "
             "--size), wal (PostgreSQL's WAL: commits into the page filling, segment switches; "
             "--jobs: committers of one WAL) or checkpoint (a checkpoint's pages over several "
             "files, then one sync per file) (default: seq)"},
    {.name = "wal-bytes",
     .arg = "SIZE",
     .type = CLI_SIZE,
     FIELD(wal_bytes),
     .min = 1,
     .max = DISKIO_WAL_SEGMENT_MAX,
     CFG(wal_bytes),
     .scope = CLI_WAL_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .bad = "is not a size from 1 to 1g (the WAL bytes of one commit, e.g. 174 or 8k)",
     .help = "wal: WAL bytes per commit (default: 174)"},
    {.name = "wal-segment-size",
     .arg = "SIZE",
     .type = CLI_SIZE,
     FIELD(wal_segment_size),
     .min = 1,
     .max = DISKIO_WAL_SEGMENT_MAX,
     CFG(wal_segment_size),
     .scope = CLI_WAL_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .bad = "is not a size up to 1g (e.g. 16m, PostgreSQL's default)",
     .help = "wal: segment file size (default: 16m)"},
    {.name = "wal-recycle",
     .type = CLI_FLAG,
     FIELD(wal_recycle),
     CFG(wal_recycle),
     .scope = CLI_WAL_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .help = "wal: a new segment is the oldest one renamed"},
    {.name = "wal-gap",
     .arg = "DURATION",
     .type = CLI_DURATION,
     FIELD(wal_gap_ns),
     .min = 0,
     .max = 10 * NS_PER_S,
     CFG(wal_gap_ns),
     .scope = CLI_WAL_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .bad = "is not a duration from 0 to 10 s (e.g. 0.15ms, or 0 for none)",
     .help = "wal: each committer's pause between its commits (default: 0)"},
    {.name = "checkpoint-files",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(checkpoint_files),
     .min = 1,
     .max = DISKIO_JOBS_MAX,
     CFG(checkpoint_files),
     .scope = CLI_CHECKPOINT_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .help = "checkpoint: files the pages are over (default: 16)"},
    {.name = "checkpoint-pages",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(checkpoint_pages),
     .min = 1,
     .max = MAX_COUNT,
     CFG(checkpoint_pages),
     .scope = CLI_CHECKPOINT_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .bad = "is not a whole number of pages (1 or more)",
     .help = "checkpoint: dirty pages each (default: 2048)"},
    {.name = "checkpoint-flush-after",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(checkpoint_flush_after),
     .min = 0,
     .max = 1u << 20,
     CFG(checkpoint_flush_after),
     .scope = CLI_CHECKPOINT_PATTERN,
     .flags = CLI_ROW_SETS | CLI_SCOPE_GIVEN,
     .bad = "is not a whole number of pages from 0 (no writeback hints) to 1048576",
     .help = "checkpoint: pages between writeback hints (default: 32; 0: none)"},
    {.name = "warmup",
     .short_name = 'w',
     .arg = "N",
     .type = CLI_UINT,
     FIELD(warmup),
     .min = 0,
     .max = MAX_COUNT,
     GIVEN(warmup_given),
     CFG(warmup),
     .bad = "is not a whole number of ops (0 or more)",
     .help = "writes before recording starts (default: 10)"},
    {.name = "iodepth",
     .short_name = 'd',
     .arg = "N",
     .type = CLI_UINT,
     FIELD(iodepth),
     .min = 1,
     .max = DISKIO_IODEPTH_MAX,
     CFG(iodepth),
     .scope = CLI_QUEUED_MODES,
     .flags = CLI_ROW_SETS,
     .scope_message = "applies to modes {modes} only, none is selected",
     .help = "{modes,}: ops in flight, 1 to 1024 (default: 1)"},
    {.name = "batch",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(batch),
     .min = 1,
     .max = DISKIO_IODEPTH_MAX,
     CFG(batch),
     .scope = CLI_QUEUED_MODES,
     .flags = CLI_ROW_SETS,
     .bad = "is not a whole number from 1 to --iodepth",
     .scope_message = "applies to modes {modes} only, none is selected",
     .help = "the same modes: ops per submission, 1 to --iodepth (default: 1; more lets the "
             "block layer merge them)"},
    {.name = "jobs",
     .arg = "N[,N...]",
     .type = CLI_FUNC,
     .parse = parse_jobs,
     .flags = CLI_ROW_SETS | CLI_LIST,
     .help = "concurrent writers, 1 to 256, each a thread with its own file (created beside the "
             "first) and histograms; --count is per job, --runtime common; a list sweeps "
             "(default: 1)"},
    {.name = "shared-file",
     .type = CLI_FLAG,
     FIELD(shared_file),
     CFG(shared_file),
     .flags = CLI_ROW_SETS,
     .help = "the jobs write one file, each from its own offset"},
    {.name = "sync-every",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(sync_every),
     .min = 1,
     .max = 1000000,
     CFG(sync_every),
     .scope = CLI_SYNCING_MODES,
     .flags = CLI_ROW_SETS,
     .scope_message = "applies to modes {modes} only, neither is selected",
     .help = "{modes/}: one sync per N writes"},
    {.name = "seed",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(seed),
     .min = 0,
     .max = UINT64_MAX,
     CFG(seed),
     .flags = CLI_ROW_SETS,
     .bad = "is not a whole number",
     .help = "random offsets for --pattern rand (default: 1)"},
    {.name = "cached",
     .type = CLI_FLAG,
     FIELD(cached),
     CFG(cached),
     .scope = CLI_CACHED_MODES,
     .flags = CLI_ROW_SETS,
     .scope_message = "applies to mode {modes} only (the O_DIRECT reads bypass the cache); add "
                      "--mode {modes}",
     .help = "mode {modes}: from a warm page cache (the file read once first, like hdparm -T); "
             "default: uncached"},
    {.name = "verify",
     .type = CLI_FLAG,
     FIELD(verify),
     CFG(verify),
     .scope = CLI_VERIFY_MODES,
     .flags = CLI_ROW_SETS,
     .scope_message = "checks what the read modes read; add one of --mode {modes,}",
     .help = "read modes: check every block read against what the fill wrote (after its clock "
             "stopped); a mismatch fails the run"},
    {.name = "write-back",
     .arg = "PCT",
     .type = CLI_UINT,
     FIELD(write_back),
     .min = 0,
     .max = 100,
     CFG(write_back),
     .scope = CLI_WRITE_BACK_MODES,
     .flags = CLI_ROW_SETS,
     .bad = "is not a whole percentage from 0 to 100 (100: every block read is written back, as "
            "bonnie++'s Rewrite)",
     .scope_message = "writes back blocks that modes {modes} read; add one of them",
     .help = "{modes,}: write PCT% of the blocks read back where they came from, in the op's "
             "time (100: read-modify-write, bonnie++'s Rewrite)"},
    {.name = "rate",
     .arg = "OPS",
     .type = CLI_FUNC,
     .parse = parse_rate,
     FIELD(rate_interval_ns),
     CFG(rate_interval_ns),
     .flags = CLI_ROW_SETS,
     .help = "issue OPS writes per second on a fixed schedule and measure each from when it was "
             "due (corrects for coordinated omission; not for aio and uring)"},
    {.name = "repeat",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(repeat),
     .min = 1,
     .max = CLI_REPEAT_MAX,
     .flags = CLI_ROW_SETS | CLI_NOT_IN_ROW,
     .help = "run every mode and size N times, interleaved (round 1 of every run, then round "
             "2...); each repetition's figures are kept beside the merged ones, for "
             "diskio-compare's noise band (default: 1)"},
    {.name = "repeat-pause",
     .arg = "DURATION",
     .type = CLI_DURATION,
     FIELD(repeat_pause_ns),
     .min = 0,
     .max = CLI_REPEAT_PAUSE_MAX_NS,
     .bad = "is not a duration from 0 to 1h (such as 30s or 2m)",
     .help = "wait DURATION between rounds of --repeat, so that a slow drift of the machine "
             "shows in the spread (default: 0)"},
    {.name = "interval",
     .arg = "DURATION",
     .type = CLI_DURATION,
     FIELD(interval_ns),
     .min = 1,
     .max = UINT64_MAX,
     CFG(interval_ns),
     .bad = "is not a positive duration (seconds, or with ms/s/m/h, e.g. 1, 0.5, 100ms)",
     .help = "also keep every run's latency over time: ops, MB/s, mean, p50, p99 and max per "
             "interval of DURATION (10ms up to --runtime; e.g. 1, 0.5, 100ms)"},
    {.name = "steady",
     .arg = "SPEC",
     .type = CLI_FUNC,
     .parse = cli_parse_steady,
     .flags = CLI_ROW_SETS | CLI_OPTIONAL_VALUE,
     .help = "end each run once its latency is steady: the last window of --interval intervals "
             "(default 1 s) within the limits, judged after a ramp; else at --runtime (default "
             "5m with --steady), said not steady with the trend.  SPEC: metric=mean|p99|ops_per_s,"
             "window=N,range=PCT,slope=PCT,ramp=DURATION (default: mean, SNIA's 5 intervals, "
             "range 20%, slope 10%, no ramp)"},

    {.name = "target",
     .arg = "pP=DURATION[,time=T][,point=T]",
     .type = CLI_FUNC,
     .parse = cli_parse_target,
     .flags = CLI_ROW_SETS,
     .help = "each run answers how many ops per second the storage takes before percentile P "
             "of their latency passes DURATION (e.g. p99=2ms): a search of --rate (from the "
             "rate it takes as fast as it can, halving the bracket to 2%), and of the committers "
             "where --jobs lists several (--pattern wal), then a confirming run; the answer, and "
             "the latency-versus-offered-rate curve it measured, in the table and the JSON; "
             "time=T bounds the whole search (default 60s), point=T each point"},
    {.name = "precondition",
     .type = CLI_FLAG,
     FIELD(precondition),
     .flags = CLI_NOT_IN_ROW,
     .help = "before the first run, write the whole test file (--size; a device with "
             "--allow-device: all of it) sequentially twice in 1 MiB writes, with O_DIRECT where "
             "it can (SNIA's preconditioning: an SSD at its write cliff, as in service); the "
             "result says it was done and how long it took"},

    /* ---- suites ---- */
    {.name = "suite",
     .arg = "NAME|FILE",
     .type = CLI_TEXT,
     FIELD(suite),
     .bad = "empty suite name",
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_SUITES,
     .complete = CLI_COMPLETE_SUITES,
     .help = "run a suite's rows and show its own view: crystal (CrystalDiskMark's eight tests, "
             "best of 5), sweep (8 KiB to 16 MiB, mean of 3), pg (PostgreSQL's WAL and data "
             "files), or a suite file of your own"},
    {.name = "suite-path",
     .arg = "DIR[:DIR]",
     .type = CLI_TEXT,
     FIELD(suite_path),
     .flags = CLI_NOT_IN_ROW | CLI_SUITE_ONLY,
     .section = CLI_SECTION_SUITES,
     .complete = CLI_COMPLETE_DIRS,
     .help = "where to look for NAME.suite before $DISKIO_SUITE_PATH and the installed suites"},
    {.name = "suite-runs",
     .arg = "N",
     .type = CLI_UINT,
     FIELD(suite_runs),
     .min = 1,
     .max = SUITE_RUNS_MAX,
     .flags = CLI_NOT_IN_ROW | CLI_SUITE_ONLY,
     .section = CLI_SECTION_SUITES,
     .help = "runs of each row, 1 to 100 (default: the suite's)"},
    {.name = "suite-max-bs",
     .arg = "SIZE",
     .type = CLI_SIZE,
     FIELD(suite_max_bs),
     .min = DISKIO_BS_MIN,
     .max = UINT64_MAX,
     .flags = CLI_NOT_IN_ROW | CLI_SUITE_ONLY,
     .section = CLI_SECTION_SUITES,
     .bad = "is not a size of at least 512 (with k/m/g suffixes)",
     .help = "leave out the rows with a larger --bs (--size, --count, --runtime and --warmup "
             "given here override every row's)"},

    /* ---- output ---- */
    {.name = "label",
     .short_name = 'l',
     .arg = "NAME",
     .type = CLI_FUNC,
     .parse = parse_label,
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .help = "name of this environment in the result"},
    {.name = "format",
     .short_name = 'f',
     .arg = "FORMAT",
     .type = CLI_FUNC,
     .parse = parse_format,
     GIVEN(format_given),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .complete = CLI_COMPLETE_FORMATS,
     .help = "{formats} (default: text, or from the --output file's .json/.csv extension)"},
    {.name = "output",
     .short_name = 'o',
     .arg = "FILE",
     .type = CLI_TEXT,
     FIELD(output),
     .bad = "empty file name",
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .complete = CLI_COMPLETE_FILES,
     .help = "write the result to FILE (created; never overwritten without --force); the table "
             "still goes to stdout unless --quiet"},
    {.name = "percentiles",
     .arg = "P[,P...]",
     .type = CLI_FUNC,
     .parse = parse_percentiles,
     .flags = CLI_LIST,
     .section = CLI_SECTION_OUTPUT,
     .help = "the latency percentiles the table shows, up to 8, each above 0 and at most 100 "
             "(default: 50,99,99.9; the JSON and CSV hold them too)"},
    {.name = "mbps",
     .type = CLI_FLAG,
     FIELD(mbps),
     .section = CLI_SECTION_OUTPUT,
     .help = "throughput in the table in megabits per second (default: MB/s, 10^6 bytes per "
             "second)"},
    {.name = "interval-csv",
     .arg = "FILE",
     .type = CLI_TEXT,
     FIELD(interval_csv),
     .bad = "empty file name",
     .section = CLI_SECTION_OUTPUT,
     .complete = CLI_COMPLETE_FILES,
     .help = "write the --interval series as CSV, one row per interval (created; never "
             "overwritten without --force)"},
    {.name = "trace",
     .arg = "FILE",
     .type = CLI_TEXT,
     FIELD(trace),
     .bad = "empty file name",
     .flags = CLI_ROW_SETS | CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .complete = CLI_COMPLETE_FILES,
     .help = "stream every write as CSV op,start_ns,latency_ns,write_ns,sync_ns (several runs: "
             "one FILE.MODE-BS per run; with --repeat, FILE.MODE-BS-rN per repetition)"},
    {.name = "quiet",
     .short_name = 'q',
     .type = CLI_FLAG,
     FIELD(quiet),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .help = "no table on stdout, no progress, no warnings"},
    {.name = "force",
     .type = CLI_FLAG,
     FIELD(force),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .help = "use an existing TARGET file (its contents are overwritten) and overwrite existing "
             "output files"},
    {.name = "allow-device",
     .type = CLI_FLAG,
     FIELD(allow_device),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_OUTPUT,
     .help = "use a block device as TARGET (DESTROYS ITS DATA)"},

    /* ---- the durability check (cli_durable.c checks these) ---- */
    {.name = "durability",
     .arg = "HOST:PORT",
     .type = CLI_TEXT,
     FIELD(durability),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_DURABILITY,
     .help = "every write of the one --mode ({durable-modes}) "
             "is a checkable record, acknowledged to the listener once its sync returned "
             "(outside its timed section); the test file is kept"},
    {.name = "run-id",
     .arg = "RUNID",
     .type = CLI_TEXT,
     FIELD(run_id),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_DURABILITY,
     .help = "the run's id, one the listener expects"},
    {.name = "verify-durability",
     .arg = "HOST:PORT FILE",
     .type = CLI_TEXT,
     FIELD(verify_durability),
     .flags = CLI_NOT_IN_ROW,
     .section = CLI_SECTION_DURABILITY,
     .help = "after the power cut: check FILE against what the listener holds; exit 0 durable "
             "(at least one acknowledged write checked), 1 the answer broke off or passed its "
             "bounds, 4 acknowledged writes lost or torn, 5 the file or run id does not match "
             "(or the run acknowledged nothing)"},

    {.name = "help",
     .short_name = 'h',
     .type = CLI_FLAG,
     FIELD(help),
     .flags = CLI_NOT_IN_ROW | CLI_ENDS_PARSING,
     .section = CLI_SECTION_GENERAL,
     .help = "this text"},
    {.name = "version",
     .short_name = 'V',
     .type = CLI_FLAG,
     FIELD(version),
     .flags = CLI_NOT_IN_ROW | CLI_ENDS_PARSING,
     .section = CLI_SECTION_GENERAL,
     .help = "the version"},
    {.name = NULL},
};

#define OPTIONS_MAX 64 /* the bits of struct cli_options' given */
_Static_assert(sizeof(cli_option_table) / sizeof(cli_option_table[0]) <= OPTIONS_MAX + 1,
               "more options than struct cli_options' given has bits");

const struct cli_option *cli_option_named(const char *word)
{
    if (word[0] != '-' || !word[1])
        return NULL;
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        size_t n = strlen(opt->name);
        if (word[1] == '-' ? strncmp(word + 2, opt->name, n) == 0 &&
                                 (word[2 + n] == '\0' || word[2 + n] == '=')
                           : word[1] == opt->short_name)
            return opt;
    }
    return NULL;
}

bool cli_option_given(const struct cli_options *o, const struct cli_option *opt)
{
    return o->given >> (opt - cli_option_table) & 1u;
}

/* ---- reading argv ---- */

/* The library's defaults, and the command's own: a warmup, every write
 * mode, and a runtime rather than a count (cli_parse(), once the options
 * are read). */
static void set_defaults(struct cli_options *o)
{
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
}

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
    switch (opt->type) {
    case CLI_FLAG: *((bool *)((char *)o + opt->off)) = true; return 0;
    case CLI_FUNC: return opt->parse(text, o, err, size);
    case CLI_TEXT:
        if (opt->bad && !*text)
            return cli_fail(err, size, "--%s: %s", opt->name, opt->bad);
        memcpy((char *)o + opt->off, &text, sizeof(text));
        return 0;
    case CLI_UINT: rc = cli_parse_uint(text, 0, UINT64_MAX, &v); break;
    case CLI_SIZE: rc = cli_parse_size(text, &v); break;
    case CLI_DURATION: rc = cli_parse_duration(text, &v); break;
    }
    if (rc != 0 || v < opt->min || v > opt->max) {
        if (opt->bad)
            return cli_fail(err, size, "--%s: '%s' %s", opt->name, text, opt->bad);
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
    static struct option longopts[OPTIONS_MAX + 1];
    char shortopts[3 * OPTIONS_MAX + 2] = ":";
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
    /* PostgreSQL's WAL and checkpoints: the modes PostgreSQL syncs them
     * with by default (every wal_sync_method, as it opens its WAL by
     * default: without O_DIRECT; the checkpointer's fsync) */
    if (!o->modes_explicit && o->pattern == DISKIO_PATTERN_WAL) {
        o->nmodes = 0;
        for (unsigned m = 0; m < diskio_mode_count(); m++)
            if (diskio_mode_pg_wal_sync_method((enum diskio_mode)m) &&
                !diskio_mode_is_direct((enum diskio_mode)m))
                o->modes[o->nmodes++] = (enum diskio_mode)m;
    } else if (!o->modes_explicit && o->pattern == DISKIO_PATTERN_CHECKPOINT) {
        o->modes[0] = DISKIO_MODE_FSYNC;
        o->nmodes = 1;
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
    if (!o->size_given && o->file_size < largest_bs * 8)
        o->file_size = largest_bs * 8;
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
    set_defaults(o);
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
