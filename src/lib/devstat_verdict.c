/* SPDX-License-Identifier: MIT */
/*
 * What the block layer's counters say about a run's latencies: the rules
 * of the verdicts (syncs that did not reach the device, merged requests,
 * a cache's acknowledgement, a shared device, a loop device's backing
 * file in memory, O_DIRECT done buffered: doc/verdicts.md), judged when
 * a run's counters are recorded or runs are merged, and the public
 * accessors of a run's device figures and verdicts.  Reading the
 * counters: devstat.c.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/btrfs.h>
#include <linux/magic.h>
#endif

#include "diskio_internal.h"
#include "patterns.h"

/* A sync latency a rotational device cannot give: one revolution of a
 * 15k rpm disk. */
#define REVOLUTION_NS UINT64_C(4000000)
/* A run whose stacked device (a loop device) read or wrote at least this
 * share of its bytes, while the disks under it read or wrote less than
 * BACKING_SHARE of that, was answered by a cache between them. */
#define STACKED_SHARE 0.5
#define BACKING_SHARE 0.1
/* More merged than this per op: the latencies are of merged requests. */
#define MERGES_PER_OP_MAX 0.1
/* diskio reads nothing during a run: more than this was someone else. */
#define SHARED_READ_SECTORS 2048u
/* Room for what a run legitimately writes besides its data: a journal
 * commit per op (descriptor, metadata and commit blocks). */
#define JOURNAL_BYTES_PER_OP (UINT64_C(16) << 10)
#define SHARED_SLACK_BYTES (UINT64_C(1) << 20)

/* ---- verdicts ---- */

/* The O_DIRECT modes: each op is one device request of its size. */
static bool mode_claims_each_op(enum diskio_mode m)
{
    return diskio_mode_is_direct(m);
}

/* Whether a run's I/O is meant to reach the device: uncached reads (not
 * --cached), and writes that bypass the page cache or are made durable
 * (every write mode but async, whose writes stay in memory by design). */
static bool claims_device_io(const struct devstat_facts *f, bool reads)
{
    if (reads)
        return !f->cached;
    return diskio_mode_is_direct(f->mode) || diskio_mode_is_durable(f->mode);
}

/* A run's bytes answered from memory below the filesystem, one rule for
 * reads and writes (the run's direction's sectors): the stacked devices
 * it sits on (depth 0 with something under them: a loop device) read or
 * wrote what the run did, the disks under them (the leaves below) next
 * to nothing in the run's time.  A buffered loop device reads and
 * writes its backing file through the page cache, so a file the machine
 * has in memory (just written, or read before) gives memory speed to
 * "uncached" reads, and writes reach the disk only later, at writeback
 * (a sync reaches it: the loop device syncs its backing file); a loop
 * device over a file in tmpfs does nothing but memory. */
static bool backing_cached(const struct devstat_facts *f, bool reads)
{
    double stacked = 0.0, below = 0.0;
    bool has_below = false;
    for (size_t i = 0; i < f->ndev; i++) {
        const struct diskio_device_io *d = &f->dev[i];
        const double bytes = (double)(reads ? d->read_sectors : d->write_sectors) * 512.0;
        /* the devices on top (a loop device over a file in tmpfs: all of
         * it is memory, leaf or not), and the disks under them */
        if (d->depth == 0 && (f->memory_backed || !d->leaf)) {
            stacked += bytes;
        } else if (d->depth > 0 && d->leaf) {
            below += bytes;
            has_below = true;
        }
    }
    if (f->memory_backed)
        return stacked > 0.0;
    return has_below && stacked >= STACKED_SHARE * (double)f->bytes && stacked > 0.0 &&
           below < BACKING_SHARE * stacked;
}

