/* SPDX-License-Identifier: MIT */
/*
 * Description: each device-counter verdict fires exactly when its condition holds.
 *
 * The verdict rules of block-layer accounting (src/lib/devstat.c), on
 * device counters made up for each rule: sync_not_flushed (and group
 * commit, of ops or of jobs), merged, cache_ack, shared (only for ops
 * that wait for the device), reads judged as reads, and backing_cached
 * (a loop device's reads or writes its backing disk did not make in the
 * run's time); every verdict has a name and a text.  Parsing the
 * counters is check_device_accounting's.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "diskio_internal.h"
#include "t_devstat.h"
#include "t_helpers.h"

/* One device's I/O for the verdict tests. */
static struct diskio_device_io io_of(bool cache, bool fua, bool rot, bool leaf, bool own,
                                     uint64_t writes, uint64_t merges, uint64_t flushes)
{
    struct diskio_device_io d = {.volatile_cache = cache,
                                 .fua = fua,
                                 .rotational = rot,
                                 .leaf = leaf,
                                 .own_io = own,
                                 .flushes_known = true,
                                 .writes = writes,
                                 .write_merges = merges,
                                 .write_sectors = writes * 16,
                                 .flushes = flushes};
    snprintf(d.name, sizeof(d.name), "sdx");
    return d;
}

static unsigned judge(enum diskio_mode mode, unsigned sync_every, uint64_t p50_ns,
                      const struct diskio_device_io *dev, size_t n)
{
    struct devstat_facts f = {.mode = mode,
                              .has_config = true,
                              .sync_every = sync_every,
                              .ops = 1000,
                              .bytes = 1000 * 8192,
                              .sync_p50_ns = p50_ns,
                              .dev = dev,
                              .ndev = n};
    return devstat_judge(&f);
}

START_TEST(test_verdict_sync_not_flushed)
{
    /* 1000 fsyncs, no flush, volatile cache: not durable */
    struct diskio_device_io d = io_of(true, false, false, true, true, 1000, 0, 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 100000, &d, 1), DISKIO_VERDICT_SYNC_NOT_FLUSHED);
    ck_assert_uint_eq(judge(DISKIO_MODE_ODSYNC, 1, 100000, &d, 1), DISKIO_VERDICT_SYNC_NOT_FLUSHED);
    /* a flush per sync: fine */
    d.flushes = 1000;
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 100000, &d, 1), 0);
    /* one sync per 4 writes: 250 flushes are all the syncs */
    d.flushes = 250;
    ck_assert_uint_eq(judge(DISKIO_MODE_FDATASYNC, 4, 100000, &d, 1), 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_FDATASYNC, 1, 100000, &d, 1),
                      DISKIO_VERDICT_SYNC_NOT_FLUSHED);
    /* no flush is needed without a volatile cache, nor judged when the
     * kernel does not count flushes, nor asked of a mode that does not sync */
    d.flushes = 0;
    d.volatile_cache = false;
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 100000, &d, 1), 0);
    d.volatile_cache = true;
    d.flushes_known = false;
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 100000, &d, 1), 0);
    d.flushes_known = true;
    ck_assert_uint_eq(judge(DISKIO_MODE_ASYNC, 1, 100000, &d, 1), 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 100000, &d, 1), 0);
    /* O_DIRECT|O_DSYNC may be FUA writes on a FUA device; fsync may not */
    d.fua = true;
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT_DSYNC, 1, 100000, &d, 1), 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 100000, &d, 1), DISKIO_VERDICT_SYNC_NOT_FLUSHED);
}
END_TEST

