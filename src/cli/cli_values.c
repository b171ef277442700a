/* SPDX-License-Identifier: MIT */
/* The option values: whole numbers, sizes with suffixes, durations. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"

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

/*
 * The one reader of numbers with a fraction (durations, --rate,
 * --percentiles): decimal digits with an optional fraction and exponent,
 * "2", "0.5", ".5", "1e-5", "2.5E3", nothing else.  strtod() alone would
 * also take hex ("0x10" is 16), "inf", "nan", signs and leading blanks,
 * which no option means; so the text is checked first and only then
 * converted (in the C locale diskio keeps: '.' is the decimal point).
 * *end is where the number stops (a unit may follow).  0, or -1.
 */
int cli_parse_number(const char *text, double *out, const char **end)
{
    if (!text)
        return -1;
    const char *p = text;
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (*p == '.') {
        size_t fraction = strspn(p + 1, "0123456789");
        digits += fraction;
        p += 1 + fraction;
    }
    if (digits == 0)
        return -1;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        size_t exponent = strspn(q, "0123456789");
        if (exponent > 0)
            p = q + exponent;
    }
    char number[64];
    if ((size_t)(p - text) >= sizeof(number))
        return -1;
    memcpy(number, text, (size_t)(p - text));
    number[p - text] = '\0';
    errno = 0;
    char *stop;
    double v = strtod(number, &stop);
    /* too large is not a number; too small (1e-500) is 0, which each
     * option then judges as it judges 0 */
    if (*stop || (errno == ERANGE && v != 0) || !isfinite(v))
        return -1;
    *out = v;
    if (end)
        *end = p;
    return 0;
}

int cli_parse_duration(const char *text, uint64_t *out_ns)
{
    double v;
    const char *end;
    if (cli_parse_number(text, &v, &end) != 0)
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
    if (ns > (double)CLI_DURATION_MAX_NS)
        return -1;
    *out_ns = (uint64_t)ns;
    return 0;
}
