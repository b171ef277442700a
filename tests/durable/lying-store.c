/* SPDX-License-Identifier: MIT */
/*
 * Description: a store that lies, for the durability tests: a FUSE
 * filesystem of one file whose data lives in a backing file behind a
 * volatile write cache of whole cache blocks, as a disk's.  Killing its
 * daemon (SIGKILL) is the power cut: whatever the cache held is gone,
 * and a new daemon mounted on the same backing file shows what "reached
 * the platter".
 *
 *   honest   a sync (fsync, fdatasync; the kernel sends one after every
 *            O_SYNC or O_DSYNC write) writes every dirty block to the
 *            backing file, oldest first, and fdatasyncs it
 *   lying    a sync is acknowledged and nothing is written; a full
 *            cache writes back its oldest dirty block to make room, so
 *            a cut loses exactly the last --cache-blocks blocks written
 *   reorder  a sync is acknowledged and nothing is written; a full cache
 *            writes back all its dirty blocks newest first, and with
 *            --crash-after N the power fails (the daemon kills itself)
 *            after the N-th block written back since mounting: later
 *            data reached the backing file, earlier data did not
 *
 * The file's name and size (the metadata) are written through to the
 * backing file at once in every mode: only data lies.  --stats FILE
 * holds the counters after every operation (dirty blocks: what a cut
 * would lose now; syncs acknowledged; syncs acknowledged without writing
 * anything; blocks written back), for the tests to compare with the
 * check's counts.
 *
 * Usage: lying-store --backing FILE --mode MODE [--cache-blocks N]
 *        [--cache-block BYTES] [--crash-after N] [--stats FILE] MOUNTPOINT
 * It runs in the foreground, single-threaded; unmount it with
 * fusermount3 -u.  Exit 77 when FUSE cannot mount here.
 */
#define FUSE_USE_VERSION 31
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define HEADER_BYTES 4096 /* the superblock; the file's data follows */
#define NAME_MAX_BYTES 255
#define MAGIC "LYINGST1"

enum store_mode { HONEST, LYING, REORDER };

struct slot {
    bool used;
    uint64_t block; /* cache block number in the file */
    uint64_t order; /* when it was last written: write-back order */
    unsigned char *data;
};

static struct store {
    enum store_mode mode;
    int backing;
    int stats_fd;
    uint64_t cache_block;
    size_t nslots;
    struct slot *slots;
    uint64_t clock;
    uint64_t crash_after;
    uint64_t capacity;
    /* the one file */
    bool exists;
    char name[NAME_MAX_BYTES + 1];
    uint64_t size;
    /* counters */
    uint64_t syncs, lied_syncs, writebacks, writes;
} st;

static size_t dirty_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < st.nslots; i++)
        n += st.slots[i].used;
    return n;
}

static void stats_write(void)
{
    if (st.stats_fd < 0)
        return;
    char text[256];
    int n = snprintf(text, sizeof(text),
                     "dirty_blocks %zu\nsyncs %" PRIu64 "\nlied_syncs %" PRIu64
                     "\nwritebacks %" PRIu64 "\nwrites %" PRIu64 "\n",
                     dirty_count(), st.syncs, st.lied_syncs, st.writebacks, st.writes);
    if (pwrite(st.stats_fd, text, (size_t)n, 0) == n)
        (void)ftruncate(st.stats_fd, n);
}

/* The superblock: magic, whether the file exists, its size and name.
 * Written through at once (metadata never lies here). */
static int super_write(void)
{
    unsigned char h[HEADER_BYTES];
    memset(h, 0, sizeof(h));
    memcpy(h, MAGIC, 8);
    h[8] = st.exists;
    memcpy(h + 16, &st.size, sizeof(st.size));
    memcpy(h + 32, st.name, strlen(st.name));
    if (pwrite(st.backing, h, sizeof(h), 0) != (ssize_t)sizeof(h) || fdatasync(st.backing) != 0)
        return -EIO;
    return 0;
}

