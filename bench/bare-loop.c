/* SPDX-License-Identifier: MIT */
/*
 * bare-loop: the floor for any per-op write timing tool.
 *
 * Creates a new file (O_CREAT|O_EXCL), fills it with non-zero data and
 * fsyncs it (untimed), reopens it with the flags of the mode, then issues
 * --count pwrite()s of --bs bytes at sequential offsets (wrapping at
 * --size), each followed by fsync()/fdatasync() in those modes.  Timed:
 * two clock_gettime(CLOCK_MONOTONIC) around every op, nothing else (a sum,
 * a min/max and, with --lat, one store into a pre-touched array).
 * Untimed (--untimed): the same loop with one clock read before and one
 * after it.  Prints one JSON object on stdout and removes the file.
 *
 * --pool BYTES writes as diskio does (its data pool, src/lib/pipeline.c):
 * consecutive ops from different blocks of a pool of random data, cycled,
 * each block stamped before the op (8 bytes in every 512-byte sector, a
 * mix of the op and the sector) - so that diskio's per-op overhead can be
 * told from what its incompressible, non-repeating data costs (a source
 * block that is not in the nearest caches, the stamps).  Without it, every
 * op writes the same buffer, as fio and pg_test_fsync do.
 *
 * Built by bench/compare-peers with cc -O2 at run time; not part of diskio.
 *
 *   bare-loop --file PATH --mode MODE --bs N --count N [--size N]
 *             [--warmup N] [--lat] [--untimed] [--same-offset]
 *             [--pool BYTES]
 *   MODE: async fsync fdatasync osync odsync direct direct-dsync
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum sync_kind { SYNC_NONE, SYNC_FSYNC, SYNC_FDATASYNC };

static const char *path;

static void die(const char *what)
{
    int e = errno;
    fprintf(stderr, "bare-loop: %s: %s\n", what, strerror(e));
    if (path)
        unlink(path);
    exit(1);
}

static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* diskio's stamp_sectors(), the same work: the op's offset and number
 * first, then in every further 512-byte sector 8 bytes mixed from both */
static inline void stamp(unsigned char *buf, uint64_t len, uint64_t offset, uint64_t op)
{
    memcpy(buf, &offset, sizeof(offset));
    memcpy(buf + sizeof(offset), &op, sizeof(op));
    uint64_t key = (op ^ (offset << 20)) * UINT64_C(0x9e3779b97f4a7c15);
    for (uint64_t at = 512; at < len; at += 512) {
        uint64_t z = key + at;
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        z ^= z >> 31;
        memcpy(buf + at, &z, sizeof(z));
    }
}

/* --pool: the op's source, the pool block after the last one, stamped
 * (before the op's first clock read, as diskio does) */
