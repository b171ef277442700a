/* SPDX-License-Identifier: MIT */
/* A suite in the session (diskio --suite): its rows read and checked
 * before anything is made, the command line's view of them for the
 * checks made once for the target, the rows the target cannot run left
 * out with a note, and the suite into the result.  Reading suite files
 * and the suite's own view are cli_suite.c's. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_msg.h"
#include "cli_suite_run.h"
#include "cli_target.h"

/* The command line's view of a suite's runs, for the checks made once
 * for the target: the largest file and block size, whether a row
 * appends (its file is truncated), and the most jobs a row writes a file
 * each for (they need a directory). */
static void target_options(const struct suite *suite, struct cli_options *opt)
{
    uint64_t file_size = 0, largest_bs = 0;
    for (size_t r = 0; r < suite->nrows; r++) {
        const struct cli_options *row = &suite->rows[r].opt;
        if (suite->rows[r].note)
            continue;
        if (row->file_size > file_size)
            file_size = row->file_size;
        if (row->block_sizes[0] > largest_bs)
            largest_bs = row->block_sizes[0];
        if (diskio_pattern_grows_file(row->pattern))
            opt->pattern = row->pattern;
        if (!row->shared_file && row->jobs[0] > opt->jobs[0]) {
            opt->jobs[0] = row->jobs[0];
            opt->njobs = 1;
        }
    }
    if (file_size)
        opt->file_size = file_size;
    if (largest_bs) {
        opt->block_sizes[0] = largest_bs;
        opt->nsizes = 1;
    }
}

/* --suite: a file of rows, each an ordinary run's options, all read and
 * checked before anything is created. */
int cli_suite_session_load(struct cli_options *opt, struct suite *suite)
{
    char err[512];
    if (suite_load(opt->suite, opt, suite, err, sizeof(err)) != 0) {
        cli_msg("%s", err);
        return EXIT_USAGE;
    }
    target_options(suite, opt);
    /* a row's capacity search is one measurement: a row is not merged
     * from several */
    for (size_t r = 0; r < suite->nrows && suite->runs > 1; r++)
        if (suite->rows[r].opt.capacity_on) {
            cli_msg("%s:%u: row '%s': --target searches once per row; give the suite 'runs 1' "
                    "or --suite-runs 1",
                    suite->path, suite->rows[r].line, suite->rows[r].label);
            return EXIT_USAGE;
        }
    return EXIT_OK;
}

/* A row the target cannot run (O_DIRECT refused, as FUSE filesystems
 * such as sshfs do; a block size the device's direct I/O alignment does
 * not divide) is not run, with the reason in the suite's view and the
 * result, rather than ending the whole suite. */
void cli_suite_check_rows(struct suite *suite, const struct diskio_target *target,
                          const struct diskio_result *result, bool quiet)
{
    const char *fs = diskio_result_env(result, "target.filesystem");
    for (size_t r = 0; r < suite->nrows; r++) {
        struct suite_row *row = &suite->rows[r];
        if (row->note)
            continue;
        enum diskio_mode mode = row->opt.modes[0];
        int rc = diskio_target_check_mode(target, mode);
        uint64_t offset_align, mem_align;
        if (rc == -DISKIO_E_NO_DIRECT)
            snprintf(row->note_buf, sizeof(row->note_buf),
                     "not run: mode %s needs O_DIRECT, which the filesystem (%s) refuses",
                     diskio_mode_name(mode), fs ? fs : "unknown");
        else if (rc < 0)
            snprintf(row->note_buf, sizeof(row->note_buf), "not run: mode %s cannot open it: %s",
                     diskio_mode_name(mode), diskio_strerror(rc));
        else if (diskio_mode_is_direct(mode) &&
                 cli_direct_misfit(target, row->opt.block_sizes[0], &offset_align, &mem_align))
            snprintf(row->note_buf, sizeof(row->note_buf),
                     "not run: O_DIRECT there needs sizes aligned to %llu bytes and buffers "
                     "to %llu",
                     (unsigned long long)offset_align, (unsigned long long)mem_align);
        else
            continue;
        row->note = row->note_buf;
        if (!quiet)
            cli_msg("suite %s, row %s %s (%s:%u): %s", suite->name, row->label, row->column,
                    suite->path, row->line, row->note);
    }
}

/* The suite and its rows, into the result (JSON "suite"). */
int cli_suite_into_result(const struct suite *suite, struct diskio_result *result)
{
    struct diskio_suite_row *rows = calloc(suite->nrows, sizeof(*rows));
    if (!rows)
        return -ENOMEM;
    for (size_t r = 0; r < suite->nrows; r++) {
        rows[r].label = suite->rows[r].label;
        rows[r].column = suite->rows[r].column;
        rows[r].run = suite->rows[r].run;
        rows[r].note = suite->rows[r].note;
        if (rows[r].run == SIZE_MAX && !rows[r].note)
            rows[r].note = "not run: the suite stopped before this row (a signal or a failed run)";
    }
    int rc =
        diskio_result_set_suite(result, suite->name, suite->title,
                                suite->summary == SUITE_BEST ? "best" : "mean", rows, suite->nrows);
    free(rows);
    return rc;
}
