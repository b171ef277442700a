/* SPDX-License-Identifier: MIT */
/*
 * Mode `fsync`: pwrite, then fsync(2); the write part and the sync part
 * are also recorded separately.  With sync_every N, one fsync follows
 * every N writes (group commit).
 */
#include "config.h"

#include <unistd.h>

#include "engine_loop.h"

static void run_fsync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, fsync);
}

const struct mode_ops mode_fsync = {
    .name = "fsync",
    .open_flags = 0,
    .open_flags_text = "O_WRONLY",
    .direct = false,
    .has_parts = true,
    .run = run_fsync,
};
