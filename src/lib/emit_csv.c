/* SPDX-License-Identifier: MIT */
/* CSV: one row per run and measured part, for spreadsheets and scripts:
 * the key columns, then the column table's (columns.def). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "diskio_internal.h"
#include "figures.h"

/* A CSV cell (RFC 4180): shown as display_write() shows it, so that a
 * cell is valid UTF-8 and a record is one line whatever the label or a
 * run's name holds; quoted when it has a comma or a quote. */
static void csv_field(FILE *out, const char *s)
{
    if (!s)
        return;
    if (strpbrk(s, ",\"") == NULL) {
        display_write(out, s, false);
        return;
    }
    fputc('"', out);
    display_write(out, s, true);
    fputc('"', out);
}

/*
 * The key columns: what tells one run of a result from another, the same
 * on every row of a run, in the CSV and the intervals CSV alike.  Every
 * parameter by which two runs of one result can differ is one (the JSON's
 * "parameters" and "params", and the suite row), so that no two rows of a
 * CSV share all of them and their part (doc/result-schema.md, "CSV").
 * Adding a parameter that tells runs apart adds a row here and nothing
 * else.  Custom runs (no config) leave the config's columns empty.
 */
struct csv_run {
    const struct diskio_result *res;
    const struct diskio_run *run;
    const struct diskio_suite_row *suite_row; /* NULL: not a suite's run */
};

static void key_label(FILE *out, const struct csv_run *k)
{
    csv_field(out, k->res->label);
}
static void key_mode(FILE *out, const struct csv_run *k)
{
    csv_field(out, k->run->info.name);
}

#define CONFIG_KEY(fn, ...)                                                                        \
    static void fn(FILE *out, const struct csv_run *k)                                             \
    {                                                                                              \
        const struct diskio_config *c = &k->run->info.config;                                      \
        if (k->run->info.has_config)                                                               \
            fprintf(out, __VA_ARGS__);                                                             \
    }
CONFIG_KEY(key_block_size, "%" PRIu64, c->block_size)
CONFIG_KEY(key_pattern, "%s", diskio_pattern_name(c->pattern))
CONFIG_KEY(key_iodepth, "%u", c->iodepth)
CONFIG_KEY(key_sync_every, "%u", c->sync_every)
CONFIG_KEY(key_batch, "%u", c->batch ? c->batch : 1u)
CONFIG_KEY(key_jobs, "%u", c->jobs ? c->jobs : 1u)
CONFIG_KEY(key_shared_file, "%s", c->shared_file ? "true" : "false")
CONFIG_KEY(key_cached, "%s", c->cached ? "true" : "false")
CONFIG_KEY(key_verify, "%s", c->verify ? "true" : "false")
CONFIG_KEY(key_write_back, "%u", c->write_back)
CONFIG_KEY(key_direction, "%s", diskio_mode_is_read(c->mode) ? "read" : "write")
CONFIG_KEY(key_file_size, "%" PRIu64, c->file_size)

/* --rate: the requested ops per second; empty for back-to-back ops */
static void key_rate(FILE *out, const struct csv_run *k)
{
    const struct diskio_config *c = &k->run->info.config;
    if (k->run->info.has_config && c->rate_interval_ns)
        fprintf(out, "%.10g", 1e9 / (double)c->rate_interval_ns);
}

/* a custom run's own parameters, "key=value, ..." as the analysis tools
 * name them (diskio_run_set_param(3)) */
static void key_params(FILE *out, const struct csv_run *k)
{
    const struct diskio_run *run = k->run;
    if (run->nparams == 0)
        return;
    size_t len = 1;
    for (size_t i = 0; i < run->nparams; i++)
        len += strlen(run->params[i].key) + strlen(run->params[i].value) + 3;
    char *text = malloc(len);
    if (!text)
        return; /* out of memory: the cell stays empty */
    size_t at = 0;
    for (size_t i = 0; i < run->nparams; i++)
        at += (size_t)snprintf(text + at, len - at, "%s%s=%s", i ? ", " : "", run->params[i].key,
                               run->params[i].value);
    csv_field(out, text);
    free(text);
}

static void key_suite_row(FILE *out, const struct csv_run *k)
{
    if (k->suite_row)
        csv_field(out, k->suite_row->label);
}

static void key_suite_column(FILE *out, const struct csv_run *k)
{
    if (k->suite_row)
        csv_field(out, k->suite_row->column);
}

static const struct {
    const char *name;
    void (*cell)(FILE *out, const struct csv_run *k);
} csv_keys[] = {
    {"label", key_label},
    {"mode", key_mode},
    {"block_size", key_block_size},
    {"pattern", key_pattern},
    {"iodepth", key_iodepth},
    {"sync_every", key_sync_every},
    {"batch", key_batch},
    {"jobs", key_jobs},
    {"shared_file", key_shared_file},
    {"rate_ops_per_s", key_rate},
    {"cached", key_cached},
    {"verify", key_verify},
    {"write_back", key_write_back},
    {"direction", key_direction},
    {"file_size", key_file_size},
    {"params", key_params},
    {"suite_row", key_suite_row},
    {"suite_column", key_suite_column},
};

