/* SPDX-License-Identifier: MIT */
/*
 * The test file.  diskio never destroys data it did not create: it makes
 * its own file with O_CREAT|O_EXCL|O_NOFOLLOW (so neither an existing file
 * nor a symlink planted in its place is ever opened), removes only that
 * file, and uses an existing file or a block device only when the caller
 * says so explicitly.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskio_internal.h"

static int create_in(struct diskio_target *t, const char *dir, const char *name_or_null)
{
    t->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (t->dir_fd < 0)
        return -errno;
    char name[64];
    for (unsigned attempt = 0; attempt < 1000; attempt++) {
        if (!name_or_null)
            snprintf(name, sizeof(name), "diskio-test.%ld.%u", (long)getpid(), attempt);
        const char *use = name_or_null ? name_or_null : name;
        int fd = openat(t->dir_fd, use, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) {
            if (errno == EEXIST && !name_or_null)
                continue;
            return errno == EEXIST ? -DISKIO_E_TARGET_EXISTS : -errno;
        }
        close(fd);
        t->name = strdup(use);
        size_t len = strlen(dir) + 1 + strlen(use) + 1;
        t->path = malloc(len);
        if (!t->name || !t->path) {
            unlinkat(t->dir_fd, use, 0);
            return -ENOMEM;
        }
        snprintf(t->path, len, "%s/%s", dir, use);
        t->created = true;
        return 0;
    }
    return -EEXIST;
}

static char *parent_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return NULL;
    char *dir = strdup(dirname(copy));
    free(copy);
    return dir;
}

enum target_kind { TARGET_NEW, TARGET_DIR, TARGET_FILE, TARGET_DEVICE };

/* What path is, and whether flags let it be used: 0 with *kind, or a
 * negative code.  The one place that decides which targets are refused. */
static int classify(const char *path, unsigned flags, enum target_kind *kind)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        *kind = TARGET_NEW;
        return errno == ENOENT ? 0 : -errno;
    }
    if (S_ISDIR(st.st_mode)) {
        *kind = TARGET_DIR;
        return 0;
    }
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
        /* truncating belongs only to files diskio made: never shrink the
         * user's, whatever FORCE or DEVICE say */
        if (flags & DISKIO_TARGET_TRUNCATE)
            return -DISKIO_E_TARGET_EXISTS;
        if (S_ISREG(st.st_mode)) {
            *kind = TARGET_FILE;
            return (flags & DISKIO_TARGET_FORCE) ? 0 : -DISKIO_E_TARGET_EXISTS;
        }
        *kind = TARGET_DEVICE;
        return (flags & DISKIO_TARGET_DEVICE) ? 0 : -DISKIO_E_TARGET_DEVICE;
    }
    /* symlinks (to anything), FIFOs, sockets, character devices */
    return -DISKIO_E_TARGET_TYPE;
}

int diskio_target_check(const char *path, unsigned flags)
{
    enum target_kind kind;
    if (!path || !*path)
        return -EINVAL;
    return classify(path, flags, &kind);
}

