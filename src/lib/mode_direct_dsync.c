/* SPDX-License-Identifier: MIT */
/* Mode `direct-dsync`: pwrite on O_DIRECT|O_DSYNC: bypasses the page cache
 * and, on devices with a volatile cache, issues a cache flush (or FUA
 * write) per write. */
#include "config.h"

#include <fcntl.h>

#include "diskio_internal.h"

const struct mode_ops mode_direct_dsync = {
    .name = "direct-dsync",
    .open_flags = O_DIRECT | O_DSYNC,
    .open_flags_text = "O_WRONLY|O_DIRECT|O_DSYNC",
    .direct = true,
    .has_parts = false,
    .run = engine_run_write,
};
