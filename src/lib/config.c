/* SPDX-License-Identifier: MIT */
/* The configuration API: defaults and the rules a run's options obey,
 * decided here once for the library and the command. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "modes.h"
#include "patterns.h"

void diskio_config_init(struct diskio_config *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof(*cfg));
    cfg->mode = DISKIO_MODE_FSYNC;
    cfg->pattern = DISKIO_PATTERN_SEQ;
    cfg->block_size = 8192;
    cfg->file_size = UINT64_C(64) << 20;
    cfg->count = 1000;
    cfg->iodepth = 1;
    cfg->batch = 1;
    cfg->jobs = 1;
    cfg->sync_every = 1;
    cfg->seed = 1;
    cfg->trace_fd = -1;
    cfg->wal_bytes = DISKIO_WAL_BYTES_DEFAULT;
    cfg->wal_segment_size = UINT64_C(16) << 20;
    cfg->checkpoint_files = 16;
    cfg->checkpoint_pages = 2048;
    cfg->checkpoint_flush_after = 32;
}

/* The modes a pattern takes (its row says; every mode unless it says). */
static bool pattern_takes_mode(const struct pattern_ops *pattern, const struct mode_ops *ops)
{
    return !pattern->takes_mode || pattern->takes_mode(ops);
}

/* What each rule blames and says, by rule. */
static const struct {
    enum diskio_config_field field;
    const char *message;
} rules[] = {
    [DISKIO_RULE_OK] = {DISKIO_FIELD_NONE, NULL},
    [DISKIO_RULE_MODE] = {DISKIO_FIELD_MODE, "unknown mode"},
    [DISKIO_RULE_PATTERN] = {DISKIO_FIELD_PATTERN, "unknown pattern"},
    [DISKIO_RULE_BLOCK_SIZE] = {DISKIO_FIELD_BLOCK_SIZE,
                                "block size must be between 512 bytes and 64 MiB"},
    [DISKIO_RULE_FILE_SIZE] = {DISKIO_FIELD_FILE_SIZE, "file size must be at least one block"},
    [DISKIO_RULE_COUNT] = {DISKIO_FIELD_COUNT, "either a count or a runtime is needed"},
    [DISKIO_RULE_IODEPTH] = {DISKIO_FIELD_IODEPTH, "iodepth must be between 1 and 1024"},
    [DISKIO_RULE_SYNC_EVERY] = {DISKIO_FIELD_SYNC_EVERY, "sync_every must be at least 1"},
    [DISKIO_RULE_RATE_QUEUED] = {DISKIO_FIELD_RATE_INTERVAL,
                                 "a fixed rate applies to synchronous modes, not aio or uring"},
    [DISKIO_RULE_QUEUE_BUFFERS] = {DISKIO_FIELD_IODEPTH,
                                   "iodepth times block size must not exceed 256 MiB (one "
                                   "buffer per request)"},
    [DISKIO_RULE_APPEND_QUEUED] = {DISKIO_FIELD_PATTERN,
                                   "the append pattern cannot keep more than one request in "
                                   "flight"},
    [DISKIO_RULE_FILE_IODEPTH] = {DISKIO_FIELD_FILE_SIZE,
                                  "the file must hold at least iodepth blocks"},
    [DISKIO_RULE_DIRECT_ALIGN] = {DISKIO_FIELD_BLOCK_SIZE,
                                  "O_DIRECT modes need a block size that is a multiple of 512 "
                                  "bytes"},
    [DISKIO_RULE_BATCH] = {DISKIO_FIELD_BATCH,
                           "batch must be between 1 and iodepth, and applies to aio and uring "
                           "only"},
    [DISKIO_RULE_INTERVAL] =
        {DISKIO_FIELD_INTERVAL,
         "the interval must be at least 10 ms, at most the runtime, and fit the "
         "runtime at most 100000 times"},
    [DISKIO_RULE_JOBS] = {DISKIO_FIELD_JOBS, "jobs must be between 1 and 256"},
    [DISKIO_RULE_JOBS_COMBINATION] = {DISKIO_FIELD_JOBS,
                                      "several jobs cannot run at a fixed rate (but the wal "
                                      "pattern's committers), write a trace, or append to (or "
                                      "create) one shared file"},
    [DISKIO_RULE_READ_PATTERN] = {DISKIO_FIELD_PATTERN,
                                  "read modes read the filled file: the append and create "
                                  "patterns do not apply to them"},
    [DISKIO_RULE_CACHED] = {DISKIO_FIELD_CACHED, "cached applies to mode read only"},
    [DISKIO_RULE_VERIFY] = {DISKIO_FIELD_VERIFY, "verify applies to the read modes only"},
    [DISKIO_RULE_WRITE_BACK] = {DISKIO_FIELD_WRITE_BACK,
                                "write-back is a percentage from 0 to 100, for modes read and "
                                "direct-read, without verify"},
    [DISKIO_RULE_OP_HOOK] = {DISKIO_FIELD_OP_HOOK,
                             "an op hook applies to the synchronous write modes (not aio, "
                             "uring or the read modes) with one job"},
    [DISKIO_RULE_PATTERN_MODE] = {DISKIO_FIELD_MODE,
                                  "the wal pattern takes the modes PostgreSQL writes its WAL "
                                  "with (a wal_sync_method, or fsync off: async); the "
                                  "checkpoint pattern the modes with a sync call"},
    [DISKIO_RULE_PATTERN_OPTIONS] = {DISKIO_FIELD_PATTERN,
                                     "the wal and checkpoint patterns take no interval series, "
                                     "sync_every or shared_file, the wal pattern a fixed rate "
                                     "only without a gap, and the checkpoint pattern no fixed "
                                     "rate and one job"},
    [DISKIO_RULE_WAL] = {DISKIO_FIELD_WAL,
                         "wal_bytes must be from 1 to the segment size, and the segment a "
                         "multiple of the block size of at least 2 blocks and at most 1 GiB"},
    [DISKIO_RULE_CHECKPOINT] = {DISKIO_FIELD_CHECKPOINT,
                                "checkpoint_files must be from 1 to 256, and checkpoint_pages "
                                "from 1 to half the blocks of all the files"},
    [DISKIO_RULE_VERIFY_DEVICE] = {DISKIO_FIELD_VERIFY,
                                   "verify checks the data the library filled its test file "
                                   "with; a block device is not filled"},
    [DISKIO_RULE_STEADY] = {DISKIO_FIELD_STEADY,
                            "steady state is judged on an interval series within a runtime: it "
                            "needs interval_ns and runtime_ns, a window of 2 to 1000 intervals "
                            "and limits above 0"},
};

