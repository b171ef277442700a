/* SPDX-License-Identifier: MIT */
/*
 * The synchronous loops the mode table points at: engine_loop.h
 * instantiated for each sync call a row can name (none, fsync(2),
 * fdatasync(2)), and the read loop (pread(2)).
 * Each instance has its sync call as a compile-time constant, so no mode
 * pays for a test of which sync to call; which instance a mode runs is
 * decided once per phase, from its row.
 */
#include "config.h"

#include <unistd.h>

#include "engine_loop.h"
#include "modes.h"

static __attribute__((noinline)) void run_write_only(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, false);
}

static __attribute__((noinline)) void run_write_fsync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, fsync, false);
}

static __attribute__((noinline)) void run_write_fdatasync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, fdatasync, false);
}

/* The synchronous write modes: the instance of the row's sync call. */
void engine_run_write(struct engine *e, struct engine_phase *ph)
{
    switch (mode_ops_of(e->cfg->mode)->sync) {
    case MODE_SYNC_FSYNC: run_write_fsync(e, ph); break;
    case MODE_SYNC_FDATASYNC: run_write_fdatasync(e, ph); break;
    case MODE_SYNC_NONE:
    default: run_write_only(e, ph); break;
    }
}

/* The read modes read and direct-read: pread, nothing else. */
void engine_run_read(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, true);
}
