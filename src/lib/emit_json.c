/* SPDX-License-Identifier: MIT */
/* The JSON result document, schema version 2: the format is
 * doc/result-schema.json (tests/cli/results-match-schema.sh validates what
 * this file writes for every kind of run against it), explained in
 * doc/result-schema.md.  A key added here is added there too. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "diskio_internal.h"
#include "steady.h"

/* s as a JSON string, valid UTF-8 whatever s holds (doc/result-schema.md,
 * "Strings"): every ill-formed UTF-8 sequence becomes U+FFFD, and control
 * characters (C0, DEL, C1), U+2028/U+2029 and the bidirectional
 * formatting characters are escaped (\uXXXX reads back as the same
 * character), so the document parses everywhere and, shown as it is,
 * holds nothing a terminal acts on. */
static void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    size_t len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        const int32_t cp = utf8_decode(p, &len);
        switch (cp) {
        case -1: fputs("\\ufffd", out); break;
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (display_unsafe(cp))
                fprintf(out, "\\u%04x", (unsigned)cp);
            else
                fwrite(p, 1, len, out);
        }
    }
    fputc('"', out);
}

static void json_double(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}

/* An environment value that is an integer, or null. */
static void env_int(FILE *out, const struct env *env, const char *key)
{
    const char *v = env_get(env, key);
    if (v && *v && strspn(v, "0123456789") == strlen(v))
        fputs(v, out);
    else
        fputs("null", out);
}

static void env_bool(FILE *out, const struct env *env, const char *key)
{
    const char *v = env_get(env, key);
    fputs(!v ? "null" : strcmp(v, "0") == 0 ? "false" : "true", out);
}

static void env_str(FILE *out, const struct env *env, const char *key)
{
    json_string(out, env_get(env, key));
}

static void json_flag(FILE *out, signed char v)
{
    fputs(v < 0 ? "null" : v ? "true" : "false", out);
}

/* An object of env keys prefix.NAME, or null when the first is unknown. */
static void env_group(FILE *out, const struct env *env, const char *prefix,
                      const char *const *names, size_t n, const char *bool_name)
{
    char key[96];
    snprintf(key, sizeof(key), "%s.%s", prefix, names[0]);
    if (!env_get(env, key)) {
        fputs("null", out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "%s.%s", prefix, names[i]);
        fprintf(out, "%s\"%s\": ", i ? ", " : "{", names[i]);
        if (bool_name && strcmp(names[i], bool_name) == 0)
            env_bool(out, env, key);
        else
            env_str(out, env, key);
    }
    fputs("}", out);
}

/* Schema 2: what is under the target's filesystem. */
static void emit_target_layers(FILE *out, const struct env *env)
{
    static const char *const ext4[] = {"journal", "data_mode"};
    static const char *const loop[] = {"backing_file", "backing_filesystem", "backing_mount_point",
                                       "backing_device"};
    static const char *const overlay[] = {"upperdir", "upper_filesystem", "upper_mount_point"};
    fputs(",\n      \"ext4\": ", out);
    env_group(out, env, "target.ext4", ext4, 2, "journal");
    fputs(",\n      \"loop\": ", out);
    env_group(out, env, "target.loop", loop, 4, NULL);
    fputs(",\n      \"overlay\": ", out);
    env_group(out, env, "target.overlay", overlay, 3, NULL);
    fputs(",\n      \"devices\": [", out);
    const struct devstat_set *set = env ? env_devices(env) : NULL;
    for (size_t i = 0; set && i < set->n; i++) {
        const struct devstat_dev *d = &set->dev[i];
        fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ", out);
        json_string(out, d->name);
        fprintf(out, ", \"depth\": %u, \"leaf\": %s, \"own_io\": %s, \"write_cache\": ", d->depth,
                d->leaf ? "true" : "false", d->own_io ? "true" : "false");
        json_string(out, d->write_cache < 0 ? NULL
                         : d->write_cache   ? "write back"
                                            : "write through");
        fputs(", \"fua\": ", out);
        json_flag(out, d->fua);
        fputs(", \"rotational\": ", out);
        json_flag(out, d->rotational);
        fputs("}", out);
    }
    fputs(set && set->n ? "\n      ]" : "]", out);
}