/* The first rule cfg breaks on a target of target_flags, checked in the
 * order of enum diskio_config_rule (callers checking several
 * configurations compare verdicts by that order). */
static enum diskio_config_rule first_broken(const struct diskio_config *cfg, unsigned target_flags)
{
    const struct mode_ops *ops = mode_ops_of(cfg->mode);
    if (!ops)
        return DISKIO_RULE_MODE;
    if ((unsigned)cfg->pattern > DISKIO_PATTERN_LAST)
        return DISKIO_RULE_PATTERN;
    const struct pattern_ops *pops = pattern_ops_of(cfg->pattern);
    if (cfg->block_size < DISKIO_BS_MIN || cfg->block_size > DISKIO_BS_MAX)
        return DISKIO_RULE_BLOCK_SIZE;
    if (cfg->file_size < cfg->block_size)
        return DISKIO_RULE_FILE_SIZE;
    if (cfg->count == 0 && cfg->runtime_ns == 0)
        return DISKIO_RULE_COUNT;
    if (cfg->iodepth < 1 || cfg->iodepth > DISKIO_IODEPTH_MAX)
        return DISKIO_RULE_IODEPTH;
    if (cfg->sync_every < 1)
        return DISKIO_RULE_SYNC_EVERY;
    if (ops->queued && cfg->rate_interval_ns)
        return DISKIO_RULE_RATE_QUEUED;
    if (ops->queued && (uint64_t)cfg->iodepth * cfg->block_size > DISKIO_QUEUE_BYTES_MAX)
        return DISKIO_RULE_QUEUE_BUFFERS;
    if (ops->queued && !ops->reads && pops->writes_at_end && cfg->iodepth > 1)
        return DISKIO_RULE_APPEND_QUEUED;
    if (ops->queued && cfg->file_size / cfg->block_size < cfg->iodepth)
        return DISKIO_RULE_FILE_IODEPTH;
    if (ops->direct && cfg->block_size % DISKIO_DIRECT_ALIGN != 0)
        return DISKIO_RULE_DIRECT_ALIGN;
    if (cfg->batch > (ops->queued ? cfg->iodepth : 1u))
        return DISKIO_RULE_BATCH;
    if (cfg->interval_ns &&
        (cfg->interval_ns < DISKIO_INTERVAL_MIN_NS ||
         (cfg->runtime_ns && (cfg->interval_ns > cfg->runtime_ns ||
                              cfg->runtime_ns / cfg->interval_ns > DISKIO_INTERVALS_MAX))))
        return DISKIO_RULE_INTERVAL;
    if (cfg->jobs > DISKIO_JOBS_MAX)
        return DISKIO_RULE_JOBS;
    /* a rate and a trace are one op stream's; several appenders (or
     * creators) of one file would each truncate it under the others */
    /* the committers of one WAL trace into one file, in commit order */
    /* the committers of one WAL share one schedule */
    if (cfg->jobs > 1 && ((cfg->rate_interval_ns && !pops->jobs_share_stream) ||
                          (cfg->trace_fd >= 0 && !pops->jobs_share_stream) ||
                          (cfg->shared_file && pops->grows_file)))
        return DISKIO_RULE_JOBS_COMBINATION;
    if (ops->reads && pops->grows_file)
        return DISKIO_RULE_READ_PATTERN;
    /* the reads through the page cache */
    if (cfg->cached && !(ops->reads && !ops->direct))
        return DISKIO_RULE_CACHED;
    if (cfg->verify && !ops->reads)
        return DISKIO_RULE_VERIFY;
    /* the synchronous read loops only (the queued ones have no slot to
     * write from); a block written back no longer holds the fill */
    if (cfg->write_back && (cfg->write_back > 100 || cfg->verify || !(ops->reads && !ops->queued)))
        return DISKIO_RULE_WRITE_BACK;
    /* the hook runs between one op and the next of one op stream */
    if (cfg->op_hook && (ops->reads || ops->queued || cfg->jobs > 1))
        return DISKIO_RULE_OP_HOOK;
    if (!pattern_takes_mode(pops, ops))
        return DISKIO_RULE_PATTERN_MODE;
    const bool wal = pops->params == PATTERN_PARAMS_WAL;
    const bool checkpoint = pops->params == PATTERN_PARAMS_CHECKPOINT;
    /* a commit schedule has no room for a gap after each commit */
    if (pops->commit_schedule &&
        ((cfg->rate_interval_ns && (!pattern_takes_rate(pops) || cfg->wal_gap_ns)) ||
         cfg->interval_ns || cfg->sync_every > 1 || cfg->shared_file ||
         (!pops->jobs_share_stream && cfg->jobs > 1)))
        return DISKIO_RULE_PATTERN_OPTIONS;
    if (wal && (cfg->wal_segment_size % cfg->block_size != 0 ||
                cfg->wal_segment_size < 2 * cfg->block_size ||
                cfg->wal_segment_size > DISKIO_WAL_SEGMENT_MAX || cfg->wal_bytes == 0 ||
                cfg->wal_bytes > cfg->wal_segment_size))
        return DISKIO_RULE_WAL;
    if (checkpoint &&
        (cfg->checkpoint_files == 0 || cfg->checkpoint_files > DISKIO_JOBS_MAX ||
         cfg->checkpoint_pages == 0 ||
         cfg->checkpoint_pages > cfg->checkpoint_files * (cfg->file_size / cfg->block_size) / 2))
        return DISKIO_RULE_CHECKPOINT;
    /* a device is never filled: there is nothing to check a read against */
    if ((target_flags & DISKIO_TARGET_DEVICE) && cfg->verify)
        return DISKIO_RULE_VERIFY_DEVICE;
    if (cfg->steady &&
        (!cfg->interval_ns || !cfg->runtime_ns || diskio_steady_spec_check(cfg->steady) != 0))
        return DISKIO_RULE_STEADY;
    return DISKIO_RULE_OK;
}

int diskio_config_validate_target(const struct diskio_config *cfg, unsigned target_flags,
                                  struct diskio_config_verdict *v)
{
    enum diskio_config_rule rule = cfg ? first_broken(cfg, target_flags) : DISKIO_RULE_OK;
    if (v) {
        v->rule = rule;
        v->field = rules[rule].field;
        v->message = cfg ? rules[rule].message : "there is no configuration to check (cfg is NULL)";
    }
    return (!cfg || rule != DISKIO_RULE_OK) ? -EINVAL : 0;
}

int diskio_config_validate(const struct diskio_config *cfg, struct diskio_config_verdict *v)
{
    return diskio_config_validate_target(cfg, 0, v);
}

int diskio_config_check(const struct diskio_config *cfg)
{
    return diskio_config_validate(cfg, NULL);
}

const char *diskio_config_problem(const struct diskio_config *cfg)
{
    struct diskio_config_verdict v;
    diskio_config_validate(cfg, &v);
    return v.message;
}
