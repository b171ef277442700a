/* SPDX-License-Identifier: MIT */
/*
 * From options to the library's config, and from the library's verdict
 * back to the option: the command decides no run rule of its own here.
 * Where an option's value goes and which runs it reaches is the option
 * table's (cli_option_table.c); whether a run may be is the library's
 * (diskio_config_validate_target()); the command maps (cli_config) and
 * reports (cli_check_runs).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli_fail.h"
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
    case DISKIO_FIELD_STEADY: return "--steady";
    case DISKIO_FIELD_NONE: break;
    }
    return "options";
}

static void store(void *base, size_t off, size_t size, uint64_t v)
{
    char *p = (char *)base + off;
    if (size == sizeof(uint64_t)) {
        memcpy(p, &v, sizeof(v));
    } else {
        unsigned u = (unsigned)v;
        memcpy(p, &u, sizeof(u));
    }
}

void cli_config(const struct cli_options *o, enum diskio_mode mode, uint64_t block_size,
                struct diskio_config *cfg)
{
    diskio_config_init(cfg);
    cfg->mode = mode;
    cfg->block_size = block_size;
    cfg->file_size = o->file_size - o->file_size % block_size;
    /* the first of a --jobs list; the command sets each in turn */
    cfg->jobs = o->njobs ? o->jobs[0] : 1;
    /* every other option's value, where the table says it goes: one
     * --iodepth for a list of modes, say, reaches the modes it means
     * something to, the others keep the library's default */
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++)
        if (opt->cfg_size && cli_option_applies(opt, mode, o->pattern))
            store(cfg, opt->cfg_off, opt->cfg_size, cli_field_load(o, opt->off, opt->size));
    /* --steady: the spec lives as long as the options */
    if (o->steady_on)
        cfg->steady = &o->steady;
    /* --target: a fixed rate, each point's own (the rules are those of
     * --rate) */
    if (o->capacity_on)
        cfg->rate_interval_ns = 1000000;
}

/* ---- checking the runs ---- */

/* The earliest rule any run o makes breaks (the library numbers its
 * rules in the order it checks them), and that run's block size. */
struct runs_verdict {
    struct diskio_config_verdict worst;
    uint64_t bs;
};

static void judge_runs(const struct cli_options *o, struct runs_verdict *r)
{
    /* --allow-device: the target may be a block device */
    const unsigned target_flags = o->allow_device ? DISKIO_TARGET_DEVICE : 0;
    r->worst = (struct diskio_config_verdict){.rule = DISKIO_RULE_OK, .field = DISKIO_FIELD_NONE};
    r->bs = 0;
    for (size_t s = 0; s < o->nsizes; s++) {
        for (size_t m = 0; m < o->nmodes; m++) {
            for (size_t j = 0; j < (o->njobs ? o->njobs : 1); j++) {
                struct diskio_config cfg;
                struct diskio_run_options opts;
                struct diskio_config_verdict v;
                cli_config(o, o->modes[m], o->block_sizes[s], &cfg);
                if (o->njobs)
                    cfg.jobs = o->jobs[j];
                /* the command gives each run of several jobs no trace */
                diskio_run_options_init(&opts);
                if (o->trace)
                    opts.trace_fd = 0;
                if (diskio_config_validate_opts(&cfg, &opts, target_flags, &v) != 0 &&
                    (r->worst.rule == DISKIO_RULE_OK || v.rule < r->worst.rule)) {
                    r->worst = v;
                    r->bs = o->block_sizes[s];
                }
            }
        }
    }
}

/* Whether opt would change a run: given at all (CLI_SCOPE_GIVEN), or
 * with another value than the library's default. */
static bool option_set(const struct cli_options *o, const struct cli_option *opt)
{
    if (!cli_option_given(o, opt))
        return false;
    if ((opt->flags & CLI_SCOPE_GIVEN) || !opt->cfg_size)
        return true;
    struct diskio_config defaults;
    diskio_config_init(&defaults);
    return cli_field_load(o, opt->off, opt->size) !=
           cli_field_load(&defaults, opt->cfg_off, opt->cfg_size);
}

/* "--a, --b and --c": the options of scope. */
static void scope_options(enum cli_scope scope, char *out, size_t size)
{
    const struct cli_option *in[16];
    size_t n = 0, used = 0;
    for (const struct cli_option *opt = cli_option_table; opt->name && n < 16; opt++)
        if (opt->scope == scope)
            in[n++] = opt;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s--%s",
                                 i == 0       ? ""
                                 : i + 1 == n ? " and "
                                              : ", ",
                                 in[i]->name);
}

/* An option set for none of the runs it applies to: the command's own
 * question, as the library sees one run at a time. */
