/* SPDX-License-Identifier: MIT */
/* What the test file's files share beyond diskio_internal.h: target.c
 * (opening and checking the test file), target_fill.c (its contents and
 * free space) and target_remove.c (its end and the files beside it). */
#ifndef DISKIO_TARGET_H
#define DISKIO_TARGET_H

#include "diskio_internal.h"

/* Create t's file in dir (O_EXCL|O_NOFOLLOW; name_or_null: that name,
 * NULL: a free diskio-test.PID.N), lock it and remember its inode: 0, or
 * -DISKIO_E_TARGET_EXISTS (the name is taken) or another -errno. */
int target_create_in(struct diskio_target *t, const char *dir, const char *name_or_null);

#endif
