/* SPDX-License-Identifier: MIT */
/*
 * The pattern table: every fact the library decides about a write
 * pattern, one row per pattern (patterns.h says what each column means).
 */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "modes.h"
#include "patterns.h"
#include "pipeline.h"
#include "trace.h"

/* PostgreSQL writes its WAL in these modes (its wal_sync_method, or
 * fsync = off). */
static bool takes_pg_wal_mode(const struct mode_ops *ops)
{
    return mode_is_pg_wal(ops);
}

/* The checkpointer syncs its data files (fsync, or fdatasync). */
static bool takes_syncing_mode(const struct mode_ops *ops)
{
    return ops->sync != MODE_SYNC_NONE;
}

/* PostgreSQL writes its WAL in every wal_sync_method, and opens it
 * without O_DIRECT unless told to (debug_io_direct). */
static bool pg_wal_default_mode(const struct mode_ops *ops)
{
    return ops->pg_wal_sync_method && !ops->direct;
}

/* The checkpointer calls fsync on each file it wrote. */
static bool pg_checkpoint_default_mode(const struct mode_ops *ops)
{
    return ops->sync == MODE_SYNC_FSYNC;
}

static const struct pattern_ops patterns[] = {
    [DISKIO_PATTERN_SEQ] = {.name = "seq",
                            .run = engine_run_jobs,
                            .trace_header = TRACE_HEADER,
                            .unnamed_in_label = true,
                            .sequential = true,
                            .spreads_shared_jobs = true},
    [DISKIO_PATTERN_RAND] = {.name = "rand",
                             .run = engine_run_jobs,
                             .trace_header = TRACE_HEADER,
                             .random_offsets = true},
    [DISKIO_PATTERN_APPEND] = {.name = "append",
                               .run = engine_run_jobs,
                               .trace_header = TRACE_HEADER,
                               .grows_file = true,
                               .writes_at_end = true,
                               .truncates_when_full = true},
    [DISKIO_PATTERN_CREATE] = {.name = "create",
                               .run = engine_run_jobs,
                               .trace_header = TRACE_HEADER,
                               .grows_file = true,
                               .creates_file = true},
    [DISKIO_PATTERN_WAL] =
        {
            .name = "wal",
            .run = engine_run_wal,
            .takes_mode = takes_pg_wal_mode,
            .pg_default_mode = pg_wal_default_mode,
            .params = PATTERN_PARAMS_WAL,
            .own_files = "WAL segment files",
            .trace_header = WAL_TRACE_HEADER,
            .jobs_share_stream = true,
            .commit_schedule = true,
        },
    [DISKIO_PATTERN_CHECKPOINT] =
        {
            .name = "checkpoint",
            .run = engine_run_checkpoint,
            .takes_mode = takes_syncing_mode,
            .pg_default_mode = pg_checkpoint_default_mode,
            .params = PATTERN_PARAMS_CHECKPOINT,
            .own_files = "files",
            .trace_header = CHECKPOINT_TRACE_HEADER,
            .commit_schedule = true,
        },
};

_Static_assert(sizeof patterns / sizeof patterns[0] == DISKIO_PATTERN_LAST + 1,
               "a row for every pattern");

const struct pattern_ops *pattern_ops_of(enum diskio_pattern pattern)
{
    return &patterns[(unsigned)pattern <= DISKIO_PATTERN_LAST ? pattern : DISKIO_PATTERN_SEQ];
}

const char *diskio_pattern_name(enum diskio_pattern p)
{
    return (unsigned)p <= DISKIO_PATTERN_LAST ? patterns[p].name : NULL;
}

size_t diskio_pattern_count(void)
{
    return DISKIO_PATTERN_LAST + 1;
}

bool diskio_pattern_grows_file(enum diskio_pattern p)
{
    return (unsigned)p <= DISKIO_PATTERN_LAST && patterns[p].grows_file;
}

/* The public view of each row, made once from the rows themselves. */
static struct diskio_pattern_info infos[DISKIO_PATTERN_LAST + 1];
static pthread_once_t infos_once = PTHREAD_ONCE_INIT;

static void infos_fill(void)
{
    for (unsigned p = 0; p <= DISKIO_PATTERN_LAST; p++) {
        const struct pattern_ops *row = &patterns[p];
        infos[p] = (struct diskio_pattern_info){
            .name = row->name,
            .params = (enum diskio_pattern_params)row->params,
            .own_files = row->own_files,
            .sequential = row->sequential,
            .named_in_label = !row->unnamed_in_label,
            .grows_file = row->grows_file,
            .truncates_when_full = row->truncates_when_full,
            .takes_rate = pattern_takes_rate(row),
            .jobs_share_stream = row->jobs_share_stream,
            .wal_sync_methods = row->takes_mode == takes_pg_wal_mode,
        };
    }
}

const struct diskio_pattern_info *diskio_pattern_info(enum diskio_pattern p)
{
    if ((unsigned)p > DISKIO_PATTERN_LAST)
        return NULL;
    pthread_once(&infos_once, infos_fill);
    return &infos[p];
}

bool diskio_pattern_pg_default_mode(enum diskio_pattern p, enum diskio_mode m)
{
    const struct mode_ops *ops = mode_ops_of(m);
    return (unsigned)p <= DISKIO_PATTERN_LAST && ops && patterns[p].pg_default_mode &&
           patterns[p].pg_default_mode(ops);
}

int diskio_pattern_parse(const char *name, enum diskio_pattern *out)
{
    for (unsigned p = 0; p <= DISKIO_PATTERN_LAST; p++) {
        if (name && out && strcmp(name, patterns[p].name) == 0) {
            *out = (enum diskio_pattern)p;
            return 0;
        }
    }
    return -EINVAL;
}