START_TEST(test_verdict_merged)
{
    /* aio: 1000 ops served as 31 requests */
    struct diskio_device_io d = io_of(false, false, false, true, true, 31, 969, 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_AIO, 1, 0, &d, 1), DISKIO_VERDICT_MERGED);
    ck_assert_uint_eq(judge(DISKIO_MODE_URING, 1, 0, &d, 1), DISKIO_VERDICT_MERGED);
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 0, &d, 1), DISKIO_VERDICT_MERGED);
    /* the page cache's writeback merges; async claims no device latency */
    ck_assert_uint_eq(judge(DISKIO_MODE_ASYNC, 1, 0, &d, 1), 0);
    /* a loop device's backing disk merges its file's writeback, not ours */
    d.own_io = false;
    ck_assert_uint_eq(judge(DISKIO_MODE_AIO, 1, 0, &d, 1), 0);
    /* up to one merge in ten ops is tolerated */
    d = io_of(false, false, false, true, true, 1000, 100, 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_AIO, 1, 0, &d, 1), 0);
    d.write_merges = 101;
    ck_assert_uint_eq(judge(DISKIO_MODE_AIO, 1, 0, &d, 1), DISKIO_VERDICT_MERGED);
}
END_TEST

START_TEST(test_verdict_cache_ack)
{
    /* a loop device (rotational, not a leaf) over a rotational disk */
    struct diskio_device_io dev[2] = {io_of(false, false, true, false, true, 1000, 0, 0),
                                      io_of(false, false, true, true, false, 1000, 0, 0)};
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 400000, dev, 2), DISKIO_VERDICT_CACHE_ACK);
    ck_assert_uint_eq(judge(DISKIO_MODE_OSYNC, 1, 3999999, dev, 2), DISKIO_VERDICT_CACHE_ACK);
    /* a revolution or more: a disk can do that */
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 4000000, dev, 2), 0);
    /* no sync: no claim */
    ck_assert_uint_eq(judge(DISKIO_MODE_ASYNC, 1, 400000, dev, 2), 0);
    /* the leaf is an SSD: only the loop device says rotational */
    dev[1].rotational = false;
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 400000, dev, 2), 0);
}
END_TEST

/* Group commit: with 16 writers one flush may complete 16 syncs, so 1000
 * fdatasyncs with 100 flushes are durable; with one writer they are not. */
START_TEST(test_verdict_sync_flushed_by_group_commit_of_jobs)
{
    struct diskio_device_io d = io_of(true, false, false, true, true, 1000, 0, 100);
    struct devstat_facts f = {.mode = DISKIO_MODE_FDATASYNC,
                              .has_config = true,
                              .sync_every = 1,
                              .jobs = 16,
                              .ops = 1000,
                              .bytes = 1000 * 8192,
                              .sync_p50_ns = 100000,
                              .dev = &d,
                              .ndev = 1};
    ck_assert_uint_eq(devstat_judge(&f), 0);
    f.jobs = 1;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_SYNC_NOT_FLUSHED);
    /* fewer flushes than even the jobs can share: not durable */
    f.jobs = 16;
    d.flushes = 10;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_SYNC_NOT_FLUSHED);
}
END_TEST

START_TEST(test_verdict_shared)
{
    struct diskio_device_io d = io_of(false, false, false, true, true, 1000, 0, 0);
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 0, &d, 1), 0);
    /* diskio reads nothing: 1 MiB of reads is someone else */
    d.read_sectors = 2049;
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 0, &d, 1), DISKIO_VERDICT_SHARED);
    /* far more written than the run and a journal commit per op explain:
     * 2 x (8 MB + 1000 x 16 KiB) + 1 MiB is about 50 MB */
    d.read_sectors = 0;
    d.write_sectors = (UINT64_C(60) << 20) / 512;
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 0, &d, 1), DISKIO_VERDICT_SHARED);
    d.write_sectors = (UINT64_C(40) << 20) / 512;
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 0, &d, 1), 0);
    /* nothing to judge without ops or devices */
    struct devstat_facts none = {
        .mode = DISKIO_MODE_FSYNC, .has_config = true, .dev = &d, .ndev = 1};
    ck_assert_uint_eq(devstat_judge(&none), 0);
}
END_TEST

