/* SPDX-License-Identifier: MIT */
/* Mode `direct`: pwrite on O_DIRECT: the page cache is bypassed,
 * but the device's volatile write cache may still hold the data, so this
 * is not durable by itself. */
#include "config.h"

#include <fcntl.h>

#include "diskio_internal.h"

const struct mode_ops mode_direct = {
    .name = "direct",
    .open_flags = O_DIRECT,
    .open_flags_text = "O_WRONLY|O_DIRECT",
    .direct = true,
    .has_parts = false,
    .run = engine_run_write,
};
