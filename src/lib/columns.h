/* SPDX-License-Identifier: MIT */
/*
 * The column table: one row per figure of a run's measured part that
 * the outputs print (ops, ops/s, MB/s, min, mean, stddev, the
 * percentiles, max, the device figures...), with its CSV column, its
 * JSON key, its text table column (or none of some) and the value it
 * reads from the figures, which are computed once per run and part
 * (struct run_figures, struct part_figures).  The CSV, the JSON and the
 * text table iterate over the table, so that a new column is a row of
 * columns.def and nothing else.  Key columns (what tells runs apart:
 * emit_csv.c), the environment and the run's parameters are not
 * figures and are not here.
 */
#ifndef DISKIO_COLUMNS_H
#define DISKIO_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diskio_internal.h"

/* A run's figures, the same on each of its parts' rows. */
struct run_figures {
    const struct diskio_run *run;
    bool complete;
    size_t repetitions;
    uint64_t ops, bytes, duration_ns;
    double duration_s, ops_per_s, mb_per_s;
    double throughput; /* the text table's unit: MB/s or Mbit/s */
    /* the total over the filesystem's devices, when counted */
    const struct diskio_device_io *device; /* NULL: no device figures */
    struct devstat_figures dev;
    bool shared;        /* the verdict shared */
    char verdicts[256]; /* the verdicts' codes, space-separated */
    bool has_direct;    /* an O_DIRECT run: direct below */
    struct diskio_direct direct;
};

/* Which percentiles a part's figures hold: the summary's and the table's
 * (the CSV and the JSON), or the table's alone (the text table). */
enum columns_pcts { COLUMNS_PCTS_ALL, COLUMNS_PCTS_TABLE };

/* A measured part's figures: its histogram's. */
struct part_figures {
    const struct run_figures *run; /* NULL: a row of a part alone (text) */
    enum diskio_part part;
    const struct diskio_hist *hist;
    uint64_t count, min, max, overflow;
    double mean, stddev;
    double pcts[RESULT_PCTS_MAX];
    uint64_t pct_values[RESULT_PCTS_MAX];
    size_t npcts;
    char limited[RESULT_PCTS_MAX * 33]; /* keys that are the max for want of ops */
};

/* What a column's value is, and how the outputs write it. */
enum column_kind {
    COLUMN_NONE, /* unknown here: an empty cell, null */
    COLUMN_U64,
    COLUMN_F64,
    COLUMN_BOOL,
    COLUMN_STR,  /* a string: a CSV cell, a JSON string */
    COLUMN_LIST, /* words, space-separated: a JSON array of strings */
};

struct column_value {
    enum column_kind kind;
    uint64_t u;
    double d;
    bool b;
    const char *s;
};

/* The figures a column is a part of: the run's (the same on each part's
 * row; in the run's JSON object) or its part's (in the part's HIST). */
enum column_scope { COLUMN_RUN, COLUMN_PART };

/* How the text table writes a value. */
enum column_text_format {
    COLUMN_TEXT_U64,  /* the integer */
    COLUMN_TEXT_F1,   /* one decimal: "812.3" */
    COLUMN_TEXT_RATE, /* three significant digits or the whole number */
    COLUMN_TEXT_NS,   /* a latency: "1.72 ms" */
};

struct column {
    const char *id; /* the C name in columns.def */
    /* the CSV: its header (a percentile's key replaces "%s"; NULL: not
     * in the CSV, whose columns are the table's in its order) */
    const char *csv_name;
    /* the JSON: the key in the run's object or the part's HIST (a
     * percentile's key replaces "%s"; NULL: not in the JSON) and what
     * is written before it */
    const char *json_key, *json_sep;
    /* the text table: its heading (the other for Mbit/s; NULL: not in
     * the table) */
    const char *text_heading, *text_heading_mbit;
    struct column_value (*value)(const struct part_figures *f, size_t i);
    enum column_scope scope;
    unsigned json_pos; /* its place in its JSON object, from 1 */
    unsigned text_pos; /* its place in the text table, from 1 */
    int text_width;    /* the text column's width */
    enum column_text_format text_format;
    int csv_precision;   /* a float in the CSV: printf's precision */
    char csv_conversion; /* and conversion, 'f' or 'g' */
    bool percentiles;    /* a group: a column per percentile, value(f, i) */
};

extern const struct column columns[];
extern const size_t columns_count; /* at most COLUMNS_MAX */
#define COLUMNS_MAX 64

/* The outputs a column can be in. */
enum column_output { COLUMN_CSV, COLUMN_JSON, COLUMN_TEXT };

/* The indexes of the columns in output, in their order there, into
 * order[COLUMNS_MAX]; returns how many. */
size_t columns_in_order(enum column_output output, size_t *order);

void columns_run_figures(const struct diskio_result *res, const struct diskio_run *run,
                         struct run_figures *out);
/* A part's figures; run NULL for a part shown alone; hist NULL for
 * none (the run's figures alone). */
void columns_part_figures(const struct diskio_result *res, const struct run_figures *run,
                          enum diskio_part part, const struct diskio_hist *hist,
                          enum columns_pcts which, struct part_figures *out);

/* A column's name in an output: pattern, a percentile's key in place of
 * its "%s" (pct_name()'s, with sep: '_' in the CSV and the JSON, '.' in
 * the text). */
const char *column_name(char *buf, size_t size, const char *pattern, double pct, char sep);

#endif