static int super_read(void)
{
    unsigned char h[HEADER_BYTES];
    ssize_t n = pread(st.backing, h, sizeof(h), 0);
    if (n == 0)
        return super_write(); /* a new store */
    if (n != (ssize_t)sizeof(h) || memcmp(h, MAGIC, 8) != 0)
        return -EINVAL;
    st.exists = h[8] != 0;
    memcpy(&st.size, h + 16, sizeof(st.size));
    memcpy(st.name, h + 32, NAME_MAX_BYTES);
    st.name[NAME_MAX_BYTES] = '\0';
    return 0;
}

/* ---- the cache ---- */

static struct slot *slot_find(uint64_t block)
{
    for (size_t i = 0; i < st.nslots; i++)
        if (st.slots[i].used && st.slots[i].block == block)
            return &st.slots[i];
    return NULL;
}

/* Read the backing file's copy of a cache block (zeros past its end). */
static int backing_read_block(uint64_t block, unsigned char *out)
{
    memset(out, 0, st.cache_block);
    ssize_t n =
        pread(st.backing, out, st.cache_block, (off_t)(HEADER_BYTES + block * st.cache_block));
    return n < 0 ? -errno : 0;
}

/* Write one dirty block to the backing file; the power may fail right
 * after (reorder --crash-after). */
static int writeback(struct slot *s)
{
    ssize_t n = pwrite(st.backing, s->data, st.cache_block,
                       (off_t)(HEADER_BYTES + s->block * st.cache_block));
    if (n != (ssize_t)st.cache_block)
        return -EIO;
    s->used = false;
    st.writebacks++;
    if (st.crash_after && st.writebacks == st.crash_after) {
        stats_write();
        raise(SIGKILL); /* the power fails in the middle of the write-back */
    }
    return 0;
}

static struct slot *oldest(bool newest_instead)
{
    struct slot *best = NULL;
    for (size_t i = 0; i < st.nslots; i++) {
        struct slot *s = &st.slots[i];
        if (s->used &&
            (!best || (newest_instead ? s->order > best->order : s->order < best->order)))
            best = s;
    }
    return best;
}

/* Every dirty block written back, oldest first (honest) or newest first
 * (reorder). */
static int writeback_all(bool newest_first)
{
    for (struct slot *s; (s = oldest(newest_first));) {
        int rc = writeback(s);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* A free slot: a full cache makes room as the mode does. */
static struct slot *slot_free(void)
{
    for (size_t i = 0; i < st.nslots; i++)
        if (!st.slots[i].used)
            return &st.slots[i];
    int rc = st.mode == REORDER ? writeback_all(true) : writeback(oldest(false));
    if (rc < 0)
        return NULL;
    for (size_t i = 0; i < st.nslots; i++)
        if (!st.slots[i].used)
            return &st.slots[i];
    return NULL;
}

static void cache_drop_from(uint64_t size)
{
    for (size_t i = 0; i < st.nslots; i++)
        if (st.slots[i].used && st.slots[i].block * st.cache_block >= size)
            st.slots[i].used = false;
}

/* ---- the filesystem ---- */

static bool is_file(const char *path)
{
    return st.exists && path[0] == '/' && strcmp(path + 1, st.name) == 0;
}

static int ls_getattr(const char *path, struct stat *sb, struct fuse_file_info *fi)
{
    (void)fi;
    memset(sb, 0, sizeof(*sb));
    if (strcmp(path, "/") == 0) {
        sb->st_mode = S_IFDIR | 0755;
        sb->st_nlink = 2;
        return 0;
    }
    if (!is_file(path))
        return -ENOENT;
    sb->st_mode = S_IFREG | 0600;
    sb->st_nlink = 1;
    sb->st_size = (off_t)st.size;
    sb->st_blksize = (blksize_t)st.cache_block;
    sb->st_blocks = (blkcnt_t)((st.size + 511) / 512);
    return 0;
}

static int ls_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)off;
    (void)fi;
    (void)flags;
    if (strcmp(path, "/") != 0)
        return -ENOTDIR;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    if (st.exists)
        fill(buf, st.name, NULL, 0, 0);
    return 0;
}

