/* SPDX-License-Identifier: MIT */
/* A suite in the session (cli_suite_run.c). */
#ifndef DISKIO_CLI_SUITE_RUN_H
#define DISKIO_CLI_SUITE_RUN_H

#include <stdbool.h>

#include "cli_options.h"
#include "cli_suite.h"
#include "diskio.h"

/* The suite opt->suite names, read into suite, and opt set to the
 * command line's view of its runs (the largest file and block size,
 * a pattern that truncates, the most jobs) for the target's checks:
 * EXIT_OK, or EXIT_USAGE with the message printed. */
int cli_suite_session_load(struct cli_options *opt, struct suite *suite);
/* The rows the target cannot run, each given its note (said unless
 * quiet). */
void cli_suite_check_rows(struct suite *suite, const struct diskio_target *target,
                          const struct diskio_result *result, bool quiet);
/* The suite and its rows into the result (JSON "suite"): 0 or -ENOMEM. */
int cli_suite_into_result(const struct suite *suite, struct diskio_result *result);

#endif
