/* SPDX-License-Identifier: MIT */
/* The readers of the option table's CLI_FUNC values (cli_option_values.c):
 * each reads text into o, and returns 0, or -1 with the message in err. */
#ifndef DISKIO_CLI_OPTION_VALUES_H
#define DISKIO_CLI_OPTION_VALUES_H

#include <stddef.h>

#include "cli_options.h"

/* --mode: the library's modes, all, all-reads; each listed once */
int cli_parse_modes(const char *text, struct cli_options *o, char *err, size_t size);
/* --bs: sizes, each listed once */
int cli_parse_sizes(const char *text, struct cli_options *o, char *err, size_t size);
/* --jobs: counts of writers, each listed once */
int cli_parse_jobs(const char *text, struct cli_options *o, char *err, size_t size);
/* --percentiles: ascending and distinct */
int cli_parse_percentiles(const char *text, struct cli_options *o, char *err, size_t size);
int cli_parse_pattern(const char *text, struct cli_options *o, char *err, size_t size);
int cli_parse_format(const char *text, struct cli_options *o, char *err, size_t size);
int cli_parse_label(const char *text, struct cli_options *o, char *err, size_t size);
/* --rate OPS: into the interval between ops */
int cli_parse_rate(const char *text, struct cli_options *o, char *err, size_t size);

#endif
