/* SPDX-License-Identifier: MIT */
/* What a run observed beside its latency, in its JSON run object: the
 * interference of the rest of the machine (CPU, memory, other I/O, the
 * measuring threads' own scheduling; per repetition too), the devices'
 * own I/O during the run, and direct I/O's alignment.  The run object:
 * emit_json_run.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emit_json.h"
#include "figures.h"

static void json_kib(FILE *out, int64_t kib)
{
    if (kib < 0)
        fputs("null", out);
    else
        fprintf(out, "%" PRId64, kib);
}

/* The measuring threads' own scheduling (interference.c); null where
 * unread. */
static void emit_thread(FILE *out, const struct interference *f)
{
    if (!f->threads) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"threads\": %u, \"wall_s\": ", f->threads);
    json_double(out, f->thread_wall_s);
    fputs(", \"cpu_s\": ", out);
    json_double(out, f->thread_cpu_s);
    fputs(", \"run_delay_s\": ", out);
    json_double(out, f->run_delay_s);
    fputs(", \"run_delay_share\": ", out);
    json_double(out, f->run_delay_share);
    fputs(", \"blocked_share\": ", out);
    json_double(out, f->blocked_share);
    fputc('}', out);
}

/* What else the machine did while a run or repetition ran (interference.c,
 * doc/result-schema.md "INTERFERENCE"); null when not probed. */