unsigned devstat_judge(const struct devstat_facts *f)
{
    unsigned v = 0;
    if (f->ndev == 0 || f->ops == 0)
        return 0;
    const double ops = (double)f->ops;
    /* a durable mode's syncs (a sync call, or a flag on its writes) */
    const bool sync = f->has_config && diskio_mode_is_durable(f->mode);
    const double syncs =
        f->syncs ? (double)f->syncs
                 : (diskio_mode_syncs(f->mode) && f->sync_every > 1 ? ops / (double)f->sync_every
                                                                    : ops) /
                       (f->jobs > 1 ? (double)f->jobs : 1.0);
    /* A read mode writes nothing of its own (an atime update at most) and
     * reads what it was asked for, twice as much allowed, plus, through
     * the page cache (mode read), what readahead fetches beyond the last
     * read: up to two windows in flight, each up to twice read_ahead_kb
     * with POSIX_FADV_SEQUENTIAL.  A write mode reads nothing and writes
     * its data and journal. */
    const bool reads = f->has_config && diskio_mode_is_read(f->mode);
    const double bytes_allowed =
        2.0 * ((double)f->bytes + (double)f->extra_bytes + ops * (double)JOURNAL_BYTES_PER_OP) +
        (double)SHARED_SLACK_BYTES;
    const double readahead =
        reads && !diskio_mode_is_direct(f->mode) ? 4.0 * (double)f->read_ahead : 0.0;
    const double read_bytes_allowed =
        reads ? 2.0 * (double)f->bytes + readahead + (double)SHARED_SLACK_BYTES
              : SHARED_READ_SECTORS * 512.0;
    /* another's I/O on the device is in the latencies only of ops that
     * wait for the device: buffered writes and cached reads copy to and
     * from memory (whether writeback caught them is interference.c's
     * judgement, from their own blocked time) */
    const bool waits_device = !f->has_config || mode_waits_for_device(f->mode, f->cached);
    /* a read run that writes blocks back writes that share of its bytes,
     * with a write's allowance for it */
    const double written_back = reads ? (double)f->bytes * f->write_back / 100.0 : 0.0;
    const double write_bytes_allowed =
        reads ? 2.0 * (written_back + (f->write_back ? ops * (double)JOURNAL_BYTES_PER_OP : 0.0)) +
                    (double)SHARED_SLACK_BYTES
              : bytes_allowed;
    for (size_t i = 0; i < f->ndev; i++) {
        const struct diskio_device_io *d = &f->dev[i];
        /* a volatile cache the syncs did not flush; a durable O_DIRECT
         * mode's writes (O_DIRECT|O_DSYNC) may carry FUA instead */
        if (sync && d->volatile_cache && d->flushes_known &&
            !(d->fua && diskio_mode_is_direct(f->mode)) && (double)d->flushes < 0.5 * syncs)
            v |= DISKIO_VERDICT_SYNC_NOT_FLUSHED;
        if (f->has_config && mode_claims_each_op(f->mode) && d->own_io &&
            (double)(reads ? d->read_merges : d->write_merges) > MERGES_PER_OP_MAX * ops)
            v |= DISKIO_VERDICT_MERGED;
        if (sync && d->leaf && d->rotational && f->sync_p50_ns < REVOLUTION_NS)
            v |= DISKIO_VERDICT_CACHE_ACK;
        if (waits_device && ((double)d->read_sectors * 512.0 > read_bytes_allowed ||
                             (d->own_io && (double)d->write_sectors * 512.0 > write_bytes_allowed)))
            v |= DISKIO_VERDICT_SHARED;
    }
    if (f->has_config && claims_device_io(f, reads) && backing_cached(f, reads))
        v |= DISKIO_VERDICT_BACKING_CACHED;
    return v;
}

void devstat_own_bytes(const struct diskio_run *run, const struct diskio_device_io *d,
                       double *read_own, double *write_own)
{
    const struct diskio_run_info *info = &run->info;
    const double ops = (double)info->ops, bytes = (double)info->bytes;
    const bool reads = info->has_config && diskio_mode_is_read(info->config.mode);
    const double journals = d->depth > 0 ? 2.0 : 1.0;
    if (reads) {
        /* through the page cache: readahead's too */
        *read_own =
            bytes +
            (diskio_mode_is_direct(info->config.mode) ? 0.0 : 4.0 * (double)run->read_ahead);
        *write_own = 0.0;
    } else {
        *read_own = 0.0;
        *write_own = bytes + journals * ops * (double)JOURNAL_BYTES_PER_OP;
    }
}