static void csv_key_header(FILE *out)
{
    for (size_t i = 0; i < sizeof(csv_keys) / sizeof(csv_keys[0]); i++)
        fprintf(out, "%s%s", i ? "," : "", csv_keys[i].name);
}

/* The run's key cells, without a trailing comma. */
static void csv_key_cells(FILE *out, const struct diskio_result *res, size_t r)
{
    struct csv_run k = {res, res->runs[r], NULL};
    for (size_t i = 0; i < res->suite_nrows; i++)
        if (res->suite_rows[i].run == r)
            k.suite_row = &res->suite_rows[i];
    for (size_t i = 0; i < sizeof(csv_keys) / sizeof(csv_keys[0]); i++) {
        if (i)
            fputc(',', out);
        csv_keys[i].cell(out, &k);
    }
}

/* A figure's cell (columns.def), after its comma. */
static void csv_value(FILE *out, const struct column *c, struct column_value v)
{
    fputc(',', out);
    switch (v.kind) {
    case COLUMN_NONE: break;
    case COLUMN_U64: fprintf(out, "%" PRIu64, v.u); break;
    case COLUMN_F64:
        if (c->csv_conversion == 'g')
            fprintf(out, "%.*g", c->csv_precision, v.d);
        else
            fprintf(out, "%.*f", c->csv_precision, v.d);
        break;
    case COLUMN_BOOL: fputs(v.b ? "true" : "false", out); break;
    case COLUMN_STR: csv_field(out, v.s); break;
    case COLUMN_LIST:
        fputs(v.s, out); /* codes and keys: nothing to quote */
        break;
    }
}

/* The figures' header: the column table's CSV columns, in its order (a
 * percentile's column for each of the summary's and the table's). */
static void csv_figures_header(FILE *out, const struct diskio_result *res, const size_t *order,
                               size_t n)
{
    double pcts[RESULT_PCTS_MAX];
    const size_t npcts = result_pcts(res, pcts);
    char name[64];
    for (size_t k = 0; k < n; k++) {
        const struct column *c = &columns[order[k]];
        for (size_t i = 0; i < (c->percentiles ? npcts : 1); i++)
            fprintf(
                out, ",%s",
                column_name(name, sizeof(name), c->csv_name, c->percentiles ? pcts[i] : 0, '_'));
    }
    fputc('\n', out);
}

int emit_csv(const struct diskio_result *res, FILE *out)
{
    size_t order[COLUMNS_MAX];
    const size_t n = columns_in_order(COLUMN_CSV, order);
    csv_key_header(out);
    csv_figures_header(out, res, order, n);
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        struct run_figures rf;
        columns_run_figures(res, run, &rf);
        for (int part = 0; part < DISKIO_PART_COUNT; part++) {
            if (!run->hist[part])
                continue;
            struct part_figures pf;
            columns_part_figures(res, &rf, (enum diskio_part)part, run->hist[part],
                                 COLUMNS_PCTS_ALL, &pf);
            csv_key_cells(out, res, r);
            for (size_t k = 0; k < n; k++) {
                const struct column *c = &columns[order[k]];
                for (size_t i = 0; i < (c->percentiles ? pf.npcts : 1); i++)
                    csv_value(out, c, c->value(&pf, i));
            }
            fputc('\n', out);
        }
    }
    return 0;
}

/* The interval series of every run (config.interval_ns): one row per
 * interval, latencies empty where no op completed in it. */
int emit_intervals_csv(const struct diskio_result *res, FILE *out)
{
    csv_key_header(out);
    fputs(",repetition,interval,start_s,duration_s,ops,bytes,ops_per_s,mb_per_s,min_ns,mean_ns,"
          "p50_ns,p99_ns,max_ns\n",
          out);
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        size_t n = diskio_run_interval_count(run);
        for (size_t i = 0; i < n; i++) {
            const struct diskio_interval *iv = diskio_run_interval(run, i);
            double seconds = (double)iv->duration_ns / 1e9;
            csv_key_cells(out, res, r);
            fprintf(out, ",%u,%zu,%.9f,%.9f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f", iv->repetition + 1,
                    i, (double)iv->start_ns / 1e9, seconds, iv->ops, iv->bytes,
                    figures_per_s(iv->ops, iv->duration_ns),
                    figures_mb_per_s(iv->bytes, iv->duration_ns));
            if (iv->ops)
                fprintf(out, ",%" PRIu64 ",%.1f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", iv->min_ns,
                        iv->mean_ns, iv->p50_ns, iv->p99_ns, iv->max_ns);
            else
                fputs(",,,,,\n", out);
        }
    }
    return 0;
}
