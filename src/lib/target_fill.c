/* SPDX-License-Identifier: MIT */
/*
 * The test file's contents and the room for them: the fill (random data,
 * distinct per block, that the run's reads can check: fill_word()), the
 * writes' random bytes, and the free-space check that keeps a share of
 * the filesystem free.  The test file itself: target.c.
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

#define SPLITMIX_GAMMA UINT64_C(0x9e3779b97f4a7c15)

static inline uint64_t splitmix_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void random_bytes(unsigned char *buf, size_t len, uint64_t *state)
{
    /* splitmix64: fast, and every 8 bytes differ, so no two blocks (nor
     * two 512-byte sectors) of the stream repeat */
    uint64_t x = *state;
    for (size_t i = 0; i + sizeof(uint64_t) <= len; i += sizeof(uint64_t)) {
        uint64_t z = splitmix_mix(x += SPLITMIX_GAMMA);
        memcpy(buf + i, &z, sizeof(z));
    }
    *state = x;
}

/* splitmix64 is a counter: word n of a stream is known without the words
 * before it, so a reader can check any block of the fill on its own. */
uint64_t fill_word(uint64_t seed, uint64_t n)
{
    return splitmix_mix((seed ^ FILL_SEED_MIX) + (n + 1) * SPLITMIX_GAMMA);
}

int target_fill(struct diskio_target *t, uint64_t size, size_t block_len, uint64_t seed,
                const volatile sig_atomic_t *stop, volatile uint64_t *filled)
{
    int rc = 0;
    /* written through the descriptor held since the file was created or
     * checked, never by path: whatever is now at the name is not ours */
    const int fd = t->fd;
    if (fd < 0 || block_len == 0)
        return -EINVAL;
    /*
     * What this invocation has not written itself is filled, whatever the
     * file's size says: an existing file (--force) may be sparse or
     * fallocate()d, and a write into a hole or an unwritten extent
     * allocates or converts it, a metadata commit with every timed sync
     * (on journaled ext4, one journal commit per fdatasync instead of none).
     * --force is the permission to overwrite the user's file; measuring
     * allocations as overwrites would be the lie.
     */
    if (t->written >= size)
        return 0;
    /* refused before the first byte rather than after filling the
     * filesystem to 100% */
    rc = diskio_target_check_space(t, size, NULL, NULL, NULL);
    if (rc < 0)
        return rc;

    /*
     * The file is filled the way the measured writes will write it: in
     * blocks of their size, with incompressible data.  How it was filled
     * shows in every later sync: on an ext4 on virtio, overwrites of a file
     * filled in 1 MiB writes of a repeating pattern synced 15-25% slower
     * than of one filled block by block with random bytes, which is what
     * the bare loop in bench/ and PostgreSQL (8 KiB writes) do.  Every
     * block gets random data of its own: a repeated block compresses and
     * deduplicates (ZFS/btrfs compression, VDO, many SSDs), which would
     * flatter the storage.
     */
    size_t buf_len = (block_len + 7) & ~(size_t)7;
    unsigned char *block = malloc(buf_len);
    if (!block)
        return -ENOMEM;
    uint64_t state = seed ^ FILL_SEED_MIX;
    for (uint64_t pos = t->written; pos < size;) {
        if (stop && *stop) {
            rc = -DISKIO_E_INTERRUPTED;
            break;
        }
        /* block-aligned pieces: the first may finish a partial block */
        size_t len = block_len - (size_t)(pos % block_len);
        if (size - pos < len)
            len = (size_t)(size - pos);
        random_bytes(block, buf_len, &state);
        ssize_t n = pwrite(fd, block, len, (off_t)pos);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : -DISKIO_E_SHORT_WRITE;
            break;
        }
        pos += (uint64_t)n;
        if (filled)
            *filled = pos;
    }
    free(block);
    /* Make the filled file durable so the first timed sync does not
     * pay for writing back the preallocation. */
    while (rc == 0 && fsync(fd) != 0)
        if (errno != EINTR)
            rc = -errno;
    if (rc == 0) {
        /* one stream from offset 0; a fill continuing an older one
         * restarts the stream at t->written, so the file is not one */
        t->fill_whole = t->written == 0;
        t->fill_block = block_len;
        t->fill_seed = seed;
        t->written = size;
        if (t->size < size)
            t->size = size;
    }
    return rc;
}

/*
 * The room kept free: 5% of the filesystem's size, at most 1 GiB.  A
 * benchmark that fills its filesystem makes every other program writing
 * there fail (a database, the logs, diskio's own result and trace files,
 * often on the same filesystem), and the test file needs metadata of its
 * own beyond its data (indirect blocks, extent trees, copy-on-write trees)
 * that f_bavail does not count.  5% is the share ext4 keeps for root by
 * default, so a run never eats into what a filesystem would keep anyway;
 * the 1 GiB cap keeps a large, nearly full filesystem usable for the
 * default 64 MiB file.  f_bavail (not f_bfree) is used even for root, so
 * the space reserved for root is never taken either.
 */
static uint64_t space_reserve(const struct statvfs *sv)
{
    const uint64_t cap = DISKIO_SPACE_RESERVE_MAX;
    uint64_t total = (uint64_t)sv->f_blocks * sv->f_frsize;
    /* total * pct / 100, rounded down, without overflow */
    uint64_t share =
        total / 100 * DISKIO_SPACE_RESERVE_PCT + total % 100 * DISKIO_SPACE_RESERVE_PCT / 100;
    return share < cap ? share : cap;
}

int diskio_target_check_space(const struct diskio_target *t, uint64_t size, uint64_t *needed,
                              uint64_t *available, uint64_t *reserve)
{
    struct stat st;
    struct statvfs sv;
    if (!t || t->fd < 0)
        return -EINVAL;
    if (t->is_device) {
        /* nothing is allocated on a device: its size bounds the offsets */
        if (needed)
            *needed = 0;
        return 0;
    }
    if (fstat(t->fd, &st) != 0 || fstatvfs(t->fd, &sv) != 0)
        return -errno;
    /* what is allocated, not the size: a sparse file's holes need room */
    uint64_t have = (uint64_t)st.st_blocks * 512u;
    uint64_t need = have < size ? size - have : 0;
    uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
    uint64_t keep = space_reserve(&sv);
    if (needed)
        *needed = need;
    if (available)
        *available = avail;
    if (reserve)
        *reserve = keep;
    /* a filesystem that reports no size (some FUSE and network ones)
     * cannot be judged: the writes will tell */
    if (sv.f_blocks == 0 || need == 0)
        return 0;
    return (avail > keep && need <= avail - keep) ? 0 : -DISKIO_E_NO_SPACE;
}