static int check_scopes(const struct cli_options *o, char *err, size_t size)
{
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        if (opt->scope == CLI_EVERY_RUN || !option_set(o, opt))
            continue;
        bool applies = false;
        for (size_t m = 0; m < o->nmodes && !applies; m++)
            applies = cli_option_applies(opt, o->modes[m], o->pattern);
        if (applies)
            continue;
        char text[512];
        const enum diskio_pattern_params params = cli_scope_params(opt->scope);
        if (params != DISKIO_PARAMS_NONE) {
            scope_options(opt->scope, text, sizeof(text));
            return cli_fail(err, size, "%s apply to --pattern %s only", text,
                            cli_params_pattern(params));
        }
        cli_expand(opt, opt->scope_message, text, sizeof(text));
        return cli_fail(err, size, "--%s: %s", opt->name, text);
    }
    return 0;
}

/* A mode the library takes for pattern, as a refusal names it: a WAL's
 * with its wal_sync_method where that is another name ("odsync
 * (open_datasync)", "async (fsync off)"). */
static void pattern_mode_text(enum diskio_pattern pattern, enum diskio_mode mode, char *out,
                              size_t size)
{
    const char *method = diskio_mode_pg_wal_sync_method(mode);
    if (!diskio_pattern_info(pattern)->wal_sync_methods ||
        (method && strcmp(method, diskio_mode_name(mode)) == 0 && !diskio_mode_is_direct(mode)))
        snprintf(out, size, "%s", diskio_mode_name(mode));
    else
        snprintf(out, size, "%s (%s%s)", diskio_mode_name(mode), method ? method : "fsync off",
                 method && diskio_mode_is_direct(mode) ? " with O_DIRECT" : "");
}

/* The modes the library takes for pattern: "a, b or c". */
static void pattern_modes(enum diskio_pattern pattern, char *out, size_t size)
{
    char text[CLI_MAX_MODES][64];
    size_t n = 0, used = 0;
    for (unsigned m = 0; m < diskio_mode_count() && n < CLI_MAX_MODES; m++) {
        struct diskio_config cfg;
        diskio_config_init(&cfg);
        cfg.mode = (enum diskio_mode)m;
        cfg.pattern = pattern;
        if (diskio_config_validate(&cfg, NULL) == 0)
            pattern_mode_text(pattern, cfg.mode, text[n++], sizeof(text[0]));
    }
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s",
                                 i == 0       ? ""
                                 : i + 1 == n ? " or "
                                              : ", ",
                                 text[i]);
}

/* The option of o that the pattern does not take
 * (DISKIO_RULE_PATTERN_OPTIONS), and why. */
static const char *pattern_options_problem(const struct cli_options *o)
{
    if ((o->rate_interval_ns || o->capacity_on) && diskio_pattern_info(o->pattern)->takes_rate)
        return "--rate (and --target) and --wal-gap do not go together (a schedule of commits, "
               "or a pause after each)";
    if (o->rate_interval_ns || o->capacity_on)
        return "--rate and --target do not apply (a checkpoint's pages go back to back)";
    if (o->steady_on)
        return "--steady does not apply (the pattern keeps no interval series to judge)";
    if (o->interval_ns)
        return "--interval does not apply";
    if (o->sync_every > 1)
        return "--sync-every does not apply (the pattern syncs as PostgreSQL does)";
    if (o->shared_file)
        return "--shared-file does not apply (the committers share one WAL already)";
    return "one --jobs only (a checkpoint is one process)";
}

/* What several jobs cannot go with in o (DISKIO_RULE_JOBS_COMBINATION). */
static const char *jobs_problem(const struct cli_options *o)
{
    if (o->capacity_on)
        return "several jobs cannot share the offered rate of --target but as the committers of "
               "--pattern wal; give --jobs 1 or --pattern wal";
    if (o->rate_interval_ns)
        return "several jobs cannot keep one fixed --rate (the committers of --pattern wal can); "
               "give --rate with --jobs 1 only";
    if (o->trace)
        return "several jobs write no --trace (one op stream per trace); trace with --jobs 1 only";
    return "several jobs cannot append to one --shared-file (each would truncate it under the "
           "others); drop --shared-file or use --pattern seq or rand";
}

/* --interval against the runtime (DISKIO_RULE_INTERVAL): -1 with the
 * message. */
static int interval_fail(const struct cli_options *o, char *err, size_t size)
{
    if (o->interval_ns < DISKIO_INTERVAL_MIN_NS)
        return cli_fail(err, size, "--interval: %.3g s is shorter than %gms; use %gms or more",
                        (double)o->interval_ns / 1e9, (double)DISKIO_INTERVAL_MIN_NS / 1e6,
                        (double)DISKIO_INTERVAL_MIN_NS / 1e6);
    if (o->interval_ns > o->runtime_ns)
        return cli_fail(err, size,
                        "--interval: %.3g s is longer than the --runtime (%.3g s); use at "
                        "most the runtime",
                        (double)o->interval_ns / 1e9, (double)o->runtime_ns / 1e9);
    uint64_t shortest_ns = o->runtime_ns / (DISKIO_INTERVALS_MAX + 1u) + 1;
    return cli_fail(err, size,
                    "--interval: %.6g s makes more than %u intervals of the --runtime "
                    "(%.6g s); use at least %llu ms",
                    (double)o->interval_ns / 1e9, DISKIO_INTERVALS_MAX, (double)o->runtime_ns / 1e9,
                    (unsigned long long)((shortest_ns + 999999u) / 1000000u));
}

