/* SPDX-License-Identifier: MIT */
/* The session: what main holds from one step to the next.  Planned
 * (cli_session.c: everything checked and made before the first run, and
 * the list of runs), run (cli_run.c: the rounds), written (cli_results.c:
 * the result where it goes) and ended (cli_session.c: one cleanup). */
#ifndef DISKIO_CLI_SESSION_H
#define DISKIO_CLI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_durable.h"
#include "cli_options.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "cli_suite.h"
#include "diskio.h"

/* One run of the rounds: its options, mode, block size and jobs, and
 * the suite row it is (SIZE_MAX for an ordinary run). */
struct plan_run {
    const struct cli_options *opt;
    enum diskio_mode mode;
    uint64_t bs;
    unsigned jobs;
    size_t row;
};

/* What main holds from one step to the next, released in one place
 * (end_session()). */
struct session {
    struct cli_options opt;
    struct suite suite; /* --suite: its rows */
    bool is_suite;
    unsigned target_flags; /* DISKIO_TARGET_* */
    bool several_runs;     /* the trace names carry the mode and size */
    struct out_file output, trace, ivcsv;
    struct diskio_target *target;
    struct diskio_result *result;
    bool usable[CLI_MAX_MODES]; /* each of opt.modes: the target can open it */
    struct cli_durable *durable;
    struct progress progress;
    struct plan_run *plans; /* the runs of a round */
    size_t nplans;
    const char *stopped_by; /* why the result is incomplete, a run's failure aside */
    const char *saved_in;   /* the file the result was saved in */
    bool on_stdout;         /* the result went to standard output, in some format */
};

/* Everything checked and made before the first run, and the runs
 * listed: EXIT_OK, or the status to end with (said why). */
int cli_session_plan(struct session *s);
/* The rounds of every run, each kept in the result; ends with the test
 * file removed (or kept, --durability).  The command's status. */
int cli_session_run(struct session *s);
/* The result where it goes (the table, --output, --interval-csv) and
 * where an incomplete one went: status, or the failure to write it. */
int cli_session_write(struct session *s, int status);
/* The one way out of a session: every output file not put in place
 * removed, the test file removed, all freed.  Returns status. */
int cli_session_end(struct session *s, int status);
/* Standard output flushed and closed: status, or EXIT_RUN_FAILED when
 * the result could not be written to it (said, with saved_in: the file
 * the result is in, if any). */
int cli_finish_stdout(int status, const char *saved_in);

#endif