static void emit_interference(FILE *out, const struct interference *f, const char *indent)
{
    if (!f->known) {
        fputs("null", out);
        return;
    }
    fputs("{\"start_time\": ", out);
    json_string(out, f->start_time[0] ? f->start_time : NULL);
    fputs(", \"wall_s\": ", out);
    json_double(out, (double)f->wall_ns / 1e9);
    fputs(", \"cpus\": ", out);
    if (f->cpus)
        fprintf(out, "%u", f->cpus);
    else
        fputs("null", out);
    fprintf(out, ", \"waits_for\": \"%s\"", f->waits_device ? "device" : "cpu");
    fprintf(out, ",\n%s \"cpu\": {\"own_s\": ", indent);
    json_double(out, f->own_cpu_s);
    fputs(", \"other_s\": ", out);
    json_double(out, f->other_cpu_s);
    fputs(", \"other_cpus\": ", out);
    json_double(out, f->other_cpus);
    fputs(", \"steal_share\": ", out);
    json_double(out, f->steal_share);
    fputs(", \"resolution_s\": ", out);
    json_double(out, f->stat_resolution_s > 0 ? f->stat_resolution_s : NAN);
    fprintf(out, "},\n%s \"thread\": ", indent);
    emit_thread(out, f);
    fputs(", \"run_queue\": ", out);
    if (f->run_queue_before < 0)
        fputs("null", out);
    else
        fprintf(out, "{\"before\": %d, \"after\": %d}", f->run_queue_before, f->run_queue_after);
    fprintf(out, ",\n%s \"pressure\": ", indent);
    static const char *const psi_names[IFR_PSI_COUNT] = {"cpu", "io", "memory"};
    bool any_psi = false;
    for (int i = 0; i < IFR_PSI_COUNT; i++)
        any_psi = any_psi || !isnan(f->psi_some[i]);
    if (!any_psi) {
        fputs("null", out);
    } else {
        for (int i = 0; i < IFR_PSI_COUNT; i++) {
            fprintf(out, "%s\"%s_some\": ", i ? ", " : "{", psi_names[i]);
            json_double(out, f->psi_some[i]);
            fprintf(out, ", \"%s_full\": ", psi_names[i]);
            json_double(out, f->psi_full[i]);
        }
        fputc('}', out);
    }
    fprintf(out, ",\n%s \"memory\": ", indent);
    if (f->dirty_kib_before < 0 && f->dirty_kib_after < 0) {
        fputs("null", out);
    } else {
        fputs("{\"dirty_kib_before\": ", out);
        json_kib(out, f->dirty_kib_before);
        fputs(", \"writeback_kib_before\": ", out);
        json_kib(out, f->writeback_kib_before);
        fputs(", \"dirty_kib_after\": ", out);
        json_kib(out, f->dirty_kib_after);
        fputs(", \"writeback_kib_after\": ", out);
        json_kib(out, f->writeback_kib_after);
        fputc('}', out);
    }
    fprintf(out, ",\n%s \"devices\": [", indent);
    for (size_t i = 0; i < f->ndevices; i++) {
        const struct ifr_device *d = &f->devices[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        json_string(out, d->name);
        fprintf(out,
                ", \"depth\": %u, \"bytes\": %" PRIu64 ", \"foreign_bytes\": %" PRIu64
                ", \"foreign_share\": ",
                d->depth, d->bytes, d->foreign_bytes);
        json_double(out, d->bytes ? (double)d->foreign_bytes / (double)d->bytes : 0.0);
        fputc('}', out);
    }
    fputs("]}", out);
}

/* The reasons a run or repetition was disturbed: [] when it was not;
 * repetition (from 1) is written when not 0. */
static bool emit_disturbances(FILE *out, const struct interference *f, size_t repetition,
                              bool first, const char *indent)
{
    char text[IFR_TEXT_MAX];
    for (size_t i = 0; i < f->nreasons; i++) {
        const struct ifr_reason *r = &f->reasons[i];
        fprintf(out, "%s\n%s{", first ? "" : ",", indent);
        if (repetition)
            fprintf(out, "\"repetition\": %zu, ", repetition);
        fputs("\"reason\": ", out);
        json_string(out, ifr_kind_name(r->kind));
        fputs(", \"figure\": ", out);
        json_double(out, r->figure);
        fputs(", \"threshold\": ", out);
        json_double(out, r->threshold);
        fputs(", \"unit\": ", out);
        json_string(out, ifr_kind_unit(r->kind));
        fputs(", \"device\": ", out);
        json_string(out, r->device[0] ? r->device : NULL);
        fputs(", \"message\": ", out);
        json_string(out, ifr_reason_text(r, text, sizeof(text)));
        fputc('}', out);
        first = false;
    }
    return first;
}

/* A run's interference: its own when measured once; after repetitions,
 * how many of them were disturbed and every one's reasons (each
 * repetition also has its own figures). */
void json_run_interference(FILE *out, const struct diskio_run *run)
{
    size_t disturbed = 0;
    for (size_t r = 0; r < run->nreps; r++)
        disturbed += run->reps[r].ifr.nreasons > 0;
    const bool any = run->nreps ? disturbed > 0 : run->ifr.nreasons > 0;
    fprintf(out, ",\n      \"disturbed\": %s,\n      \"disturbed_repetitions\": ",
            any ? "true" : "false");
    if (run->nreps)
        fprintf(out, "%zu", disturbed);
    else
        fputs("null", out);
    fputs(",\n      \"interference\": ", out);
    if (run->nreps)
        fputs("null", out);
    else
        emit_interference(out, &run->ifr, "      ");
    fputs(",\n      \"disturbances\": [", out);
    bool first = true;
    if (run->nreps)
        for (size_t r = 0; r < run->nreps; r++)
            first = emit_disturbances(out, &run->reps[r].ifr, r + 1, first, "        ");
    else
        first = emit_disturbances(out, &run->ifr, 0, first, "        ");
    fputs(first ? "]" : "\n      ]", out);
}

/* Each repetition's own figures (diskio --repeat), in the order they ran;
 * start_offset_ns counts from the start of the result's first measured
 * run, so the interleaving of the runs can be read off. */
void json_repetitions(FILE *out, const struct diskio_run *run, uint64_t origin_ns)
{
    if (!run->nreps) {
        fputs("null", out);
        return;
    }
    fputc('[', out);
    for (size_t r = 0; r < run->nreps; r++) {
        const struct run_repetition *rep = &run->reps[r];
        fprintf(out,
                "%s\n        {\"complete\": %s, \"ops\": %" PRIu64 ", \"bytes\": %" PRIu64
                ", \"duration_ns\": %" PRIu64 ", \"start_offset_ns\": ",
                r ? "," : "", rep->complete ? "true" : "false", rep->ops, rep->bytes,
                rep->duration_ns);
        /* custom runs have no start time */
        if (rep->start_ns && rep->start_ns >= origin_ns)
            fprintf(out, "%" PRIu64, rep->start_ns - origin_ns);
        else
            fputs("null", out);
        fputs(", \"ops_per_s\": ", out);
        json_double(out, figures_per_s(rep->ops, rep->duration_ns));
        fputs(", \"mb_per_s\": ", out);
        json_double(out, figures_mb_per_s(rep->bytes, rep->duration_ns));
        fputs(",\n         \"start_time\": ", out);
        json_string(out, rep->ifr.known && rep->ifr.start_time[0] ? rep->ifr.start_time : NULL);
        fprintf(out, ", \"disturbed\": %s, \"disturbances\": [",
                rep->ifr.nreasons ? "true" : "false");
        (void)emit_disturbances(out, &rep->ifr, 0, true, "           ");
        fputc(']', out);
        fputs(",\n         \"interference\": ", out);
        emit_interference(out, &rep->ifr, "          ");
        fputs(",\n         \"latency\": {", out);
        for (int part = 0; part < DISKIO_PART_COUNT; part++) {
            fprintf(out, "%s\"%s\": ", part ? ",\n                     " : "",
                    diskio_part_name((enum diskio_part)part));
            json_summary(out, &rep->parts[part]);
        }
        fputs("}}", out);
    }
    fputs("\n      ]", out);
}

static void json_per_op(FILE *out, const char *key, double v)
{
    fprintf(out, ", \"%s\": ", key);
    json_double(out, v);
}

static void emit_device_io(FILE *out, const struct diskio_device_io *d, uint64_t ops, bool total)
{
    fputs("{\"name\": ", out);
    json_string(out, d->name);
    if (!total)
        fprintf(out,
                ", \"depth\": %u, \"leaf\": %s, \"own_io\": %s, \"volatile_cache\": %s, "
                "\"fua\": %s, \"rotational\": %s",
                d->depth, d->leaf ? "true" : "false", d->own_io ? "true" : "false",
                d->volatile_cache ? "true" : "false", d->fua ? "true" : "false",
                d->rotational ? "true" : "false");
    fprintf(out,
            ", \"reads\": %" PRIu64 ", \"read_merges\": %" PRIu64 ", \"read_sectors\": %" PRIu64
            ", \"writes\": %" PRIu64 ", \"write_merges\": %" PRIu64 ", \"write_sectors\": %" PRIu64
            ", \"flushes\": ",
            d->reads, d->read_merges, d->read_sectors, d->writes, d->write_merges,
            d->write_sectors);
    if (d->flushes_known)
        fprintf(out, "%" PRIu64, d->flushes);
    else
        fputs("null", out);
    fprintf(out,
            ", \"read_ms\": %" PRIu64 ", \"write_ms\": %" PRIu64 ", \"flush_ms\": ", d->read_ms,
            d->write_ms);
    if (d->flushes_known)
        fprintf(out, "%" PRIu64, d->flush_ms);
    else
        fputs("null", out);
    struct devstat_figures f;
    devstat_figures(d, ops, &f);
    json_per_op(out, "writes_per_op", f.writes_per_op);
    json_per_op(out, "merges_per_op", f.merges_per_op);
    json_per_op(out, "kib_per_write", f.kib_per_write);
    json_per_op(out, "flushes_per_op", f.flushes_per_op);
    json_per_op(out, "reads_per_op", f.reads_per_op);
    json_per_op(out, "read_merges_per_op", f.read_merges_per_op);
    json_per_op(out, "kib_per_read", f.kib_per_read);
    json_per_op(out, "us_per_read", f.us_per_read);
    json_per_op(out, "us_per_write", f.us_per_write);
    json_per_op(out, "us_per_flush", f.us_per_flush);
    fputs("}", out);
}

/* Schema 2: what the block devices under the target did during the
 * measured ops, and the verdicts drawn from it. */
void json_run_device(FILE *out, const struct diskio_run *run)
{
    size_t n = diskio_run_device_count(run);
    uint64_t ops = run->info.ops;
    fputs(",\n      \"device\": ", out);
    if (n == 0) {
        fputs("null", out);
    } else {
        fputs("{\n        \"total\": ", out);
        emit_device_io(out, diskio_run_device_io(run, n), ops, true);
        fprintf(out, ",\n        \"shared\": %s,\n        \"devices\": [",
                (run->verdicts & DISKIO_VERDICT_SHARED) ? "true" : "false");
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ",\n          " : "\n          ", out);
            emit_device_io(out, diskio_run_device_io(run, i), ops, false);
        }
        fputs("]\n      }", out);
    }
    fputs(",\n      \"verdicts\": [", out);
    bool first = true;
    for (unsigned bit = 1; bit != 0 && bit <= DEVSTAT_VERDICT_LAST; bit <<= 1) {
        if (!(run->verdicts & bit))
            continue;
        fputs(first ? "\n        {\"code\": " : ",\n        {\"code\": ", out);
        json_string(out, diskio_verdict_name((enum diskio_verdict)bit));
        fputs(", \"message\": ", out);
        json_string(out, diskio_verdict_text((enum diskio_verdict)bit));
        fputs("}", out);
        first = false;
    }
    fputs(first ? "]" : "\n      ]", out);
}

/* Whether an O_DIRECT run's I/O was direct (direct.c); null for the
 * other modes and custom runs. */
void json_run_direct(FILE *out, const struct diskio_run *run)
{
    struct diskio_direct d;
    fputs(",\n      \"direct\": ", out);
    if (diskio_run_direct(run, &d) != 0) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"honoured\": %s, \"source\": ",
            d.honoured < 0 ? "null"
            : d.honoured   ? "true"
                           : "false");
    json_string(out, d.source);
    fputs(", \"evidence\": ", out);
    json_string(out, d.evidence);
    if (d.statx_known)
        fprintf(out, ", \"dio_offset_align\": %u, \"dio_mem_align\": %u}",
                (unsigned)d.dio_offset_align, (unsigned)d.dio_mem_align);
    else
        fputs(", \"dio_offset_align\": null, \"dio_mem_align\": null}", out);
}
