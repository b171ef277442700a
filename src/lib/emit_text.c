/* SPDX-License-Identifier: MIT */
/* The comparison table a person reads at a glance (like pg_test_fsync,
 * with percentiles). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"
#include "steady.h"

/* Three significant digits with a unit that fits: 812 ns, 2.41 us, 1.23 ms. */
static const char *format_ns(char *buf, size_t size, double ns)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1.0, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s "}};
    int u = 0;
    while (u < 3 && ns >= units[u + 1].scale)
        u++;
    double v = ns / units[u].scale;
    int decimals = u == 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
    snprintf(buf, size, "%.*f %s", decimals, v, units[u].unit);
    return buf;
}

static const char *format_size(char *buf, size_t size, uint64_t bytes)
{
    if (bytes % (UINT64_C(1) << 20) == 0)
        snprintf(buf, size, "%" PRIu64 " MiB", bytes >> 20);
    else if (bytes % 1024 == 0)
        snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
    else
        snprintf(buf, size, "%" PRIu64 " B", bytes);
    return buf;
}

/* A name, label or path as display_write() shows it: no byte of it can
 * move the cursor, change colours or retitle the terminal. */
static size_t show(FILE *out, const char *s)
{
    return display_write(out, s, false);
}

/* the mode column's least width; a wider row label widens it for the
 * whole table (emit_text) */
#define NAME_WIDTH 14

/* The device column's heading; a row's figures are padded to its width
 * (in display columns: the dot is one) before its request times. */
#define DEVICE_HEADING "dev I/O/op \xc2\xb7 flush/op"
#define DEVICE_HEADING_COLUMNS 21
#define DEVICE_TIME_HEADING "us/I/O \xc2\xb7 us/flush"

/* A request's mean time (us) for the device column; "-" when unknown. */
static void format_request_us(char *buf, size_t size, double us)
{
    if (us != us)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, us < 10.0 ? "%.1f" : "%.0f", us);
}

/* Flushes per op: two decimals, or, for fewer than one in a hundred ops
 * (a flush every few hundred writes: --sync-every, a journal's commit),
 * two significant digits ("0.0039"), so that a per-flush time beside it
 * never stands next to a count that reads 0.00. */
static void format_flushes_per_op(char *buf, size_t size, double v)
{
    int decimals = 2;
    if (v > 0.0 && v < 0.01)
        for (double shown = v * 100.0; decimals < 9 && shown < 10.0; decimals++)
            shown *= 10.0;
    snprintf(buf, size, "%.*f", decimals, v);
}

/* "1.07 · 1.00    179 · 240": device write requests and flushes per op,
 * from the devices the filesystem sits on ("-" where the kernel does not
 * count flushes), then the devices' own mean time per write and per
 * flush request, from its start to its completion, in us ("-" where
 * unknown: fewer than 20 ms of them).  Empty when the run has no device
 * figures. */
static const char *format_device(char *buf, size_t size, const struct diskio_run *run)
{
    size_t n = diskio_run_device_count(run);
    buf[0] = '\0';
    if (n == 0)
        return buf;
    struct devstat_figures f;
    devstat_figures(diskio_run_device_io(run, n), run->info.ops, &f);
    if (run->info.ops == 0)
        return buf;
    char flushes[16] = "-";
    if (f.flushes_per_op == f.flushes_per_op)
        format_flushes_per_op(flushes, sizeof(flushes), f.flushes_per_op);
    /* a read mode: device read requests per op */
    const bool reads = run->info.has_config && diskio_mode_is_read(run->info.config.mode);
    int used = snprintf(buf, size, "%.2f%s \xc2\xb7 %s", reads ? f.reads_per_op : f.writes_per_op,
                        reads ? "r" : "", flushes);
    char request[16], flush[16];
    format_request_us(request, sizeof(request), reads ? f.us_per_read : f.us_per_write);
    format_request_us(flush, sizeof(flush), f.us_per_flush);
    /* the dot is two bytes and one column */
    const int pad = DEVICE_HEADING_COLUMNS - (used - 1);
    if (used > 0 && (size_t)used < size)
        snprintf(buf + used, size - (size_t)used, "%*s  %s%s \xc2\xb7 %s", pad > 0 ? pad : 0, "",
                 request, reads ? "r" : "", flush);
    return buf;
}

static bool any_device(const struct diskio_result *res)
{
    for (size_t r = 0; r < res->nruns; r++)
        if (diskio_run_device_count(res->runs[r]) > 0)
            return true;
    return false;
}

/* format_ns() without the padding of "s " (for prose, not columns). */
static const char *format_ns_word(char *buf, size_t size, double ns)
{
    format_ns(buf, size, ns);
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] == ' ')
        buf[n - 1] = '\0';
    return buf;
}

/* A run's interval series in one line under its row: the range of the
 * intervals' throughput and p99, the worst max and when, and how many
 * intervals had no op complete (a stall).  The series itself is in the
 * JSON result and the intervals CSV. */
