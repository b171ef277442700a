/* SPDX-License-Identifier: MIT */
/* Mode `odsync`: pwrite on an O_DSYNC descriptor: every write returns
 * only after the data and the metadata needed to read it back are durable
 * (what PostgreSQL's wal_sync_method=open_datasync does). */
#include "config.h"

#include <fcntl.h>

#include "diskio_internal.h"

const struct mode_ops mode_odsync = {
    .name = "odsync",
    .open_flags = O_DSYNC,
    .open_flags_text = "O_WRONLY|O_DSYNC",
    .direct = false,
    .has_parts = false,
    .run = engine_run_write,
};