START_TEST(test_shared_only_for_ops_that_wait_for_the_device)
{
    /* another program's 60 MB written and 1 MiB read on the device: in
     * the latencies of ops that wait for it, not in those that copy to
     * and from the page cache (async; read --cached) */
    struct diskio_device_io d = io_of(false, false, false, true, true, 1000, 0, 1000);
    d.write_sectors = (UINT64_C(60) << 20) / 512;
    d.read_sectors = 2049;
    ck_assert_uint_eq(judge(DISKIO_MODE_FSYNC, 1, 100000, &d, 1), DISKIO_VERDICT_SHARED);
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT, 1, 0, &d, 1), DISKIO_VERDICT_SHARED);
    ck_assert_uint_eq(judge(DISKIO_MODE_ASYNC, 1, 0, &d, 1), 0);
    struct devstat_facts f = {.mode = DISKIO_MODE_READ,
                              .has_config = true,
                              .ops = 1000,
                              .bytes = 1000 * 8192,
                              .dev = &d,
                              .ndev = 1};
    d.read_sectors = (UINT64_C(60) << 20) / 512;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_SHARED);
    f.cached = true;
    ck_assert_uint_eq(devstat_judge(&f), 0);
}
END_TEST

/* A read run: 1000 reads of 8 KiB (8 MB) on a device that did them. */
static struct diskio_device_io read_io(uint64_t reads, uint64_t merges, uint64_t sectors)
{
    struct diskio_device_io d = io_of(true, false, false, true, true, 0, 0, 0);
    d.reads = reads;
    d.read_merges = merges;
    d.read_sectors = sectors;
    return d;
}

START_TEST(test_read_runs_are_judged_as_reads)
{
    /* every op a device read, no flush: neither shared nor unflushed */
    struct diskio_device_io d = read_io(1000, 0, 16000);
    for (unsigned m = 0; m < diskio_mode_count(); m++)
        if (diskio_mode_is_read((enum diskio_mode)m))
            ck_assert_uint_eq(judge((enum diskio_mode)m, 1, 100000, &d, 1), 0);
    /* readahead: fewer, larger reads, up to twice the bytes, still ours */
    d = read_io(20, 0, 2 * 16000);
    ck_assert_uint_eq(judge(DISKIO_MODE_READ, 1, 100000, &d, 1), 0);
    /* more than twice the bytes + 1 MiB read: someone else */
    d = read_io(1000, 0, 2 * 16000 + 2049);
    ck_assert_uint_eq(judge(DISKIO_MODE_READ, 1, 100000, &d, 1), DISKIO_VERDICT_SHARED);
    /* unless readahead fetched it: mode read (the page cache) may read
     * up to four windows beyond what it asked for */
    struct devstat_facts ra = {.mode = DISKIO_MODE_READ,
                               .has_config = true,
                               .sync_every = 1,
                               .ops = 1000,
                               .bytes = 1000 * 8192,
                               .dev = &d,
                               .ndev = 1,
                               .read_ahead = UINT64_C(8) << 20};
    ck_assert_uint_eq(devstat_judge(&ra), 0);
    d.read_sectors = 2 * 16000 + 2048 + 4 * (UINT64_C(8) << 20) / 512 + 1;
    ck_assert_uint_eq(devstat_judge(&ra), DISKIO_VERDICT_SHARED);
    /* O_DIRECT reads have no readahead */
    ra.mode = DISKIO_MODE_DIRECT_READ;
    d.read_sectors = 2 * 16000 + 2049;
    ck_assert_uint_eq(devstat_judge(&ra), DISKIO_VERDICT_SHARED);
    /* a read run writes nothing of its own: 1 MiB written is someone else */
    d = read_io(1000, 0, 16000);
    d.write_sectors = 2049;
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT_READ, 1, 100000, &d, 1), DISKIO_VERDICT_SHARED);
    /* O_DIRECT reads merged into others are not one read of the size;
     * the page cache's readahead merges as it likes */
    d = read_io(100, 900, 16000);
    ck_assert_uint_eq(judge(DISKIO_MODE_AIO_READ, 1, 100000, &d, 1), DISKIO_VERDICT_MERGED);
    ck_assert_uint_eq(judge(DISKIO_MODE_DIRECT_READ, 1, 100000, &d, 1), DISKIO_VERDICT_MERGED);
    ck_assert_uint_eq(judge(DISKIO_MODE_READ, 1, 100000, &d, 1), 0);
    /* for a write mode those reads are someone else's, and their merges not its own */
    ck_assert_uint_eq(judge(DISKIO_MODE_AIO, 1, 100000, &d, 1), DISKIO_VERDICT_SHARED);

    /* the read fields of a stat line and their per-op figures */
    struct devstat_sample a, b;
    ck_assert_int_eq(devstat_parse("10 2 80 0 0 0 0 0 0 0 0 0 0 0 0 0 0", &a), 0);
    ck_assert_int_eq(devstat_parse("110 52 880 0 0 0 0 0 0 0 0 0 0 0 0 0 0", &b), 0);
    struct devstat_dev dev = dev_of("loop0", 1, 0, 1);
    struct diskio_device_io io;
    ck_assert(devstat_delta(&dev, &a, &b, &io));
    ck_assert_uint_eq(io.reads, 100);
    ck_assert_uint_eq(io.read_merges, 50);
    ck_assert_uint_eq(io.read_sectors, 800);
    struct devstat_figures f;
    devstat_figures(&io, 200, &f);
    ck_assert(fabs(f.reads_per_op - 0.5) < 1e-9);
    ck_assert(fabs(f.read_merges_per_op - 0.25) < 1e-9);
    ck_assert(fabs(f.kib_per_read - 4.0) < 1e-9);
    ck_assert(isnan(f.kib_per_write));
}
END_TEST