static void interval_line(FILE *out, const struct diskio_run *run)
{
    const size_t n = diskio_run_interval_count(run);
    double ops_lo = 0, ops_hi = 0;
    uint64_t p99_lo = UINT64_MAX, p99_hi = 0, worst = 0, worst_at = 0;
    size_t empty = 0;
    for (size_t i = 0; i < n; i++) {
        const struct diskio_interval *iv = diskio_run_interval(run, i);
        double rate = iv->duration_ns ? (double)iv->ops * 1e9 / (double)iv->duration_ns : 0.0;
        ops_lo = i == 0 || rate < ops_lo ? rate : ops_lo;
        ops_hi = rate > ops_hi ? rate : ops_hi;
        if (iv->ops == 0) {
            empty++;
            continue;
        }
        p99_lo = iv->p99_ns < p99_lo ? iv->p99_ns : p99_lo;
        p99_hi = iv->p99_ns > p99_hi ? iv->p99_ns : p99_hi;
        if (iv->max_ns > worst) {
            worst = iv->max_ns;
            worst_at = iv->start_ns;
        }
    }
    fprintf(out, "  ^ %zu intervals of %.3g s: ops/s %.1f to %.1f", n,
            (double)run->series->interval_ns / 1e9, ops_lo, ops_hi);
    if (p99_hi > 0) {
        char lo[32], hi[32], mx[32];
        fprintf(out, ", p99 %s to %s, max %s in the interval at %.3g s",
                format_ns_word(lo, sizeof(lo), (double)p99_lo),
                format_ns_word(hi, sizeof(hi), (double)p99_hi),
                format_ns_word(mx, sizeof(mx), (double)worst), (double)worst_at / 1e9);
    }
    if (empty > 0)
        fprintf(out, "; %zu with no op completed", empty);
    fputc('\n', out);
}

static void run_qualifier(const struct diskio_run *run, char *qual, size_t size);

/* What tells a run apart in a verdict line beside its mode, in the order
 * its row in the table shows it: its qualifiers, then its block size
 * (" qd8 1 MiB", " rand 4 KiB", " ×4 jobs 8 KiB"). */
static void run_suffix(const struct diskio_run *run, char *buf, size_t size)
{
    char bs[24] = "", qual[96];
    buf[0] = '\0';
    if (!run->info.has_config)
        return;
    run_qualifier(run, qual, sizeof(qual));
    format_size(bs, sizeof(bs), run->info.config.block_size);
    snprintf(buf, size, "%s%s%s", qual, bs[0] ? " " : "", bs);
}

/* The runs a verdict holds for: "fsync, fdatasync and osync 8 KiB" when
 * they agree on what tells them apart, else "fsync 8 KiB, fsync 64 KiB". */
static void verdict_runs(FILE *out, const struct diskio_result *res, unsigned bit)
{
    char first[128] = "", suffix[128];
    bool same = true, any = false;
    size_t count = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        if (!(res->runs[r]->verdicts & bit))
            continue;
        run_suffix(res->runs[r], suffix, sizeof(suffix));
        if (!any)
            snprintf(first, sizeof(first), "%s", suffix);
        same = same && strcmp(first, suffix) == 0;
        any = true;
        count++;
    }
    size_t k = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        if (!(run->verdicts & bit))
            continue;
        if (k > 0)
            fputs(same && k + 1 == count ? " and " : ", ", out);
        show(out, run->info.name);
        if (!same) {
            run_suffix(run, suffix, sizeof(suffix));
            show(out, suffix);
        }
        k++;
    }
    if (same)
        show(out, first);
}

/* The environment probe's word on a device, or NULL. */
static const struct devstat_dev *probed_device(const struct diskio_result *res, const char *name)
{
    const struct devstat_set *set = res->env ? env_devices(res->env) : NULL;
    for (size_t i = 0; set && i < set->n; i++)
        if (strcmp(set->dev[i].name, name) == 0)
            return &set->dev[i];
    return NULL;
}

/* The devices a verdict is about, once each, for its line: for cache_ack
 * the rotational leaves and where their rotational flag comes from (a
 * loop device's is the loop driver's, a virtual disk's the hypervisor's
 * default: neither is a medium's); for backing_cached the loop (stacked)
 * devices and the disks under them. */
static void verdict_devices(FILE *out, const struct diskio_result *res, unsigned bit)
{
    const char *seen[DEVSTAT_MAX * 2];
    size_t nseen = 0;
    bool opened = false;
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        if (!(run->verdicts & bit))
            continue;
        for (size_t i = 0; i < run->ndevices; i++) {
            const struct diskio_device_io *d = &run->devices[i];
            const struct devstat_dev *probed = probed_device(res, d->name);
            bool in_memory = probed && probed->memory_backed;
            bool wanted =
                bit == DISKIO_VERDICT_CACHE_ACK
                    ? d->leaf && d->rotational
                    : (d->depth == 0 && (!d->leaf || in_memory)) || (d->depth > 0 && d->leaf);
            bool dup = false;
            for (size_t s = 0; s < nseen && !dup; s++)
                dup = strcmp(seen[s], d->name) == 0;
            if (!wanted || dup || nseen == sizeof(seen) / sizeof(seen[0]))
                continue;
            seen[nseen++] = d->name;
            fputs(opened ? "; " : " (", out);
            opened = true;
            show(out, d->name);
            const char *kind = probed ? probed->virtual_kind : "";
            if (bit == DISKIO_VERDICT_BACKING_CACHED) {
                fputs(in_memory       ? ": its backing file in tmpfs"
                      : d->depth == 0 ? ": the loop device"
                                      : ": the disk under it",
                      out);
            } else if (strcmp(kind, "loop") == 0) {
                fputs(" is a loop device: its rotational flag is the loop driver's, not a disk's",
                      out);
            } else if (kind[0]) {
                fputs(" is a virtual disk (", out);
                show(out, kind);
                fputs("): its rotational flag is the hypervisor's default, not the medium's", out);
            } else {
                fputs(" says it is rotational", out);
            }
        }
    }
    if (opened)
        fputc(')', out);
}

