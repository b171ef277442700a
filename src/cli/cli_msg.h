/* SPDX-License-Identifier: MIT */
/* What diskio says on standard error: every message goes through here, so
 * that a path, a label or an option value in it is shown by the one rule
 * for untrusted text (src/lib/emit_string.h) and can never act on the
 * terminal that shows it.  Nothing else in src/cli writes to standard
 * error but the progress line (cli_progress.c), whose text is shown by the
 * rule already; tests/build/messages-through-one-function.py checks it. */
#ifndef DISKIO_CLI_MSG_H
#define DISKIO_CLI_MSG_H

#include <stddef.h>

#include "../lib/emit_string.h"

/* "diskio: " and the message, then a newline.  The message is formatted
 * first and then shown whole by the rule: the format's own text is
 * printable ASCII without a backslash, which the rule leaves as it is,
 * and every argument a person or a file gave (a path, a label, a value)
 * is shown with its backslashes doubled and its control, bidi and
 * non-UTF-8 bytes as \xHH.  A message is one line: a newline in an
 * argument shows as \x0a. */
void cli_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_msg(), then "Try 'diskio --help' for more information." on a line
 * of its own: for a usage error. */
void cli_usage_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of a report on standard output (--verify-durability's), shown
 * whole by the same rule, without cli_msg()'s "diskio: ". */
void cli_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_msg() for a signal handler: async-signal-safe (write(2) and
 * display_escape() into a static buffer, no stdio, no allocation).
 * "diskio: ", before, arg shown by the rule, after, a newline; before and
 * after are the program's own text. */
void cli_msg_in_signal(const char *before, const char *arg, const char *after);

#endif
