/* SPDX-License-Identifier: MIT */
/*
 * A run's steps around its timed loop: the engine set up for a job (its
 * file filled and opened, its data buffer), what follows the open and the
 * warmup, and the runners diskio_run_execute() hands a run to.
 */
#ifndef DISKIO_PIPELINE_H
#define DISKIO_PIPELINE_H

#include "engine.h"
#include "modes.h"

uint64_t seed_state(uint64_t seed) DISKIO_HIDDEN;
/* After e->fd was opened for the mode (untimed): the create pattern's
 * empty file made durable, mode read's access advice.  0 or -errno. */
int engine_opened(struct engine *e, const struct mode_ops *ops) DISKIO_HIDDEN;
/* After the warmup (untimed): the create pattern's file emptied again,
 * mode read's cache dropped or warmed.  0, or the error with e->error and
 * e->error_during set. */
int engine_warmed(struct engine *e, const struct mode_ops *ops, uint64_t warm_done) DISKIO_HIDDEN;
uint64_t data_pool_blocks(uint64_t block_size, uint64_t in_flight, unsigned jobs) DISKIO_HIDDEN;
int fill_buffer(unsigned char **out, uint64_t size, uint64_t seed) DISKIO_HIDDEN;
/* diskio_run_execute() for cfg->jobs > 1, after the checks every run
 * makes (engine_jobs.c); file_size is the offsets' range. */
int engine_run_jobs(const struct diskio_config *cfg, struct diskio_target *target,
                    uint64_t file_size, struct diskio_run **out) DISKIO_HIDDEN;
/* diskio_run_execute() for the wal pattern (engine_wal.c) and the
 * checkpoint pattern (engine_checkpoint.c), after the checks every run
 * makes; each writes its own trace header (WAL_TRACE_HEADER,
 * CHECKPOINT_TRACE_HEADER there). */
int engine_run_wal(const struct diskio_config *cfg, struct diskio_target *target,
                   struct diskio_run **out) DISKIO_HIDDEN;
int engine_run_checkpoint(const struct diskio_config *cfg, struct diskio_target *target,
                          struct diskio_run **out) DISKIO_HIDDEN;

#endif
