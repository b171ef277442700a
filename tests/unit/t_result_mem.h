/* SPDX-License-Identifier: MIT */
/* A result written in a format to memory, for check_result_formats and
 * check_hostile_strings: the bytes (caller frees) and their size. */
#ifndef T_RESULT_MEM_H
#define T_RESULT_MEM_H

#include <stdio.h>

#include "diskio.h"
#include "t_helpers.h"

static inline char *t_write_mem(const struct diskio_result *res, enum diskio_format fmt,
                                size_t *size)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(diskio_result_write(res, fmt, f), 0);
    fclose(f);
    return buf;
}

#endif
