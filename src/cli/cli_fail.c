/* SPDX-License-Identifier: MIT */
/* The one way the command's checks fail: a message into the caller's
 * buffer, and -1. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "cli_fail.h"

int cli_fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return -1;
}