static void emit_environment(FILE *out, const struct env *env)
{
    fputs("  \"environment\": {\n    \"hostname\": ", out);
    env_str(out, env, "hostname");
    fputs(",\n    \"machine_id\": ", out);
    env_str(out, env, "machine_id");
    fputs(",\n    \"boot_id\": ", out);
    env_str(out, env, "boot_id");
    fputs(",\n    \"kernel\": {\"sysname\": ", out);
    env_str(out, env, "kernel.sysname");
    fputs(", \"release\": ", out);
    env_str(out, env, "kernel.release");
    fputs(", \"version\": ", out);
    env_str(out, env, "kernel.version");
    fputs(", \"machine\": ", out);
    env_str(out, env, "kernel.machine");
    fputs("},\n    \"cpu\": {\"model\": ", out);
    env_str(out, env, "cpu.model");
    fputs(", \"cores\": ", out);
    env_int(out, env, "cpu.cores");
    fputs(", \"idle_driver\": ", out);
    env_str(out, env, "cpu.idle_driver");
    fputs(", \"wakeup_ns\": ", out);
    env_int(out, env, "cpu.wakeup_ns");
    fputs("},\n    \"memory_bytes\": ", out);
    env_int(out, env, "memory_bytes");
    fputs(",\n    \"timer\": {\"clock\": ", out);
    env_str(out, env, "timer.clock");
    fputs(", \"resolution_ns\": ", out);
    env_int(out, env, "timer.resolution_ns");
    fputs(", \"overhead_ns\": ", out);
    env_int(out, env, "timer.overhead_ns");
    fputs(", \"clocksource\": ", out);
    env_str(out, env, "timer.clocksource");
    fputs("},\n    \"target\": {\n      \"directory\": ", out);
    env_str(out, env, "target.directory");
    static const char *const target_strings[] = {"filesystem", "mount_point", "mount_source",
                                                 "mount_options", "super_options"};
    char key[64];
    for (size_t i = 0; i < sizeof(target_strings) / sizeof(target_strings[0]); i++) {
        snprintf(key, sizeof(key), "target.%s", target_strings[i]);
        fprintf(out, ",\n      \"%s\": ", target_strings[i]);
        env_str(out, env, key);
    }
    fputs(",\n      \"device\": ", out);
    if (!env_get(env, "target.device.name")) {
        fputs("null", out);
    } else {
        fputs("{\"name\": ", out);
        env_str(out, env, "target.device.name");
        fputs(", \"partition\": ", out);
        env_str(out, env, "target.device.partition");
        fputs(", \"rotational\": ", out);
        env_bool(out, env, "target.device.rotational");
        fputs(", \"scheduler\": ", out);
        env_str(out, env, "target.device.scheduler");
        fputs(", \"write_cache\": ", out);
        env_str(out, env, "target.device.write_cache");
        fputs(", \"logical_block_size\": ", out);
        env_int(out, env, "target.device.logical_block_size");
        fputs(", \"physical_block_size\": ", out);
        env_int(out, env, "target.device.physical_block_size");
        fputs(", \"model\": ", out);
        env_str(out, env, "target.device.model");
        fputs(", \"fua\": ", out);
        env_bool(out, env, "target.device.fua");
        fputs("}", out);
    }
    emit_target_layers(out, env);
    fputs("\n    }\n  },\n", out);
}

