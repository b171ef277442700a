/* SPDX-License-Identifier: MIT */
/*
 * A run (diskio_run_execute, diskio_run_execute_opts): the caller's
 * hooks resolved into the library's copy of the configuration
 * (run_options.h), the checks every run makes against its target, then
 * its pattern's run (the pattern table's: the plain patterns' jobs,
 * engine_jobs.c; the wal and checkpoint patterns'), each driven by the
 * runner core (runner.h).  The run records its workload, none of the
 * hooks.
 */
#include "config.h"

#include <errno.h>

#include "patterns.h"
#include "pipeline.h"
#include "run_options.h"

/* O_DIRECT lengths and offsets (multiples of block_size) the target
 * cannot take would fail at op 0: refused before anything. */
static bool direct_fits(const struct diskio_config *cfg, const struct diskio_target *target)
{
    uint64_t offset_align = 512, mem_align = 0;
    int rc = diskio_target_direct_align(target, &offset_align, &mem_align);
    return rc != 0 || (cfg->block_size % offset_align == 0 && mem_align <= DISKIO_BUFFER_ALIGN);
}

/* cfg, hooks resolved, on target */
static int execute(const struct diskio_config *cfg, struct diskio_target *target,
                   struct diskio_run **out)
{
    if (diskio_config_validate_target(cfg, target->is_device ? DISKIO_TARGET_DEVICE : 0, NULL) != 0)
        return -EINVAL;
    if (mode_ops_of(cfg->mode)->direct && !direct_fits(cfg, target))
        return -EINVAL;
    return pattern_ops_of(cfg->pattern)->run(cfg, target, out);
}

int diskio_run_execute_opts(const struct diskio_config *cfg, const struct diskio_run_options *opts,
                            struct diskio_target *target, struct diskio_run **out)
{
    if (!cfg || !target || !out)
        return -EINVAL;
    *out = NULL;
    struct diskio_config run;
    run_options_resolve(cfg, opts, &run);
    int rc = execute(&run, target, out);
    if (*out)
        run_options_forget(&(*out)->info.config);
    return rc;
}

int diskio_run_execute(const struct diskio_config *cfg, struct diskio_target *target,
                       struct diskio_run **out)
{
    return diskio_run_execute_opts(cfg, NULL, target, out);
}
