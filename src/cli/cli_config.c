/* SPDX-License-Identifier: MIT */
/*
 * From options to the library's config, and from the library's verdict
 * back to the option: the command decides no run rule of its own here,
 * it maps (cli_config) and reports (cli_check_runs).
 */
#include "config.h"

#include <stdio.h>

#include "cli_options.h"

/* The option that sets a field of the library's config. */
static const char *option_of(enum diskio_config_field field)
{
    switch (field) {
    case DISKIO_FIELD_MODE: return "--mode";
    case DISKIO_FIELD_PATTERN: return "--pattern";
    case DISKIO_FIELD_BLOCK_SIZE: return "--bs";
    case DISKIO_FIELD_FILE_SIZE: return "--size";
    case DISKIO_FIELD_COUNT: return "--count";
    case DISKIO_FIELD_IODEPTH: return "--iodepth";
    case DISKIO_FIELD_SYNC_EVERY: return "--sync-every";
    case DISKIO_FIELD_RATE_INTERVAL: return "--rate";
    case DISKIO_FIELD_BATCH: return "--batch";
    case DISKIO_FIELD_INTERVAL: return "--interval";
    case DISKIO_FIELD_JOBS: return "--jobs";
    case DISKIO_FIELD_CACHED: return "--cached";
    case DISKIO_FIELD_VERIFY: return "--verify";
    case DISKIO_FIELD_WRITE_BACK: return "--write-back";
    case DISKIO_FIELD_OP_HOOK: return "--durability";
    case DISKIO_FIELD_WAL: return "--wal-bytes, --wal-segment-size";
    case DISKIO_FIELD_CHECKPOINT: return "--checkpoint-files, --checkpoint-pages";
    case DISKIO_FIELD_NONE: break;
    }
    return "options";
}

void cli_config(const struct cli_options *o, enum diskio_mode mode, uint64_t block_size,
                struct diskio_config *cfg)
{
    diskio_config_init(cfg);
    cfg->mode = mode;
    cfg->pattern = o->pattern;
    cfg->block_size = block_size;
    cfg->file_size = o->file_size - o->file_size % block_size;
    cfg->count = o->count;
    cfg->runtime_ns = o->runtime_ns;
    cfg->warmup = o->warmup;
    /* one --iodepth and --sync-every for a list of modes: each applies
     * to the modes it means something to, the others keep the default */
    if (diskio_mode_is_queued(mode)) {
        cfg->iodepth = o->iodepth;
        cfg->batch = o->batch;
    }
    if (diskio_mode_syncs(mode))
        cfg->sync_every = o->sync_every;
    if (mode == DISKIO_MODE_READ)
        cfg->cached = o->cached;
    if (diskio_mode_is_read(mode))
        cfg->verify = o->verify;
    if (mode == DISKIO_MODE_READ || mode == DISKIO_MODE_DIRECT_READ)
        cfg->write_back = o->write_back;
    cfg->seed = o->seed;
    cfg->rate_interval_ns = o->rate_interval_ns;
    cfg->interval_ns = o->interval_ns;
    /* the first of a --jobs list; the command sets each in turn */
    cfg->jobs = o->njobs ? o->jobs[0] : 1;
    cfg->shared_file = o->shared_file;
    cfg->wal_bytes = o->wal_bytes;
    cfg->wal_segment_size = o->wal_segment_size;
    cfg->wal_recycle = o->wal_recycle;
    cfg->wal_gap_ns = o->wal_gap_ns;
    cfg->checkpoint_files = o->checkpoint_files;
    cfg->checkpoint_pages = o->checkpoint_pages;
    cfg->checkpoint_flush_after = o->checkpoint_flush_after;
}

/*
 * The library decides what a run may be.  Every run the options make
 * (each mode with each block size) is checked, and the earliest rule any
 * of them breaks (rules are numbered in the order the library checks
 * them) is reported against the option that set the field it blames.
 */
