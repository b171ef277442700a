/* SPDX-License-Identifier: MIT */
/* The option values: whole numbers, sizes with suffixes, durations. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"

#define MAX_RUNTIME_NS (UINT64_C(31) * 24 * 3600 * 1000000000u)

int cli_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!text || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_size(const char *text, uint64_t *out)
{
    if (!text || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return -1;
    unsigned shift = 0;
    switch (tolower((unsigned char)*end)) {
    case '\0': break;
    case 'k':
        shift = 10;
        end++;
        break;
    case 'm':
        shift = 20;
        end++;
        break;
    case 'g':
        shift = 30;
        end++;
        break;
    case 't':
        shift = 40;
        end++;
        break;
    case 'b': break;
    default: return -1;
    }
    /* accept 4k, 4kb, 4kib, 4KiB, 512b */
    if (shift && tolower((unsigned char)*end) == 'i')
        end++;
    if (tolower((unsigned char)*end) == 'b')
        end++;
    if (*end != '\0')
        return -1;
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

int cli_parse_duration(const char *text, uint64_t *out_ns)
{
    if (!text || !(isdigit((unsigned char)text[0]) || text[0] == '.'))
        return -1;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (errno == ERANGE || !isfinite(v) || v < 0 || end == text)
        return -1;
    double scale;
    if (strcmp(end, "") == 0 || strcmp(end, "s") == 0)
        scale = 1e9;
    else if (strcmp(end, "ms") == 0)
        scale = 1e6;
    else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
        scale = 60e9;
    else if (strcmp(end, "h") == 0)
        scale = 3600e9;
    else
        return -1;
    double ns = v * scale;
    if (ns > (double)MAX_RUNTIME_NS)
        return -1;
    *out_ns = (uint64_t)ns;
    return 0;
}