static inline unsigned char *next_source(unsigned char *pool, uint64_t pool_blocks,
                                         uint64_t *pool_next, uint64_t bs, uint64_t off,
                                         uint64_t op)
{
    unsigned char *buf = pool + *pool_next * bs;
    if (++*pool_next == pool_blocks)
        *pool_next = 0;
    stamp(buf, bs, off, op);
    return buf;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t parse_u64(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || end == s) {
        fprintf(stderr, "bare-loop: not a number: %s\n", s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    const char *mode = "async";
    uint64_t bs = 8192, count = 1000, size = 64u << 20, warmup = 10, pool_bytes = 0;
    int lat = 0, untimed = 0, same = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--lat")) {
            lat = 1;
            continue;
        }
        if (!strcmp(a, "--untimed")) {
            untimed = 1;
            continue;
        }
        if (!strcmp(a, "--same-offset")) {
            same = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "bare-loop: bad argument %s\n", a);
            return 2;
        }
        if (!strcmp(a, "--file"))
            path = v;
        else if (!strcmp(a, "--mode"))
            mode = v;
        else if (!strcmp(a, "--bs"))
            bs = parse_u64(v);
        else if (!strcmp(a, "--count"))
            count = parse_u64(v);
        else if (!strcmp(a, "--size"))
            size = parse_u64(v);
        else if (!strcmp(a, "--warmup"))
            warmup = parse_u64(v);
        else if (!strcmp(a, "--pool"))
            pool_bytes = parse_u64(v);
        else {
            fprintf(stderr, "bare-loop: bad argument %s\n", a);
            return 2;
        }
        i++;
    }
    if (!path || bs == 0 || count == 0 || size < bs) {
        fprintf(stderr, "bare-loop: need --file, --bs > 0, --count > 0, --size >= --bs\n");
        return 2;
    }

    int flags = O_WRONLY;
    enum sync_kind sk = SYNC_NONE;
    if (!strcmp(mode, "async"))
        ;
    else if (!strcmp(mode, "fsync"))
        sk = SYNC_FSYNC;
    else if (!strcmp(mode, "fdatasync"))
        sk = SYNC_FDATASYNC;
    else if (!strcmp(mode, "osync"))
        flags |= O_SYNC;
    else if (!strcmp(mode, "odsync"))
        flags |= O_DSYNC;
    else if (!strcmp(mode, "direct"))
        flags |= O_DIRECT;
    else if (!strcmp(mode, "direct-dsync"))
        flags |= O_DIRECT | O_DSYNC;
    else {
        fprintf(stderr, "bare-loop: unknown mode %s\n", mode);
        return 2;
    }

    size -= size % bs;
    /* --same-offset: rewrite block 0 every time, as pg_test_fsync does */
    const uint64_t step = same ? 0 : bs;
    /* --pool: as many blocks as fit (at least 2); else one buffer */
    const uint64_t pool_blocks = pool_bytes ? (pool_bytes / bs < 2 ? 2 : pool_bytes / bs) : 1;
    unsigned char *buf, *pool;
    if (posix_memalign((void **)&pool, 4096, pool_blocks * bs))
        die("posix_memalign");
    buf = pool;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (uint64_t i = 0; i < pool_blocks * bs; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pool[i] = (unsigned char)(x | 1);
    }
    uint64_t pool_next = 0;

    /* preallocate with real data, untimed, like diskio does */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (fd < 0) {
        fprintf(stderr, "bare-loop: create %s: %s\n", path, strerror(errno));
        return 3;
    }
    for (uint64_t off = 0; off < size; off += bs)
        if (pwrite(fd, buf, bs, (off_t)off) != (ssize_t)bs)
            die("prefill");
    if (fsync(fd))
        die("fsync prefill");
    close(fd);
    fd = open(path, flags);
    if (fd < 0)
        die("open");

    uint64_t *lats = NULL;
    if (lat && !untimed) {
        lats = malloc(count * sizeof(*lats));
        if (!lats)
            die("malloc");
        memset(lats, 0, count * sizeof(*lats)); /* touch: no page faults in the loop */
    }

    uint64_t off = 0;
    for (uint64_t i = 0; i < warmup; i++) {
        if (pwrite(fd, buf, bs, (off_t)off) != (ssize_t)bs)
            die("pwrite");
        if (sk == SYNC_FSYNC && fsync(fd))
            die("fsync");
        if (sk == SYNC_FDATASYNC && fdatasync(fd))
            die("fdatasync");
        off += step;
        if (off + bs > size)
            off = 0;
    }

    uint64_t sum = 0, mn = UINT64_MAX, mx = 0;
    uint64_t begin = now_ns();
    if (untimed) {
        for (uint64_t i = 0; i < count; i++) {
            if (pool_bytes)
                buf = next_source(pool, pool_blocks, &pool_next, bs, off, i);
            if (pwrite(fd, buf, bs, (off_t)off) != (ssize_t)bs)
                die("pwrite");
            if (sk == SYNC_FSYNC && fsync(fd))
                die("fsync");
            if (sk == SYNC_FDATASYNC && fdatasync(fd))
                die("fdatasync");
            off += step;
            if (off + bs > size)
                off = 0;
        }
    } else {
        for (uint64_t i = 0; i < count; i++) {
            if (pool_bytes)
                buf = next_source(pool, pool_blocks, &pool_next, bs, off, i);
            uint64_t t0 = now_ns();
            if (pwrite(fd, buf, bs, (off_t)off) != (ssize_t)bs)
                die("pwrite");
            if (sk == SYNC_FSYNC && fsync(fd))
                die("fsync");
            if (sk == SYNC_FDATASYNC && fdatasync(fd))
                die("fdatasync");
            uint64_t d = now_ns() - t0;
            sum += d;
            if (d < mn)
                mn = d;
            if (d > mx)
                mx = d;
            if (lats)
                lats[i] = d;
            off += step;
            if (off + bs > size)
                off = 0;
        }
    }
    uint64_t end = now_ns();
    close(fd);
    unlink(path);

    double elapsed = (double)(end - begin);
    printf("{\"tool\":\"bare-loop\",\"mode\":\"%s\",\"bs\":%llu,\"ops\":%llu,"
           "\"timed\":%s,\"pool_bytes\":%llu,\"elapsed_ns\":%.0f,\"ops_per_s\":%.3f",
           mode, (unsigned long long)bs, (unsigned long long)count, untimed ? "false" : "true",
           (unsigned long long)(pool_bytes ? pool_blocks * bs : 0), elapsed, count * 1e9 / elapsed);
    if (!untimed) {
        printf(",\"mean_ns\":%.3f,\"min_ns\":%llu,\"max_ns\":%llu", (double)sum / count,
               (unsigned long long)mn, (unsigned long long)mx);
        if (lats) {
            qsort(lats, count, sizeof(*lats), cmp_u64);
            /* nearest rank, as diskio defines its percentiles */
            uint64_t rank = (count * 50 + 99) / 100;
            printf(",\"p50_ns\":%llu", (unsigned long long)lats[rank ? rank - 1 : 0]);
        }
    }
    printf("}\n");
    return 0;
}
