/* SPDX-License-Identifier: MIT */
/*
 * The column table (columns.h), expanded from columns.def: an X-macro
 * file, so that a column's value and its names in the three outputs are
 * one row, its value function written from the row rather than beside
 * it; and so that a test can compile the table with a row of its own
 * (COLUMNS_TEST_EXTRA: tests/unit/extra-columns.def, in
 * tests/unit/check_columns.c) and see it in every output without a
 * registration hook in the library.  And the figures the rows read,
 * computed once per run and part.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "figures.h"

static struct column_value col_none(void)
{
    return (struct column_value){.kind = COLUMN_NONE};
}
static struct column_value col_u64(uint64_t u)
{
    return (struct column_value){.kind = COLUMN_U64, .u = u};
}
static struct column_value col_f64(double d)
{
    return (struct column_value){.kind = COLUMN_F64, .d = d};
}
/* a float, none where it means nothing (NaN) */
static struct column_value col_num(double d)
{
    return d == d ? col_f64(d) : col_none();
}
static struct column_value col_bool(bool b)
{
    return (struct column_value){.kind = COLUMN_BOOL, .b = b};
}
static struct column_value col_str(const char *s)
{
    return (struct column_value){.kind = COLUMN_STR, .s = s};
}
static struct column_value col_list(const char *s)
{
    return (struct column_value){.kind = COLUMN_LIST, .s = s};
}

/* each row's value function */
#define COLUMN(id, scope, value, csv, json, text)                                                  \
    static struct column_value column_##id(const struct part_figures *f, size_t i)                 \
    {                                                                                              \
        const struct run_figures *r = f->run;                                                      \
        (void)r;                                                                                   \
        (void)i;                                                                                   \
        return value;                                                                              \
    }
#define COLUMN_PCTS COLUMN
#include "columns.def"
#ifdef COLUMNS_TEST_EXTRA
#include "extra-columns.def"
#endif
#undef COLUMN
#undef COLUMN_PCTS

/* the rows */
#define CSV(name) .csv_name = (name)
#define CSV_FLOAT(name, conversion, precision)                                                     \
    .csv_name = (name), .csv_conversion = (conversion), .csv_precision = (precision)
#define NO_CSV .csv_name = NULL
#define JSON(key, pos, sep) .json_key = (key), .json_pos = (pos), .json_sep = (sep)
#define NO_JSON .json_key = NULL
#define TEXT(heading, heading_mbit, width, pos, format)                                            \
    .text_heading = (heading), .text_heading_mbit = (heading_mbit), .text_width = (width),         \
    .text_pos = (pos), .text_format = (format)
#define NO_TEXT .text_heading = NULL
/* NOLINTBEGIN(bugprone-macro-parentheses): csv, json and text are
 * designated initializers, which parentheses would break */
#define COLUMN(id_, scope_, value_, csv, json, text)                                               \
    {.id = #id_, .scope = COLUMN_##scope_, csv, json, text, .value = column_##id_},
#define COLUMN_PCTS(id_, scope_, value_, csv, json, text)                                          \
    {.id = #id_,                                                                                   \
     .scope = COLUMN_##scope_,                                                                     \
     .percentiles = true,                                                                          \
     csv,                                                                                          \
     json,                                                                                         \
     text,                                                                                         \
     .value = column_##id_},
/* NOLINTEND(bugprone-macro-parentheses) */
const struct column columns[] = {
#include "columns.def"
#ifdef COLUMNS_TEST_EXTRA
#include "extra-columns.def"
#endif
};
#undef COLUMN
#undef COLUMN_PCTS
#undef CSV
#undef CSV_FLOAT
#undef NO_CSV
#undef JSON
#undef NO_JSON
#undef TEXT
#undef NO_TEXT
#undef RUN_SEP
#undef HIST_SEP
#undef HIST_LINE

const size_t columns_count = sizeof(columns) / sizeof(columns[0]);
_Static_assert(sizeof(columns) / sizeof(columns[0]) <= COLUMNS_MAX,
               "columns.def has more rows than COLUMNS_MAX");

/* Column c's place in output: 0 when it is not there. */
static unsigned column_pos(const struct column *c, enum column_output output, size_t index)
{
    switch (output) {
    case COLUMN_CSV: return c->csv_name ? (unsigned)index + 1 : 0;
    case COLUMN_JSON: return c->json_key ? c->json_pos : 0;
    case COLUMN_TEXT: return c->text_heading ? c->text_pos : 0;
    }
    return 0;
}

size_t columns_in_order(enum column_output output, size_t *order)
{
    size_t n = 0;
    for (size_t i = 0; i < columns_count; i++) {
        const unsigned pos = column_pos(&columns[i], output, i);
        if (pos == 0)
            continue;
        /* insertion by place; the table's order among equals */
        size_t at = n++;
        while (at > 0 && column_pos(&columns[order[at - 1]], output, order[at - 1]) > pos) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    return n;
}

const char *column_name(char *buf, size_t size, const char *pattern, double pct, char sep)
{
    const char *at = strstr(pattern, "%s");
    if (!at) {
        snprintf(buf, size, "%s", pattern);
        return buf;
    }
    char key[32];
    pct_name(key, sizeof(key), pct, sep);
    snprintf(buf, size, "%.*s%s%s", (int)(at - pattern), pattern, key, at + 2);
    return buf;
}

/* words, space-separated, into buf: the verdicts' codes */
static void verdict_words(char *buf, size_t size, unsigned verdicts)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned bit = 1; bit != 0 && bit <= DEVSTAT_VERDICT_LAST; bit <<= 1) {
        if (!(verdicts & bit) || used >= size)
            continue;
        used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                 diskio_verdict_name((enum diskio_verdict)bit));
    }
}

