/* SPDX-License-Identifier: MIT */
/* The text's verdict lines, first: which runs' figures cannot be taken
 * as the device's (and why: doc/verdicts.md), and which devices under
 * the target would make any write look faster or slower than the
 * storage is.  The text in order: emit_text.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_text.h"

/* What tells a run apart in a verdict line beside its mode, in the order
 * its row in the table shows it: its qualifiers, then its block size
 * (" qd8 1 MiB", " rand 4 KiB", " ×4 jobs 8 KiB"). */
static void run_suffix(const struct diskio_run *run, char *buf, size_t size)
{
    char bs[24] = "", qual[96];
    buf[0] = '\0';
    if (!run->info.has_config)
        return;
    text_run_qualifier(run, qual, sizeof(qual));
    text_size(bs, sizeof(bs), run->info.config.block_size);
    snprintf(buf, size, "%s%s%s", qual, bs[0] ? " " : "", bs);
}

/* The runs a verdict holds for: "fsync, fdatasync and osync 8 KiB" when
 * they agree on what tells them apart, else "fsync 8 KiB, fsync 64 KiB". */
static void verdict_runs(FILE *out, const struct diskio_result *res, unsigned bit)
{
    char first[128] = "", suffix[128];
    bool same = true, any = false;
    size_t count = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        if (!(res->runs[r]->verdicts & bit))
            continue;
        run_suffix(res->runs[r], suffix, sizeof(suffix));
        if (!any)
            snprintf(first, sizeof(first), "%s", suffix);
        same = same && strcmp(first, suffix) == 0;
        any = true;
        count++;
    }
    size_t k = 0;
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        if (!(run->verdicts & bit))
            continue;
        if (k > 0)
            fputs(same && k + 1 == count ? " and " : ", ", out);
        text_show(out, run->info.name);
        if (!same) {
            run_suffix(run, suffix, sizeof(suffix));
            text_show(out, suffix);
        }
        k++;
    }
    if (same)
        text_show(out, first);
}

/* The environment probe's word on a device, or NULL. */
static const struct devstat_dev *probed_device(const struct diskio_result *res, const char *name)
{
    const struct devstat_set *set = res->env ? env_devices(res->env) : NULL;
    for (size_t i = 0; set && i < set->n; i++)
        if (strcmp(set->dev[i].name, name) == 0)
            return &set->dev[i];
    return NULL;
}

/* The devices a verdict is about, once each, for its line: for cache_ack
 * the rotational leaves and where their rotational flag comes from (a
 * loop device's is the loop driver's, a virtual disk's the hypervisor's
 * default: neither is a medium's); for backing_cached the loop (stacked)
 * devices and the disks under them. */
static void verdict_devices(FILE *out, const struct diskio_result *res, unsigned bit)
{
    const char *seen[DEVSTAT_MAX * 2];
    size_t nseen = 0;
    bool opened = false;
    for (size_t r = 0; r < res->nruns; r++) {
        const struct diskio_run *run = res->runs[r];
        if (!(run->verdicts & bit))
            continue;
        for (size_t i = 0; i < run->ndevices; i++) {
            const struct diskio_device_io *d = &run->devices[i];
            const struct devstat_dev *probed = probed_device(res, d->name);
            bool in_memory = probed && probed->memory_backed;
            bool wanted =
                bit == DISKIO_VERDICT_CACHE_ACK
                    ? d->leaf && d->rotational
                    : (d->depth == 0 && (!d->leaf || in_memory)) || (d->depth > 0 && d->leaf);
            bool dup = false;
            for (size_t s = 0; s < nseen && !dup; s++)
                dup = strcmp(seen[s], d->name) == 0;
            if (!wanted || dup || nseen == sizeof(seen) / sizeof(seen[0]))
                continue;
            seen[nseen++] = d->name;
            fputs(opened ? "; " : " (", out);
            opened = true;
            text_show(out, d->name);
            const char *kind = probed ? probed->virtual_kind : "";
            if (bit == DISKIO_VERDICT_BACKING_CACHED) {
                fputs(in_memory       ? ": its backing file in tmpfs"
                      : d->depth == 0 ? ": the loop device"
                                      : ": the disk under it",
                      out);
            } else if (strcmp(kind, "loop") == 0) {
                fputs(" is a loop device: its rotational flag is the loop driver's, not a disk's",
                      out);
            } else if (kind[0]) {
                fputs(" is a virtual disk (", out);
                text_show(out, kind);
                fputs("): its rotational flag is the hypervisor's default, not the medium's", out);
            } else {
                fputs(" says it is rotational", out);
            }
        }
    }
    if (opened)
        fputc(')', out);
}

/* The verdicts of every run, under the table: one line per verdict,
 * naming the runs it holds for (a default run on a virtual disk has
 * five syncing modes alike) and, where it helps, the devices. */
void text_verdict_lines(FILE *out, const struct diskio_result *res)
{
    bool first = true;
    for (unsigned bit = 1; bit != 0 && bit <= DEVSTAT_VERDICT_LAST; bit <<= 1) {
        /* not_direct: under each run's row, with that run's evidence */
        if (bit == DISKIO_VERDICT_NOT_DIRECT)
            continue;
        bool any = false;
        for (size_t r = 0; r < res->nruns && !any; r++)
            any = (res->runs[r]->verdicts & bit) != 0;
        if (!any)
            continue;
        if (first)
            fputc('\n', out);
        first = false;
        verdict_runs(out, res, bit);
        fprintf(out, ": %s", diskio_verdict_text((enum diskio_verdict)bit));
        if (bit == DISKIO_VERDICT_CACHE_ACK || bit == DISKIO_VERDICT_BACKING_CACHED)
            verdict_devices(out, res, bit);
        fputc('\n', out);
    }
}
