/* SPDX-License-Identifier: MIT */
/*
 * A run's hooks beside its workload (diskio_run_options_init,
 * run_options.h).  Until 0.2 the hooks are also members of struct
 * diskio_config (deprecated): a hook the options set wins over the
 * configuration's, and one they leave unset (-1, NULL) leaves the
 * configuration's in force, so that a program moves its hooks over one
 * at a time.
 */
#include "config.h"

#include <string.h>

#include "run_options.h"

void diskio_run_options_init(struct diskio_run_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof(*opts));
    opts->trace_fd = -1;
}

void run_options_resolve(const struct diskio_config *cfg, const struct diskio_run_options *opts,
                         struct diskio_config *into)
{
    *into = *cfg;
    if (!opts)
        return;
    if (opts->trace_fd >= 0)
        into->trace_fd = opts->trace_fd;
    if (opts->stop)
        into->stop = opts->stop;
    if (opts->progress)
        into->progress = opts->progress;
    if (opts->fill_progress)
        into->fill_progress = opts->fill_progress;
    if (opts->live_hist)
        into->live_hist = opts->live_hist;
    if (opts->op_hook)
        into->op_hook = opts->op_hook;
}

void run_options_forget(struct diskio_config *recorded)
{
    recorded->trace_fd = -1;
    recorded->stop = NULL;
    recorded->progress = NULL;
    recorded->fill_progress = NULL;
    recorded->live_hist = NULL;
    recorded->op_hook = NULL;
}

int diskio_config_validate_opts(const struct diskio_config *cfg,
                                const struct diskio_run_options *opts, unsigned target_flags,
                                struct diskio_config_verdict *v)
{
    if (!cfg)
        return diskio_config_validate_target(NULL, target_flags, v);
    struct diskio_config run;
    run_options_resolve(cfg, opts, &run);
    return diskio_config_validate_target(&run, target_flags, v);
}
