/* SPDX-License-Identifier: MIT */
/*
 * The synchronous loops the mode table points at: engine_loop.h
 * instantiated with no sync call, with fsync(2) and with fdatasync(2),
 * and the read loop (pread(2)).
 * Each is a compile-time constant of its instance, so no mode pays for
 * a test of which sync to call.
 */
#include "config.h"

#include <unistd.h>

#include "engine_loop.h"
#include "modes.h"

void engine_run_write(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, false);
}

void engine_run_fsync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, fsync, false);
}

void engine_run_fdatasync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, fdatasync, false);
}

/* The read modes read and direct-read: pread, nothing else. */
void engine_run_read(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, true);
}