/* The verdicts of every run, under the table: one line per verdict,
 * naming the runs it holds for (a default run on a virtual disk has
 * five syncing modes alike) and, where it helps, the devices. */
static void verdict_lines(FILE *out, const struct diskio_result *res)
{
    bool first = true;
    for (unsigned bit = 1; bit != 0 && bit <= DEVSTAT_VERDICT_LAST; bit <<= 1) {
        /* not_direct: under each run's row, with that run's evidence */
        if (bit == DISKIO_VERDICT_NOT_DIRECT)
            continue;
        bool any = false;
        for (size_t r = 0; r < res->nruns && !any; r++)
            any = (res->runs[r]->verdicts & bit) != 0;
        if (!any)
            continue;
        if (first)
            fputc('\n', out);
        first = false;
        verdict_runs(out, res, bit);
        fprintf(out, ": %s", diskio_verdict_text((enum diskio_verdict)bit));
        if (bit == DISKIO_VERDICT_CACHE_ACK || bit == DISKIO_VERDICT_BACKING_CACHED)
            verdict_devices(out, res, bit);
        fputc('\n', out);
    }
}

/* The table's percentiles, and which of them some row can only show as
 * its max: for too few values (1000 for p99.9) the nearest rank is the
 * largest value, and the cell says so with a '*' and a note. */
struct table_cols {
    const double *pcts;
    size_t npcts;
    bool limited[DISKIO_PERCENTILES_MAX]; /* some row marks this one */
    bool marks;                           /* any: every cell keeps room for the mark */
    size_t name_width;                    /* the mode column: the widest row label */
};

static bool pct_limited(const struct diskio_hist *h, double pct)
{
    uint64_t count = diskio_hist_count(h);
    return count > 0 && pct < 100.0 && count < hist_pct_min_count(pct);
}

static void note_limited(struct table_cols *cols, const struct diskio_hist *h)
{
    for (size_t i = 0; h && i < cols->npcts; i++)
        if (pct_limited(h, cols->pcts[i]))
            cols->limited[i] = cols->marks = true;
}

/* "10.4", "812", "0.08": three significant digits or the whole number. */
static const char *format_rate(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.*f", v < 10 ? 2 : v < 100 ? 1 : 0, v);
    return buf;
}

/* What sets a run apart from its mode's default, so that rows of a sweep
 * or of several files can be told apart: "/8", " qd32 rand", " ×4 jobs". */
static void run_qualifier(const struct diskio_run *run, char *qual, size_t size)
{
    const struct diskio_run_info *info = &run->info;
    qual[0] = '\0';
    if (info->has_config) {
        const struct diskio_config *c = &info->config;
        size_t n = 0;
        if (c->sync_every > 1)
            n += (size_t)snprintf(qual + n, size - n, "/%u", c->sync_every);
        if (c->iodepth > 1 && n < size)
            n += (size_t)snprintf(qual + n, size - n, " qd%u", c->iodepth);
        if (c->batch > 1 && n < size)
            n += (size_t)snprintf(qual + n, size - n, " batch%u", c->batch);
        const char *pattern = diskio_pattern_name(c->pattern);
        if (c->pattern != DISKIO_PATTERN_SEQ && pattern && n < size)
            n += (size_t)snprintf(qual + n, size - n, " %s", pattern);
        /* reads that write blocks back: "read wb100%" */
        if (c->write_back && n < size)
            n += (size_t)snprintf(qual + n, size - n, " wb%u%%", c->write_back);
        /* concurrent writers: "fdatasync ×4 jobs", "×4 jobs 1 file" */
        if (c->jobs > 1 && n < size)
            snprintf(qual + n, size - n, " \xc3\x97%u jobs%s", c->jobs,
                     c->shared_file ? " 1 file" : "");
    } else if (run->njobs > 1) {
        snprintf(qual, size, " \xc3\x97%zu threads", run->njobs);
    }
}

/* A table row: name (a mode, or a custom run's name, shown safely) and
 * the qualifiers emit_text() wrote itself (qual: "/8", " qd32", " rand",
 * or "") padded to the mode column's width, then the figures: ops (the part's count),
 * rate and throughput (empty for the parts), mean, the percentiles, max. */