/* The library's verdict on the runs, against the option that caused it. */
static int report_rule(const struct cli_options *o, const struct runs_verdict *r,
                       uint64_t largest_bs, char *err, size_t size)
{
    switch (r->worst.rule) {
    case DISKIO_RULE_OK: return 0;
    case DISKIO_RULE_FILE_SIZE:
        return cli_fail(err, size,
                        "--size: the file (%llu bytes) must hold at least one block of "
                        "--bs (%llu bytes)",
                        (unsigned long long)o->file_size, (unsigned long long)largest_bs);
    case DISKIO_RULE_READ_PATTERN:
        return cli_fail(err, size,
                        "--pattern %s: the read modes read the filled file; use seq or rand, or "
                        "run the read modes separately",
                        diskio_pattern_name(o->pattern));
    case DISKIO_RULE_VERIFY_DEVICE:
        return cli_fail(err, size,
                        "--verify: checks the data diskio filled its test file with; a block "
                        "device is not filled");
    case DISKIO_RULE_PATTERN_MODE: {
        char modes[512];
        pattern_modes(o->pattern, modes, sizeof(modes));
        return cli_fail(err, size,
                        diskio_pattern_info(o->pattern)->wal_sync_methods
                            ? "--pattern %s: --mode takes PostgreSQL's wal_sync_method: %s"
                            : "--pattern %s: --mode takes a mode with a sync call (fsync is what "
                              "PostgreSQL's checkpointer calls): %s",
                        diskio_pattern_name(o->pattern), modes);
    }
    case DISKIO_RULE_PATTERN_OPTIONS:
        return cli_fail(err, size, "--pattern %s: %s", diskio_pattern_name(o->pattern),
                        pattern_options_problem(o));
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
                        "%s: applies to the synchronous modes; drop aio and uring from --mode",
                        o->capacity_on ? "--target (it offers a fixed rate)" : "--rate");
    case DISKIO_RULE_QUEUE_BUFFERS:
        return cli_fail(err, size,
                        "--iodepth: %u requests of %llu bytes exceed %llu MiB of buffers",
                        o->iodepth, (unsigned long long)largest_bs,
                        (unsigned long long)(DISKIO_QUEUE_BYTES_MAX >> 20));
    case DISKIO_RULE_APPEND_QUEUED:
        return cli_fail(err, size,
                        "--pattern append: modes aio and uring can keep only one append in "
                        "flight; use --iodepth 1 or another pattern");
    case DISKIO_RULE_FILE_IODEPTH:
        return cli_fail(err, size, "--size: the file must hold at least --iodepth (%u) blocks",
                        o->iodepth);
    case DISKIO_RULE_DIRECT_ALIGN:
        return cli_fail(err, size, "--bs: %llu is not a multiple of %u, which O_DIRECT modes need",
                        (unsigned long long)r->bs, DISKIO_DIRECT_ALIGN);
    case DISKIO_RULE_BATCH:
        return cli_fail(err, size,
                        "--batch: %u requests per submission exceed --iodepth (%u); use at "
                        "most --iodepth",
                        o->batch, o->iodepth);
    case DISKIO_RULE_INTERVAL: return interval_fail(o, err, size);
    case DISKIO_RULE_JOBS_COMBINATION: return cli_fail(err, size, "--jobs: %s", jobs_problem(o));
    default:
        /* rules the option parsers already enforce: named generically */
        return cli_fail(err, size, "%s: %s", option_of(r->worst.field), r->worst.message);
    }
}

/*
 * Every run the options make (each mode with each block size and count
 * of jobs) is checked by the library, and the earliest rule any of them
 * breaks is reported against the option that set the field it blames.
 * Before it: a file that holds no block, then an option no run is in
 * the scope of (in the table's order).
 */
int cli_check_runs(const struct cli_options *o, uint64_t largest_bs, char *err, size_t size)
{
    struct runs_verdict r;
    judge_runs(o, &r);
    if (r.worst.rule == DISKIO_RULE_FILE_SIZE)
        return report_rule(o, &r, largest_bs, err, size);
    if (check_scopes(o, err, size) != 0)
        return -1;
    /* the committers of one WAL trace into one file: one per run */
    if (o->trace && o->njobs > 1 && diskio_pattern_info(o->pattern)->jobs_share_stream)
        return cli_fail(err, size,
                        "--jobs: give one count with --trace (one trace per mode and block "
                        "size)");
    return report_rule(o, &r, largest_bs, err, size);
}