static void judge_run(struct diskio_run *run);

int devstat_record(struct diskio_run *run, const struct devstat_set *set,
                   const struct devstat_sample *before, const struct devstat_sample *after)
{
    if (set->n == 0)
        return 0;
    struct diskio_device_io *io = calloc(set->n + 1, sizeof(*io));
    if (!io)
        return -ENOMEM;
    size_t n = 0;
    struct diskio_device_io *total = &io[set->n];
    snprintf(total->name, sizeof(total->name), "total");
    total->flushes_known = true;
    total->fua = true;
    for (size_t i = 0; i < set->n; i++) {
        struct diskio_device_io *d = &io[n];
        if (!devstat_delta(&set->dev[i], &before[i], &after[i], d))
            continue;
        n++;
        if (d->depth != 0)
            continue;
        total->reads += d->reads;
        total->read_sectors += d->read_sectors;
        total->read_merges += d->read_merges;
        total->writes += d->writes;
        total->write_merges += d->write_merges;
        total->write_sectors += d->write_sectors;
        total->read_ms += d->read_ms;
        total->write_ms += d->write_ms;
        total->flush_ms += d->flush_ms;
        total->flushes += d->flushes;
        total->flushes_known = total->flushes_known && d->flushes_known;
        total->volatile_cache = total->volatile_cache || d->volatile_cache;
        total->rotational = total->rotational || d->rotational;
        total->fua = total->fua && d->fua;
    }
    if (n == 0) {
        free(io);
        return 0;
    }
    if (n < set->n)
        memmove(&io[n], total, sizeof(*total));
    run->devices = io;
    run->ndevices = n;
    for (size_t i = 0; i < set->n; i++) {
        run->memory_backed = run->memory_backed || set->dev[i].memory_backed;
        run->counters_blind =
            run->counters_blind || (set->dev[i].depth == 0 && set->dev[i].iostats == 0);
    }
    for (size_t i = 0; i < set->n; i++)
        if (set->dev[i].read_ahead > run->read_ahead)
            run->read_ahead = set->dev[i].read_ahead;
    judge_run(run);
    return 0;
}

/* The verdicts of a run from its device figures and its histograms. */
static void judge_run(struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    struct devstat_facts facts = {
        .mode = info->config.mode,
        .has_config = info->has_config,
        .sync_every = info->config.sync_every,
        .jobs = info->config.jobs,
        .write_back = info->has_config ? info->config.write_back : 0,
        .cached = info->has_config && info->config.cached,
        .memory_backed = run->memory_backed,
        .ops = info->ops,
        .bytes = info->bytes,
        .dev = run->devices,
        .ndev = run->ndevices,
        .read_ahead = run->read_ahead,
    };
    const struct diskio_hist *h = run->hist[DISKIO_PART_SYNC];
    if (!h || diskio_hist_count(h) == 0)
        h = run->hist[DISKIO_PART_TOTAL];
    facts.sync_p50_ns = h ? diskio_hist_percentile(h, 50.0) : 0;
    /* the WAL syncs once per flush (per write with O_DSYNC, O_SYNC) and
     * writes a new segment's zeros at each switch; a checkpoint syncs
     * once per file */
    const struct diskio_wal_counts *wal = &info->wal;
    if (info->has_config && pattern_params_of(info->config.pattern) == PATTERN_PARAMS_WAL) {
        facts.syncs = wal->syncs ? wal->syncs : wal->writes;
        facts.extra_bytes =
            info->config.wal_recycle ? 0 : wal->segment_switches * info->config.wal_segment_size;
        if (!facts.syncs)
            facts.syncs = 1;
    } else if (info->has_config &&
               pattern_params_of(info->config.pattern) == PATTERN_PARAMS_CHECKPOINT) {
        facts.syncs = info->checkpoint.file_syncs ? info->checkpoint.file_syncs : 1;
    }
    run->verdicts = devstat_judge(&facts);
}