static void emit_hist(FILE *out, const struct diskio_result *res, const struct diskio_hist *h)
{
    if (!h) {
        fputs("null", out);
        return;
    }
    /* the summary's percentiles and the table's (diskio --percentiles) */
    double pcts[RESULT_PCTS_MAX];
    size_t npcts = result_pcts(res, pcts);
    uint64_t pct_values[RESULT_PCTS_MAX];
    diskio_hist_percentiles(h, pcts, pct_values, npcts);
    const uint64_t count = diskio_hist_count(h);
    char key[32];
    fprintf(out,
            "{\n          \"count\": %" PRIu64 ", \"min\": %" PRIu64 ", \"max\": %" PRIu64
            ", \"mean\": ",
            diskio_hist_count(h), diskio_hist_min(h), diskio_hist_max(h));
    json_double(out, diskio_hist_mean(h));
    fputs(", \"stddev\": ", out);
    json_double(out, diskio_hist_stddev(h));
    fputs(",\n          ", out);
    for (size_t i = 0; i < npcts; i++)
        fprintf(out, "\"%s\": %" PRIu64 ", ", pct_name(key, sizeof(key), pcts[i], '_'),
                pct_values[i]);
    /* the percentiles that are the max only because there were too few
     * values for them to be anything else */
    fputs("\n          \"percentiles_limited_by_ops\": [", out);
    bool first = true;
    for (size_t i = 0; i < npcts; i++) {
        if (count == 0 || count >= hist_pct_min_count(pcts[i]) || pcts[i] >= 100.0)
            continue;
        fprintf(out, "%s\"%s\"", first ? "" : ", ", pct_name(key, sizeof(key), pcts[i], '_'));
        first = false;
    }
    fputs("],", out);
    fprintf(out,
            "\n          \"overflow\": %" PRIu64 ", \"max_trackable_ns\": %" PRIu64
            ", \"sub_buckets\": %d,\n          \"buckets\": [",
            diskio_hist_overflow(h), (uint64_t)DISKIO_HIST_MAX_TRACKABLE_NS,
            DISKIO_HIST_SUB_BUCKETS);
    struct diskio_hist_iter it;
    diskio_hist_iter_init(&it, h);
    first = true;
    while (diskio_hist_iter_next(&it)) {
        fprintf(out, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", first ? "" : ", ", it.lowest_ns,
                it.highest_ns, it.count);
        first = false;
    }
    fputs("]\n        }", out);
}

static void emit_summary(FILE *out, const struct part_summary *s)
{
    if (!s->present) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"count\": %" PRIu64 ", \"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"mean\": ",
            s->count, s->min_ns, s->max_ns);
    json_double(out, s->mean_ns);
    fputs(", \"stddev\": ", out);
    json_double(out, s->stddev_ns);
    char key[32];
    for (int i = 0; i < SUMMARY_PCTS; i++)
        fprintf(out, ", \"%s\": %" PRIu64, pct_name(key, sizeof(key), summary_pcts[i], '_'),
                s->pct_ns[i]);
    fputc('}', out);
}