static int ls_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
    (void)mode;
    if (is_file(path))
        return -EEXIST;
    if (st.exists)
        return -ENOSPC; /* one file only */
    if (strlen(path + 1) > NAME_MAX_BYTES || strchr(path + 1, '/'))
        return -ENAMETOOLONG;
    strcpy(st.name, path + 1);
    st.exists = true;
    st.size = 0;
    cache_drop_from(0);
    if (ftruncate(st.backing, HEADER_BYTES) != 0)
        return -EIO;
    if (fi->flags & O_DIRECT)
        fi->direct_io = 1;
    return super_write();
}

static int ls_open(const char *path, struct fuse_file_info *fi)
{
    if (!is_file(path))
        return -ENOENT;
    /* O_DIRECT: every write comes to the store as it is made, not
     * through the page cache (what a database on such a filesystem gets) */
    if (fi->flags & O_DIRECT)
        fi->direct_io = 1;
    return 0;
}

static int ls_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
    (void)fi;
    if (!is_file(path))
        return -ENOENT;
    if ((uint64_t)off >= st.size)
        return 0;
    if ((uint64_t)off + size > st.size)
        size = (size_t)(st.size - (uint64_t)off);
    unsigned char *tmp = malloc(st.cache_block);
    if (!tmp)
        return -ENOMEM;
    size_t done = 0;
    while (done < size) {
        const uint64_t pos = (uint64_t)off + done;
        const uint64_t block = pos / st.cache_block, in = pos % st.cache_block;
        size_t n = st.cache_block - in;
        if (n > size - done)
            n = size - done;
        const struct slot *s = slot_find(block);
        if (s) {
            memcpy(buf + done, s->data + in, n);
        } else {
            int rc = backing_read_block(block, tmp);
            if (rc < 0) {
                free(tmp);
                return rc;
            }
            memcpy(buf + done, tmp + in, n);
        }
        done += n;
    }
    free(tmp);
    return (int)done;
}

static int store_sync(void);

static int ls_write(const char *path, const char *buf, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    if (!is_file(path))
        return -ENOENT;
    if ((uint64_t)off + size > st.capacity)
        return -ENOSPC;
    size_t done = 0;
    while (done < size) {
        const uint64_t pos = (uint64_t)off + done;
        const uint64_t block = pos / st.cache_block, in = pos % st.cache_block;
        size_t n = st.cache_block - in;
        if (n > size - done)
            n = size - done;
        struct slot *s = slot_find(block);
        if (!s) {
            s = slot_free();
            if (!s)
                return -EIO;
            if (n < st.cache_block && backing_read_block(block, s->data) < 0)
                return -EIO;
            s->used = true;
            s->block = block;
        }
        memcpy(s->data + in, buf + done, n);
        s->order = ++st.clock;
        done += n;
    }
    st.writes++;
    if ((uint64_t)off + size > st.size) {
        st.size = (uint64_t)off + size;
        if (super_write() < 0)
            return -EIO;
    }
    /* O_SYNC and O_DSYNC (O_SYNC includes its bit) are the store's to
     * honour on every write it is sent: the kernel follows a buffered one
     * with a sync of its own, but not a direct one (FOPEN_DIRECT_IO) */
    int rc = (fi->flags & O_DSYNC) ? store_sync() : 0;
    stats_write();
    return rc < 0 ? rc : (int)size;
}

/* A sync: honest writes the cache through, the others only say so. */
static int store_sync(void)
{
    st.syncs++;
    int rc = 0;
    if (st.mode == HONEST) {
        rc = writeback_all(false);
        if (rc == 0 && fdatasync(st.backing) != 0)
            rc = -EIO;
    } else if (dirty_count() > 0) {
        st.lied_syncs++; /* "durable", says the store */
    }
    return rc;
}

static int ls_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
    (void)path;
    (void)datasync;
    (void)fi;
    int rc = store_sync();
    stats_write();
    return rc;
}

static int ls_flush(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    (void)fi;
    return 0; /* a close is not a sync */
}

static int ls_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
    (void)fi;
    if (!is_file(path))
        return -ENOENT;
    if ((uint64_t)size > st.capacity)
        return -EFBIG;
    if ((uint64_t)size < st.size) {
        cache_drop_from((uint64_t)size);
        /* what is cut off reads as zeros if the file grows again */
        if (ftruncate(st.backing, (off_t)(HEADER_BYTES + (uint64_t)size)) != 0)
            return -EIO;
    }
    st.size = (uint64_t)size;
    return super_write();
}

