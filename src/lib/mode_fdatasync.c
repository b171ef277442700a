/* SPDX-License-Identifier: MIT */
/*
 * Mode `fdatasync`: pwrite, then fdatasync(2), which skips metadata not
 * needed to read the data back (mtime); the write part and the sync part
 * are also recorded separately.  With sync_every N, one fdatasync follows
 * every N writes (group commit).
 */
#include "config.h"

#include <unistd.h>

#include "engine_loop.h"

static void run_fdatasync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, fdatasync);
}

const struct mode_ops mode_fdatasync = {
    .name = "fdatasync",
    .open_flags = 0,
    .open_flags_text = "O_WRONLY",
    .direct = false,
    .has_parts = true,
    .run = run_fdatasync,
};
