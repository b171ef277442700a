/* SPDX-License-Identifier: MIT */
/*
 * A run (diskio_run_execute): the checks every run makes against its
 * target, then its pattern's run (the pattern table's: the plain
 * patterns' jobs, engine_jobs.c; the wal and checkpoint patterns'), each
 * driven by the runner core (runner.h).
 */
#include "config.h"

#include <errno.h>

#include "patterns.h"
#include "pipeline.h"

/* O_DIRECT lengths and offsets (multiples of block_size) the target
 * cannot take would fail at op 0: refused before anything. */
static bool direct_fits(const struct diskio_config *cfg, const struct diskio_target *target)
{
    uint64_t offset_align = 512, mem_align = 0;
    int rc = diskio_target_direct_align(target, &offset_align, &mem_align);
    return rc != 0 || (cfg->block_size % offset_align == 0 && mem_align <= DISKIO_BUFFER_ALIGN);
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
    return pattern_ops_of(cfg->pattern)->run(cfg, target, out);
}
