/* SPDX-License-Identifier: MIT */
/* A device as devstat knows it, for check_device_accounting and
 * check_device_verdicts: a leaf doing its own I/O, named name, with the
 * write cache, FUA and rotational flags given (1, 0, or -1: unknown). */
#ifndef T_DEVSTAT_H
#define T_DEVSTAT_H

#include <stdio.h>

#include "diskio_internal.h"

static inline struct devstat_dev dev_of(const char *name, int cache, int fua, int rot)
{
    struct devstat_dev d = {.depth = 0, .leaf = true, .own_io = true};
    snprintf(d.name, sizeof(d.name), "%s", name);
    d.write_cache = (signed char)cache;
    d.fua = (signed char)fua;
    d.rotational = (signed char)rot;
    return d;
}

#endif
