/* SPDX-License-Identifier: MIT */
/* The mode table: names, lookup.  Each mode lives in its own mode_*.c. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "diskio_internal.h"

static const struct mode_ops *const modes[DISKIO_MODE_COUNT] = {
    [DISKIO_MODE_ASYNC] = &mode_async,
    [DISKIO_MODE_FSYNC] = &mode_fsync,
    [DISKIO_MODE_FDATASYNC] = &mode_fdatasync,
    [DISKIO_MODE_OSYNC] = &mode_osync,
    [DISKIO_MODE_ODSYNC] = &mode_odsync,
    [DISKIO_MODE_DIRECT] = &mode_direct,
    [DISKIO_MODE_DIRECT_DSYNC] = &mode_direct_dsync,
    [DISKIO_MODE_AIO] = &mode_aio,
    [DISKIO_MODE_URING] = &mode_uring,
};

const struct mode_ops *mode_ops_of(enum diskio_mode mode)
{
    return (unsigned)mode < DISKIO_MODE_COUNT ? modes[mode] : NULL;
}

const char *diskio_mode_name(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops ? ops->name : NULL;
}

int diskio_mode_parse(const char *name, enum diskio_mode *out)
{
    for (unsigned m = 0; m < DISKIO_MODE_COUNT; m++) {
        if (name && strcmp(name, modes[m]->name) == 0) {
            *out = (enum diskio_mode)m;
            return 0;
        }
    }
    return -EINVAL;
}

bool diskio_mode_is_direct(enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    return ops && ops->direct;
}

static const char *const pattern_names[] = {
    [DISKIO_PATTERN_SEQ] = "seq",
    [DISKIO_PATTERN_RAND] = "rand",
    [DISKIO_PATTERN_APPEND] = "append",
};

const char *diskio_pattern_name(enum diskio_pattern p)
{
    return (unsigned)p <= DISKIO_PATTERN_APPEND ? pattern_names[p] : NULL;
}

int diskio_pattern_parse(const char *name, enum diskio_pattern *out)
{
    for (unsigned p = 0; p <= DISKIO_PATTERN_APPEND; p++) {
        if (name && strcmp(name, pattern_names[p]) == 0) {
            *out = (enum diskio_pattern)p;
            return 0;
        }
    }
    return -EINVAL;
}

static const char *const format_names[] = {
    [DISKIO_FORMAT_TEXT] = "text",
    [DISKIO_FORMAT_JSON] = "json",
    [DISKIO_FORMAT_CSV] = "csv",
};

int diskio_format_parse(const char *name, enum diskio_format *out)
{
    for (unsigned f = 0; f <= DISKIO_FORMAT_CSV; f++) {
        if (name && strcmp(name, format_names[f]) == 0) {
            *out = (enum diskio_format)f;
            return 0;
        }
    }
    return -EINVAL;
}