static void row(FILE *out, const struct table_cols *cols, const char *name, const char *qual,
                const char *bs, const char *rate, const char *throughput,
                const struct diskio_hist *h, const char *device, const char *marks)
{
    char mean[32], max[32], cell[32];
    uint64_t v[DISKIO_PERCENTILES_MAX];
    diskio_hist_percentiles(h, cols->pcts, v, cols->npcts);
    show(out, name);
    fputs(qual, out);
    /* columns, not bytes: the qualifier holds a U+00D7, a name may hold
     * any character */
    const size_t width = display_columns(name) + display_columns(qual);
    fprintf(out, "%*s %8s %10" PRIu64 " %12s %10s %10s",
            width < cols->name_width ? (int)(cols->name_width - width) : 0, "", bs,
            diskio_hist_count(h), rate, throughput,
            format_ns(mean, sizeof(mean), diskio_hist_mean(h)));
    for (size_t i = 0; i < cols->npcts; i++) {
        fprintf(out, " %10s", format_ns(cell, sizeof(cell), (double)v[i]));
        if (cols->marks)
            fputc(pct_limited(h, cols->pcts[i]) ? '*' : ' ', out);
    }
    fprintf(out, " %10s", format_ns(max, sizeof(max), (double)diskio_hist_max(h)));
    if (device && device[0])
        fprintf(out, "  %s", device);
    /* "  ! not direct  ! disturbed": the lines under the row say why */
    if (marks)
        fputs(marks, out);
    fputc('\n', out);
}

/* "  ! not direct: the filesystem buffered these writes (statx: no
 * direct I/O for this file, dio alignment 0)": the run's own evidence,
 * under its row (the verdict's line under the table would say less). */
static void not_direct_line(FILE *out, const struct diskio_run *run)
{
    const bool reads = run->info.has_config && diskio_mode_is_read(run->info.config.mode);
    fprintf(out, "  ! not direct: the filesystem buffered these %s (", reads ? "reads" : "writes");
    show(out, run->direct.evidence);
    fputs(")\n", out);
}

/* Whether a run (any of its repetitions) was disturbed. */
static bool run_disturbed(const struct diskio_run *run)
{
    if (!run->nreps)
        return run->ifr.nreasons > 0;
    for (size_t r = 0; r < run->nreps; r++)
        if (run->reps[r].ifr.nreasons)
            return true;
    return false;
}

/* "  ! disturbed in 2 of 5 repetitions: other processes used 1.96 CPUs
 * (threshold 1.70); ...": each reason once, with its largest figure. */
static void disturbed_line(FILE *out, const struct diskio_run *run)
{
    struct ifr_reason worst[IFR_KIND_COUNT];
    bool seen[IFR_KIND_COUNT] = {false};
    size_t n = run->nreps ? run->nreps : 1, disturbed = 0;
    for (size_t r = 0; r < n; r++) {
        const struct interference *f = run->nreps ? &run->reps[r].ifr : &run->ifr;
        disturbed += f->nreasons > 0;
        for (size_t i = 0; i < f->nreasons; i++) {
            const struct ifr_reason *why = &f->reasons[i];
            if (!seen[why->kind] || why->figure > worst[why->kind].figure)
                worst[why->kind] = *why;
            seen[why->kind] = true;
        }
    }
    if (run->nreps)
        fprintf(out, "  ! disturbed in %zu of %zu repetitions:", disturbed, n);
    else
        fputs("  ! disturbed:", out);
    char text[IFR_TEXT_MAX];
    const char *sep = " ";
    for (int k = 0; k < IFR_KIND_COUNT; k++) {
        if (!seen[k])
            continue;
        fputs(sep, out);
        show(out, ifr_reason_text(&worst[k], text, sizeof(text)));
        sep = "; ";
    }
    fputc('\n', out);
}

/* "  ^ other CPUs unknown in 3 of 5 repetitions (shorter than the 30 ms
 * /proc/stat resolves): CPU pressure alone judged them": a figure the
 * rule needed was not invented, and the reader is told. */
static void unjudged_line(FILE *out, const struct diskio_run *run)
{
    size_t n = run->nreps ? run->nreps : 1, unjudged = 0;
    double resolution = 0.0;
    for (size_t r = 0; r < n; r++) {
        const struct interference *f = run->nreps ? &run->reps[r].ifr : &run->ifr;
        if (ifr_cpu_unjudged(f)) {
            unjudged++;
            resolution = f->stat_resolution_s;
        }
    }
    if (!unjudged)
        return;
    fprintf(out, "  ^ other CPUs unknown in %zu of %zu repetitions", unjudged, n);
    if (resolution > 0)
        fprintf(out, " (shorter than the %.0f ms /proc/stat resolves)", resolution * 1e3);
    fputs(": CPU pressure alone judged them\n", out);
}

/* The wal and checkpoint patterns: what the run did, under its rows. */
static void pattern_line(FILE *out, const struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    if (!info->has_config)
        return;
    const struct diskio_config *c = &info->config;
    if (c->pattern == DISKIO_PATTERN_WAL) {
        const struct diskio_wal_counts *w = &info->wal;
        const uint64_t durable = w->syncs                          ? w->syncs
                                 : diskio_mode_is_durable(c->mode) ? w->writes
                                                                   : 0;
        fprintf(out,
                "  ^ wal: %" PRIu64 " commits of %" PRIu64 " bytes, %.3f %s per commit, %" PRIu64
                " pages written (%" PRIu64 " rewrites), %" PRIu64 " segment switches (%s, %" PRIu64
                " MiB)\n",
                w->commits, c->wal_bytes, w->commits ? (double)durable / (double)w->commits : 0.0,
                w->syncs ? "syncs" : "synced writes", w->pages, w->page_rewrites,
                w->segment_switches, c->wal_recycle ? "recycled" : "created",
                c->wal_segment_size >> 20);
    } else if (c->pattern == DISKIO_PATTERN_CHECKPOINT) {
        const struct diskio_checkpoint_counts *k = &info->checkpoint;
        fprintf(out,
                "  ^ checkpoint: %" PRIu64 " checkpoints of %" PRIu64
                " pages over %u files, %" PRIu64 " file syncs, %" PRIu64 " writeback hints\n",
                k->checkpoints, c->checkpoint_pages, c->checkpoint_files, k->file_syncs,
                k->writebacks);
    }
}

