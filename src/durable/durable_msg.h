/* SPDX-License-Identifier: MIT */
/* What diskio-durable says: its messages on standard error and its log of
 * runs on standard output, each line shown whole by the one rule for
 * untrusted text (src/lib/emit_string.h), so that a directory, an option
 * value, a run id or anything a peer sent can never act on the terminal
 * or the log that shows it.  Nothing else in the listener writes to
 * standard error (tests/build/messages-through-one-function.py checks it). */
#ifndef DISKIO_DURABLE_MSG_H
#define DISKIO_DURABLE_MSG_H

/* "diskio-durable: " and the message, then a newline, on standard error.
 * The format's own text is printable ASCII without a backslash; every
 * argument is shown with its backslashes doubled and its control, bidi
 * and non-UTF-8 bytes as \xHH. */
void durable_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* durable_msg(), then "Try 'diskio-durable --help' for more
 * information." on a line of its own: for a usage error. */
void durable_usage_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line of the listener's log on standard output, shown as durable_msg()
 * shows its message. */
void durable_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
