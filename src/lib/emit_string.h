/* SPDX-License-Identifier: MIT */
/*
 * The one rule for showing untrusted text to a person (doc/result-schema.md,
 * "Strings"): the library's emitters use it for the table and CSV, and the
 * command and diskio-durable compile emit_string.c in too and show every
 * name, path, option value and peer's text in their messages through it.
 * Self-contained: it needs nothing else of the library's internals.
 */
#ifndef DISKIO_EMIT_STRING_H
#define DISKIO_EMIT_STRING_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* utf8_decode: the code point of the UTF-8 sequence at s (NUL-terminated)
 * and its length in *len, or -1 for an ill-formed one with its maximal
 * subpart (at least 1 byte) in *len.  display_unsafe: cp is a control
 * character (C0, DEL, C1), U+2028, U+2029 or a bidirectional formatting
 * character, which no output shows as it is. */
int32_t utf8_decode(const unsigned char *s, size_t *len);
bool display_unsafe(int32_t cp);

/* The rule: well-formed printable UTF-8 as it is; a backslash as \\;
 * every byte of an ill-formed sequence or of an unsafe character as \xHH
 * (two lowercase hex digits); with csv a '"' doubled too (RFC 4180).  So
 * a name that holds the four characters \x1b shows as \\x1b, never as an
 * escaped ESC. */

/* s shown on out; returns the bytes written. */
size_t display_write(FILE *out, const char *s, bool csv);
/* The terminal columns display_write(out, s, false) fills: one per
 * printable character, two for a backslash, four per byte it shows as
 * \xHH. */
size_t display_columns(const char *s);
/* s shown into buf as snprintf() would write it (always NUL-terminated
 * when size > 0, never cut inside an escape); returns the length the whole
 * of it takes.  No allocation, no stdio: async-signal-safe. */
size_t display_escape(char *buf, size_t size, const char *s);
/* A line of a program's messages or report: prefix as it is (the
 * program's own name), then fmt formatted with ap and shown whole by the
 * rule, then a newline.  fmt's own text is printable ASCII without a
 * backslash, which the rule leaves as it is; every argument is shown with
 * its backslashes doubled and its control, bidi and non-UTF-8 bytes as
 * \xHH, a newline in one as \x0a: the line stays one line.  The messages
 * of diskio (src/cli/cli_msg.c) and of diskio-durable
 * (src/durable/durable_msg.c) are written by this and nothing else. */
void display_vline(FILE *out, const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
