/* SPDX-License-Identifier: MIT */
/* The configuration API: defaults and the rules a run's options obey,
 * decided here once for the library and the command. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine.h"

void diskio_config_init(struct diskio_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->mode = DISKIO_MODE_FSYNC;
    cfg->pattern = DISKIO_PATTERN_SEQ;
    cfg->block_size = 8192;
    cfg->file_size = UINT64_C(64) << 20;
    cfg->count = 1000;
    cfg->iodepth = 1;
    cfg->sync_every = 1;
    cfg->seed = 1;
    cfg->trace_fd = -1;
}

const char *diskio_config_problem(const struct diskio_config *cfg)
{
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    if (!ops)
        return "unknown mode";
    if ((unsigned)cfg->pattern > DISKIO_PATTERN_APPEND)
        return "unknown pattern";
    if (cfg->block_size < DISKIO_BS_MIN || cfg->block_size > DISKIO_BS_MAX)
        return "block size must be between 512 bytes and 64 MiB";
    if (diskio_mode_is_direct(cfg->mode) && cfg->block_size % 512 != 0)
        return "O_DIRECT modes need a block size that is a multiple of 512 bytes";
    if (cfg->file_size < cfg->block_size)
        return "file size must be at least one block";
    if (cfg->count == 0 && cfg->runtime_ns == 0)
        return "either a count or a runtime is needed";
    if (cfg->iodepth < 1 || cfg->iodepth > DISKIO_IODEPTH_MAX)
        return "iodepth must be between 1 and 1024";
    const bool queued = ops->queued;
    if (queued && (uint64_t)cfg->iodepth * cfg->block_size > (UINT64_C(256) << 20))
        return "iodepth times block size must not exceed 256 MiB (one buffer per request)";
    if (queued && cfg->pattern == DISKIO_PATTERN_APPEND && cfg->iodepth > 1)
        return "the append pattern cannot keep more than one request in flight";
    if (queued && cfg->file_size / cfg->block_size < cfg->iodepth)
        return "the file must hold at least iodepth blocks";
    if (cfg->sync_every < 1)
        return "sync_every must be at least 1";
    if (queued && cfg->rate_interval_ns)
        return "a fixed rate applies to synchronous modes, not aio or uring";
    return NULL;
}

int diskio_config_check(const struct diskio_config *cfg)
{
    return diskio_config_problem(cfg) ? -EINVAL : 0;
}