int diskio_target_open(const char *path, uint64_t size, unsigned flags, struct diskio_target **out)
{
    enum target_kind kind;
    int rc;

    if (!path || !*path || !out)
        return -EINVAL;
    *out = NULL;
    struct diskio_target *t = calloc(1, sizeof(*t));
    if (!t)
        return -ENOMEM;
    t->dir_fd = -1;

    rc = classify(path, flags, &kind);
    if (rc < 0)
        goto fail;
    if (kind == TARGET_NEW) {
        /* a new file at exactly this path */
        t->dir = parent_dir(path);
        char *copy = strdup(path);
        if (!t->dir || !copy) {
            free(copy);
            rc = -ENOMEM;
            goto fail;
        }
        rc = create_in(t, t->dir, basename(copy));
        free(copy);
        if (rc < 0)
            goto fail;
    } else if (kind == TARGET_DIR) {
        t->dir = strdup(path);
        if (!t->dir) {
            rc = -ENOMEM;
            goto fail;
        }
        rc = create_in(t, path, NULL);
        if (rc < 0)
            goto fail;
    } else if (kind == TARGET_FILE) {
        t->path = strdup(path);
        t->dir = parent_dir(path);
        if (!t->path || !t->dir) {
            rc = -ENOMEM;
            goto fail;
        }
    } else {
        t->path = strdup(path);
        /* the probe looks at the device itself, not at /dev's devtmpfs */
        t->dir = strdup(path);
        if (!t->path || !t->dir) {
            rc = -ENOMEM;
            goto fail;
        }
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        uint64_t bytes = 0;
        if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes) != 0) {
            rc = -errno;
            if (fd >= 0)
                close(fd);
            goto fail;
        }
        close(fd);
        t->is_device = true;
        t->size = bytes;
    }

    if ((flags & DISKIO_TARGET_PREALLOCATE) && !t->is_device) {
        rc = target_fill(t, size, NULL, 0, NULL);
        if (rc < 0)
            goto fail;
    }
    *out = t;
    return 0;

fail:
    diskio_target_free(t);
    return rc;
}

int target_fill(struct diskio_target *t, uint64_t size, const unsigned char *block,
                size_t block_len, const volatile sig_atomic_t *stop)
{
    struct stat st;
    int rc = 0;
    /* never NULL for an opened target; the check tells clang-analyzer,
     * which assumes a failed call may leave errno 0 */
    if (!t->path)
        return -EINVAL;
    int fd = open(t->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (fstat(fd, &st) != 0) {
        rc = -errno;
        goto out;
    }
    if ((uint64_t)st.st_size >= size)
        goto out;

    /*
     * The file is filled the way the measured writes will write it: in
     * blocks of their size, with incompressible data.  How it was filled
     * shows in every later sync: on an ext4 on virtio, overwrites of a file
     * filled in 1 MiB writes of a repeating pattern synced 15-25% slower
     * than of one filled block by block with random bytes, which is what
     * the bare loop in bench/ and PostgreSQL (8 KiB writes) do.  Zero
     * blocks are avoided as well: some filesystems and devices treat them
     * specially (holes, compression, deduplication).
     */
    unsigned char *own = NULL;
    if (!block) {
        block_len = 8192;
        own = malloc(block_len);
        if (!own) {
            rc = -ENOMEM;
            goto out;
        }
        uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
        for (size_t i = 0; i < block_len; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            own[i] = (unsigned char)(x >> 24);
        }
        block = own;
    }
    for (uint64_t pos = (uint64_t)st.st_size; pos < size;) {
        if (stop && *stop) {
            rc = -DISKIO_E_INTERRUPTED;
            break;
        }
        /* block-aligned pieces: the first may finish a partial block */
        size_t len = block_len - (size_t)(pos % block_len);
        if (size - pos < len)
            len = (size_t)(size - pos);
        ssize_t n = pwrite(fd, block + pos % block_len, len, (off_t)pos);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : -DISKIO_E_SHORT_WRITE;
            break;
        }
        pos += (uint64_t)n;
    }
    free(own);
    /* Make the filled file durable so the first timed sync does not
     * pay for writing back the preallocation. */
    if (rc == 0 && fsync(fd) != 0)
        rc = -errno;
out:
    close(fd);
    if (rc == 0 && t->size < size)
        t->size = size;
    return rc;
}

const char *diskio_target_path(const struct diskio_target *t)
{
    return t->path;
}

const char *diskio_target_dir(const struct diskio_target *t)
{
    return t->dir;
}

void diskio_target_unlink_now(const struct diskio_target *t)
{
    if (t && t->created && t->dir_fd >= 0 && t->name)
        unlinkat(t->dir_fd, t->name, 0);
}

void diskio_target_free(struct diskio_target *t)
{
    if (!t)
        return;
    diskio_target_unlink_now(t);
    if (t->dir_fd >= 0)
        close(t->dir_fd);
    free(t->name);
    free(t->path);
    free(t->dir);
    free(t);
}
