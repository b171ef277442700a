/* SPDX-License-Identifier: MIT */
/* What a run is when no option says: the library's defaults
 * (diskio_config_init()) and the command's own.  cli_parse() starts from
 * them, and the usage shows them. */
#include "config.h"

#include <string.h>

#include "cli_options.h"

/* The library's defaults, and the command's own: a warmup, every write
 * mode, and a runtime rather than a count (cli_parse(), once the options
 * are read). */
void cli_defaults(struct cli_options *o)
{
    struct diskio_config defaults;
    diskio_config_init(&defaults);
    memset(o, 0, sizeof(*o));
    o->block_sizes[0] = defaults.block_size;
    o->nsizes = 1;
    o->file_size = defaults.file_size;
    o->pattern = defaults.pattern;
    o->warmup = CLI_DEFAULT_WARMUP;
    o->iodepth = defaults.iodepth;
    o->batch = defaults.batch;
    o->sync_every = defaults.sync_every;
    o->seed = defaults.seed;
    o->repeat = 1;
    o->jobs[0] = 1;
    o->njobs = 1;
    o->format = DISKIO_FORMAT_TEXT;
    o->wal_bytes = defaults.wal_bytes;
    o->wal_segment_size = defaults.wal_segment_size;
    o->checkpoint_files = defaults.checkpoint_files;
    o->checkpoint_pages = defaults.checkpoint_pages;
    o->checkpoint_flush_after = defaults.checkpoint_flush_after;
    for (unsigned m = 0; m < diskio_mode_count(); m++)
        if (!diskio_mode_is_read((enum diskio_mode)m))
            o->modes[o->nmodes++] = (enum diskio_mode)m;
}
