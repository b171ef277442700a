/* SPDX-License-Identifier: MIT */
/* make-completion < completion/diskio.in > completion/diskio: the bash
 * completion with its @DISKIO_OPTION_VALUES@ line replaced by the
 * function that completes diskio's option values, made from diskio's
 * option table (src/cli/cli_option_table.c) and the library's lists of
 * modes, patterns and formats.  Run when diskio is built. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli_msg.h"
#include "cli_options.h"

#define MARKER "@DISKIO_OPTION_VALUES@\n"

int main(void)
{
    char line[4096];
    int markers = 0;
    while (fgets(line, sizeof(line), stdin)) {
        if (strcmp(line, MARKER) == 0) {
            cli_completion(stdout);
            markers++;
        } else {
            fputs(line, stdout);
        }
    }
    if (ferror(stdin) || markers != 1) {
        cli_msg("make-completion: the template on standard input must hold one line %s",
                "@DISKIO_OPTION_VALUES@");
        return 1;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_msg("make-completion: could not write standard output");
        return 1;
    }
    return 0;
}
