/* SPDX-License-Identifier: MIT */
/* The readers of the option values that take more than a number: the
 * lists of modes, block sizes and jobs, the percentiles, a label, a
 * pattern, a format and a rate (the option table's CLI_FUNC rows). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_fail.h"
#include "cli_msg.h"
#include "cli_option_values.h"

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

int cli_parse_modes(const char *text, struct cli_options *o, char *err, size_t size)
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

int cli_parse_sizes(const char *text, struct cli_options *o, char *err, size_t size)
{
    char *copy = strdup(text);
    if (!copy)
        return cli_fail(err, size, "out of memory");
    o->nsizes = 0;
    char lo[24], hi[24]; /* the range, as --help prints it */
    cli_size_text(DISKIO_BS_MIN, lo, sizeof(lo));
    cli_size_text(DISKIO_BS_MAX, hi, sizeof(hi));
    int rc = 0;
    char *rest = copy;
    for (char *item = strsep(&rest, ","); item && rc == 0; item = strsep(&rest, ",")) {
        uint64_t bs;
        if (!*item)
            rc = cli_fail(err, size,
                          "--bs: empty item in '%s' (accepted: %s to %s, e.g. 8k or "
                          "4k,64k,1m)",
                          text, lo, hi);
        else if (cli_parse_size(item, &bs) != 0)
            rc = cli_fail(err, size,
                          "--bs: '%s' is not a size (accepted: %s to %s, with k/m/g suffixes)",
                          item, lo, hi);
        else if (bs < DISKIO_BS_MIN || bs > DISKIO_BS_MAX)
            rc = cli_fail(err, size, "--bs: '%s' is out of range (accepted: %s to %s)", item, lo,
                          hi);
        else
            rc = add_size(o, bs, text, err, size);
    }
    free(copy);
    return rc;
}

/* --jobs 1,4,16: each count of concurrent writers is a run of its own,
 * like each --bs; a count listed twice is a usage error. */
int cli_parse_jobs(const char *text, struct cli_options *o, char *err, size_t size)
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
int cli_parse_percentiles(const char *text, struct cli_options *o, char *err, size_t size)
{
    char accepted[128];
    snprintf(accepted, sizeof(accepted),
             "accepted: up to %d numbers above 0 and at most 100 "
             "(100 is the max), e.g. 50,90,99,99.9,99.99",
             DISKIO_PERCENTILES_MAX);
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

int cli_parse_pattern(const char *text, struct cli_options *o, char *err, size_t size)
{
    if (diskio_pattern_parse(text, &o->pattern) == 0)
        return 0;
    char accepted[256];
    cli_names(CLI_PATTERNS, ", ", ", ", accepted, sizeof(accepted));
    return cli_fail(err, size, "--pattern: unknown pattern '%s' (accepted: %s)", text, accepted);
}

int cli_parse_format(const char *text, struct cli_options *o, char *err, size_t size)
{
    if (diskio_format_parse(text, &o->format) == 0)
        return 0;
    char accepted[256];
    cli_names(CLI_FORMATS, ", ", ", ", accepted, sizeof(accepted));
    return cli_fail(err, size, "--format: unknown format '%s' (accepted: %s)", text, accepted);
}

int cli_parse_label(const char *text, struct cli_options *o, char *err, size_t size)
{
    if (!*text || strlen(text) > CLI_LABEL_MAX)
        return cli_fail(err, size, "--label: must be 1 to %u characters", CLI_LABEL_MAX);
    if (check_label(text, err, size) != 0)
        return -1;
    o->label = text;
    return 0;
}

/* --rate OPS: ops per second, kept as the interval between them */
int cli_parse_rate(const char *text, struct cli_options *o, char *err, size_t size)
{
    const char *end = NULL;
    double rate = 0;
    if (cli_parse_number(text, &rate, &end) != 0 || *end || rate < CLI_RATE_MIN ||
        rate > CLI_RATE_MAX)
        return cli_fail(err, size, "--rate: '%s' is not a rate from %g to %.0f ops/s", text,
                        CLI_RATE_MIN, CLI_RATE_MAX);
    o->rate_interval_ns = (uint64_t)(1e9 / rate + 0.5);
    return 0;
}