int cli_check_runs(const struct cli_options *o, uint64_t largest_bs, char *err, size_t size)
{
    struct diskio_config_verdict worst = {.rule = DISKIO_RULE_OK, .field = DISKIO_FIELD_NONE};
    uint64_t worst_bs = 0;
    for (size_t s = 0; s < o->nsizes; s++) {
        for (size_t m = 0; m < o->nmodes; m++) {
            for (size_t j = 0; j < (o->njobs ? o->njobs : 1); j++) {
                struct diskio_config cfg;
                struct diskio_config_verdict v;
                cli_config(o, o->modes[m], o->block_sizes[s], &cfg);
                if (o->njobs)
                    cfg.jobs = o->jobs[j];
                /* the command gives each run of several jobs no trace */
                if (o->trace)
                    cfg.trace_fd = 0;
                if (diskio_config_validate(&cfg, &v) != 0 &&
                    (worst.rule == DISKIO_RULE_OK || v.rule < worst.rule)) {
                    worst = v;
                    worst_bs = o->block_sizes[s];
                }
            }
        }
    }
    if (worst.rule == DISKIO_RULE_FILE_SIZE)
        return cli_fail(err, size,
                        "--size: the file (%llu bytes) must hold at least one block of "
                        "--bs (%llu bytes)",
                        (unsigned long long)o->file_size, (unsigned long long)largest_bs);

    /* Whether an option given once applies to any mode in the list is the
     * command's own question (the library sees one mode at a time). */
    bool has_queued = false, has_sync = false, has_read = false, has_buffered_read = false,
         has_sync_read = false;
    for (size_t i = 0; i < o->nmodes; i++) {
        has_sync_read |= o->modes[i] == DISKIO_MODE_READ || o->modes[i] == DISKIO_MODE_DIRECT_READ;
        has_queued |= diskio_mode_is_queued(o->modes[i]);
        has_sync |= diskio_mode_syncs(o->modes[i]);
        has_read |= diskio_mode_is_read(o->modes[i]);
        has_buffered_read |= o->modes[i] == DISKIO_MODE_READ;
    }
    if (o->iodepth > 1 && !has_queued)
        return cli_fail(err, size,
                        "--iodepth: applies to modes aio, uring, aio-read and uring-read only, "
                        "none is selected");
    if (o->batch > 1 && !has_queued)
        return cli_fail(err, size,
                        "--batch: applies to modes aio, uring, aio-read and uring-read only, "
                        "none is selected");
    if (o->cached && !has_buffered_read)
        return cli_fail(err, size,
                        "--cached: applies to mode read only (the O_DIRECT reads bypass the "
                        "cache); add --mode read");
    if (o->verify && !has_read)
        return cli_fail(err, size,
                        "--verify: checks what the read modes read; add one of --mode read, "
                        "direct-read, aio-read, uring-read");
    if (o->write_back && !has_sync_read)
        return cli_fail(err, size,
                        "--write-back: writes back blocks that modes read and direct-read read; "
                        "add one of them");
    if (o->verify && o->allow_device)
        return cli_fail(err, size,
                        "--verify: checks the data diskio filled its test file with; a block "
                        "device is not filled");
    if (has_read && o->pattern == DISKIO_PATTERN_APPEND)
        return cli_fail(err, size,
                        "--pattern append: the read modes read the filled file; use seq or "
                        "rand, or run the read modes separately");
    if (has_read && o->pattern == DISKIO_PATTERN_CREATE)
        return cli_fail(err, size,
                        "--pattern create: the read modes read the filled file; use seq or "
                        "rand, or run the read modes separately");
    if (o->wal_option_given && o->pattern != DISKIO_PATTERN_WAL)
        return cli_fail(err, size,
                        "--wal-bytes, --wal-segment-size, --wal-recycle and --wal-gap apply to "
                        "--pattern wal only");
    if (o->checkpoint_option_given && o->pattern != DISKIO_PATTERN_CHECKPOINT)
        return cli_fail(err, size,
                        "--checkpoint-files, --checkpoint-pages and --checkpoint-flush-after "
                        "apply to --pattern checkpoint only");
    /* the committers of one WAL trace into one file: one per run */
    if (o->trace && o->njobs > 1 && o->pattern == DISKIO_PATTERN_WAL)
        return cli_fail(err, size,
                        "--jobs: give one count with --trace (one trace per mode and block "
                        "size)");
    if (o->sync_every > 1 && !has_sync)
        return cli_fail(
            err, size,
            "--sync-every: applies to modes fsync and fdatasync only, neither is selected");

    switch (worst.rule) {
    case DISKIO_RULE_OK: return 0;
    case DISKIO_RULE_PATTERN_MODE:
        return cli_fail(err, size,
                        o->pattern == DISKIO_PATTERN_WAL
                            ? "--pattern wal: --mode takes PostgreSQL's wal_sync_method: "
                              "fdatasync, fsync, odsync (open_datasync), osync (open_sync), "
                              "direct-dsync (open_datasync with O_DIRECT) or async (fsync off)"
                            : "--pattern checkpoint: --mode takes fsync (what PostgreSQL's "
                              "checkpointer calls) or fdatasync");
    case DISKIO_RULE_PATTERN_OPTIONS:
        return cli_fail(err, size, "--pattern %s: %s", diskio_pattern_name(o->pattern),
                        o->rate_interval_ns ? "--rate does not apply (commits go back to back)"
                        : o->interval_ns    ? "--interval does not apply"
                        : o->sync_every > 1 ? "--sync-every does not apply (the pattern syncs "
                                              "as PostgreSQL does)"
                        : o->shared_file    ? "--shared-file does not apply (the committers "
                                              "share one WAL already)"
                                            : "one --jobs only (a checkpoint is one process)");
    case DISKIO_RULE_WAL:
        return cli_fail(err, size,
                        "--pattern wal: --wal-segment-size (%llu) must be a multiple of --bs of "
                        "at least 2 blocks, and --wal-bytes (%llu) at most the segment size",
                        (unsigned long long)o->wal_segment_size, (unsigned long long)o->wal_bytes);
    case DISKIO_RULE_CHECKPOINT:
        return cli_fail(err, size,
                        "--pattern checkpoint: --checkpoint-pages (%llu) must be at most half "
                        "the blocks of --checkpoint-files (%u) files of --size (%llu bytes); "
                        "use fewer pages, more files or a larger --size",
                        (unsigned long long)o->checkpoint_pages, o->checkpoint_files,
                        (unsigned long long)o->file_size);
    case DISKIO_RULE_RATE_QUEUED:
        return cli_fail(err, size,
                        "--rate: applies to the synchronous modes; drop aio and uring "
                        "from --mode");
    case DISKIO_RULE_QUEUE_BUFFERS:
        return cli_fail(err, size, "--iodepth: %u requests of %llu bytes exceed 256 MiB of buffers",
                        o->iodepth, (unsigned long long)largest_bs);
    case DISKIO_RULE_APPEND_QUEUED:
        return cli_fail(err, size,
                        "--pattern append: modes aio and uring can keep only one append in "
                        "flight; use --iodepth 1 or another pattern");
    case DISKIO_RULE_FILE_IODEPTH:
        return cli_fail(err, size, "--size: the file must hold at least --iodepth (%u) blocks",
                        o->iodepth);
    case DISKIO_RULE_DIRECT_ALIGN:
        return cli_fail(err, size, "--bs: %llu is not a multiple of 512, which O_DIRECT modes need",
                        (unsigned long long)worst_bs);
    case DISKIO_RULE_BATCH:
        return cli_fail(err, size,
                        "--batch: %u requests per submission exceed --iodepth (%u); use at "
                        "most --iodepth",
                        o->batch, o->iodepth);
    case DISKIO_RULE_INTERVAL:
        if (o->interval_ns < DISKIO_INTERVAL_MIN_NS)
            return cli_fail(err, size, "--interval: %.3g s is shorter than 10ms; use 10ms or more",
                            (double)o->interval_ns / 1e9);
        if (o->interval_ns > o->runtime_ns)
            return cli_fail(err, size,
                            "--interval: %.3g s is longer than the --runtime (%.3g s); use at "
                            "most the runtime",
                            (double)o->interval_ns / 1e9, (double)o->runtime_ns / 1e9);
        uint64_t shortest_ns = o->runtime_ns / (DISKIO_INTERVALS_MAX + 1u) + 1;
        return cli_fail(err, size,
                        "--interval: %.6g s makes more than %u intervals of the --runtime "
                        "(%.6g s); use at least %llu ms",
                        (double)o->interval_ns / 1e9, DISKIO_INTERVALS_MAX,
                        (double)o->runtime_ns / 1e9,
                        (unsigned long long)((shortest_ns + 999999u) / 1000000u));
    case DISKIO_RULE_JOBS_COMBINATION:
        return cli_fail(err, size, "--jobs: %s",
                        o->rate_interval_ns ? "several jobs cannot keep one fixed --rate; give "
                                              "--rate with --jobs 1 only"
                        : o->trace ? "several jobs write no --trace (one op stream per trace); "
                                     "trace with --jobs 1 only"
                                   : "several jobs cannot append to one --shared-file (each "
                                     "would truncate it under the others); drop --shared-file "
                                     "or use --pattern seq or rand");
    default:
        /* rules the option parsers already enforce: named generically */
        return cli_fail(err, size, "%s: %s", option_of(worst.field), worst.message);
    }
}
