/* SPDX-License-Identifier: MIT */
/* diskio --suite: suite files (doc/suites.md, diskio-suite(5)), found by
 * name in a search path or given as a path, read strictly, each row's
 * options parsed as an ordinary run's; and the suite's own view of the
 * runs (best of N, or mean and spread). */
#ifndef DISKIO_CLI_SUITE_H
#define DISKIO_CLI_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_options.h"

enum suite_summary {
    SUITE_MEAN, /* mean and standard deviation of the runs */
    SUITE_BEST, /* the best run (highest MB/s), as CrystalDiskMark shows */
};

/* The unit a row's figure is shown in (the suite file's "unit"): as the
 * tool the suite reproduces shows it. */
enum suite_unit {
    SUITE_UNIT_MB,   /* MB/s: 10^6 bytes per second (CrystalDiskMark, fio) */
    SUITE_UNIT_MIB,  /* MiB/s: 2^20 bytes per second (hdparm's "MB/sec") */
    SUITE_UNIT_KIB,  /* KiB/s: 2^10 bytes per second (bonnie++'s "K/sec") */
    SUITE_UNIT_B,    /* B/s: bytes per second (thput-fsys) */
    SUITE_UNIT_IOPS, /* operations per second (bonnie++'s seeks "/sec") */
    SUITE_UNIT_US,   /* us/op: an op's mean latency (pg_test_fsync's "usecs/op"; a commit) */
};

/* One measured repetition of a row. */
struct suite_figure {
    double mb_per_s; /* 10^6 bytes per second */
    double iops;
    double mean_us; /* an op's mean latency */
    bool complete;
};

struct suite_row {
    char *label;  /* "SEQ1M Q8T1" */
    char *column; /* "read", "write" */
    unsigned line;
    char **argv; /* "diskio", the row's options, the target */
    int argc;
    struct cli_options opt; /* one mode, one block size */
    enum suite_unit unit;   /* what the view shows */
    const char *note;       /* not run: why (static text) */
    bool left_out;          /* by --suite-max-bs: not shown in the view */
    char note_buf[160];
    struct suite_figure *figures; /* one per repetition measured */
    size_t nfigures;
    size_t run; /* index of its run in the result; SIZE_MAX: none */
    /* its run's device verdicts (DISKIO_VERDICT_*, diskio_run_verdicts):
     * the view marks a figure the device counters do not vouch for */
    unsigned verdicts;
};

struct suite {
    char *path; /* the file read */
    char *name;
    char *title;
    enum suite_summary summary;
    unsigned runs; /* repetitions of each row */
    struct suite_row *rows;
    size_t nrows;
};

/* Find the suite named (or the file at) what, read it strictly and parse
 * every row's options with top's overrides (--size, --count, --runtime,
 * --warmup, --suite-runs, --suite-max-bs) applied, for target.  0, or -1
 * with the message in err: for a bad file it names file:line and what is
 * wrong. */
int suite_load(const char *what, const struct cli_options *top, struct suite *s, char *err,
               size_t err_size);
void suite_free(struct suite *s);
/* What a row's unit is (the suite file's "unit": MB/s, MiB/s, KiB/s,
 * B/s, IOPS, us/op), from cli_suite.c's table. */
struct suite_unit_info {
    const char *name;
    double bytes; /* the bytes it counts (0: operations, or a latency) */
    int decimals; /* shown with */
    bool latency; /* an op's mean latency: less is better */
};
const struct suite_unit_info *suite_unit_info(enum suite_unit unit);

/* Record a repetition's figures for row i. */
int suite_add_figure(struct suite *s, size_t i, const struct suite_figure *f);

/* The suite's own view: rows by label, a column per column name; a
 * cell whose run has a device verdict is marked '!', one whose runs
 * spread wider than their mean '?', each explained under the view. */
void suite_print(const struct suite *s, FILE *out);

#endif
