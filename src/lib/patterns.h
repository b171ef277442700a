/* SPDX-License-Identifier: MIT */
/*
 * The pattern table (patterns.c): one row per write pattern, saying every
 * fact the library decides about a pattern.  Whoever needs such a fact
 * asks the row (pattern_ops_of(), or the accessors below), never a list
 * of patterns.  engine_loop.h alone names patterns: it makes one loop
 * instance per pattern at compile time.
 */
#ifndef DISKIO_PATTERNS_H
#define DISKIO_PATTERNS_H

#include "diskio_internal.h"

struct mode_ops;

/* The extra parameters a pattern takes (struct diskio_config's wal_* or
 * checkpoint_* fields), which its results report: the public enum
 * diskio_pattern_params by the library's own names. */
enum pattern_params {
    PATTERN_PARAMS_NONE = DISKIO_PARAMS_NONE,
    PATTERN_PARAMS_WAL = DISKIO_PARAMS_WAL,
    PATTERN_PARAMS_CHECKPOINT = DISKIO_PARAMS_CHECKPOINT,
};

/* One write pattern, a row of the pattern table (patterns.c). */
struct pattern_ops {
    const char *name;
    /* its run: set-up, the steps it gives the runner core (runner.h),
     * its outcome (the plain patterns': engine_run_jobs(), the engine's
     * loop over one file per job) */
    int (*run)(const struct diskio_config *cfg, struct diskio_target *target,
               struct diskio_run **out);
    /* the modes it takes (NULL: every mode) */
    bool (*takes_mode)(const struct mode_ops *ops);
    /* the modes PostgreSQL writes the files it models in, configured by
     * default (NULL: it models none of PostgreSQL's files) */
    bool (*pg_default_mode)(const struct mode_ops *ops);
    /* the files of its own it makes beside the test file, as a message
     * names them (NULL: none) */
    const char *own_files;
    /* the trace's CSV header (its rows: the pattern's loop) */
    const char *trace_header;
    enum pattern_params params;
    /* the default: a run's label names every pattern but this one */
    bool unnamed_in_label;
    /* op n writes block n modulo the file's blocks, from the first */
    bool sequential;
    /* writes past the end of the file: empties it before (and while) it
     * writes it, so reads cannot use it, and the jobs of one shared file
     * would truncate it under one another */
    bool grows_file;
    /* each write at the end the previous one left: no two in flight */
    bool writes_at_end;
    /* empties its file when it is full and writes it again: what it
     * wrote before is gone */
    bool truncates_when_full;
    /* a new file: emptied and made durable before the measured ops */
    bool creates_file;
    /* offsets drawn at random (reads advise the kernel so) */
    bool random_offsets;
    /* the jobs of one shared file start each at its own share of it */
    bool spreads_shared_jobs;
    /* --jobs means committers of one stream: they share one rate
     * schedule and one trace */
    bool jobs_share_stream;
    /* a commit schedule: no interval, sync_every, shared file, nor a
     * fixed rate unless the jobs share the stream */
    bool commit_schedule;
};

/* The row of a pattern (a valid one: the configuration was validated). */
const struct pattern_ops *pattern_ops_of(enum diskio_pattern pattern);

static inline bool pattern_grows_file(enum diskio_pattern p)
{
    return pattern_ops_of(p)->grows_file;
}
static inline enum pattern_params pattern_params_of(enum diskio_pattern p)
{
    return pattern_ops_of(p)->params;
}
/* A fixed rate: a commit schedule takes one only when its jobs share
 * the stream (they share the rate's schedule) */
static inline bool pattern_takes_rate(const struct pattern_ops *pops)
{
    return !pops->commit_schedule || pops->jobs_share_stream;
}

#endif
