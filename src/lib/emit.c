/* SPDX-License-Identifier: MIT */
/*
 * The output formats: one row per format, its name and its emitter
 * (emit_text.c, emit_json.c, emit_csv.c).  diskio_format_parse(),
 * diskio_format_count(), diskio_format_name() and diskio_result_write()
 * all read the table, so a format is added in one
 * place.
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "diskio_internal.h"

static const struct format {
    const char *name;
    int (*emit)(const struct diskio_result *res, FILE *out);
} formats[] = {
    [DISKIO_FORMAT_TEXT] = {"text", emit_text},
    [DISKIO_FORMAT_JSON] = {"json", emit_json},
    [DISKIO_FORMAT_CSV] = {"csv", emit_csv},
    [DISKIO_FORMAT_INTERVALS] = {"intervals", emit_intervals_csv},
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

int diskio_format_parse(const char *name, enum diskio_format *out)
{
    for (unsigned f = 0; f < NFORMATS; f++) {
        if (name && out && strcmp(name, formats[f].name) == 0) {
            *out = (enum diskio_format)f;
            return 0;
        }
    }
    return -EINVAL;
}

size_t diskio_format_count(void)
{
    return NFORMATS;
}

const char *diskio_format_name(enum diskio_format fmt)
{
    return (unsigned)fmt < NFORMATS ? formats[fmt].name : NULL;
}

int diskio_result_write(const struct diskio_result *res, enum diskio_format fmt, FILE *out)
{
    if (!res || !out || (unsigned)fmt >= NFORMATS)
        return -EINVAL;
    int (*const emit)(const struct diskio_result *, FILE *) = formats[fmt].emit;
    /* A document's numbers do not depend on the host program's locale: a
     * program that called setlocale(LC_ALL, "") under de_DE would get
     * "ops_per_s": 810000,59.  The emitters run in the "C" locale, set for
     * this thread alone (uselocale(), unlike setlocale(), touches no other
     * thread) and put back before returning. */
    locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c_locale == (locale_t)0)
        return errno ? -errno : -ENOMEM;
    locale_t host_locale = uselocale(c_locale);
    int rc = emit(res, out);
    if (rc == 0) {
        /* errno only from this flush: a stale one would name a wrong cause */
        errno = 0;
        if (fflush(out) != 0 || ferror(out))
            rc = errno ? -errno : -EIO;
    }
    uselocale(host_locale);
    freelocale(c_locale);
    return rc;
}
