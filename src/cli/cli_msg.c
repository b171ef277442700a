/* SPDX-License-Identifier: MIT */
/* diskio's messages on standard error, shown by the one rule for
 * untrusted text (cli_msg.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_msg.h"

void cli_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    display_vline(stderr, "diskio: ", fmt, ap);
    va_end(ap);
}

void cli_usage_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    display_vline(stderr, "diskio: ", fmt, ap);
    va_end(ap);
    fputs("Try 'diskio --help' for more information.\n", stderr);
}

void cli_report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    display_vline(stdout, "", fmt, ap);
    va_end(ap);
}

static void say(const char *text)
{
    ssize_t n = write(STDERR_FILENO, text, strlen(text));
    (void)n;
}

void cli_msg_in_signal(const char *before, const char *arg, const char *after)
{
    /* a path's every byte may take four: PATH_MAX of them fit */
    static char shown[4 * 4096 + 64];
    (void)display_escape(shown, sizeof(shown), arg);
    say("diskio: ");
    say(before);
    say(shown);
    say(after);
    say("\n");
}
