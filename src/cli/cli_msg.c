/* SPDX-License-Identifier: MIT */
/* diskio's messages on standard error, shown by the one rule for
 * untrusted text (cli_msg.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_msg.h"

static void say(const char *fmt, va_list ap, bool usage)
{
    char small[1024];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    char *text = small;
    if (n >= (int)sizeof(small)) {
        text = malloc((size_t)n + 1);
        if (text)
            vsnprintf(text, (size_t)n + 1, fmt, again);
        else
            text = small; /* what fitted */
    }
    va_end(again);
    fputs("diskio: ", stderr);
    if (n > 0)
        display_write(stderr, text, false);
    fputc('\n', stderr);
    if (usage)
        fputs("Try 'diskio --help' for more information.\n", stderr);
    if (text != small)
        free(text);
}

void cli_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap, false);
    va_end(ap);
}

void cli_usage_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap, true);
    va_end(ap);
}
