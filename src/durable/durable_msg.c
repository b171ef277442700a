/* SPDX-License-Identifier: MIT */
/* diskio-durable's messages and log, shown by the one rule for untrusted
 * text (durable_msg.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "../lib/emit_string.h"
#include "durable_msg.h"

#define PREFIX "diskio-durable: "

void durable_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    display_vline(stderr, PREFIX, fmt, ap);
    va_end(ap);
}

void durable_usage_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    display_vline(stderr, PREFIX, fmt, ap);
    va_end(ap);
    fputs("Try 'diskio-durable --help' for more information.\n", stderr);
}

void durable_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    display_vline(stdout, PREFIX, fmt, ap);
    va_end(ap);
}