/* The target's device: its name, whether it rotates, its write cache and
 * scheduler. */
static void text_device(FILE *out, const struct env *env)
{
    const char *dev = env_get(env, "target.device.name");
    if (!dev)
        return;
    const char *rot = env_get(env, "target.device.rotational");
    const char *cache = env_get(env, "target.device.write_cache");
    const char *sched = env_get(env, "target.device.scheduler");
    fputs(" on ", out);
    show(out, dev);
    fprintf(out, " (%s", rot ? (strcmp(rot, "0") == 0 ? "non-rotational" : "rotational") : "?");
    if (cache) {
        fputs(", ", out);
        show(out, cache);
        fputs(" cache", out);
    }
    if (sched) {
        fputs(", scheduler ", out);
        show(out, sched);
    }
    fputc(')', out);
}

/* What is under the target's filesystem: a loop device's backing file,
 * an overlay's upper layer, and the devices of a filesystem that has no
 * one device of its own (btrfs over several, md/dm members). */
static void text_layers(FILE *out, const struct env *env)
{
    const struct devstat_set *set = env_devices(env);
    if (!env_get(env, "target.device.name") && set && set->n > 0) {
        for (unsigned depth = 0, shown = 1; shown; depth++) {
            shown = 0;
            for (size_t i = 0; i < set->n; i++) {
                if (set->dev[i].depth != depth)
                    continue;
                fputs(shown++ ? ", " : depth ? "  under them " : "  on devices ", out);
                show(out, set->dev[i].name);
            }
            if (shown)
                fputc('\n', out);
        }
    }
    const char *backing = env_get(env, "target.loop.backing_file");
    if (backing) {
        const char *fs = env_get(env, "target.loop.backing_filesystem");
        const char *disk = env_get(env, "target.loop.backing_device");
        fprintf(out, "  loop device over %s (%s%s%s)\n", backing, fs ? fs : "unknown filesystem",
                disk ? " on " : "", disk ? disk : "");
    }
    const char *upper = env_get(env, "target.overlay.upperdir");
    if (upper) {
        const char *fs = env_get(env, "target.overlay.upper_filesystem");
        fprintf(out, "  overlay writing to %s (%s)\n", upper, fs ? fs : "unknown filesystem");
    }
}

/* "a wake-up on another CPU takes 24.8 us (cpuidle haltpoll)": part of
 * every sync's latency that is the machine's, not the storage's. */
static void text_wakeup(FILE *out, const struct env *env)
{
    const char *wakeup = env_get(env, "cpu.wakeup_ns");
    const char *driver = env_get(env, "cpu.idle_driver");
    if (!wakeup)
        return;
    fprintf(out, "a wake-up on another CPU takes %.1f us", strtod(wakeup, NULL) / 1000.0);
    if (driver) {
        fputs(" (cpuidle ", out);
        show(out, driver);
        fputc(')', out);
    }
    fputc('\n', out);
}

/* The lines above the table: the version, label and host, the target's
 * filesystem and device (and what is under them), the timer. */
/* diskio --precondition: what was written before the runs. */
static void text_precondition(FILE *out, const struct diskio_result *res)
{
    const struct diskio_precondition *p = &res->precondition;
    if (!res->preconditioned)
        return;
    char size[32], block[32];
    format_size(size, sizeof(size), p->bytes);
    format_size(block, sizeof(block), p->block_size);
    const double seconds = (double)p->duration_ns / 1e9;
    char times[24] = "twice";
    if (p->passes != 2)
        snprintf(times, sizeof(times), "%u times", p->passes);
    fprintf(out, "preconditioned: %s written %s sequentially in %s writes%s, %.3g s", size, times,
            block, p->direct ? " (O_DIRECT)" : "", seconds);
    if (seconds > 0)
        fprintf(out, " (%.1f MB/s)", (double)p->written / 1e6 / seconds);
    fputs(p->complete ? "\n" : "; INCOMPLETE: stopped before its end\n", out);
}

