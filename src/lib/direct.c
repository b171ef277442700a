/* SPDX-License-Identifier: MIT */
/*
 * Whether an O_DIRECT run's I/O was direct.  A filesystem may take
 * O_DIRECT and do the I/O through the page cache all the same: ext4 with
 * data=journal (and a file with inline data, an encrypted or verity file
 * on some kernels), btrfs in some cases, NFS without direct support.  The
 * writes then return at memory speed and reach the device later, and the
 * row would read as a device's latency.  The kernel says so itself:
 * STATX_DIOALIGN (Linux 6.1) gives such a file the alignment 0 ("no
 * direct I/O"); where the filesystem does not report it, the devices'
 * counters over the run tell.  The rule and its thresholds are here and
 * nowhere else.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diskio_internal.h"

/*
 * Direct I/O goes to the device as it is issued: every op is at least one
 * request (split, never fewer; merged with another it still counts as a
 * merge) and carries its bytes during the run.  A run whose depth-0
 * devices moved less than DIRECT_BYTES_SHARE of the ops' bytes, or made
 * fewer requests and merges together than DIRECT_REQUESTS_PER_OP per op,
 * had its I/O buffered: the page cache took it and writeback comes later
 * (or, for reads, the cache served it).  Other work on the devices can
 * only add to the counts, so it can hide a buffered run, never make a
 * direct one look buffered.
 */
#define DIRECT_BYTES_SHARE 0.5
#define DIRECT_REQUESTS_PER_OP 0.5

static void rule_statx(const struct direct_statx *sx, struct direct_check *out)
{
    out->source = "statx";
    out->honoured = sx->offset_align > 0;
    if (sx->offset_align == 0)
        snprintf(out->evidence, sizeof(out->evidence),
                 "statx: no direct I/O for this file, dio alignment 0");
    else
        snprintf(out->evidence, sizeof(out->evidence),
                 "statx: direct I/O for this file, dio alignment %u, memory %u",
                 (unsigned)sx->offset_align, (unsigned)sx->mem_align);
}

static void rule_counters(const struct direct_facts *f, struct direct_check *out)
{
    const struct diskio_device_io *t = f->total;
    const double sectors = (double)(f->reads ? t->read_sectors : t->write_sectors);
    const double requests =
        (double)(f->reads ? t->reads + t->read_merges : t->writes + t->write_merges);
    const double share = sectors * 512.0 / (double)f->bytes;
    const double per_op = requests / (double)f->ops;
    const char *what = f->reads ? "read" : "write";
    out->source = "device";
    out->honoured = share >= DIRECT_BYTES_SHARE && per_op >= DIRECT_REQUESTS_PER_OP;
    snprintf(out->evidence, sizeof(out->evidence),
             "device counters: %.2f device %ss per op, merges included; %.0f%% of the ops' "
             "bytes %s during the run",
             per_op, what, share * 100.0, f->reads ? "read" : "written");
}

void direct_rule(const struct direct_facts *f, struct direct_check *out)
{
    out->honoured = -1;
    out->source = NULL;
    if (f->statx.known) {
        rule_statx(&f->statx, out);
        return;
    }
    if (f->total && !f->blind && f->ops > 0 && f->bytes > 0) {
        rule_counters(f, out);
        return;
    }
    snprintf(out->evidence, sizeof(out->evidence),
             "unknown: the kernel gave no STATX_DIOALIGN for the file, and %s",
             f->blind   ? "its device does not count its I/O (queue/iostats 0)"
             : f->total ? "the run recorded no ops"
                        : "no block device under it was counted");
}

/* The rule on run's facts, into run->direct and its verdicts. */
static void direct_judge(struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    run->direct.applies = info->has_config && diskio_mode_is_direct(info->config.mode);
    if (!run->direct.applies)
        return;
    const struct direct_facts facts = {
        .reads = diskio_mode_is_read(info->config.mode),
        .statx = run->dio,
        .ops = info->ops,
        .bytes = info->bytes,
        .total = diskio_run_device_io(run, diskio_run_device_count(run)),
        .blind = run->counters_blind,
    };
    direct_rule(&facts, &run->direct);
    if (run->direct.honoured == 0)
        run->verdicts =
            (run->verdicts & ~(unsigned)DISKIO_VERDICT_MERGED) | DISKIO_VERDICT_NOT_DIRECT;
    else
        run->verdicts &= ~(unsigned)DISKIO_VERDICT_NOT_DIRECT;
}

void direct_record(struct diskio_run *run, const struct diskio_target *t)
{
    if (run->info.has_config && diskio_mode_is_direct(run->info.config.mode))
        (void)target_dio_statx(t, &run->dio);
    direct_judge(run);
}

void direct_merge(struct diskio_run *into, const struct diskio_run *repetition)
{
    const struct direct_statx *add = &repetition->dio;
    struct direct_statx *sx = &into->dio;
    if (add->known) {
        sx->offset_align = !sx->known || add->offset_align < sx->offset_align ? add->offset_align
                                                                              : sx->offset_align;
        sx->mem_align = add->mem_align > sx->mem_align ? add->mem_align : sx->mem_align;
        sx->known = true;
    }
    direct_judge(into);
}

int diskio_run_direct(const struct diskio_run *run, struct diskio_direct *out)
{
    if (!run || !out || !run->direct.applies)
        return -EINVAL;
    memset(out, 0, sizeof(*out));
    out->honoured = run->direct.honoured;
    out->source = run->direct.source;
    out->evidence = run->direct.evidence;
    out->statx_known = run->dio.known;
    out->dio_offset_align = run->dio.offset_align;
    out->dio_mem_align = run->dio.mem_align;
    return 0;
}