/* A figure that may be unknown (NAN): null then. */
static void json_maybe(FILE *out, double v)
{
    json_double(out, v);
}

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
    json_maybe(out, f->thread_wall_s);
    fputs(", \"cpu_s\": ", out);
    json_maybe(out, f->thread_cpu_s);
    fputs(", \"run_delay_s\": ", out);
    json_maybe(out, f->run_delay_s);
    fputs(", \"run_delay_share\": ", out);
    json_maybe(out, f->run_delay_share);
    fputs(", \"blocked_share\": ", out);
    json_maybe(out, f->blocked_share);
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
    json_maybe(out, f->own_cpu_s);
    fputs(", \"other_s\": ", out);
    json_maybe(out, f->other_cpu_s);
    fputs(", \"other_cpus\": ", out);
    json_maybe(out, f->other_cpus);
    fputs(", \"steal_share\": ", out);
    json_maybe(out, f->steal_share);
    fputs(", \"resolution_s\": ", out);
    json_maybe(out, f->stat_resolution_s > 0 ? f->stat_resolution_s : NAN);
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
            json_maybe(out, f->psi_some[i]);
            fprintf(out, ", \"%s_full\": ", psi_names[i]);
            json_maybe(out, f->psi_full[i]);
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
static void emit_run_interference(FILE *out, const struct diskio_run *run)
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
static void emit_repetitions(FILE *out, const struct diskio_run *run, uint64_t origin_ns)
{
    if (!run->nreps) {
        fputs("null", out);
        return;
    }
    fputc('[', out);
    for (size_t r = 0; r < run->nreps; r++) {
        const struct run_repetition *rep = &run->reps[r];
        double seconds = (double)rep->duration_ns / 1e9;
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
        json_double(out, seconds > 0 ? (double)rep->ops / seconds : 0.0);
        fputs(", \"mb_per_s\": ", out);
        json_double(out, seconds > 0 ? (double)rep->bytes / 1e6 / seconds : 0.0);
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
            emit_summary(out, &rep->parts[part]);
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
static void emit_run_device(FILE *out, const struct diskio_run *run)
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
static void emit_run_direct(FILE *out, const struct diskio_run *run)
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

/* The interval series (config.interval_ns), one line per interval;
 * latency figures null where no op completed. */
static void emit_intervals(FILE *out, const struct diskio_run *run)
{
    size_t n = diskio_run_interval_count(run);
    if (n == 0) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"interval_ns\": %" PRIu64 ", \"series\": [", run->series->interval_ns);
    for (size_t i = 0; i < n; i++) {
        const struct diskio_interval *iv = diskio_run_interval(run, i);
        double seconds = (double)iv->duration_ns / 1e9;
        fprintf(
            out,
            "%s\n        {\"repetition\": %u, \"start_ns\": %" PRIu64 ", \"duration_ns\": %" PRIu64
            ", \"ops\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"ops_per_s\": ",
            i ? "," : "", iv->repetition + 1, iv->start_ns, iv->duration_ns, iv->ops, iv->bytes);
        json_double(out, seconds > 0 ? (double)iv->ops / seconds : 0.0);
        fputs(", \"mb_per_s\": ", out);
        json_double(out, seconds > 0 ? (double)iv->bytes / 1e6 / seconds : 0.0);
        if (iv->ops == 0) {
            fputs(", \"min_ns\": null, \"mean_ns\": null, \"p50_ns\": null, \"p99_ns\": null, "
                  "\"max_ns\": null}",
                  out);
            continue;
        }
        fprintf(out, ", \"min_ns\": %" PRIu64 ", \"mean_ns\": ", iv->min_ns);
        json_double(out, iv->mean_ns);
        fprintf(out, ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64 "}",
                iv->p50_ns, iv->p99_ns, iv->max_ns);
    }
    fputs("\n      ]}", out);
}

/* A number, or null where it is unknown or means nothing (count 0). */
static void json_if(FILE *out, bool known, double v)
{
    if (known)
        json_double(out, v);
    else
        fputs("null", out);
}

/* The figures of a steady window: its ops and their latencies (those
 * only when it was steady: a window that was not is never a sample of a
 * steady disk). */
static void emit_window_figures(FILE *out, const struct diskio_run *run,
                                const struct diskio_steady_state *st)
{
    struct diskio_hist *h = NULL;
    struct part_summary sum = {0};
    if (st->count && run->series && diskio_hist_new(&h) == 0) {
        (void)steady_window_hist(run, st, h);
        sum.present = st->attained;
        sum.count = diskio_hist_count(h);
        sum.min_ns = diskio_hist_min(h);
        sum.max_ns = diskio_hist_max(h);
        sum.mean_ns = diskio_hist_mean(h);
        sum.stddev_ns = diskio_hist_stddev(h);
        diskio_hist_percentiles(h, summary_pcts, sum.pct_ns, SUMMARY_PCTS);
        diskio_hist_free(h);
    }
    const uint64_t duration = st->count ? st->end_ns - st->start_ns : 0;
    const double seconds = (double)duration / 1e9;
    fprintf(out, ",\n          \"ops\": %" PRIu64 ", \"duration_ns\": %" PRIu64 ", \"ops_per_s\": ",
            sum.count, duration);
    json_if(out, seconds > 0, (double)sum.count / seconds);
    fputs(", \"mb_per_s\": ", out);
    json_if(out, seconds > 0,
            (double)sum.count * (double)run->info.config.block_size / 1e6 / seconds);
    fputs(", \"latency\": ", out);
    emit_summary(out, &sum);
}

/* One repetition's steady window (diskio_run_steady()). */
static void emit_window(FILE *out, const struct diskio_run *run,
                        const struct diskio_steady_state *st, size_t rep)
{
    const bool any = st->count > 0, trend = st->slope_per_min == st->slope_per_min;
    fprintf(out, "%s\n        {\"repetition\": %zu, \"attained\": %s, \"first_interval\": ",
            rep ? "," : "", rep + 1, st->attained ? "true" : "false");
    if (any)
        fprintf(out,
                "%zu, \"intervals\": %zu, \"judged\": %zu, \"start_ns\": %" PRIu64
                ", \"end_ns\": %" PRIu64,
                st->first, st->count, st->judged, st->start_ns, st->end_ns);
    else
        fprintf(out,
                "null, \"intervals\": 0, \"judged\": %zu, \"start_ns\": null, "
                "\"end_ns\": null",
                st->judged);
    fputs(",\n          \"average\": ", out);
    json_if(out, st->average == st->average, st->average);
    fputs(", \"range_pct\": ", out);
    json_if(out, st->range_pct == st->range_pct, st->range_pct);
    fputs(", \"slope_pct\": ", out);
    json_if(out, st->slope_pct == st->slope_pct, st->slope_pct);
    fputs(", \"trend\": ", out);
    json_string(out, !trend                  ? NULL
                     : st->slope_per_min > 0 ? "rising"
                     : st->slope_per_min < 0 ? "falling"
                                             : "flat");
    fputs(", \"trend_per_min\": ", out);
    json_if(out, trend, st->slope_per_min);
    fputs(", \"trend_pct_per_min\": ", out);
    json_if(out, trend && st->average > 0, 100.0 * st->slope_per_min / st->average);
    emit_window_figures(out, run, st);
    fputc('}', out);
}

/* diskio --steady (config.steady): the spec and each repetition's
 * window; null for a run made without it. */
static void emit_steady(FILE *out, const struct diskio_run *run)
{
    const struct run_steady *rs = &run->steady;
    if (!rs->on) {
        fputs("null", out);
        return;
    }
    bool all = rs->nstates > 0;
    for (size_t i = 0; i < rs->nstates; i++)
        all = all && rs->states[i].attained;
    fputs("{\"metric\": ", out);
    json_string(out, diskio_steady_metric_name(rs->spec.metric));
    fprintf(out, ", \"window\": %u, \"range_limit_pct\": ", rs->spec.window);
    json_double(out, rs->spec.range_pct);
    fputs(", \"slope_limit_pct\": ", out);
    json_double(out, rs->spec.slope_pct);
    fprintf(out,
            ", \"ramp_ns\": %" PRIu64 ", \"interval_ns\": %" PRIu64
            ", \"attained\": %s,\n        \"windows\": [",
            rs->spec.ramp_ns, rs->interval_ns, all ? "true" : "false");
    for (size_t i = 0; i < rs->nstates; i++)
        emit_window(out, run, &rs->states[i], i);
    fputs("]}", out);
}

/* One step of a capacity search (diskio_run_capacity_step()). */
static void emit_capacity_step(FILE *out, const struct diskio_capacity_step *st, size_t i)
{
    fprintf(out, "%s\n        {\"step\": %zu, \"phase\": ", i ? "," : "", i);
    json_string(out, diskio_capacity_phase_name(st->phase));
    fprintf(out, ", \"committers\": %u, \"offered_ops_per_s\": ", st->committers);
    json_if(out, st->offered_ops_per_s > 0, st->offered_ops_per_s);
    fputs(", \"achieved_ops_per_s\": ", out);
    json_double(out, st->achieved_ops_per_s);
    fprintf(out, ", \"ops\": %" PRIu64 ", \"duration_ns\": %" PRIu64 ",\n         \"mean_ns\": ",
            st->ops, st->duration_ns);
    json_if(out, st->ops > 0, st->mean_ns);
    fprintf(out,
            ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"pct_ns\": %" PRIu64
            ", \"max_ns\": %" PRIu64 ", \"met\": %s, \"rate_held\": %s, \"error\": ",
            st->p50_ns, st->p99_ns, st->pct_ns, st->max_ns, st->met ? "true" : "false",
            st->rate_held ? "true" : "false");
    json_string(out, st->error ? diskio_strerror(st->error) : NULL);
    fputc('}', out);
}

/* diskio --target (diskio_capacity_search()): the answer and every step
 * measured on the way (the latency-versus-offered-rate curve); null for
 * a run made without it. */
static void emit_capacity(FILE *out, const struct diskio_run *run)
{
    struct diskio_capacity c;
    if (diskio_run_capacity(run, &c) != 0) {
        fputs("null", out);
        return;
    }
    fputs("{\"percentile\": ", out);
    json_double(out, c.percentile);
    fprintf(out, ", \"target_ns\": %" PRIu64 ", \"found\": %s, \"confirmed\": %s, \"ops_per_s\": ",
            c.target_ns, c.found ? "true" : "false", c.confirmed ? "true" : "false");
    json_if(out, c.found, c.ops_per_s);
    fputs(", \"high_ops_per_s\": ", out);
    json_if(out, c.high_ops_per_s > 0, c.high_ops_per_s);
    fprintf(out,
            ", \"committers\": %u,\n        \"budget_ns\": %" PRIu64 ", \"duration_ns\": %" PRIu64
            ", \"steps\": [",
            c.committers, c.budget_ns, c.duration_ns);
    for (size_t i = 0; i < c.nsteps; i++)
        emit_capacity_step(out, diskio_run_capacity_step(run, i), i);
    fputs("]}", out);
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
    if (has && info->config.pattern == DISKIO_PATTERN_WAL) {
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
    if (has && info->config.pattern == DISKIO_PATTERN_CHECKPOINT) {
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

static void emit_run(FILE *out, const struct diskio_result *res, const struct diskio_run *run,
                     uint64_t origin_ns)
{
    const struct diskio_run_info *info = &run->info;
    fputs("    {\n      \"mode\": ", out);
    json_string(out, info->name);
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
    emit_run_params(out, run);
    /* a run stops at its first error, so errors is 0 or 1 */
    fprintf(out, ",\n      \"complete\": %s,\n      \"errors\": %d,\n      \"error\": ",
            info->complete ? "true" : "false", info->error ? 1 : 0);
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
    double seconds = (double)info->duration_ns / 1e9;
    fprintf(out,
            ",\n      \"ops\": %" PRIu64 ",\n      \"bytes\": %" PRIu64
            ",\n      \"duration_ns\": %" PRIu64 ",\n      \"ops_per_s\": ",
            info->ops, info->bytes, info->duration_ns);
    json_double(out, seconds > 0 ? (double)info->ops / seconds : 0.0);
    fputs(",\n      \"mb_per_s\": ", out);
    json_double(out, seconds > 0 ? (double)info->bytes / 1e6 / seconds : 0.0);
    emit_run_jobs(out, run);
    emit_run_pattern(out, run);
    fputs(",\n      \"rate\": ", out);
    if (info->has_config && info->config.rate_interval_ns) {
        fputs("{\"requested_ops_per_s\": ", out);
        json_double(out, 1e9 / (double)info->config.rate_interval_ns);
        fputs(", \"achieved_ops_per_s\": ", out);
        json_double(out, seconds > 0 ? (double)info->ops / seconds : 0.0);
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
    emit_run_interference(out, run);
    fputs(",\n      \"repetitions\": ", out);
    emit_repetitions(out, run, origin_ns);
    fputs(",\n      \"intervals\": ", out);
    emit_intervals(out, run);
    fputs(",\n      \"steady\": ", out);
    emit_steady(out, run);
    fputs(",\n      \"capacity\": ", out);
    emit_capacity(out, run);
    fputs(",\n      \"latency\": {\n        \"total\": ", out);
    emit_hist(out, res, run->hist[DISKIO_PART_TOTAL]);
    fputs(",\n        \"write\": ", out);
    emit_hist(out, res, run->hist[DISKIO_PART_WRITE]);
    fputs(",\n        \"sync\": ", out);
    emit_hist(out, res, run->hist[DISKIO_PART_SYNC]);
    fputs(",\n        \"service\": ", out);
    emit_hist(out, res, run->hist[DISKIO_PART_SERVICE]);
    fputs(",\n        \"switch\": ", out);
    emit_hist(out, res, run->hist[DISKIO_PART_SWITCH]);
    fputs("\n      }", out);
    emit_run_device(out, run);
    emit_run_direct(out, run);
    fputs("\n    }", out);
}

/* diskio --precondition (diskio_result_set_precondition()): what was
 * written before the runs, or null. */
static void emit_precondition(FILE *out, const struct diskio_result *res)
{
    const struct diskio_precondition *p = &res->precondition;
    fputs("  \"precondition\": ", out);
    if (!res->preconditioned) {
        fputs("null,\n", out);
        return;
    }
    const double seconds = (double)p->duration_ns / 1e9;
    fprintf(out,
            "{\"passes\": %u, \"block_size\": %" PRIu64 ", \"bytes\": %" PRIu64
            ", \"written\": %" PRIu64
            ", \"direct\": %s, \"complete\": %s, \"duration_ns\": %" PRIu64 ", \"mb_per_s\": ",
            p->passes, p->block_size, p->bytes, p->written, p->direct ? "true" : "false",
            p->complete ? "true" : "false", p->duration_ns);
    json_if(out, seconds > 0, (double)p->written / 1e6 / seconds);
    fputs("},\n", out);
}

/* diskio --suite: the suite and its rows, each naming its run by index */
static void emit_suite(FILE *out, const struct diskio_result *res)
{
    fputs(",\n  \"suite\": {\"name\": ", out);
    json_string(out, res->suite_name);
    fputs(", \"title\": ", out);
    json_string(out, res->suite_title);
    fputs(", \"summary\": ", out);
    json_string(out, res->suite_summary);
    fputs(",\n    \"rows\": [", out);
    for (size_t i = 0; i < res->suite_nrows; i++) {
        const struct diskio_suite_row *row = &res->suite_rows[i];
        fputs(i ? ",\n      {\"label\": " : "\n      {\"label\": ", out);
        json_string(out, row->label);
        fputs(", \"column\": ", out);
        json_string(out, row->column);
        if (row->run < res->nruns)
            fprintf(out, ", \"run\": %zu", row->run);
        else
            fputs(", \"run\": null", out);
        fputs(", \"note\": ", out);
        json_string(out, row->note);
        fputs("}", out);
    }
    fputs(res->suite_nrows ? "\n    ]}" : "]}", out);
}

int emit_json(const struct diskio_result *res, FILE *out)
{
    fprintf(out,
            "{\n  \"schema\": \"diskio-result\",\n  \"schema_version\": %d,\n"
            "  \"tool\": {\"name\": \"diskio\", \"version\": \"%s\"},\n  \"label\": ",
            DISKIO_SCHEMA_VERSION, diskio_version());
    json_string(out, res->label);
    fprintf(out, ",\n  \"start_time\": \"%s\",\n  \"complete\": %s,\n", res->start_time,
            diskio_result_complete(res) ? "true" : "false");
    emit_environment(out, res->env);
    emit_precondition(out, res);
    /* the earliest start of a measured run: the runs' repetitions are
     * placed in time from there */
    uint64_t origin_ns = UINT64_MAX;
    for (size_t i = 0; i < res->nruns; i++) {
        uint64_t start_ns = res->runs[i]->info.start_ns;
        if (start_ns && start_ns < origin_ns)
            origin_ns = start_ns;
    }
    fputs("  \"runs\": [\n", out);
    for (size_t i = 0; i < res->nruns; i++) {
        emit_run(out, res, res->runs[i], origin_ns);
        fputs(i + 1 < res->nruns ? ",\n" : "\n", out);
    }
    fputs("  ]", out);
    if (res->suite_name)
        emit_suite(out, res);
    fputs("\n}\n", out);
    return 0;
}
