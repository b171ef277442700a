/* SPDX-License-Identifier: MIT */
/* The JSON document's run object: its mode and parameters, its outcome
 * (complete, error, and ops, throughput and each latency histogram's
 * figures from the column table, columns.def), its jobs, the wal and
 * checkpoint patterns' figures, a fixed rate's, and its latency
 * histograms' buckets; the
 * other parts of a run come from emit_json_observed.c and
 * emit_json_series.c.  The document: emit_json.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "columns.h"
#include "emit_json.h"
#include "figures.h"
#include "patterns.h"

/* A figure's value (columns.def). */
static void json_value(FILE *out, struct column_value v)
{
    switch (v.kind) {
    case COLUMN_NONE: fputs("null", out); break;
    case COLUMN_U64: fprintf(out, "%" PRIu64, v.u); break;
    case COLUMN_F64: json_double(out, v.d); break;
    case COLUMN_BOOL: fputs(v.b ? "true" : "false", out); break;
    case COLUMN_STR: json_string(out, v.s); break;
    case COLUMN_LIST:
        /* words: ["p99_9", "p99_99"] */
        fputc('[', out);
        for (const char *w = v.s; *w;) {
            size_t len = strcspn(w, " ");
            fprintf(out, "%s\"%.*s\"", w == v.s ? "" : ", ", (int)len, w);
            w += len + (w[len] == ' ');
        }
        fputc(']', out);
        break;
    }
}

/* The column table's figures of one scope, in their JSON order: the
 * run's in its object, a part's in its HIST. */
static void json_figures(FILE *out, const struct part_figures *f, enum column_scope scope)
{
    size_t order[COLUMNS_MAX];
    const size_t n = columns_in_order(COLUMN_JSON, order);
    char key[64];
    for (size_t k = 0; k < n; k++) {
        const struct column *c = &columns[order[k]];
        if (c->scope != scope)
            continue;
        fputs(c->json_sep, out);
        for (size_t i = 0; i < (c->percentiles ? f->npcts : 1); i++) {
            fprintf(
                out, "%s\"%s\": ", i ? ", " : "",
                column_name(key, sizeof(key), c->json_key, c->percentiles ? f->pcts[i] : 0, '_'));
            json_value(out, c->value(f, i));
        }
    }
}

/* A part's HIST: its figures, then its buckets. */
static void emit_hist(FILE *out, const struct diskio_result *res, const struct run_figures *rf,
                      enum diskio_part part)
{
    const struct diskio_hist *h = rf->run->hist[part];
    if (!h) {
        fputs("null", out);
        return;
    }
    struct part_figures f;
    columns_part_figures(res, rf, part, h, COLUMNS_PCTS_ALL, &f);
    fputs("{\n          ", out);
    json_figures(out, &f, COLUMN_PART);
    fprintf(out,
            ", \"max_trackable_ns\": %" PRIu64 ", \"sub_buckets\": %d,\n          \"buckets\": [",
            (uint64_t)DISKIO_HIST_MAX_TRACKABLE_NS, DISKIO_HIST_SUB_BUCKETS);
    struct diskio_hist_iter it;
    diskio_hist_iter_init(&it, h);
    bool first = true;
    while (diskio_hist_iter_next(&it)) {
        fprintf(out, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", first ? "" : ", ", it.lowest_ns,
                it.highest_ns, it.count);
        first = false;
    }
    fputs("]\n        }", out);
}

/* A custom run's own parameters (diskio_run_set_param()), when it has
 * any: "params": {"key": "value", ...}. */
static void emit_run_params(FILE *out, const struct diskio_run *run)
{
    if (run->nparams == 0)
        return;
    fputs(",\n      \"params\": {", out);
    for (size_t i = 0; i < run->nparams; i++) {
        if (i)
            fputs(", ", out);
        json_string(out, run->params[i].key);
        fputs(": ", out);
        json_string(out, run->params[i].value);
    }
    fputs("}", out);
}

/* A run of several jobs or threads: each one's own figures. */
static void emit_run_jobs(FILE *out, const struct diskio_run *run)
{
    size_t n = diskio_run_job_count(run);
    if (n == 0)
        return;
    fputs(",\n      \"per_job\": [", out);
    for (size_t i = 0; i < n; i++) {
        struct diskio_job_summary j;
        (void)diskio_run_job(run, i, &j);
        fprintf(out,
                "%s\n        {\"job\": %zu, \"ops\": %" PRIu64 ", \"bytes\": %" PRIu64
                ", \"duration_ns\": %" PRIu64 ", \"mean_ns\": ",
                i ? "," : "", i, j.ops, j.bytes, j.duration_ns);
        json_double(out, j.mean_ns);
        fprintf(out,
                ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64
                ", \"errors\": %d, \"error\": ",
                j.p50_ns, j.p99_ns, j.max_ns, j.error && j.error != -DISKIO_E_INTERRUPTED ? 1 : 0);
        if (j.error) {
            fputs("{\"message\": ", out);
            json_string(out, diskio_strerror(j.error));
            fprintf(out, ", \"op\": %" PRIu64 ", \"during\": ", j.error_op);
            json_string(out, j.error_during);
            fputs("}", out);
        } else {
            fputs("null", out);
        }
        fputs("}", out);
    }
    fputs("\n      ]", out);
}