static int ls_unlink(const char *path)
{
    if (!is_file(path))
        return -ENOENT;
    st.exists = false;
    st.size = 0;
    st.name[0] = '\0';
    cache_drop_from(0);
    if (ftruncate(st.backing, HEADER_BYTES) != 0)
        return -EIO;
    return super_write();
}

static int ls_statfs(const char *path, struct statvfs *sv)
{
    (void)path;
    memset(sv, 0, sizeof(*sv));
    sv->f_bsize = sv->f_frsize = 4096;
    sv->f_blocks = st.capacity / 4096;
    sv->f_bfree = sv->f_bavail = (st.capacity - st.size) / 4096;
    sv->f_files = 2;
    sv->f_ffree = st.exists ? 0 : 1;
    sv->f_namemax = NAME_MAX_BYTES;
    return 0;
}

static int ls_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
    (void)tv;
    (void)fi;
    return strcmp(path, "/") == 0 || is_file(path) ? 0 : -ENOENT;
}

static int ls_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
    (void)mode;
    (void)fi;
    return strcmp(path, "/") == 0 || is_file(path) ? 0 : -ENOENT;
}

static void *ls_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    (void)conn;
    /* every stat asks the store: the size is the store's */
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    return NULL;
}

static const struct fuse_operations ops = {
    .init = ls_init,
    .getattr = ls_getattr,
    .readdir = ls_readdir,
    .create = ls_create,
    .open = ls_open,
    .read = ls_read,
    .write = ls_write,
    .fsync = ls_fsync,
    .flush = ls_flush,
    .truncate = ls_truncate,
    .unlink = ls_unlink,
    .statfs = ls_statfs,
    .utimens = ls_utimens,
    .chmod = ls_chmod,
};

static int usage(void)
{
    fprintf(stderr, "usage: lying-store --backing FILE --mode honest|lying|reorder "
                    "[--cache-blocks N] [--cache-block BYTES] [--crash-after N] "
                    "[--stats FILE] MOUNTPOINT\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *backing = NULL, *mode = NULL, *stats = NULL, *mnt = NULL;
    unsigned long long blocks = 64, block = 4096, crash = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--backing") == 0 && v)
            backing = argv[++i];
        else if (strcmp(a, "--mode") == 0 && v)
            mode = argv[++i];
        else if (strcmp(a, "--stats") == 0 && v)
            stats = argv[++i];
        else if (strcmp(a, "--cache-blocks") == 0 && v)
            blocks = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--cache-block") == 0 && v)
            block = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--crash-after") == 0 && v)
            crash = strtoull(argv[++i], NULL, 10);
        else if (a[0] != '-' && !mnt)
            mnt = a;
        else
            return usage();
    }
    if (!backing || !mode || !mnt || blocks == 0 || block < 512 || block % 512)
        return usage();
    if (strcmp(mode, "honest") == 0)
        st.mode = HONEST;
    else if (strcmp(mode, "lying") == 0)
        st.mode = LYING;
    else if (strcmp(mode, "reorder") == 0)
        st.mode = REORDER;
    else
        return usage();
    st.cache_block = block;
    st.nslots = (size_t)blocks;
    st.crash_after = crash;
    st.capacity = UINT64_C(1) << 30;
    st.slots = calloc(st.nslots, sizeof(*st.slots));
    for (size_t i = 0; st.slots && i < st.nslots; i++)
        if (!(st.slots[i].data = malloc(block)))
            return 1;
    st.backing = open(backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (!st.slots || st.backing < 0) {
        perror(backing);
        return 1;
    }
    if (super_read() < 0) {
        fprintf(stderr, "lying-store: %s is not a store's backing file\n", backing);
        return 1;
    }
    st.stats_fd = -1;
    if (stats && (st.stats_fd = open(stats, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
        perror(stats);
        return 1;
    }
    stats_write();
    char *fargv[] = {argv[0],     "-f", "-s", "-o", "fsname=lying-store,subtype=lying",
                     (char *)mnt, NULL};
    int rc = fuse_main(6, fargv, &ops, NULL);
    return rc == 0 ? 0 : 77;
}
