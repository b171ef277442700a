/* SPDX-License-Identifier: MIT */
/* The lines under a run's row in the text: its parts' rows (write, sync,
 * service...), its interval series, what disturbed it or could not be
 * judged, the wal and checkpoint patterns' figures, its steady-state
 * window and its capacity search.  The text in order: emit_text.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_text.h"
#include "patterns.h"

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
                text_ns_word(lo, sizeof(lo), (double)p99_lo),
                text_ns_word(hi, sizeof(hi), (double)p99_hi),
                text_ns_word(mx, sizeof(mx), (double)worst), (double)worst_at / 1e9);
    }
    if (empty > 0)
        fprintf(out, "; %zu with no op completed", empty);
    fputc('\n', out);
}

/* "  ! not direct: the filesystem buffered these writes (statx: no
 * direct I/O for this file, dio alignment 0)": the run's own evidence,
 * under its row (the verdict's line under the table would say less). */
static void not_direct_line(FILE *out, const struct diskio_run *run)
{
    const bool reads = run->info.has_config && diskio_mode_is_read(run->info.config.mode);
    fprintf(out, "  ! not direct: the filesystem buffered these %s (", reads ? "reads" : "writes");
    text_show(out, run->direct.evidence);
    fputs(")\n", out);
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
        text_show(out, ifr_reason_text(&worst[k], text, sizeof(text)));
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
    if (pattern_params_of(c->pattern) == PATTERN_PARAMS_WAL) {
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
    } else if (pattern_params_of(c->pattern) == PATTERN_PARAMS_CHECKPOINT) {
        const struct diskio_checkpoint_counts *k = &info->checkpoint;
        fprintf(out,
                "  ^ checkpoint: %" PRIu64 " checkpoints of %" PRIu64
                " pages over %u files, %" PRIu64 " file syncs, %" PRIu64 " writeback hints\n",
                k->checkpoints, c->checkpoint_pages, c->checkpoint_files, k->file_syncs,
                k->writebacks);
    }
}

/* A value of the steady-state metric m, as the table shows it. */
static const char *format_metric(char *buf, size_t size, enum diskio_steady_metric m, double v)
{
    if (m == DISKIO_STEADY_OPS)
        snprintf(buf, size, "%.1f ops/s", v);
    else
        text_ns_word(buf, size, v);
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
        text_part_row(out, cols, "  steady", h);
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
                v[i]->achieved_ops_per_s, text_ns(a, sizeof(a), v[i]->mean_ns),
                text_ns(b, sizeof(b), (double)v[i]->p50_ns),
                text_ns(d, sizeof(d), (double)v[i]->pct_ns),
                text_ns(e, sizeof(e), (double)v[i]->max_ns), v[i]->met ? "met" : "missed",
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
    text_ns_word(target, sizeof(target), (double)c.target_ns);
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
void text_run_details(FILE *out, const struct diskio_result *res, const struct table_cols *cols,
                      size_t r)
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
            text_part_row(out, cols, parts[i].name, h);
    }
    pattern_line(out, run);
    if (run->hist[DISKIO_PART_SERVICE]) {
        /* the row above counts from when each op was due */
        text_part_row(out, cols, "  service", run->hist[DISKIO_PART_SERVICE]);
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
                text_ns(lo_text, sizeof(lo_text), lo), text_ns(hi_text, sizeof(hi_text), hi));
    }
    if (run->verdicts & DISKIO_VERDICT_NOT_DIRECT)
        not_direct_line(out, run);
    if (text_run_disturbed(run))
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
            text_show(out, res->suite_name);
            fputs(" row ", out);
            text_show(out, res->suite_rows[i].label);
            fputc(' ', out);
            text_show(out, res->suite_rows[i].column);
            fputc('\n', out);
        }
    if (!info->complete)
        fprintf(out, "  ^ incomplete: %s during %s at op %" PRIu64 "\n",
                diskio_strerror(info->error), info->error_during ? info->error_during : "?",
                info->error_op);
}
