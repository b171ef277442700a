/* SPDX-License-Identifier: MIT */
/* CSV: one row per run and measured part, for spreadsheets and scripts. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "diskio_internal.h"

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
    for (unsigned bit = 1; bit != 0 && bit <= DISKIO_VERDICT_SHARED; bit <<= 1) {
        if (!(run->verdicts & bit))
            continue;
        fprintf(out, "%s%s", first ? "" : " ", diskio_verdict_name((enum diskio_verdict)bit));
        first = false;
    }
}

static const char *const part_names[DISKIO_PART_COUNT] = {"total", "write", "sync", "service",
                                                          "switch"};

int emit_csv(const struct diskio_result *res, FILE *out)
{
    fputs("label,mode,block_size,pattern,iodepth,sync_every,part,complete,ops,duration_s,"
          "ops_per_s,mb_per_s,count,min_ns,mean_ns,stddev_ns",
          out);
    /* the summary's percentiles and the table's (diskio --percentiles) */
    double pcts[RESULT_PCTS_MAX];
    size_t npcts = result_pcts(res, pcts);
    char key[32];
    for (size_t i = 0; i < npcts; i++)
        fprintf(out, ",%s_ns", pct_name(key, sizeof(key), pcts[i], '_'));
    fputs(",max_ns,overflow", out);
    fputs(CSV_DEVICE_HEADER ",percentiles_limited_by_ops\n", out);

    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        const struct diskio_run_info *info = &run->info;
        double seconds = (double)info->duration_ns / 1e9;
        for (int part = 0; part < DISKIO_PART_COUNT; part++) {
            const struct diskio_hist *h = run->hist[part];
            if (!h)
                continue;
            csv_field(out, res->label);
            fputc(',', out);
            csv_field(out, info->name);
            if (info->has_config)
                fprintf(out, ",%" PRIu64 ",%s,%u,%u", info->config.block_size,
                        diskio_pattern_name(info->config.pattern), info->config.iodepth,
                        info->config.sync_every);
            else
                fputs(",,,,", out);
            fprintf(out, ",%s,%s,%" PRIu64 ",%.9f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%.1f,%.1f",
                    part_names[part], info->complete ? "true" : "false", info->ops, seconds,
                    seconds > 0 ? (double)info->ops / seconds : 0.0,
                    seconds > 0 ? (double)info->bytes / 1e6 / seconds : 0.0, diskio_hist_count(h),
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
            fputc('\n', out);
        }
    }
    return 0;
}

/* The interval series of every run (config.interval_ns): one row per
 * interval, latencies empty where no op completed in it. */
int emit_intervals_csv(const struct diskio_result *res, FILE *out)
{
    fputs("label,mode,block_size,pattern,iodepth,sync_every,repetition,interval,start_s,"
          "duration_s,ops,bytes,ops_per_s,mb_per_s,min_ns,mean_ns,p50_ns,p99_ns,max_ns\n",
          out);
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        const struct diskio_run_info *info = &run->info;
        size_t n = diskio_run_interval_count(run);
        for (size_t i = 0; i < n; i++) {
            const struct diskio_interval *iv = diskio_run_interval(run, i);
            double seconds = (double)iv->duration_ns / 1e9;
            csv_field(out, res->label);
            fputc(',', out);
            csv_field(out, info->name);
            if (info->has_config)
                fprintf(out, ",%" PRIu64 ",%s,%u,%u", info->config.block_size,
                        diskio_pattern_name(info->config.pattern), info->config.iodepth,
                        info->config.sync_every);
            else
                fputs(",,,,", out);
            fprintf(out, ",%u,%zu,%.9f,%.9f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f", iv->repetition + 1,
                    i, (double)iv->start_ns / 1e9, seconds, iv->ops, iv->bytes,
                    seconds > 0 ? (double)iv->ops / seconds : 0.0,
                    seconds > 0 ? (double)iv->bytes / 1e6 / seconds : 0.0);
            if (iv->ops)
                fprintf(out, ",%" PRIu64 ",%.1f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", iv->min_ns,
                        iv->mean_ns, iv->p50_ns, iv->p99_ns, iv->max_ns);
            else
                fputs(",,,,,\n", out);
        }
    }
    return 0;
}