static void text_header(FILE *out, const struct diskio_result *res)
{
    const struct env *env = res->env;
    fprintf(out, "diskio %s", diskio_version());
    if (res->label) {
        fputs("  label ", out);
        show(out, res->label);
    }
    const char *host = env_get(env, "hostname"), *kernel = env_get(env, "kernel.release");
    if (host) {
        fputs("  on ", out);
        show(out, host);
    }
    if (kernel) {
        fputs(" (Linux ", out);
        show(out, kernel);
        fputc(')', out);
    }
    fputc('\n', out);
    const char *dir = env_get(env, "target.directory");
    if (dir) {
        const char *fs = env_get(env, "target.filesystem");
        fputs("target ", out);
        show(out, dir);
        fputs(": ", out);
        show(out, fs ? fs : "unknown filesystem");
        const char *journal = env_get(env, "target.ext4.journal");
        const char *data = env_get(env, "target.ext4.data_mode");
        if (journal)
            fprintf(out, strcmp(journal, "0") == 0 ? " (no journal)" : " (journal, data=%s)",
                    data ? data : "?");
        text_device(out, env);
        fputc('\n', out);
        text_layers(out, env);
    }
    const char *overhead = env_get(env, "timer.overhead_ns");
    const char *clocksource = env_get(env, "timer.clocksource");
    if (overhead) {
        fputs("timer overhead ", out);
        show(out, overhead);
        fputs(" ns per clock read", out);
        if (clocksource) {
            fputs(" (clocksource ", out);
            show(out, clocksource);
            fputc(')', out);
        }
        fputc('\n', out);
    }
    text_wakeup(out, env);
    text_precondition(out, res);
    fputc('\n', out);
}

/* The table's columns: its percentiles, which of them some row can only
 * mark, the width of the mode column; and its heading. */
static void text_columns(FILE *out, const struct diskio_result *res, bool device_column,
                         struct table_cols *cols)
{
    cols->pcts = result_table_pcts(res, &cols->npcts);
    for (size_t r = 0; r < res->nruns; r++)
        for (int part = 0; part < DISKIO_PART_COUNT; part++)
            note_limited(cols, res->runs[r]->hist[part]);
    cols->name_width = NAME_WIDTH;
    for (size_t r = 0; r < res->nruns; r++) {
        char qual[64];
        run_qualifier(res->runs[r], qual, sizeof(qual));
        const size_t width = display_columns(res->runs[r]->info.name) + display_columns(qual);
        if (width > cols->name_width)
            cols->name_width = width;
    }
    fprintf(out, "%-*s %8s %10s %12s %10s %10s", (int)cols->name_width, "mode", "bs", "ops",
            "ops/s", res->unit == DISKIO_THROUGHPUT_MBIT_PER_S ? "Mbit/s" : "MB/s", "mean");
    char name[32];
    for (size_t i = 0; i < cols->npcts; i++)
        fprintf(out, " %10s%s", pct_name(name, sizeof(name), cols->pcts[i], '.'),
                cols->marks ? " " : "");
    fprintf(out, " %10s%s\n", "max",
            device_column ? "  " DEVICE_HEADING "  " DEVICE_TIME_HEADING : "");
}

/* A run's row: its figures, and a custom run's own parameters. */
static void text_run_row(FILE *out, const struct diskio_result *res, const struct table_cols *cols,
                         const struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    /* MB and Mbit are decimal (10^6), as fio, CrystalDiskMark and network
     * links count them */
    const bool mbit = res->unit == DISKIO_THROUGHPUT_MBIT_PER_S;
    char bs[24] = "", rate[32], throughput[32];
    if (info->has_config)
        format_size(bs, sizeof(bs), info->config.block_size);
    double seconds = (double)info->duration_ns / 1e9;
    snprintf(rate, sizeof(rate), "%.1f", seconds > 0 ? (double)info->ops / seconds : 0.0);
    format_rate(throughput, sizeof(throughput),
                seconds > 0 ? (double)info->bytes * (mbit ? 8 : 1) / 1e6 / seconds : 0.0);
    char qual[64];
    run_qualifier(run, qual, sizeof(qual));
    char device[64], marks[32];
    snprintf(marks, sizeof(marks), "%s%s",
             (run->verdicts & DISKIO_VERDICT_NOT_DIRECT) ? "  ! not direct" : "",
             run_disturbed(run) ? "  ! disturbed" : "");
    row(out, cols, info->name, qual, bs, rate, throughput, run->hist[DISKIO_PART_TOTAL],
        format_device(device, sizeof(device), run), marks);
    if (run->nparams) {
        /* a custom run's own parameters, as its program named them */
        fputs("  params", out);
        for (size_t i = 0; i < run->nparams; i++) {
            fputc(' ', out);
            show(out, run->params[i].key);
            fputc('=', out);
            show(out, run->params[i].value);
        }
        fputc('\n', out);
    }
}

/* A value of the steady-state metric m, as the table shows it. */
static const char *format_metric(char *buf, size_t size, enum diskio_steady_metric m, double v)
{
    if (m == DISKIO_STEADY_OPS)
        snprintf(buf, size, "%.1f ops/s", v);
    else
        format_ns_word(buf, size, v);
    return buf;
}

/* The state of one window (of repetition rep, from 1; 0: the run's own),
 * in one line: when it was steady and how steady, or that it was not and
 * where the metric was going. */
