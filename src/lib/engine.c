/* SPDX-License-Identifier: MIT */
/*
 * A run (diskio_run_execute): the checks every run makes against its
 * target, then the runner of its pattern (pipeline.h): the wal and
 * checkpoint patterns their own, every other pattern its jobs
 * (engine_jobs.c), one or several.
 */
#include "config.h"

#include <errno.h>

#include "patterns.h"
#include "pipeline.h"
#include "runner.h"

/* O_DIRECT lengths and offsets (multiples of block_size) the target
 * cannot take would fail at op 0: refused before anything. */
static bool direct_fits(const struct diskio_config *cfg, const struct diskio_target *target)
{
    uint64_t offset_align = 512, mem_align = 0;
    int rc = diskio_target_direct_align(target, &offset_align, &mem_align);
    return rc != 0 || (cfg->block_size % offset_align == 0 && mem_align <= DISKIO_BUFFER_ALIGN);
}

/* What the target allows of cfg: 0 with the offsets' range in
 * *file_size, -EINVAL, or -DISKIO_E_TARGET_EXISTS. */
static int target_takes(const struct diskio_config *cfg, const struct diskio_target *target,
                        uint64_t *file_size)
{
    /* the patterns that empty the file need a file diskio fills (a check
     * of what the fill wrote too: diskio_config_validate_target()) */
    const bool empties = pattern_grows_file(cfg->pattern);
    if (target->is_device && empties)
        return -EINVAL;
    /* a device smaller than file_size bounds the offsets */
    *file_size = cfg->file_size;
    if (target->is_device && target->size < *file_size)
        *file_size = target->size - target->size % cfg->block_size;
    if (*file_size < cfg->block_size)
        return -EINVAL;
    /* truncating is only for files diskio made: never shrink the user's */
    if (empties && !target->created)
        return -DISKIO_E_TARGET_EXISTS;
    return 0;
}

int diskio_run_execute(const struct diskio_config *cfg, struct diskio_target *target,
                       struct diskio_run **out)
{
    if (!cfg || !target || !out)
        return -EINVAL;
    *out = NULL;
    if (diskio_config_validate_target(cfg, target->is_device ? DISKIO_TARGET_DEVICE : 0, NULL) != 0)
        return -EINVAL;
    if (mode_ops_of(cfg->mode)->direct && !direct_fits(cfg, target))
        return -EINVAL;
    /* PostgreSQL's WAL and checkpoints: loops and files of their own */
    const struct pattern_ops *pattern = pattern_ops_of(cfg->pattern);
    if (pattern->run)
        return pattern->run(cfg, target, out);
    /* A trace is a complete CSV whatever happens next: the header goes
     * out now, rows (if any) follow.  A failure is the run's "trace"
     * error, reported like a failed row. */
    const int trace_error = runner_trace_header(cfg);
    uint64_t file_size;
    int rc = target_takes(cfg, target, &file_size);
    if (rc < 0)
        return rc;
    return engine_run_jobs(cfg, target, file_size, trace_error, out);
}
