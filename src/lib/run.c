/* SPDX-License-Identifier: MIT */
/* A run: one workload's histograms and outcome, measured or custom. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"

int run_alloc(const char *name, bool parts, bool service, struct diskio_run **out)
{
    struct diskio_run *run = calloc(1, sizeof(*run));
    if (!run)
        return -ENOMEM;
    run->info.name = name;
    run->info.complete = true;
    run->info.error_job = -1;
    for (int i = 0; i < DISKIO_PART_COUNT; i++) {
        bool wanted = i == DISKIO_PART_TOTAL ||
                      ((i == DISKIO_PART_WRITE || i == DISKIO_PART_SYNC) && parts) ||
                      (i == DISKIO_PART_SERVICE && service);
        if (wanted && diskio_hist_new(&run->hist[i]) < 0) {
            diskio_run_free(run);
            return -ENOMEM;
        }
    }
    *out = run;
    return 0;
}

int diskio_run_new(const char *name, struct diskio_run **out)
{
    if (!name || !*name || !out)
        return -EINVAL;
    char *copy = strdup(name);
    if (!copy)
        return -ENOMEM;
    int rc = run_alloc(copy, false, false, out);
    if (rc < 0) {
        free(copy);
        return rc;
    }
    (*out)->name_owned = copy;
    return 0;
}

int diskio_run_enable_parts(struct diskio_run *run)
{
    if (!run)
        return -EINVAL;
    for (int i = DISKIO_PART_WRITE; i <= DISKIO_PART_SYNC; i++) {
        if (!run->hist[i] && diskio_hist_new(&run->hist[i]) < 0)
            return -ENOMEM;
    }
    return 0;
}

void diskio_run_finish(struct diskio_run *run, uint64_t duration_ns, uint64_t bytes)
{
    if (!run)
        return;
    run->info.ops = diskio_hist_count(run->hist[DISKIO_PART_TOTAL]);
    run->info.duration_ns = duration_ns;
    run->info.bytes = bytes;
}

struct diskio_hist *diskio_run_hist(struct diskio_run *run, enum diskio_part part)
{
    return run && (unsigned)part < DISKIO_PART_COUNT ? run->hist[part] : NULL;
}

const struct diskio_hist *diskio_run_hist_const(const struct diskio_run *run, enum diskio_part part)
{
    return run && (unsigned)part < DISKIO_PART_COUNT ? run->hist[part] : NULL;
}

const struct diskio_run_info *diskio_run_info(const struct diskio_run *run)
{
    return run ? &run->info : NULL;
}

void diskio_run_free(struct diskio_run *run)
{
    if (!run)
        return;
    for (int i = 0; i < DISKIO_PART_COUNT; i++)
        diskio_hist_free(run->hist[i]);
    for (size_t j = 0; j < run->njobs; j++)
        diskio_hist_free(run->jobs[j].hist);
    free(run->jobs);
    for (size_t i = 0; i < run->nparams; i++) {
        free(run->params[i].key);
        free(run->params[i].value);
    }
    free(run->params);
    free(run->reps);
    free(run->name_owned);
    free(run->devices);
    free(run->steady.states);
    free(run->capacity);
    free(run->capacity_steps);
    series_free(run->series);
    free(run);
}