/* The wal and checkpoint patterns: their parameters and what the run
 * did ("wal", "checkpoint"; null for the other patterns). */
static void emit_run_pattern(FILE *out, const struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    const bool has = info->has_config;
    fputs(",\n      \"wal\": ", out);
    if (has && pattern_params_of(info->config.pattern) == PATTERN_PARAMS_WAL) {
        const struct diskio_config *c = &info->config;
        const struct diskio_wal_counts *w = &info->wal;
        /* the writes sync where the mode's flags make them durable */
        const uint64_t durable = w->syncs                          ? w->syncs
                                 : diskio_mode_is_durable(c->mode) ? w->writes
                                                                   : 0;
        fprintf(out,
                "{\"bytes_per_commit\": %" PRIu64 ", \"segment_size\": %" PRIu64
                ", \"page_size\": %" PRIu64 ", \"recycle\": %s, \"committers\": %u, "
                "\"gap_ns\": %" PRIu64 ",\n"
                "        \"commits\": %" PRIu64 ", \"flushes\": %" PRIu64 ", \"writes\": %" PRIu64
                ", \"syncs\": %" PRIu64 ", \"pages\": %" PRIu64 ", \"page_rewrites\": %" PRIu64
                ", \"segment_switches\": %" PRIu64 ", \"insert_bytes\": %" PRIu64
                ",\n        \"syncs_per_commit\": ",
                c->wal_bytes, c->wal_segment_size, c->block_size, c->wal_recycle ? "true" : "false",
                c->jobs ? c->jobs : 1u, c->wal_gap_ns, w->commits, w->flushes, w->writes, w->syncs,
                w->pages, w->page_rewrites, w->segment_switches, w->insert_bytes);
        json_double(out, w->commits ? (double)durable / (double)w->commits : NAN);
        fputs(", \"flushes_per_commit\": ", out);
        json_double(out, w->commits ? (double)w->flushes / (double)w->commits : NAN);
        fputs("}", out);
    } else {
        fputs("null", out);
    }
    fputs(",\n      \"checkpoint\": ", out);
    if (has && pattern_params_of(info->config.pattern) == PATTERN_PARAMS_CHECKPOINT) {
        const struct diskio_config *c = &info->config;
        const struct diskio_checkpoint_counts *k = &info->checkpoint;
        fprintf(out,
                "{\"files\": %u, \"pages_per_checkpoint\": %" PRIu64
                ", \"flush_after_pages\": %u, \"checkpoints\": %" PRIu64 ", \"pages\": %" PRIu64
                ", \"file_syncs\": %" PRIu64 ", \"writebacks\": %" PRIu64 "}",
                c->checkpoint_files, c->checkpoint_pages, c->checkpoint_flush_after, k->checkpoints,
                k->pages, k->file_syncs, k->writebacks);
    } else {
        fputs("null", out);
    }
}

/* The run's "parameters": its configuration, or null for a custom run. */
static void json_run_parameters(FILE *out, const struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    fputs(",\n      \"parameters\": ", out);
    if (info->has_config) {
        const struct diskio_config *c = &info->config;
        fprintf(out, "{\"block_size\": %" PRIu64 ", \"file_size\": %" PRIu64 ", \"pattern\": ",
                c->block_size, c->file_size);
        json_string(out, diskio_pattern_name(c->pattern));
        if (c->count)
            fprintf(out, ", \"count\": %" PRIu64, c->count);
        else
            fputs(", \"count\": null", out);
        fputs(", \"runtime_s\": ", out);
        if (c->runtime_ns)
            json_double(out, (double)c->runtime_ns / 1e9);
        else
            fputs("null", out);
        fprintf(out,
                ", \"warmup\": %" PRIu64 ", \"iodepth\": %u, \"batch\": %u, "
                "\"sync_every\": %u, \"rate_ops_per_s\": ",
                c->warmup, c->iodepth, c->batch ? c->batch : 1u, c->sync_every);
        if (c->rate_interval_ns)
            json_double(out, 1e9 / (double)c->rate_interval_ns);
        else
            fputs("null", out);
        fprintf(out, ", \"jobs\": %u, \"shared_file\": %s", c->jobs ? c->jobs : 1u,
                c->shared_file ? "true" : "false");
        fputs(", \"open_flags\": ", out);
        json_string(out, run->open_flags_text);
        fprintf(out, ", \"direction\": \"%s\", \"cached\": %s, \"verify\": %s, \"write_back\": %u}",
                diskio_mode_is_read(c->mode) ? "read" : "write", c->cached ? "true" : "false",
                c->verify ? "true" : "false", c->write_back);
    } else {
        fputs("null", out);
    }
}

