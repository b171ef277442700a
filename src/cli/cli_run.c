/* SPDX-License-Identifier: MIT */
/* The session's rounds: --repeat's round after round of every run of
 * the plan, each run with its trace, its progress line and (--target)
 * its search said step by step, kept in the result or merged into its
 * earlier rounds; a run's failure said whole. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_msg.h"
#include "cli_session.h"
#include "cli_signals.h"
#include "cli_suite_run.h"
#include "cli_target.h"

/* Sleep ns, or less when a signal arrives (its handler sets cli_stop_signal;
 * the loop sees it). */
static void pause_between_rounds(uint64_t ns)
{
    struct timespec left = {.tv_sec = (time_t)(ns / 1000000000u),
                            .tv_nsec = (long)(ns % 1000000000u)};
    while (!cli_stop_signal && nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
}

/* What a run's failure asks of the user beyond its errno: a call the
 * kernel or filesystem does not take (a per-write flag before Linux 4.7,
 * say) is the mode's, not the storage's. */
static const char *run_error_hint(int rc)
{
    return rc == -EOPNOTSUPP ? "; the kernel or the filesystem does not support the way this "
                               "mode writes (diskio(1), MODES, says what it needs)"
                             : "";
}

/* Why a run failed: the op and what it was doing, or why it could not
 * start. */
static void report_run_error(const struct diskio_config *cfg, const struct diskio_run *run, int rc)
{
    const struct diskio_run_info *info = run ? diskio_run_info(run) : NULL;
    if (info && info->error_job >= 0)
        cli_msg("mode %s: job %d of %u: %s failed at its op %" PRIu64
                ": %s (the other jobs were stopped)%s",
                diskio_mode_name(cfg->mode), info->error_job, cfg->jobs,
                info->error_during ? info->error_during : "run", info->error_op,
                diskio_strerror(rc),
                rc == -DISKIO_E_VERIFY ? "; the storage returned other data than diskio wrote: "
                                         "check it (kernel log, SMART) before trusting data on it"
                                       : run_error_hint(rc));
    else if (info && rc == -DISKIO_E_VERIFY) {
        /* a sequential run's op says where: it wraps at the file's end */
        char where[96] = "";
        uint64_t blocks = cfg->file_size / cfg->block_size;
        if (diskio_pattern_info(cfg->pattern)->sequential && blocks > 0)
            snprintf(where, sizeof(where), " (the block at byte %" PRIu64 ")",
                     (cfg->warmup + info->error_op) % blocks * cfg->block_size);
        cli_msg("mode %s: verify failed at op %" PRIu64
                ": %s%s; the storage returned other data than diskio wrote: check it (kernel log, "
                "SMART) before trusting data on it",
                diskio_mode_name(cfg->mode), info->error_op, diskio_strerror(rc), where);
    } else if (info)
        cli_msg("mode %s: %s failed at op %" PRIu64 ": %s%s", diskio_mode_name(cfg->mode),
                info->error_during ? info->error_during : "run", info->error_op,
                diskio_strerror(rc), run_error_hint(rc));
    else
        cli_msg("mode %s could not start: %s (preparing or opening its %llu-byte test file%s)",
                diskio_mode_name(cfg->mode), diskio_strerror(rc),
                (unsigned long long)cfg->file_size,
                rc == -ENOSPC || rc == -EFBIG || rc == -DISKIO_E_NO_SPACE
                    ? "; a smaller --size needs less room"
                : rc == -DISKIO_E_TARGET_CHANGED
                    ? "; another program replaced it: make sure none renames files in its "
                      "directory"
                    : "");
}

/* The trace of one run, made under its name (FILE.MODE-BS-rN with
 * several runs): its descriptor, or -1 without --trace; -2 when it
 * cannot be made (said why). */
static int open_trace(struct session *s, const struct diskio_config *cfg, unsigned rep, char **path)
{
    *path = NULL;
    if (!s->opt.trace)
        return -1;
    *path = trace_name(s->opt.trace, s->several_runs, cfg->mode, cfg->block_size,
                       s->opt.repeat > 1 ? rep : 0);
    if (!*path || out_file_open(&s->trace, *path, s->opt.force) != 0)
        return -2;
    return fileno(s->trace.stream);
}

/* After the run: a trace keeps what it recorded, interrupted or not; one
 * that could not be written whole is removed.  Either way the run's
 * measurements are in the result.  Whether the run failed at its trace
 * (*failed) and whether the trace could not be saved (*lost). */
static void close_trace(struct session *s, const struct diskio_config *cfg,
                        const struct diskio_run_info *info, int rc, const char *path, bool *failed,
                        bool *lost)
{
    *failed = rc < 0 && info && info->error_during && strcmp(info->error_during, "trace") == 0;
    *lost = false;
    if (*failed) {
        out_file_discard(&s->trace);
        cli_msg("mode %s: could not write its trace %s: %s; %s. The run's measurements are kept "
                "in the result; the incomplete trace was removed.",
                diskio_mode_name(cfg->mode), path, diskio_strerror(rc), out_write_hint(-rc));
    } else if (s->trace.stream) {
        *lost = out_file_commit(&s->trace, s->opt.force, 0) != OUT_SAVED;
        if (*lost)
            cli_msg("mode %s: the run's measurements are kept in the result",
                    diskio_mode_name(cfg->mode));
    }
}

/* Every repetition measured, failed or interrupted ones too, ends up in
 * the result: the first of a plan's as its run, the later ones merged
 * into it (and a suite row's figures of each).  rc, or the error of
 * keeping it. */
static int keep_run(struct session *s, size_t p, struct diskio_run **merged, struct diskio_run *run,
                    int rc)
{
    const struct plan_run *plan = &s->plans[p];
    const struct diskio_run_info *info = diskio_run_info(run);
    if (plan->row != SIZE_MAX) {
        /* the suite's view: each repetition's own figures */
        double seconds = (double)info->duration_ns / 1e9;
        const struct diskio_hist *total = diskio_run_hist(run, DISKIO_PART_TOTAL);
        struct suite_figure fig = {
            .mb_per_s = seconds > 0 ? (double)info->bytes / 1e6 / seconds : 0,
            .iops = seconds > 0 ? (double)info->ops / seconds : 0,
            .mean_us = total ? diskio_hist_mean(total) / 1000.0 : 0,
            .complete = info->complete && rc == 0,
        };
        if (suite_add_figure(&s->suite, plan->row, &fig) != 0 && rc == 0)
            rc = -ENOMEM;
    }
    int keep_rc = 0;
    if (!merged[p]) {
        keep_rc = diskio_result_add_run(s->result, run);
        if (keep_rc == 0)
            merged[p] = run;
        if (keep_rc == 0 && plan->row != SIZE_MAX)
            s->suite.rows[plan->row].run = diskio_result_run_count(s->result) - 1;
    } else {
        keep_rc = diskio_run_merge(merged[p], run);
        diskio_run_free(run);
    }
    if (keep_rc < 0 && rc == 0) {
        cli_msg("mode %s: cannot keep the run: %s", diskio_mode_name(plan->mode),
                diskio_strerror(keep_rc));
        rc = keep_rc;
    }
    return rc;
}

/* --target: each step of the search said as it is measured (the
 * progress line cleared first and started again for the next point). */
struct search_say {
    struct session *s;
    const struct diskio_config *cfg;
    const struct diskio_capacity_spec *spec;
    unsigned number, runs;
};

static void say_step(void *ctx, const struct diskio_capacity_step *st)
{
    const struct search_say *say = ctx;
    const struct diskio_capacity_spec *spec = say->spec;
    progress_run_end(&say->s->progress);
    if (!say->s->opt.quiet) {
        char rate[48] = "as fast as it can";
        if (st->offered_ops_per_s > 0)
            snprintf(rate, sizeof(rate), "%.1f/s offered", st->offered_ops_per_s);
        char p99[48] = "";
        if (spec->percentile != 99.0)
            snprintf(p99, sizeof(p99), ", p99 %.3g ms", (double)st->p99_ns / 1e6);
        cli_msg("--target p%g=%.3g ms: %s %llu B x%u: %s: %s, %.1f/s achieved, p%g %.3g ms%s: %s",
                spec->percentile, (double)spec->target_ns / 1e6, diskio_mode_name(say->cfg->mode),
                (unsigned long long)say->cfg->block_size, st->committers,
                diskio_capacity_phase_name(st->phase), rate, st->achieved_ops_per_s,
                spec->percentile, (double)st->pct_ns / 1e6, p99, st->met ? "met" : "missed");
    }
    progress_run_start(&say->s->progress, say->cfg, say->number, say->runs);
}

/* The run of cfg with the command's hooks opts: one measurement, or
 * with --target the search for its capacity (its steps said as they go).
 * As diskio_run_execute_opts(). */
static int execute(struct session *s, const struct plan_run *plan, const struct diskio_config *cfg,
                   const struct diskio_run_options *opts, unsigned number, unsigned runs,
                   struct diskio_run **run)
{
    if (!plan->opt->capacity_on)
        return diskio_run_execute_opts(cfg, opts, s->target, run);
    struct search_say say = {s, cfg, &plan->opt->capacity, number, runs};
    struct diskio_capacity_spec spec = plan->opt->capacity;
    spec.committers = plan->opt->jobs;
    spec.ncommitters = plan->opt->njobs ? plan->opt->njobs : 1;
    spec.step_done = say_step;
    spec.ctx = &say;
    return diskio_capacity_execute_opts(cfg, opts, s->target, &spec, run);
}

/* Plan p's run in round rep, the number'th of runs: EXIT_OK to go on,
 * or the status that ends the rounds. */
static int run_one(struct session *s, size_t p, unsigned rep, unsigned *number, unsigned runs,
                   struct diskio_run **merged)
{
    const struct plan_run *plan = &s->plans[p];
    struct diskio_config cfg;
    cli_config(plan->opt, plan->mode, plan->bs, &cfg);
    cfg.jobs = plan->jobs;
    /* the command's hooks into the run: its trace, the signal flag, the
     * progress line's counters and histogram, --durability's hook */
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    char *trace_path;
    opts.trace_fd = open_trace(s, &cfg, rep, &trace_path);
    if (opts.trace_fd == -2) {
        free(trace_path);
        return EXIT_TARGET;
    }
    opts.stop = &cli_stop_signal;
    opts.progress = &s->progress.ops;
    opts.fill_progress = &s->progress.filled;
    opts.live_hist = &s->progress.live;
    opts.op_hook = cli_durable_hook(s->durable);

    progress_run_start(&s->progress, &cfg, ++*number, runs);
    struct diskio_run *run = NULL;
    int rc = execute(s, plan, &cfg, &opts, *number, runs, &run);
    /* before the run is merged or freed: the line stops reading its
     * histogram */
    progress_run_end(&s->progress);
    cli_durable_note_run(s->durable, run);
    bool trace_failed, trace_lost;
    close_trace(s, &cfg, run ? diskio_run_info(run) : NULL, rc, trace_path, &trace_failed,
                &trace_lost);
    free(trace_path);
    if (rc < 0 && rc != -DISKIO_E_INTERRUPTED && !cli_stop_signal && !trace_failed)
        report_run_error(&cfg, run, rc);
    if (run)
        rc = keep_run(s, p, merged, run, rc);

    if (rc == -DISKIO_E_INTERRUPTED || cli_stop_signal)
        return cli_signal_status(cli_stop_signal ? cli_stop_signal : SIGINT);
    if (trace_lost)
        s->stopped_by = "a trace could not be saved";
    return trace_failed || trace_lost || rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}

/* --precondition: the whole target written twice before the first run,
 * said so (and kept in the result, done or not).  EXIT_OK, or the status
 * that ends the session before any run. */
static int precondition_target(struct session *s)
{
    struct diskio_precondition pc;
    /* a file: the largest --size a run covers; a device: all of it */
    const uint64_t size =
        diskio_target_is_device(s->target) ? diskio_target_size(s->target) : s->opt.file_size;
    progress_step_start(&s->progress, "precondition", DISKIO_PRECONDITION_PASSES * size);
    int rc =
        diskio_target_precondition(s->target, size, &cli_stop_signal, &s->progress.filled, &pc);
    progress_run_end(&s->progress);
    (void)diskio_result_set_precondition(s->result, &pc);
    if (rc == 0) {
        char how[64]; /* the passes and writes it made */
        cli_precondition_text(pc.passes, pc.block_size, ", sequentially ", how, sizeof(how));
        if (!s->opt.quiet)
            cli_msg("--precondition: %s written %s%s, in %.3g s; the runs start from there",
                    diskio_target_path(s->target), how, pc.direct ? " (O_DIRECT)" : "",
                    (double)pc.duration_ns / 1e9);
        return EXIT_OK;
    }
    if (rc == -DISKIO_E_INTERRUPTED || cli_stop_signal)
        return cli_signal_status(cli_stop_signal ? cli_stop_signal : SIGINT);
    cli_msg("--precondition: writing %s failed after %llu bytes: %s; no run was made",
            diskio_target_path(s->target), (unsigned long long)pc.written, diskio_strerror(rc));
    s->stopped_by = "the preconditioning failed";
    return EXIT_RUN_FAILED;
}

/* The rounds: --repeat's round after round of every run, so that a slow
 * minute of the machine (writeback, a neighbour) spreads over all the
 * modes instead of landing on one of them.  Ends with the test file
 * removed (or kept, --durability).  The command's status. */
int cli_session_run(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    /* the progress line: on a terminal, unless --quiet */
    if (!opt->quiet && isatty(STDERR_FILENO))
        (void)progress_start(&s->progress, opt->target);
    const unsigned repeats = s->is_suite ? s->suite.runs : opt->repeat;
    unsigned runs = (unsigned)s->nplans * repeats, number = 0;
    /* the result's run for each plan: the first repetition's, into which
     * the later ones are merged */
    struct diskio_run **merged =
        s->plans ? calloc(s->nplans ? s->nplans : 1, sizeof(*merged)) : NULL;
    int status = merged ? EXIT_OK : EXIT_RUN_FAILED;
    if (!merged)
        cli_msg("out of memory");
    s->stopped_by = "a run failed";
    if (status == EXIT_OK && opt->precondition)
        status = precondition_target(s);
    for (unsigned rep = 1; rep <= repeats && status == EXIT_OK; rep++) {
        /* --repeat-pause: time between rounds, so that a drift of the
         * machine (a neighbour's job, the host's) lands between them and
         * shows in their spread; a signal ends the wait */
        if (rep > 1 && opt->repeat_pause_ns && !cli_stop_signal)
            pause_between_rounds(opt->repeat_pause_ns);
        for (size_t p = 0; p < s->nplans && status == EXIT_OK && !cli_stop_signal; p++)
            status = run_one(s, p, rep, &number, runs, merged);
    }
    free(merged);
    if (s->is_suite && cli_suite_into_result(&s->suite, s->result) != 0) {
        cli_msg("out of memory");
        if (status == EXIT_OK)
            status = EXIT_RUN_FAILED;
    }
    if (cli_stop_signal && status == EXIT_OK)
        status = cli_signal_status(cli_stop_signal);
    if (status != EXIT_OK)
        diskio_result_set_incomplete(s->result);

    progress_stop(&s->progress);
    status = cli_durable_finish(s->durable, status, s->target);
    s->durable = NULL;
    cli_signals_target(NULL);
    cli_release_target(s->target);
    s->target = NULL;
    return status;
}
