/* SPDX-License-Identifier: MIT */
/*
 * The test file's end, and the files a run makes beside it (the jobs'
 * own files, the wal pattern's segments): each removed only while its
 * name still refers to the inode diskio created, never once kept
 * (diskio_target_keep()), and closed when the target is freed.  The test
 * file itself, and the creation of those beside it: target.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target.h"

/*
 * Only a name that still refers to the created inode is removed: after a
 * hard link or a rename planted over it, the name is someone else's, and
 * is left alone.  The check and the unlink are two calls: a name swapped
 * in between them (microseconds) would lose that name, never its data,
 * which an unlink cannot destroy while another name or descriptor holds
 * it; Linux has no unlink-if-this-inode.  Async-signal-safe: fstatat()
 * and unlinkat() only.
 */
static int remove_checked(const struct diskio_target *t)
{
    struct stat st;
    if (!t || !t->created || t->kept || t->dir_fd < 0 || !t->name)
        return 0;
    if (fstatat(t->dir_fd, t->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? -DISKIO_E_TARGET_CHANGED : -errno;
    if (st.st_dev != t->dev || st.st_ino != t->ino)
        return -DISKIO_E_TARGET_CHANGED;
    if (unlinkat(t->dir_fd, t->name, 0) != 0)
        return -errno;
    return 0;
}

/* Remove t's file if t created it and its name is still its own (no job
 * files): diskio_target_remove() for one file. */
int target_remove_one(struct diskio_target *t)
{
    int rc = remove_checked(t);
    /* removed, or someone else's now: either way never to be tried again */
    if (t && rc != 0 && rc != -DISKIO_E_TARGET_CHANGED)
        return rc;
    /* a kept file was not tried: it stays the created one */
    if (t && !t->kept)
        t->created = false;
    return rc;
}

/* Release what t holds, removing nothing. */
void target_close_one(struct diskio_target *t)
{
    if (t->fd >= 0)
        close(t->fd);
    if (t->dir_fd >= 0)
        close(t->dir_fd);
    free(t->name);
    free(t->name_alt);
    free(t->path);
    free(t->dir);
    free(t);
}

int target_aux_rename(struct diskio_target *aux, const char *name)
{
    if (!aux || !aux->created || !aux->name_alt || strlen(name) >= TARGET_NAME_MAX ||
        strchr(name, '/'))
        return -EINVAL;
    char *next = aux->name_alt;
    snprintf(next, TARGET_NAME_MAX, "%s", name);
    /* never over a name that exists: nothing the user owns is replaced */
    int rc =
        (int)syscall(SYS_renameat2, aux->dir_fd, aux->name, aux->dir_fd, next, RENAME_NOREPLACE);
    if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
        /* a filesystem without RENAME_NOREPLACE: link() refuses an
         * existing name too */
        rc = linkat(aux->dir_fd, aux->name, aux->dir_fd, next, 0);
        if (rc == 0 && unlinkat(aux->dir_fd, aux->name, 0) != 0) {
            rc = -errno;
            (void)unlinkat(aux->dir_fd, next, 0);
            return rc;
        }
    }
    if (rc != 0)
        return -errno;
    char *old = aux->name;
    __atomic_store_n(&aux->name, next, __ATOMIC_SEQ_CST);
    aux->name_alt = old;
    size_t len = strlen(aux->dir) + 1 + strlen(next) + 1;
    char *path = malloc(len);
    if (path) {
        snprintf(path, len, "%s/%s", aux->dir, next);
        free(aux->path);
        aux->path = path;
    }
    return 0;
}

int target_aux_remove(struct diskio_target *t, unsigned slot)
{
    if (!t || slot == 0 || slot >= DISKIO_JOBS_MAX || !t->job_files[slot])
        return -EINVAL;
    struct diskio_target *aux = t->job_files[slot];
    int rc = target_remove_one(aux);
    t->job_files[slot] = NULL;
    target_close_one(aux);
    return rc == -DISKIO_E_TARGET_CHANGED ? 0 : rc;
}

/* Remove the job files (see job_files), keeping the first error; with
 * release, close and free them instead. */
static int job_files(struct diskio_target *t, bool release)
{
    int first = 0;
    for (unsigned j = 1; t && j < DISKIO_JOBS_MAX; j++) {
        struct diskio_target *jt = t->job_files[j];
        if (!jt)
            continue;
        if (release) {
            t->job_files[j] = NULL;
            target_close_one(jt);
            continue;
        }
        int rc = target_remove_one(jt);
        if (rc < 0 && first == 0)
            first = rc;
    }
    return first;
}

int diskio_target_remove(struct diskio_target *t)
{
    if (!t)
        return -EINVAL;
    int jobs_rc = job_files(t, false);
    int rc = target_remove_one(t);
    return rc != 0 ? rc : jobs_rc;
}

void diskio_target_unlink_now(const struct diskio_target *t)
{
    for (unsigned j = 1; t && j < DISKIO_JOBS_MAX; j++)
        (void)remove_checked(t->job_files[j]);
    (void)remove_checked(t);
}

int diskio_target_keep(struct diskio_target *t)
{
    if (!t)
        return -EINVAL;
    t->kept = true;
    return 0;
}

void diskio_target_free(struct diskio_target *t)
{
    if (!t)
        return;
    (void)diskio_target_remove(t);
    (void)job_files(t, true);
    target_close_one(t);
}
