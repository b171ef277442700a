/* SPDX-License-Identifier: MIT */
/*
 * A run's steps around its timed loop (pipeline.c), the same for every
 * pattern, and the runs diskio_run_execute() hands a run to after the
 * checks every run makes (engine.c):
 *
 *   diskio_run_execute (engine.c): the checks, then the pattern table's
 *   run column
 *     engine_run_jobs (engine_jobs.c): seq, rand, append, create
 *     engine_run_wal (engine_wal_run.c), engine_run_checkpoint
 *       (engine_checkpoint.c): loops and files of their own
 *   each of them: its set-up (engine_setup for the jobs), run_new, the
 *   runner core (runner.h: threads, stop, progress, warmup, the measured
 *   ops' start), probe_begin, probe_end, probe_record around the
 *   measured ops.
 */
#ifndef DISKIO_PIPELINE_H
#define DISKIO_PIPELINE_H

#include "engine.h"
#include "modes.h"

/* splitmix64: a generator state from any seed (0 included), never 0 */
uint64_t seed_state(uint64_t seed);
/* How many distinct blocks of block_size the ops write from: one per
 * request in flight at least, 8 MiB shared by the jobs (pipeline.c). */
uint64_t data_pool_blocks(uint64_t block_size, uint64_t in_flight, unsigned jobs);
/* size bytes of random data (every block its own), aligned for O_DIRECT:
 * 0 or -ENOMEM. */
int fill_buffer(unsigned char **out, uint64_t size, uint64_t seed);

/* Job j's engine for e->cfg (e->stop and e->progress set by the caller):
 * t (the job's file) filled as the pattern needs, opened with the mode's
 * flags into e->fd (-1 until then; the caller closes it), the offsets,
 * generators and data pool (e->buf, the caller frees it) the job's own.
 * file_size is the offsets' range.  0 or -errno. */
int engine_setup(struct engine *e, struct diskio_target *t, unsigned j, uint64_t file_size);
/* The warmup (untimed, unless e->error is set already): warm->limit ops
 * of the mode's loop, then the create pattern's file emptied again and
 * mode read's cache dropped or warmed.  A failure is e->error. */
void engine_warm(struct engine *e, const struct mode_ops *ops, struct engine_phase *warm);

/* A measured run's record: its histograms (the parts with parts, the
 * service time at a fixed rate), a copy of cfg with file_size and none of
 * the caller's pointers, the open flags.  0 or -ENOMEM. */
int run_new(const struct diskio_config *cfg, const struct mode_ops *ops, uint64_t file_size,
            bool parts, struct diskio_run **out);

/* The block devices' counters (devstat.c) and, with interference, what
 * else the machine did (interference.c), read just before the measured
 * ops and just after them, outside every clock read; then recorded in the
 * run. */
struct run_probe {
    bool interference;
    struct devstat_sample dev_before[DEVSTAT_MAX], dev_after[DEVSTAT_MAX];
    struct ifr_sample ifr_before, ifr_after;
};
void probe_begin(struct run_probe *p, struct diskio_target *t);
void probe_end(struct run_probe *p, const struct diskio_target *t);
void probe_record(struct diskio_run *run, const struct run_probe *p, const struct diskio_target *t);

/* Sleeping to a due time with wait_until(): the thread's timer slack
 * lowered to 1 ns and *spin_margin_ns measured (at most cap_ns), before
 * the run's time; returns the slack pacing_end() puts back (-1: nothing
 * to put back). */
#define PRECISE_SPIN_MAX_NS 500000u
int precise_sleep_begin(uint64_t cap_ns, uint64_t *spin_margin_ns);
/* A fixed rate (e->rate_interval_ns): precise_sleep_begin() for it. */
int pacing_begin(struct engine *e);
void pacing_end(int old_slack);
/* What a fixed rate's schedule saw, added up over the op streams that
 * kept it (one job, or the wal pattern's committers). */
struct pacing_seen {
    const struct diskio_hist *lag, *late_start; /* every op's start lag; diskio's own */
    uint64_t max_lag_ns, backlog_ops, backlog_max_ns, spin_margin_ns;
    uint64_t stream_interval_ns; /* one stream's interval: rate_interval_ns x streams */
};
/* How well the schedule was kept, into in (its ops, duration and
 * config.rate_interval_ns set): the start lags, whose lateness, and
 * whether the rate was held. */
void pacing_record(struct diskio_run_info *in, const struct pacing_seen *seen);

/* The patterns' runs (the pattern table's run column), each driven by
 * the runner core (runner.h).  engine_run_jobs(): the plain patterns,
 * after the checks of what the target allows them. */
int engine_run_jobs(const struct diskio_config *cfg, struct diskio_target *target,
                    struct diskio_run **out);
/* The wal pattern (engine_wal_run.c) and the checkpoint pattern
 * (engine_checkpoint.c); each writes its trace header (the pattern
 * table's) with runner_trace_header() once its target is accepted. */
int engine_run_wal(const struct diskio_config *cfg, struct diskio_target *target,
                   struct diskio_run **out);
int engine_run_checkpoint(const struct diskio_config *cfg, struct diskio_target *target,
                          struct diskio_run **out);

#endif