/* Uncached reads of 8 MB through a loop device (depth 0, not a leaf)
 * whose backing disk (depth 1, a leaf) read next to nothing: the backing
 * file was in the page cache. */
START_TEST(test_verdict_backing_cached)
{
    struct diskio_device_io dev[2] = {read_io(1000, 0, 16000), read_io(0, 0, 0)};
    dev[0].leaf = false;
    dev[1].depth = 1;
    dev[1].own_io = false;
    struct devstat_facts f = {.mode = DISKIO_MODE_READ,
                              .has_config = true,
                              .sync_every = 1,
                              .ops = 1000,
                              .bytes = 1000 * 8192,
                              .dev = dev,
                              .ndev = 2};
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_BACKING_CACHED);
    f.mode = DISKIO_MODE_DIRECT_READ;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_BACKING_CACHED);
    /* --cached reads are meant to come from memory */
    f.mode = DISKIO_MODE_READ;
    f.cached = true;
    ck_assert_uint_eq(devstat_judge(&f), 0);
    f.cached = false;
    /* the disk under it read what it read (losetup --direct-io): no */
    dev[1].read_sectors = 16000;
    dev[1].reads = 1000;
    ck_assert_uint_eq(devstat_judge(&f), 0);
    /* a tenth of it is still the disk's */
    dev[1].read_sectors = 1600;
    ck_assert_uint_eq(devstat_judge(&f), 0);
    dev[1].read_sectors = 1599;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_BACKING_CACHED);
    /* a write mode's reads are not its own */
    f.mode = DISKIO_MODE_FSYNC;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED, 0);
    /* one device, nothing under it: nothing to tell from */
    f.mode = DISKIO_MODE_READ;
    f.ndev = 1;
    dev[0].leaf = true;
    ck_assert_uint_eq(devstat_judge(&f), 0);
    /* unless it is a loop device over a file in tmpfs */
    f.memory_backed = true;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_BACKING_CACHED);
}
END_TEST

/* Writes of 8 MB through a loop device whose backing disk wrote next to
 * nothing in the run's time (the loop device wrote its backing file in
 * the page cache): the same rule as reads, on the written sectors, for
 * the modes whose writes are meant to reach the device. */
