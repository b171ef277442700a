/* SPDX-License-Identifier: MIT */
/* CSV: one row per run and measured part, for spreadsheets and scripts. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

/* Schema 2's device figures, the same on every row of a run: the total
 * over the devices the filesystem sits on; empty where unknown. */
#define CSV_DEVICE_HEADER                                                                          \
    ",dev_writes,dev_write_merges,dev_write_sectors,dev_flushes,dev_writes_per_op,"                \
    "dev_merges_per_op,dev_kib_per_write,dev_flushes_per_op,dev_shared,verdicts"

static void csv_number(FILE *out, double v)
{
    if (v == v)
        fprintf(out, ",%.4g", v);
    else
        fputc(',', out);
}

/* The devices' own time per write and per flush request (us): after the
 * columns the CSV had before them, so that none moved. */
static void csv_device_time(FILE *out, const struct diskio_run *run)
{
    size_t n = diskio_run_device_count(run);
    if (n == 0) {
        fputs(",,", out);
        return;
    }
    struct devstat_figures f;
    devstat_figures(diskio_run_device_io(run, n), run->info.ops, &f);
    csv_number(out, f.us_per_write);
    csv_number(out, f.us_per_flush);
}

static void csv_device(FILE *out, const struct diskio_run *run)
{
    size_t n = diskio_run_device_count(run);
    if (n == 0) {
        fputs(",,,,,,,,,,", out);
    } else {
        const struct diskio_device_io *t = diskio_run_device_io(run, n);
        fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", t->writes, t->write_merges,
                t->write_sectors);
        if (t->flushes_known)
            fprintf(out, "%" PRIu64, t->flushes);
        struct devstat_figures f;
        devstat_figures(t, run->info.ops, &f);
        csv_number(out, f.writes_per_op);
        csv_number(out, f.merges_per_op);
        csv_number(out, f.kib_per_write);
        csv_number(out, f.flushes_per_op);
        fputs((run->verdicts & DISKIO_VERDICT_SHARED) ? ",true," : ",false,", out);
    }
    /* the verdict codes, space-separated (no quoting needed) */
    bool first = true;
    for (unsigned bit = 1; bit != 0 && bit <= DEVSTAT_VERDICT_LAST; bit <<= 1) {
        if (!(run->verdicts & bit))
            continue;
        fprintf(out, "%s%s", first ? "" : " ", diskio_verdict_name((enum diskio_verdict)bit));
        first = false;
    }
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

/* Whether an O_DIRECT run's I/O was direct, and what showed it: after
 * the columns the CSV had before them; empty for the other modes (and
 * the first for an O_DIRECT run that cannot tell). */
static void csv_direct(FILE *out, const struct diskio_run *run)
{
    struct diskio_direct d;
    if (diskio_run_direct(run, &d) != 0) {
        fputs(",,", out);
        return;
    }
    fputs(d.honoured < 0 ? "," : d.honoured ? ",true" : ",false", out);
    fputc(',', out);
    csv_field(out, d.evidence);
}

int emit_csv(const struct diskio_result *res, FILE *out)
{
    csv_key_header(out);
    fputs(",part,complete,repetitions,ops,duration_s,ops_per_s,mb_per_s,count,min_ns,mean_ns,"
          "stddev_ns",
          out);
    /* the summary's percentiles and the table's (diskio --percentiles) */
    double pcts[RESULT_PCTS_MAX];
    size_t npcts = result_pcts(res, pcts);
    char key[32];
    for (size_t i = 0; i < npcts; i++)
        fprintf(out, ",%s_ns", pct_name(key, sizeof(key), pcts[i], '_'));
    fputs(",max_ns,overflow", out);
    fputs(CSV_DEVICE_HEADER ",percentiles_limited_by_ops,dev_us_per_write,dev_us_per_flush"
                            ",direct_honoured,direct_evidence\n",
          out);

    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        const struct diskio_run_info *info = &run->info;
        double seconds = (double)info->duration_ns / 1e9;
        for (int part = 0; part < DISKIO_PART_COUNT; part++) {
            const struct diskio_hist *h = run->hist[part];
            if (!h)
                continue;
            csv_key_cells(out, res, r);
            fprintf(out, ",%s,%s,%zu,%" PRIu64 ",%.9f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%.1f,%.1f",
                    diskio_part_name((enum diskio_part)part), info->complete ? "true" : "false",
                    diskio_run_repetitions(run), info->ops, seconds,
                    figures_per_s(info->ops, info->duration_ns),
                    figures_mb_per_s(info->bytes, info->duration_ns), diskio_hist_count(h),
                    diskio_hist_min(h), diskio_hist_mean(h), diskio_hist_stddev(h));
            uint64_t values[RESULT_PCTS_MAX];
            diskio_hist_percentiles(h, pcts, values, npcts);
            for (size_t i = 0; i < npcts; i++)
                fprintf(out, ",%" PRIu64, values[i]);
            fprintf(out, ",%" PRIu64 ",%" PRIu64, diskio_hist_max(h), diskio_hist_overflow(h));
            csv_device(out, run);
            /* the percentiles that are the max for want of values,
             * space-separated */
            fputc(',', out);
            const uint64_t count = diskio_hist_count(h);
            bool first = true;
            for (size_t i = 0; i < npcts; i++) {
                if (count == 0 || count >= hist_pct_min_count(pcts[i]) || pcts[i] >= 100.0)
                    continue;
                fprintf(out, "%s%s", first ? "" : " ", pct_name(key, sizeof(key), pcts[i], '_'));
                first = false;
            }
            csv_device_time(out, run);
            csv_direct(out, run);
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
