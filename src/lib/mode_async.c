/* SPDX-License-Identifier: MIT */
/* Mode `async`: pwrite into the page cache; nothing is made durable.
 * It measures the copy into memory and, when dirty pages pile up,
 * writeback throttling in balance_dirty_pages(). */
#include "config.h"

#include <fcntl.h>

#include "diskio_internal.h"

const struct mode_ops mode_async = {
    .name = "async",
    .open_flags = 0,
    .open_flags_text = "O_WRONLY",
    .direct = false,
    .has_parts = false,
    .run = engine_run_write,
};
