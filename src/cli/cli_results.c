/* SPDX-License-Identifier: MIT */
/* The session's result where it goes: the table on standard output, the
 * --output file in its format, the interval series' CSV, and standard
 * output itself checked when it is closed. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli_msg.h"
#include "cli_session.h"

static int stdout_error; /* the first failure writing to stdout, -errno */

static void write_stdout(const struct diskio_result *res, enum diskio_format format)
{
    int rc = diskio_result_write(res, format, stdout);
    if (rc < 0 && stdout_error == 0)
        stdout_error = rc;
}

/* Standard output carries the result: failing to write it (a full disk, a
 * closed descriptor, a reader that went away: SIGPIPE is ignored, so that
 * is EPIPE) fails the command with status 1, unless a signal's status
 * applies.  saved_in: the file the result is in, if any. */
int cli_finish_stdout(int status, const char *saved_in)
{
    int rc = stdout_error;
    errno = 0;
    if (fflush(stdout) != 0 && rc == 0)
        rc = errno ? -errno : -EIO;
    if (ferror(stdout) && rc == 0)
        rc = -EIO;
    if (fclose(stdout) != 0 && rc == 0)
        rc = -errno;
    if (rc == 0)
        return status;
    const char *why = rc == -EPIPE   ? "its reader stopped reading before the end"
                      : rc == -EBADF ? "it is closed"
                                     : out_write_hint(-rc);
    if (saved_in)
        cli_msg("could not write to standard output: %s (%s); the result itself is in %s",
                strerror(-rc), why, saved_in);
    else
        cli_msg("could not write to standard output: %s (%s)", strerror(-rc), why);
    return status == EXIT_OK ? EXIT_RUN_FAILED : status;
}

/* The result where it goes: the table on standard output unless
 * --quiet, the --output file in its format (or standard output in it),
 * the interval series' CSV; and where an incomplete result went.  The
 * command's status. */
int cli_session_write(struct session *s, int status)
{
    const struct cli_options *opt = &s->opt;
    if (!opt->quiet && (s->output.stream || opt->format == DISKIO_FORMAT_TEXT)) {
        write_stdout(s->result, DISKIO_FORMAT_TEXT);
        s->on_stdout = true;
        if (s->is_suite) {
            /* each row's run as merged from its repetitions, judged whole */
            for (size_t r = 0; r < s->suite.nrows; r++)
                if (s->suite.rows[r].run != SIZE_MAX)
                    s->suite.rows[r].verdicts =
                        diskio_run_verdicts(diskio_result_run(s->result, s->suite.rows[r].run));
            suite_print(&s->suite, stdout);
        }
    }
    if (s->output.stream) {
        int written = diskio_result_write(s->result, opt->format, s->output.stream);
        enum out_saved saved = out_file_commit(&s->output, opt->force, written);
        if (saved == OUT_SAVED)
            s->saved_in = opt->output;
        else if (status == EXIT_OK)
            status = EXIT_RUN_FAILED;
        /* A result not written anywhere would lose the measurements: they
         * go to standard output instead (the table, when printed, is
         * already the whole text result). */
        if (saved == OUT_LOST && opt->format == DISKIO_FORMAT_TEXT && !opt->quiet) {
            cli_msg("the table on standard output is the whole result");
        } else if (saved == OUT_LOST) {
            cli_msg("the result is written to standard output instead");
            write_stdout(s->result, opt->format);
            s->on_stdout = true;
        }
    } else if (opt->format != DISKIO_FORMAT_TEXT) {
        write_stdout(s->result, opt->format);
        s->on_stdout = true;
    }
    if (s->ivcsv.stream) {
        int written = diskio_result_write(s->result, DISKIO_FORMAT_INTERVALS, s->ivcsv.stream);
        if (out_file_commit(&s->ivcsv, opt->force, written) != OUT_SAVED && status == EXIT_OK)
            status = EXIT_RUN_FAILED;
        else if (!opt->quiet)
            cli_msg("the interval series is in %s", opt->interval_csv);
    }
    /* (--steady's own series, unasked for, goes without saying) */
    if (cli_option_given(opt, cli_option_named("--interval")) && !opt->quiet &&
        !opt->interval_csv && opt->format != DISKIO_FORMAT_JSON &&
        opt->format != DISKIO_FORMAT_INTERVALS)
        cli_msg("--interval: the series is in the JSON result and the intervals CSV only; give "
                "--output FILE.json or --interval-csv FILE to keep it");
    /* Where the partial result went, in one line; with --quiet too after
     * a signal, which no other message reports (a failed run's error is
     * already on standard error). */
    if (!diskio_result_complete(s->result) && (!opt->quiet || status >= 128))
        cli_msg("the result is incomplete (%s)%s%s%s",
                status >= 128 ? "interrupted" : s->stopped_by,
                s->saved_in ? "; what was measured is in " : "", s->saved_in ? s->saved_in : "",
                s->saved_in    ? ""
                : s->on_stdout ? "; what was measured is on standard output"
                               : "; nothing was kept (--quiet without --output)");
    return status;
}
