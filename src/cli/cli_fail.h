/* SPDX-License-Identifier: MIT */
/* The one way the command's checks fail (cli_fail.c). */
#ifndef DISKIO_CLI_FAIL_H
#define DISKIO_CLI_FAIL_H

#include <stddef.h>

/* Format a message into err (size bytes, always terminated); returns -1. */
int cli_fail(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