START_TEST(test_verdict_backing_cached_writes)
{
    /* 1000 writes of 16 sectors (8 KiB) each on the loop device */
    struct diskio_device_io dev[2] = {io_of(false, false, false, false, true, 1000, 0, 0),
                                      io_of(false, false, false, true, false, 0, 0, 0)};
    dev[1].depth = 1;
    struct devstat_facts f = {.mode = DISKIO_MODE_DIRECT,
                              .has_config = true,
                              .sync_every = 1,
                              .ops = 1000,
                              .bytes = 1000 * 8192,
                              .dev = dev,
                              .ndev = 2};
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_BACKING_CACHED);
    f.mode = DISKIO_MODE_AIO;
    ck_assert_uint_eq(devstat_judge(&f), DISKIO_VERDICT_BACKING_CACHED);
    /* async's writes stay in memory by design: not said of it */
    f.mode = DISKIO_MODE_ASYNC;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED, 0);
    /* a durable mode whose syncs reached the disk under it: no */
    f.mode = DISKIO_MODE_FDATASYNC;
    dev[1].writes = 1000;
    dev[1].write_sectors = 16000;
    dev[1].flushes = 1000;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED, 0);
    /* a tenth of it is still the disk's; less is not */
    f.mode = DISKIO_MODE_DIRECT;
    dev[1].write_sectors = 1600;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED, 0);
    dev[1].write_sectors = 1599;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED,
                      DISKIO_VERDICT_BACKING_CACHED);
    /* a read mode is judged by its reads, not by writes it did not make */
    f.mode = DISKIO_MODE_DIRECT_READ;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED, 0);
    /* a loop device over a file in tmpfs: every write is memory's */
    f.mode = DISKIO_MODE_DIRECT;
    f.ndev = 1;
    dev[0].leaf = true;
    f.memory_backed = true;
    ck_assert_uint_eq(devstat_judge(&f) & DISKIO_VERDICT_BACKING_CACHED,
                      DISKIO_VERDICT_BACKING_CACHED);
}
END_TEST

START_TEST(test_verdict_names_and_texts)
{
    ck_assert_str_eq(diskio_verdict_name(DISKIO_VERDICT_SYNC_NOT_FLUSHED), "sync_not_flushed");
    ck_assert_str_eq(diskio_verdict_name(DISKIO_VERDICT_MERGED), "merged");
    ck_assert_str_eq(diskio_verdict_name(DISKIO_VERDICT_CACHE_ACK), "cache_ack");
    ck_assert_str_eq(diskio_verdict_name(DISKIO_VERDICT_SHARED), "shared");
    ck_assert_str_eq(diskio_verdict_name(DISKIO_VERDICT_BACKING_CACHED), "backing_cached");
    ck_assert(strstr(diskio_verdict_text(DISKIO_VERDICT_BACKING_CACHED),
                     "uncached reads came from memory"));
    ck_assert(strstr(diskio_verdict_text(DISKIO_VERDICT_SYNC_NOT_FLUSHED),
                     "syncs did not reach the device: not a durable latency"));
    ck_assert(strstr(diskio_verdict_text(DISKIO_VERDICT_CACHE_ACK),
                     "the device or hypervisor acknowledges from a cache; durability across "
                     "power loss is not shown"));
    ck_assert_ptr_null(diskio_verdict_name((enum diskio_verdict)3));
    ck_assert_ptr_null(diskio_verdict_text((enum diskio_verdict)0));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("devstat");
    TCase *tc = tcase_create("verdicts");
    tcase_add_test(tc, test_verdict_sync_not_flushed);
    tcase_add_test(tc, test_verdict_sync_flushed_by_group_commit_of_jobs);
    tcase_add_test(tc, test_verdict_merged);
    tcase_add_test(tc, test_verdict_cache_ack);
    tcase_add_test(tc, test_verdict_shared);
    tcase_add_test(tc, test_shared_only_for_ops_that_wait_for_the_device);
    tcase_add_test(tc, test_read_runs_are_judged_as_reads);
    tcase_add_test(tc, test_verdict_backing_cached);
    tcase_add_test(tc, test_verdict_backing_cached_writes);
    tcase_add_test(tc, test_verdict_names_and_texts);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