void devstat_merge(struct diskio_run *into, const struct diskio_run *repetition)
{
    bool same = into->ndevices == repetition->ndevices && into->ndevices > 0;
    for (size_t i = 0; same && i <= into->ndevices; i++)
        same = strcmp(into->devices[i].name, repetition->devices[i].name) == 0;
    if (!same) {
        /* per-op figures must cover every op: a repetition without them
         * (or over other devices) leaves the merged run without them */
        free(into->devices);
        into->devices = NULL;
        into->ndevices = 0;
        into->verdicts = 0;
        return;
    }
    for (size_t i = 0; i <= into->ndevices; i++) {
        struct diskio_device_io *d = &into->devices[i];
        const struct diskio_device_io *add = &repetition->devices[i];
        d->reads += add->reads;
        d->read_sectors += add->read_sectors;
        d->read_merges += add->read_merges;
        d->writes += add->writes;
        d->write_merges += add->write_merges;
        d->write_sectors += add->write_sectors;
        d->read_ms += add->read_ms;
        d->write_ms += add->write_ms;
        d->flush_ms += add->flush_ms;
        d->flushes += add->flushes;
        d->flushes_known = d->flushes_known && add->flushes_known;
    }
    judge_run(into);
}

/* ---- public accessors ---- */

size_t diskio_run_device_count(const struct diskio_run *run)
{
    return run ? run->ndevices : 0;
}

const struct diskio_device_io *diskio_run_device_io(const struct diskio_run *run, size_t i)
{
    return run && run->devices && i <= run->ndevices ? &run->devices[i] : NULL;
}

unsigned diskio_run_verdicts(const struct diskio_run *run)
{
    return run ? run->verdicts : 0;
}

static const struct {
    enum diskio_verdict verdict;
    const char *name, *text;
} verdicts[] = {
    {DISKIO_VERDICT_SYNC_NOT_FLUSHED, "sync_not_flushed",
     "syncs did not reach the device: not a durable latency (fewer device flushes than syncs on "
     "a volatile write cache)"},
    {DISKIO_VERDICT_MERGED, "merged",
     "the block layer merged these requests into larger ones: the latency is not that of one "
     "request of this size"},
    {DISKIO_VERDICT_CACHE_ACK, "cache_ack",
     "syncs faster than one revolution of a rotational disk: the device or hypervisor "
     "acknowledges from a cache; durability across power loss is not shown"},
    {DISKIO_VERDICT_SHARED, "shared",
     "the device did I/O this run does not explain: it was shared with other work, and the "
     "latencies may include waiting for it"},
    {DISKIO_VERDICT_BACKING_CACHED, "backing_cached",
     "uncached reads came from memory, or writes did not reach the disk in the run's time: the "
     "loop device's backing file is in this machine's memory (its page cache: the disk under it "
     "read or wrote next to nothing of it; or a tmpfs), so this is not a disk's speed "
     "(losetup --direct-io=on; for reads of a file on a disk, also echo 1 > "
     "/proc/sys/vm/drop_caches before the run)"},
    {DISKIO_VERDICT_NOT_DIRECT, "not_direct",
     "not direct: the filesystem did this O_DIRECT I/O through the page cache (buffered), so the "
     "latency is not that of a device request"},
};

const char *diskio_verdict_name(enum diskio_verdict v)
{
    for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
        if (verdicts[i].verdict == v)
            return verdicts[i].name;
    return NULL;
}

const char *diskio_verdict_text(enum diskio_verdict v)
{
    for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
        if (verdicts[i].verdict == v)
            return verdicts[i].text;
    return NULL;
}