void columns_run_figures(const struct diskio_result *res, const struct diskio_run *run,
                         struct run_figures *out)
{
    const struct diskio_run_info *info = &run->info;
    memset(out, 0, sizeof(*out));
    out->run = run;
    out->complete = info->complete;
    out->repetitions = diskio_run_repetitions(run);
    out->ops = info->ops;
    out->bytes = info->bytes;
    out->duration_ns = info->duration_ns;
    out->duration_s = (double)info->duration_ns / 1e9;
    out->ops_per_s = figures_per_s(info->ops, info->duration_ns);
    out->mb_per_s = figures_mb_per_s(info->bytes, info->duration_ns);
    /* Mbit/s: the bytes counted in bits, over the same time */
    const bool mbit = res->unit == DISKIO_THROUGHPUT_MBIT_PER_S;
    out->throughput = figures_mb_per_s(info->bytes * (mbit ? 8 : 1), info->duration_ns);
    const size_t ndev = diskio_run_device_count(run);
    if (ndev > 0) {
        out->device = diskio_run_device_io(run, ndev);
        devstat_figures(out->device, info->ops, &out->dev);
    }
    out->shared = (run->verdicts & DISKIO_VERDICT_SHARED) != 0;
    verdict_words(out->verdicts, sizeof(out->verdicts), run->verdicts);
    out->has_direct = diskio_run_direct(run, &out->direct) == 0;
}

void columns_part_figures(const struct diskio_result *res, const struct run_figures *run,
                          enum diskio_part part, const struct diskio_hist *hist,
                          enum columns_pcts which, struct part_figures *out)
{
    memset(out, 0, sizeof(*out));
    out->run = run;
    out->part = part;
    out->hist = hist;
    if (!hist)
        return; /* the run's figures alone */
    out->count = diskio_hist_count(hist);
    out->min = diskio_hist_min(hist);
    out->max = diskio_hist_max(hist);
    out->overflow = diskio_hist_overflow(hist);
    out->mean = diskio_hist_mean(hist);
    out->stddev = diskio_hist_stddev(hist);
    if (which == COLUMNS_PCTS_ALL) {
        out->npcts = result_pcts(res, out->pcts);
    } else {
        const double *table = result_table_pcts(res, &out->npcts);
        memcpy(out->pcts, table, out->npcts * sizeof(*table));
    }
    diskio_hist_percentiles(hist, out->pcts, out->pct_values, out->npcts);
    /* the percentiles that are the max only because there were too few
     * values for them to be anything else */
    size_t used = 0;
    for (size_t i = 0; i < out->npcts; i++) {
        if (out->count == 0 || out->count >= hist_pct_min_count(out->pcts[i]) ||
            out->pcts[i] >= 100.0)
            continue;
        char key[32];
        pct_name(key, sizeof(key), out->pcts[i], '_');
        used += (size_t)snprintf(out->limited + used, sizeof(out->limited) - used, "%s%s",
                                 used ? " " : "", key);
    }
}
