/* SPDX-License-Identifier: MIT */
/* Where a suite file is (cli_suite_find.c). */
#ifndef DISKIO_CLI_SUITE_FIND_H
#define DISKIO_CLI_SUITE_FIND_H

#include <stdbool.h>
#include <stddef.h>

/* The file of the suite what names (a name looked up in search, then the
 * usual places; or a path): malloc()ed, or NULL with the message in err. */
char *suite_find(const char *what, const char *search, char *err, size_t size);
/* Whether name is a suite's name: 1 to 64 of a-z, 0-9, - and _. */
bool suite_name_ok(const char *name);

#endif
