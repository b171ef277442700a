/* SPDX-License-Identifier: MIT */
/*
 * The test file.  diskio never destroys data it did not create: it makes
 * its own file with O_CREAT|O_EXCL|O_NOFOLLOW (so neither an existing file
 * nor a symlink planted in its place is ever opened), keeps it open for
 * the whole run and reaches it again only through that descriptor (so a
 * hard link or a rename planted at its name later is never written), removes
 * only that file and only while its name still refers to it, and uses an
 * existing file or a block device only when the caller says so explicitly.
 *
 * This file: opening and checking it (created, or an existing file or
 * device classified and opened without following a planted link),
 * reopening it with a mode's flags, and the alignment O_DIRECT takes.
 * Its contents and free space: target_fill.c; its removal and the files
 * beside it: target_remove.c.
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

#include "modes.h"
#include "target.h"

/* Remember which inode t->fd is: every later open and the unlink compare. */
static int remember_inode(struct diskio_target *t)
{
    struct stat st;
    if (fstat(t->fd, &st) != 0)
        return -errno;
    t->dev = st.st_dev;
    t->ino = st.st_ino;
    return 0;
}

/*
 * Lock the test file (or device) for the whole run: two diskio measuring
 * one file would each measure the other's writes and overwrite each
 * other's fill, and a program that keeps its own file locked (flock) is
 * telling others to keep off.  The lock is held by t->fd, so it lasts
 * until the target is freed; the reopened descriptors of the modes need
 * none.  A filesystem that cannot lock (ENOLCK on an NFS without lockd,
 * EOPNOTSUPP) is used unlocked: only another holder refuses the target.
 */
static int lock_target(struct diskio_target *t)
{
    if (flock(t->fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    return errno == EWOULDBLOCK ? -DISKIO_E_TARGET_LOCKED : 0;
}

int target_create_in(struct diskio_target *t, const char *dir, const char *name_or_null)
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
        /* kept open until diskio_target_free(): the file is this inode,
         * whatever is done to its name from now on */
        t->fd = fd;
        int rc = remember_inode(t);
        if (rc == 0)
            rc = lock_target(t);
        t->name = strdup(use);
        size_t len = strlen(dir) + 1 + strlen(use) + 1;
        t->path = malloc(len);
        if (rc < 0 || !t->name || !t->path) {
            unlinkat(t->dir_fd, use, 0);
            return rc < 0 ? rc : -ENOMEM;
        }
        snprintf(t->path, len, "%s/%s", dir, use);
        t->created = true;
        return 0;
    }
    return -EEXIST;
}

/*
 * Open an existing file or device at path, which classify() found to be
 * the inode described by seen, and refuse anything else that took its
 * place meanwhile.  O_NONBLOCK keeps a FIFO swapped in from blocking the
 * open (it fails with ENXIO instead); it is cleared again afterwards.
 */
static int open_checked(struct diskio_target *t, const char *path, int flags,
                        const struct stat *seen)
{
    int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == EBUSY && (flags & O_EXCL))
            return -DISKIO_E_DEVICE_BUSY;
        /* a symlink (ELOOP), a FIFO (ENXIO) or nothing (ENOENT) where the
         * checked file was */
        return (errno == ELOOP || errno == ENXIO || errno == ENOENT) ? -DISKIO_E_TARGET_CHANGED
                                                                     : -errno;
    }
    t->fd = fd;
    int rc = remember_inode(t);
    if (rc < 0)
        return rc;
    if (t->dev != seen->st_dev || t->ino != seen->st_ino)
        return -DISKIO_E_TARGET_CHANGED;
    if ((rc = lock_target(t)) < 0)
        return rc;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
        return -errno;
    return 0;
}

