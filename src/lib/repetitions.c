/* SPDX-License-Identifier: MIT */
/*
 * Repetitions of one run (diskio --repeat): merged histograms for the
 * figures, and each repetition's own summary beside them, because the
 * spread between repetitions (a neighbour's load, writeback, a cache that
 * filled) is the noise a comparison between machines has to beat, and it
 * cannot be read from the merged histogram.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"
#include "patterns.h"
#include "steady.h"

static void summarise(const struct diskio_run *run, struct run_repetition *rep)
{
    memset(rep, 0, sizeof(*rep));
    rep->ops = run->info.ops;
    rep->bytes = run->info.bytes;
    rep->duration_ns = run->info.duration_ns;
    rep->start_ns = run->info.start_ns;
    rep->complete = run->info.complete;
    rep->ifr = run->ifr;
    for (int part = 0; part < DISKIO_PART_COUNT; part++) {
        const struct diskio_hist *h = run->hist[part];
        struct part_summary *s = &rep->parts[part];
        if (!h)
            continue;
        s->present = true;
        s->count = diskio_hist_count(h);
        s->min_ns = diskio_hist_min(h);
        s->max_ns = diskio_hist_max(h);
        s->mean_ns = diskio_hist_mean(h);
        s->stddev_ns = diskio_hist_stddev(h);
        diskio_hist_percentiles(h, summary_pcts, s->pct_ns, SUMMARY_PCTS);
    }
}

/* Whether b measured the same workload as a: same name, the same
 * parameters where they shape the figures, and the same parts. */
static bool same_workload(const struct diskio_run *a, const struct diskio_run *b)
{
    if (strcmp(a->info.name, b->info.name) != 0 || a->info.has_config != b->info.has_config)
        return false;
    for (int part = 0; part < DISKIO_PART_COUNT; part++)
        if (!a->hist[part] != !b->hist[part])
            return false;
    if (!a->info.has_config)
        return true;
    const struct diskio_config *x = &a->info.config, *y = &b->info.config;
    return x->mode == y->mode && x->pattern == y->pattern && x->block_size == y->block_size &&
           x->file_size == y->file_size && x->iodepth == y->iodepth &&
           (x->batch ? x->batch : 1) == (y->batch ? y->batch : 1) &&
           x->sync_every == y->sync_every && x->rate_interval_ns == y->rate_interval_ns &&
           x->interval_ns == y->interval_ns && (x->jobs ? x->jobs : 1) == (y->jobs ? y->jobs : 1) &&
           a->steady.on == b->steady.on && !x->shared_file == !y->shared_file &&
           (pattern_params_of(x->pattern) != PATTERN_PARAMS_WAL ||
            (x->wal_bytes == y->wal_bytes && x->wal_segment_size == y->wal_segment_size &&
             !x->wal_recycle == !y->wal_recycle && x->wal_gap_ns == y->wal_gap_ns)) &&
           (pattern_params_of(x->pattern) != PATTERN_PARAMS_CHECKPOINT ||
            (x->checkpoint_files == y->checkpoint_files &&
             x->checkpoint_pages == y->checkpoint_pages &&
             x->checkpoint_flush_after == y->checkpoint_flush_after));
}

static void keep_max(uint64_t *into, uint64_t value)
{
    if (value > *into)
        *into = value;
}

int diskio_run_merge(struct diskio_run *into, const struct diskio_run *repetition)
{
    if (!into || !repetition || into == repetition || !same_workload(into, repetition) ||
        into->njobs != repetition->njobs)
        return -EINVAL;
    size_t have = into->nreps ? into->nreps : 1;
    struct run_repetition *reps = realloc(into->reps, (have + 1) * sizeof(*reps));
    if (!reps)
        return -ENOMEM;
    into->reps = reps;
    if (into->nreps == 0)
        summarise(into, &reps[0]);
    summarise(repetition, &reps[have]);
    /* every repetition's intervals, one after another: a stall in any
     * of them stays visible */
    const size_t offset = into->series ? into->series->count : 0;
    if (into->series && repetition->series) {
        int rc = series_append(into->series, repetition->series, (unsigned)have);
        if (rc < 0)
            return rc;
    }
    /* each repetition's steady state, its window among the intervals
     * appended (on failure the later intervals simply have none) */
    (void)steady_merge(into, repetition, offset);

    /* Histograms last: a merge into an existing histogram cannot fail for
     * want of memory, so nothing above needs undoing. */
    for (int part = 0; part < DISKIO_PART_COUNT; part++)
        if (into->hist[part])
            (void)diskio_hist_merge(into->hist[part], repetition->hist[part]);
    into->nreps = have + 1;
    /* each job's figures add up over the repetitions, like the run's */
    for (size_t j = 0; j < into->njobs; j++) {
        struct run_job *to = &into->jobs[j];
        const struct run_job *from = &repetition->jobs[j];
        to->ops += from->ops;
        to->bytes += from->bytes;
        to->duration_ns += from->duration_ns;
        if (to->hist && from->hist)
            (void)diskio_hist_merge(to->hist, from->hist);
        if (!to->error && from->error) {
            to->error = from->error;
            to->error_op = from->error_op;
            to->error_during = from->error_during;
        }
    }

    struct diskio_run_info *info = &into->info;
    const struct diskio_run_info *add = &repetition->info;
    info->ops = diskio_hist_count(into->hist[DISKIO_PART_TOTAL]);
    info->bytes += add->bytes;
    info->duration_ns += add->duration_ns;
    if (!add->complete && info->complete) {
        /* the first failure is the one reported */
        info->complete = false;
        info->error = add->error;
        info->error_op = add->error_op;
        info->error_during = add->error_during;
        info->error_job = add->error_job;
    }
    if (add->max_start_lag_ns > info->max_start_lag_ns)
        info->max_start_lag_ns = add->max_start_lag_ns;
    info->rate_held = info->rate_held && add->rate_held;
    keep_max(&info->start_lag_p99_ns, add->start_lag_p99_ns);
    keep_max(&info->late_start_p50_ns, add->late_start_p50_ns);
    keep_max(&info->late_start_p99_ns, add->late_start_p99_ns);
    keep_max(&info->late_start_max_ns, add->late_start_max_ns);
    keep_max(&info->backlog_max_lag_ns, add->backlog_max_lag_ns);
    keep_max(&info->spin_margin_ns, add->spin_margin_ns);
    info->late_start_ops += add->late_start_ops;
    info->backlog_ops += add->backlog_ops;
    struct diskio_wal_counts *wal = &info->wal;
    const struct diskio_wal_counts *wal_add = &add->wal;
    wal->commits += wal_add->commits;
    wal->flushes += wal_add->flushes;
    wal->writes += wal_add->writes;
    wal->syncs += wal_add->syncs;
    wal->pages += wal_add->pages;
    wal->page_rewrites += wal_add->page_rewrites;
    wal->segment_switches += wal_add->segment_switches;
    wal->insert_bytes += wal_add->insert_bytes;
    info->checkpoint.checkpoints += add->checkpoint.checkpoints;
    info->checkpoint.pages += add->checkpoint.pages;
    info->checkpoint.file_syncs += add->checkpoint.file_syncs;
    info->checkpoint.writebacks += add->checkpoint.writebacks;
    devstat_merge(into, repetition);
    direct_merge(into, repetition);
    return 0;
}

size_t diskio_run_repetitions(const struct diskio_run *run)
{
    if (!run)
        return 0;
    return run->nreps ? run->nreps : 1;
}
