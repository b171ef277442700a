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

/* target_remove.c: remove t's file if t created it and its name is still
 * its own (0, or -DISKIO_E_TARGET_CHANGED when it is not: never tried
 * again), and release what t holds, removing nothing */
int target_remove_one(struct diskio_target *t);
void target_close_one(struct diskio_target *t);

#endif