int target_reopen(const struct diskio_target *t, int flags)
{
    char proc[40];
    struct stat st;
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", t->fd);
    /* no O_NOFOLLOW: /proc/self/fd/N is a link to the open file itself */
    int fd = open(proc, flags | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        /*
         * No /proc (a chroot or container without it): the path is all
         * there is.  It may lead to another file by now; the inode
         * comparison below refuses that.  O_NONBLOCK as in open_checked().
         */
        fd = open(t->path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return (errno == ELOOP || errno == ENXIO || errno == ENOENT) ? -DISKIO_E_TARGET_CHANGED
                                                                         : -errno;
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, (fl & ~O_NONBLOCK) | (flags & O_NONBLOCK)) != 0) {
            int rc = -errno;
            close(fd);
            return rc;
        }
    }
    if (fd < 0)
        return -errno;
    /* checked both ways: a /proc that is not procfs proves nothing */
    if (fstat(fd, &st) != 0 || st.st_dev != t->dev || st.st_ino != t->ino) {
        close(fd);
        return -DISKIO_E_TARGET_CHANGED;
    }
    return fd;
}

/* The target's own inode, reopened with the mode's flags (never by path
 * while /proc is there: see target_reopen()); read-write for a read mode
 * that writes blocks back (cfg may be NULL: the mode's own flags). */
int target_open_for_mode(const struct diskio_target *t, const struct mode_ops *ops,
                         const struct diskio_config *cfg)
{
    const int access = cfg && cfg->write_back ? O_RDWR : ops->reads ? O_RDONLY : O_WRONLY;
    int fd = target_reopen(t, access | ops->open_flags);
    if (fd == -EINVAL && ops->direct)
        return -DISKIO_E_NO_DIRECT;
    return fd;
}

int diskio_target_check_mode(const struct diskio_target *t, enum diskio_mode mode)
{
    const struct mode_ops *ops = mode_ops_of(mode);
    if (!t || !ops)
        return -EINVAL;
    int fd = target_open_for_mode(t, ops, NULL);
    if (fd < 0)
        return fd;
    close(fd);
    return 0;
}

/* The logical block size of the block device dev (a partition: of its
 * disk), from sysfs; 0 when unknown. */
static uint64_t logical_block_size(dev_t dev)
{
    for (int parent = 0; parent < 2; parent++) {
        char path[96];
        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%squeue/logical_block_size", major(dev),
                 minor(dev), parent ? "../" : "");
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        char line[32];
        const bool got = fgets(line, sizeof(line), f) != NULL;
        fclose(f);
        char *end;
        unsigned long long v = got ? strtoull(line, &end, 10) : 0;
        if (got && end != line && v >= 512)
            return v;
    }
    return 0;
}

/*
 * STATX_DIOALIGN (Linux 6.1, where the filesystem reports it), through the
 * system call itself: C libraries and kernel headers older than it have
 * no such field.  The kernel writes a struct statx of 256 bytes; the two
 * alignments are 32-bit fields at bytes 152 and 156 (linux/stat.h:
 * stx_dio_mem_align, stx_dio_offset_align), and the mask, which says
 * whether the kernel filled them in, is the first field.
 */
#define DIO_STATX_MASK 0x00002000u
#define DIO_STATX_MEM_ALIGN 152
#define DIO_STATX_OFFSET_ALIGN 156
#if defined(STATX_DIOALIGN) && defined(__GLIBC__)
_Static_assert(STATX_DIOALIGN == DIO_STATX_MASK, "STATX_DIOALIGN is linux/stat.h's");
_Static_assert(offsetof(struct statx, stx_dio_mem_align) == DIO_STATX_MEM_ALIGN &&
                   offsetof(struct statx, stx_dio_offset_align) == DIO_STATX_OFFSET_ALIGN,
               "struct statx's direct I/O alignments are where linux/stat.h puts them");
#endif

/* fd's STATX_DIOALIGN: 0, or -EOPNOTSUPP where the kernel does not give it. */
static int fd_dio_statx(int fd, uint32_t *offset_align, uint32_t *mem_align)
{
#ifdef SYS_statx
    uint32_t sx[64];
    memset(sx, 0, sizeof(sx));
    if (fd < 0 || syscall(SYS_statx, fd, "", AT_EMPTY_PATH, DIO_STATX_MASK, sx) != 0 ||
        !(sx[0] & DIO_STATX_MASK))
        return -EOPNOTSUPP;
    *mem_align = sx[DIO_STATX_MEM_ALIGN / sizeof(sx[0])];
    *offset_align = sx[DIO_STATX_OFFSET_ALIGN / sizeof(sx[0])];
    return 0;
#else
    (void)fd, (void)offset_align, (void)mem_align;
    return -EOPNOTSUPP;
#endif
}

