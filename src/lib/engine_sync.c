/* SPDX-License-Identifier: MIT */
/*
 * The synchronous loops the mode table points at: engine_loop.h
 * instantiated for each sync call a row can name (none, fsync(2),
 * fdatasync(2)) and each per-write flag a row names (pwritev2(2) with
 * it: RWF_DSYNC, RWF_SYNC), and the read loop (pread(2)).
 * Each instance has its sync call and write flags as compile-time
 * constants, so no mode pays for a test of which sync to call or how to
 * write; which instance a mode runs is decided once per phase, from its
 * row.
 */
#include "config.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine_loop.h"
#include "modes.h"

/* async: into the page cache, its source block as the pool left it */
static __attribute__((noinline)) void run_write_only(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, 0, false, false);
}

/* O_SYNC, O_DSYNC, O_DIRECT: the write waits for the device; its source
 * block warmed before the clock (warm_block) */
static __attribute__((noinline)) void run_write_waiting(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, 0, false, true);
}

static __attribute__((noinline)) void run_write_fsync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, raw_fsync, 0, false, true);
}

static __attribute__((noinline)) void run_write_fdatasync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, raw_fdatasync, 0, false, true);
}

static __attribute__((noinline)) void run_write_rwf_dsync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, RWF_DSYNC, false, true);
}

static __attribute__((noinline)) void run_write_rwf_sync(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, RWF_SYNC, false, true);
}

/* The synchronous write modes: the instance of the row's per-write flags
 * and sync call.  A row whose flags no instance here writes with fails
 * its run rather than writing without them. */
void engine_run_write(struct engine *e, struct engine_phase *ph)
{
    const struct mode_ops *ops = mode_ops_of(e->cfg->mode);
    switch (ops->write_flags) {
    case 0: break;
    case RWF_DSYNC: run_write_rwf_dsync(e, ph); return;
    case RWF_SYNC: run_write_rwf_sync(e, ph); return;
    default:
        e->error = -EOPNOTSUPP;
        e->error_during = "write";
        e->error_op = 0;
        ph->done = 0;
        return;
    }
    switch (ops->sync) {
    case MODE_SYNC_FSYNC: run_write_fsync(e, ph); break;
    case MODE_SYNC_FDATASYNC: run_write_fdatasync(e, ph); break;
    case MODE_SYNC_NONE:
    default:
        if (mode_waits_for_device(e->cfg->mode, false))
            run_write_waiting(e, ph);
        else
            run_write_only(e, ph);
        break;
    }
}

/* The read modes read and direct-read: pread, nothing else. */
void engine_run_read(struct engine *e, struct engine_phase *ph)
{
    engine_dispatch(e, ph, NULL, 0, true, false);
}