static void steady_state_line(FILE *out, const struct diskio_run *run,
                              const struct diskio_steady_state *st, size_t rep)
{
    const struct run_steady *rs = &run->steady;
    const enum diskio_steady_metric m = rs->spec.metric;
    const char *name = diskio_steady_metric_name(m);
    char avg[32], of[40] = "";
    if (rep)
        snprintf(of, sizeof(of), " (repetition %zu)", rep);
    if (st->attained) {
        fprintf(out,
                "  ^ steady%s after %.3g s: %s %s over the window %.3g-%.3g s (range %.1f%%, "
                "slope %.1f%%; limits %g%%, %g%%)\n",
                of, (double)st->end_ns / 1e9, name, format_metric(avg, sizeof(avg), m, st->average),
                (double)st->start_ns / 1e9, (double)st->end_ns / 1e9, st->range_pct, st->slope_pct,
                rs->spec.range_pct, rs->spec.slope_pct);
        return;
    }
    fprintf(out, "  ^ NOT STEADY%s by the end of the run: ", of);
    if (st->judged < rs->spec.window)
        fprintf(out, "%zu whole intervals judged after the ramp, the window needs %u", st->judged,
                rs->spec.window);
    else
        fprintf(out, "the last window's range %.1f%% (limit %g%%), slope %.1f%% (limit %g%%)",
                st->range_pct, rs->spec.range_pct, st->slope_pct, rs->spec.slope_pct);
    if (st->slope_per_min == st->slope_per_min && st->average > 0) {
        char slope[32];
        fprintf(out, "; %s %s by %s per minute (%.0f%% of its average, %s)", name,
                st->slope_per_min > 0   ? "rising"
                : st->slope_per_min < 0 ? "falling"
                                        : "flat",
                format_metric(slope, sizeof(slope), m, fabs(st->slope_per_min)),
                100.0 * fabs(st->slope_per_min) / st->average,
                format_metric(avg, sizeof(avg), m, st->average));
    }
    fputc('\n', out);
}

/* diskio --steady: a row of the figures over the steady windows alone
 * (when every repetition was steady), and each window's state. */
static void steady_lines(FILE *out, const struct table_cols *cols, const struct diskio_run *run)
{
    const struct run_steady *rs = &run->steady;
    bool all = rs->nstates > 0;
    for (size_t i = 0; i < rs->nstates; i++)
        all = all && rs->states[i].attained;
    struct diskio_hist *h = NULL;
    if (all && run->series && diskio_hist_new(&h) == 0) {
        for (size_t i = 0; i < rs->nstates; i++)
            (void)steady_window_hist(run, &rs->states[i], h);
        row(out, cols, "  steady", "", "", "", "", h, NULL, NULL);
        diskio_hist_free(h);
    }
    for (size_t i = 0; i < rs->nstates; i++)
        steady_state_line(out, run, &rs->states[i], rs->nstates > 1 ? i + 1 : 0);
}

/* Steps of a search by committers, then offered rate (the saturation
 * point, offered 0, after the rates). */
static int step_order(const void *a, const void *b)
{
    const struct diskio_capacity_step *x = *(const struct diskio_capacity_step *const *)a;
    const struct diskio_capacity_step *y = *(const struct diskio_capacity_step *const *)b;
    if (x->committers != y->committers)
        return x->committers < y->committers ? -1 : 1;
    const double ox = x->offered_ops_per_s > 0 ? x->offered_ops_per_s : 1e300;
    const double oy = y->offered_ops_per_s > 0 ? y->offered_ops_per_s : 1e300;
    return ox < oy ? -1 : ox > oy ? 1 : (int)x->phase - (int)y->phase;
}

/* The latency-versus-offered-rate curve the search measured. */
static void capacity_curve(FILE *out, const struct diskio_run *run, const struct diskio_capacity *c)
{
    const struct diskio_capacity_step **v = malloc(c->nsteps * sizeof(*v));
    if (!v)
        return;
    for (size_t i = 0; i < c->nsteps; i++)
        v[i] = diskio_run_capacity_step(run, i);
    qsort(v, c->nsteps, sizeof(*v), step_order);
    char pct[24], a[32], b[32], d[32], e[32];
    pct_name(pct, sizeof(pct), c->percentile, '.');
    fprintf(out, "    %10s %12s %12s %10s %10s %10s %10s %10s\n", "committers", "offered/s",
            "achieved/s", "mean", "p50", pct, "max", "");
    for (size_t i = 0; i < c->nsteps; i++) {
        char offered[32] = "max";
        if (v[i]->offered_ops_per_s > 0)
            snprintf(offered, sizeof(offered), "%.1f", v[i]->offered_ops_per_s);
        fprintf(out, "    %10u %12s %12.1f %10s %10s %10s %10s %s%s\n", v[i]->committers, offered,
                v[i]->achieved_ops_per_s, format_ns(a, sizeof(a), v[i]->mean_ns),
                format_ns(b, sizeof(b), (double)v[i]->p50_ns),
                format_ns(d, sizeof(d), (double)v[i]->pct_ns),
                format_ns(e, sizeof(e), (double)v[i]->max_ns), v[i]->met ? "met" : "missed",
                v[i]->phase == DISKIO_CAPACITY_CONFIRM ? " (confirming run)" : "");
    }
    free(v);
}

