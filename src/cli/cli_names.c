/* SPDX-License-Identifier: MIT */
/* The library's lists as text: its modes (all, the writes, the reads,
 * the durable ones), patterns and formats, named as the library names
 * them and joined as a sentence or a list. */
#include "config.h"

#include <stdio.h>

#include "cli_options.h"

/* names (n of them) joined into out: sep between them, last before the
 * last one. */
void cli_join(const char *const *names, size_t n, const char *sep, const char *last, char *out,
              size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s",
                                 i == 0       ? ""
                                 : i + 1 == n ? last
                                              : sep,
                                 names[i]);
}

#define NAMES_MAX 64

/* Whether mode is in a list of modes. */
static bool mode_listed(enum cli_list list, enum diskio_mode mode)
{
    switch (list) {
    case CLI_READ_MODES: return diskio_mode_is_read(mode);
    case CLI_DURABLE_MODES: return diskio_mode_is_durable(mode);
    case CLI_BUFFERED_DURABLE_MODES:
        return diskio_mode_is_durable(mode) && !diskio_mode_is_direct(mode);
    case CLI_WRITE_MODES:
    default: return !diskio_mode_is_read(mode);
    }
}

void cli_names(enum cli_list list, const char *sep, const char *last, char *out, size_t size)
{
    const char *names[NAMES_MAX];
    size_t n = 0;
    for (unsigned i = 0; n < NAMES_MAX; i++) {
        const char *name = list == CLI_PATTERNS  ? diskio_pattern_name((enum diskio_pattern)i)
                           : list == CLI_FORMATS ? diskio_format_name((enum diskio_format)i)
                                                 : diskio_mode_name((enum diskio_mode)i);
        if (!name)
            break;
        if (list == CLI_PATTERNS || list == CLI_FORMATS || mode_listed(list, (enum diskio_mode)i))
            names[n++] = name;
    }
    cli_join(names, n, sep, last, out, size);
}

/* The modes in opt's scope, joined. */