/* The run's "error" (what its first error was, at which op, during
 * what), or null. */
static void json_run_error(FILE *out, const struct diskio_run_info *info)
{
    if (info->error) {
        fprintf(out, "{\"op\": %" PRIu64 ", \"errno\": ", info->error_op);
        if (-info->error < DISKIO_E_BASE)
            fprintf(out, "%d", -info->error);
        else
            fputs("null", out);
        fputs(", \"message\": ", out);
        json_string(out, diskio_strerror(info->error));
        fputs(", \"during\": ", out);
        json_string(out, info->error_during);
        if (info->error_job >= 0)
            fprintf(out, ", \"job\": %d", info->error_job);
        fputs("}", out);
    } else {
        fputs("null", out);
    }
}

/* A fixed rate's figures ("rate"): asked for and achieved, whether it
 * held, and how late ops started; null without a fixed rate. */
static void json_run_rate(FILE *out, const struct diskio_run_info *info)
{
    fputs(",\n      \"rate\": ", out);
    if (info->has_config && info->config.rate_interval_ns) {
        fputs("{\"requested_ops_per_s\": ", out);
        json_double(out, 1e9 / (double)info->config.rate_interval_ns);
        fputs(", \"achieved_ops_per_s\": ", out);
        json_double(out, figures_per_s(info->ops, info->duration_ns));
        fprintf(out, ", \"held\": %s, \"max_start_lag_ns\": %" PRIu64,
                info->rate_held ? "true" : "false", info->max_start_lag_ns);
        /* whose lateness: diskio's own (the previous op was done in time)
         * apart from the device's (the previous op was still running) */
        fprintf(out,
                ", \"start_lag_p99_ns\": %" PRIu64 ", \"late_start_ns\": {\"ops\": %" PRIu64
                ", \"p50\": %" PRIu64 ", \"p99\": %" PRIu64 ", \"max\": %" PRIu64
                "}, \"backlog\": {\"ops\": %" PRIu64 ", \"max_lag_ns\": %" PRIu64
                "}, \"spin_margin_ns\": %" PRIu64 "}",
                info->start_lag_p99_ns, info->late_start_ops, info->late_start_p50_ns,
                info->late_start_p99_ns, info->late_start_max_ns, info->backlog_ops,
                info->backlog_max_lag_ns, info->spin_margin_ns);
    } else {
        fputs("null", out);
    }
}

void json_run(FILE *out, const struct diskio_result *res, const struct diskio_run *run,
              uint64_t origin_ns)
{
    const struct diskio_run_info *info = &run->info;
    fputs("    {\n      \"mode\": ", out);
    json_string(out, info->name);
    json_run_parameters(out, run);
    emit_run_params(out, run);
    /* a run stops at its first error, so errors is 0 or 1 */
    fprintf(out, ",\n      \"complete\": %s,\n      \"errors\": %d,\n      \"error\": ",
            info->complete ? "true" : "false", info->error ? 1 : 0);
    json_run_error(out, info);
    /* ops, bytes, duration, ops/s, MB/s: the run's figures (columns.def) */
    struct run_figures rf;
    columns_run_figures(res, run, &rf);
    struct part_figures total;
    columns_part_figures(res, &rf, DISKIO_PART_TOTAL, run->hist[DISKIO_PART_TOTAL],
                         COLUMNS_PCTS_ALL, &total);
    json_figures(out, &total, COLUMN_RUN);
    emit_run_jobs(out, run);
    emit_run_pattern(out, run);
    json_run_rate(out, info);
    json_run_interference(out, run);
    fputs(",\n      \"repetitions\": ", out);
    json_repetitions(out, run, origin_ns);
    fputs(",\n      \"intervals\": ", out);
    json_intervals(out, run);
    fputs(",\n      \"steady\": ", out);
    json_steady(out, run);
    fputs(",\n      \"capacity\": ", out);
    json_capacity(out, run);
    fputs(",\n      \"latency\": {", out);
    for (int part = 0; part < DISKIO_PART_COUNT; part++) {
        fprintf(out, "%s\n        \"%s\": ", part ? "," : "",
                diskio_part_name((enum diskio_part)part));
        emit_hist(out, res, &rf, (enum diskio_part)part);
    }
    fputs("\n      }", out);
    json_run_device(out, run);
    json_run_direct(out, run);
    fputs("\n    }", out);
}
