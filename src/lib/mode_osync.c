/* SPDX-License-Identifier: MIT */
/* Mode `osync`: pwrite on an O_SYNC descriptor: every write returns
 * only after data and all metadata (mtime included) are durable. */
#include "config.h"

#include <fcntl.h>

#include "diskio_internal.h"

const struct mode_ops mode_osync = {
    .name = "osync",
    .open_flags = O_SYNC,
    .open_flags_text = "O_WRONLY|O_SYNC",
    .direct = false,
    .has_parts = false,
    .run = engine_run_write,
};