/* diskio --target: the answer, in a line, then the curve. */
static void capacity_lines(FILE *out, const struct diskio_run *run)
{
    struct diskio_capacity c;
    if (diskio_run_capacity(run, &c) != 0)
        return;
    char pct[24], target[32];
    pct_name(pct, sizeof(pct), c.percentile, '.');
    format_ns_word(target, sizeof(target), (double)c.target_ns);
    if (c.found) {
        fprintf(out, "  ^ capacity at %s <= %s: %.1f ops/s with %u committer%s", pct, target,
                c.ops_per_s, c.committers, c.committers == 1 ? "" : "s");
        if (c.high_ops_per_s > 0)
            fprintf(out, " (%.1f/s missed)", c.high_ops_per_s);
        if (c.confirmed)
            fputs(", confirmed by the row above", out);
        else if (run->info.has_config && run->info.config.rate_interval_ns)
            fprintf(out, ", NOT CONFIRMED: the row above, a longer run at %.1f/s, missed",
                    1e9 / (double)run->info.config.rate_interval_ns);
        else
            fputs(", NOT CONFIRMED by a longer run", out);
    } else {
        fprintf(out, "  ^ NO RATE MET %s <= %s, down to the lowest tried", pct, target);
    }
    fprintf(out, "; %zu steps in %.3g s (budget %.3g s)\n", c.nsteps, (double)c.duration_ns / 1e9,
            (double)c.budget_ns / 1e9);
    capacity_curve(out, run, &c);
}

/* The rows under a run's: its parts, its pattern's and fixed rate's
 * figures, its repetitions' spread, its disturbances and intervals, its
 * suite row, why it is incomplete. */
static void text_run_details(FILE *out, const struct diskio_result *res,
                             const struct table_cols *cols, size_t r)
{
    const struct diskio_run *run = res->runs[r];
    const struct diskio_run_info *info = &run->info;
    static const struct {
        enum diskio_part part;
        const char *name;
    } parts[] = {{DISKIO_PART_WRITE, "  write"},
                 {DISKIO_PART_SYNC, "  sync"},
                 {DISKIO_PART_SWITCH, "  switch"}};
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        const struct diskio_hist *h = run->hist[parts[i].part];
        if (h && diskio_hist_count(h))
            row(out, cols, parts[i].name, "", "", "", "", h, NULL, NULL);
    }
    pattern_line(out, run);
    if (run->hist[DISKIO_PART_SERVICE]) {
        /* the row above counts from when each op was due */
        row(out, cols, "  service", "", "", "", "", run->hist[DISKIO_PART_SERVICE], NULL, NULL);
        fprintf(out,
                "  ^ fixed rate %.1f/s %s; latency above is from each op's scheduled "
                "start, service from its actual start; max lag %.3f ms\n",
                1e9 / (double)info->config.rate_interval_ns, info->rate_held ? "held" : "NOT HELD",
                (double)info->max_start_lag_ns / 1e6);
    }
    if (run->nreps > 1) {
        /* the spread between repetitions is what a comparison with
         * another machine has to beat */
        double lo = run->reps[0].parts[DISKIO_PART_TOTAL].mean_ns, hi = lo;
        for (size_t i = 1; i < run->nreps; i++) {
            double mean = run->reps[i].parts[DISKIO_PART_TOTAL].mean_ns;
            lo = mean < lo ? mean : lo;
            hi = mean > hi ? mean : hi;
        }
        char lo_text[32], hi_text[32];
        fprintf(out, "  ^ %zu repetitions, means from %s to %s\n", run->nreps,
                format_ns(lo_text, sizeof(lo_text), lo), format_ns(hi_text, sizeof(hi_text), hi));
    }
    if (run->verdicts & DISKIO_VERDICT_NOT_DIRECT)
        not_direct_line(out, run);
    if (run_disturbed(run))
        disturbed_line(out, run);
    unjudged_line(out, run);
    if (diskio_run_interval_count(run) > 0)
        interval_line(out, run);
    if (run->steady.on)
        steady_lines(out, cols, run);
    capacity_lines(out, run);
    /* diskio --suite: the row this run is */
    for (size_t i = 0; i < res->suite_nrows; i++)
        if (res->suite_rows[i].run == r) {
            fputs("  ^ suite ", out);
            show(out, res->suite_name);
            fputs(" row ", out);
            show(out, res->suite_rows[i].label);
            fputc(' ', out);
            show(out, res->suite_rows[i].column);
            fputc('\n', out);
        }
    if (!info->complete)
        fprintf(out, "  ^ incomplete: %s during %s at op %" PRIu64 "\n",
                diskio_strerror(info->error), info->error_during ? info->error_during : "?",
                info->error_op);
}

int emit_text(const struct diskio_result *res, FILE *out)
{
    text_header(out, res);
    struct table_cols cols = {0};
    text_columns(out, res, any_device(res), &cols);
    for (size_t r = 0; r < res->nruns; r++) {
        text_run_row(out, res, &cols, res->runs[r]);
        text_run_details(out, res, &cols, r);
    }
    /* what a '*' means: "* p99.9 = max: fewer than 1000 ops" */
    char name[32];
    for (size_t i = 0; i < cols.npcts; i++)
        if (cols.limited[i])
            fprintf(out, "* %s = max: fewer than %" PRIu64 " ops\n",
                    pct_name(name, sizeof(name), cols.pcts[i], '.'),
                    hist_pct_min_count(cols.pcts[i]));
    verdict_lines(out, res);
    if (!diskio_result_complete(res))
        fputs("\nRESULT INCOMPLETE: the figures cover only the operations that finished.\n", out);
    return 0;
}