int target_dio_statx(const struct diskio_target *t, struct direct_statx *out)
{
    memset(out, 0, sizeof(*out));
    for (unsigned j = 0; t && j < DISKIO_JOBS_MAX; j++) {
        const struct diskio_target *f = j == 0 ? t : t->job_files[j];
        uint32_t offset, mem;
        if (!f || fd_dio_statx(f->fd, &offset, &mem) != 0)
            continue;
        /* one file without direct I/O is enough for the run to have some
         * buffered I/O */
        out->offset_align = !out->known || offset < out->offset_align ? offset : out->offset_align;
        out->mem_align = mem > out->mem_align ? mem : out->mem_align;
        out->known = true;
    }
    return out->known ? 0 : -EOPNOTSUPP;
}

/* The offset alignment O_DIRECT needs with the buffers' in *mem, from
 * STATX_DIOALIGN, or 0 when the kernel does not say (or says the file
 * has no direct I/O: the run finds out). */
static uint64_t statx_dio_align(int fd, uint64_t *mem)
{
    uint32_t offset, mem_align;
    if (fd_dio_statx(fd, &offset, &mem_align) != 0 || offset == 0)
        return 0;
    *mem = mem_align;
    return offset;
}

int diskio_target_direct_align(const struct diskio_target *t, uint64_t *offset_align,
                               uint64_t *mem_align)
{
    if (!t || !offset_align || !mem_align)
        return -EINVAL;
    uint64_t mem = 0;
    uint64_t offset = statx_dio_align(t->fd, &mem);
    if (offset == 0) {
        /* no STATX_DIOALIGN (before Linux 6.1, or the filesystem does not
         * say): the logical block size of the device under it */
        struct stat st;
        if (fstat(t->fd, &st) != 0)
            return -errno;
        offset = logical_block_size(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
        if (offset == 0)
            offset = 512;
        mem = offset;
    }
    *offset_align = offset;
    *mem_align = mem;
    return 0;
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

/* Whether open() could take path by its length alone: a name between
 * slashes of at most NAME_MAX bytes, the whole shorter than PATH_MAX.
 * lstat() says so only when it reaches the long name (a missing
 * directory before it answers ENOENT first). */
static bool path_length_ok(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return false;
    for (const char *name = path; *name;) {
        const size_t len = strcspn(name, "/");
        if (len > NAME_MAX)
            return false;
        name += len + (name[len] == '/');
    }
    return true;
}

/* What path is, and whether flags let it be used: 0 with *kind, or a
 * negative code.  The one place that decides which targets are refused. */
static int classify(const char *path, unsigned flags, enum target_kind *kind, struct stat *seen)
{
    struct stat st;
    if (!path_length_ok(path))
        return -ENAMETOOLONG;
    if (lstat(path, &st) != 0) {
        *kind = TARGET_NEW;
        return errno == ENOENT ? 0 : -errno;
    }
    if (seen)
        *seen = st;
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
    return classify(path, flags, &kind, NULL);
}

int diskio_target_open(const char *path, uint64_t size, unsigned flags, struct diskio_target **out)
{
    enum target_kind kind;
    struct stat seen;
    int rc;

    if (!path || !*path || !out)
        return -EINVAL;
    *out = NULL;
    struct diskio_target *t = calloc(1, sizeof(*t));
    if (!t)
        return -ENOMEM;
    t->dir_fd = -1;
    t->fd = -1;

    rc = classify(path, flags, &kind, &seen);
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
        rc = target_create_in(t, t->dir, basename(copy));
        free(copy);
        if (rc < 0)
            goto fail;
    } else if (kind == TARGET_DIR) {
        t->dir = strdup(path);
        if (!t->dir) {
            rc = -ENOMEM;
            goto fail;
        }
        rc = target_create_in(t, path, NULL);
        if (rc < 0)
            goto fail;
    } else if (kind == TARGET_FILE) {
        t->path = strdup(path);
        t->dir = parent_dir(path);
        if (!t->path || !t->dir) {
            rc = -ENOMEM;
            goto fail;
        }
        /* the file classify() saw, or a refusal: a file swapped in
         * between the check and the open is not the one --force named */
        rc = open_checked(t, path, O_WRONLY, &seen);
        if (rc < 0)
            goto fail;
        t->size = (uint64_t)seen.st_size;
    } else {
        t->path = strdup(path);
        /* the probe looks at the device itself, not at /dev's devtmpfs */
        t->dir = strdup(path);
        if (!t->path || !t->dir) {
            rc = -ENOMEM;
            goto fail;
        }
        /* O_EXCL, as mkfs(8) does: a mounted device, or one another
         * program holds exclusively, fails with EBUSY; held open, the
         * claim keeps the device from being mounted during the run */
        rc = open_checked(t, path, O_WRONLY | O_EXCL, &seen);
        if (rc < 0)
            goto fail;
        uint64_t bytes = 0;
        if (ioctl(t->fd, BLKGETSIZE64, &bytes) != 0) {
            rc = -errno;
            goto fail;
        }
        t->is_device = true;
        t->size = bytes;
    }

    if ((flags & DISKIO_TARGET_PREALLOCATE) && !t->is_device) {
        rc = target_fill(t, size, 8192, 0, NULL, NULL);
        if (rc < 0)
            goto fail;
    }
    *out = t;
    return 0;

fail:
    diskio_target_free(t);
    return rc;
}

bool diskio_target_is_device(const struct diskio_target *t)
{
    return t && t->is_device;
}

uint64_t diskio_target_size(const struct diskio_target *t)
{
    return t ? t->size : 0;
}

const char *diskio_target_path(const struct diskio_target *t)
{
    return t ? t->path : NULL;
}

const char *diskio_target_dir(const struct diskio_target *t)
{
    return t ? t->dir : NULL;
}

uint64_t diskio_buffer_align(void)
{
    return DISKIO_BUFFER_ALIGN;
}

/* The files a run makes beside the test file, in its directory: a job's
 * own file, and the wal pattern's segments (removed: target_remove.c). */
int target_job_file(struct diskio_target *t, unsigned j, struct diskio_target **out)
{
    if (!t || !t->created || !t->dir || j == 0 || j >= DISKIO_JOBS_MAX)
        return -EINVAL;
    if (t->job_files[j]) {
        *out = t->job_files[j];
        return 0;
    }
    struct diskio_target *jt = calloc(1, sizeof(*jt));
    if (!jt)
        return -ENOMEM;
    jt->dir_fd = -1;
    jt->fd = -1;
    jt->dir = strdup(t->dir);
    int rc = jt->dir ? target_create_in(jt, t->dir, NULL) : -ENOMEM;
    if (rc < 0) {
        (void)target_remove_one(jt);
        target_close_one(jt);
        return rc;
    }
    t->job_files[j] = jt;
    *out = jt;
    return 0;
}

int target_aux_create(struct diskio_target *t, unsigned slot, struct diskio_target **out)
{
    if (!t || !t->created || slot == 0 || slot >= DISKIO_JOBS_MAX)
        return -EINVAL;
    if (t->job_files[slot])
        return -EBUSY;
    struct diskio_target *aux = calloc(1, sizeof(*aux));
    if (!aux)
        return -ENOMEM;
    aux->dir_fd = -1;
    aux->fd = -1;
    aux->dir = strdup(t->dir);
    int rc = aux->dir ? target_create_in(aux, t->dir, NULL) : -ENOMEM;
    /* both name buffers at their full size now, before the file is
     * published: a rename then writes into memory that is never freed
     * under a signal handler */
    char *name = rc == 0 ? realloc(aux->name, TARGET_NAME_MAX) : NULL;
    if (name)
        aux->name = name;
    aux->name_alt = rc == 0 ? calloc(1, TARGET_NAME_MAX) : NULL;
    if (rc == 0 && (!name || !aux->name_alt))
        rc = -ENOMEM;
    if (rc < 0) {
        (void)target_remove_one(aux);
        target_close_one(aux);
        return rc;
    }
    t->job_files[slot] = aux;
    *out = aux;
    return 0;
}
