/* SPDX-License-Identifier: MIT */
/*
 * Block-layer accounting: which block devices are under a target, their
 * /sys/block/NAME/stat counters before and after a run's measured
 * operations (never between two clock reads), and what the differences
 * say about the latencies (Documentation/ABI/testing/procfs-diskstats,
 * Documentation/block/stat.rst).
 *
 * This file: reading the counters (which devices are under a target,
 * through device-mapper, md, loop, overlayfs and btrfs; their stat lines
 * sampled and subtracted) and the figures derived from them.  What the
 * figures say (the verdicts): devstat_verdict.c.
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

/* stat fields, from 0: reads 0, read merges 1, read sectors 2, ms reading
 * 3, writes 4, write merges 5, write sectors 6, ms writing 7, flushes 15
 * and ms flushing 16 (Linux 5.5 and later) */
enum {
    F_READS = 0,
    F_RMERGES = 1,
    F_READ_SECTORS = 2,
    F_READ_MS = 3,
    F_WRITES = 4,
    F_WMERGES = 5,
    F_WSECTORS = 6,
    F_WRITE_MS = 7,
    F_FLUSHES = 15,
    F_FLUSH_MS = 16
};

/* The kernel sums each request's time, from its start to its completion,
 * in nanoseconds but shows whole milliseconds: a difference of two
 * readings is off by up to 1 ms, so a mean over fewer milliseconds than
 * this could be off by more than 5%, and is not given. */
#define REQUEST_MS_MIN 20

int devstat_parse(const char *line, struct devstat_sample *out)
{
    memset(out, 0, sizeof(*out));
    const char *p = line;
    unsigned n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\n' || *p == '\0')
            break;
        if (*p < '0' || *p > '9')
            return -EINVAL;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno != 0 || (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\0'))
            return -EINVAL;
        if (n < DEVSTAT_FIELDS)
            out->v[n] = (uint64_t)v;
        n++;
        p = end;
    }
    if (n < 11)
        return -EINVAL;
    out->nfields = n < DEVSTAT_FIELDS ? n : DEVSTAT_FIELDS;
    return 0;
}

/* ---- resolution ---- */

static bool read_text(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    char *line = fgets(buf, (int)size, f);
    fclose(f);
    if (!line)
        return false;
    buf[strcspn(buf, "\n")] = '\0';
    return true;
}

static signed char read_flag(const char *disk, const char *file, const char *yes)
{
    char path[PATH_MAX], buf[64];
    if (snprintf(path, sizeof(path), "/sys/block/%s/%s", disk, file) >= (int)sizeof(path) ||
        !read_text(path, buf, sizeof(buf)))
        return -1;
    return strcmp(buf, yes) == 0 ? 1 : 0;
}

/* "MAJ:MIN" */
static bool parse_devt(const char *text, dev_t *out)
{
    char *colon, *end;
    errno = 0;
    unsigned long maj = strtoul(text, &colon, 10);
    if (colon == text || *colon != ':')
        return false;
    unsigned long min = strtoul(colon + 1, &end, 10);
    if (errno != 0 || end == colon + 1 || (*end != '\0' && *end != ' ' && *end != '\n'))
        return false;
    *out = makedev(maj, min);
    return true;
}

/* A sysfs device directory's device number (its "dev" file). */
static bool sysdir_devt(const char *dir, dev_t *out)
{
    char path[PATH_MAX], buf[32];
    return snprintf(path, sizeof(path), "%s/dev", dir) < (int)sizeof(path) &&
           read_text(path, buf, sizeof(buf)) && parse_devt(buf, out);
}

/* What kind of device name is when its queue flags are not a medium's
 * (devstat_dev.virtual_kind): a loop device, a virtio or Xen disk, a
 * hypervisor's SCSI disk by its vendor; "" for any other. */
static void virtual_kind(const char *name, char *out, size_t size)
{
    static const struct {
        const char *driver, *kind;
    } drivers[] = {{"virtio_blk", "virtio"}, {"vbd", "xen"}, {"xen-blkfront", "xen"}};
    static const struct {
        const char *vendor, *kind;
    } vendors[] = {{"QEMU", "QEMU"},
                   {"VMware", "VMware"},
                   {"Msft", "Hyper-V"},
                   {"VBOX", "VirtualBox"},
                   {"Google", "Google"}};
    out[0] = '\0';
    if (strncmp(name, "loop", 4) == 0) {
        snprintf(out, size, "loop");
        return;
    }
    char path[PATH_MAX], buf[64];
    if (snprintf(path, sizeof(path), "/sys/block/%s/device/driver", name) < (int)sizeof(path)) {
        char target[PATH_MAX];
        ssize_t n = readlink(path, target, sizeof(target) - 1);
        if (n > 0) {
            target[n] = '\0';
            const char *base = strrchr(target, '/');
            base = base ? base + 1 : target;
            for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
                if (strcmp(base, drivers[i].driver) == 0) {
                    snprintf(out, size, "%s", drivers[i].kind);
                    return;
                }
        }
    }
    if (snprintf(path, sizeof(path), "/sys/block/%s/device/vendor", name) < (int)sizeof(path) &&
        read_text(path, buf, sizeof(buf))) {
        for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
            if (strncmp(buf, vendors[i].vendor, strlen(vendors[i].vendor)) == 0) {
                snprintf(out, size, "%s", vendors[i].kind);
                return;
            }
    }
}

/* Add the disk holding dev (a partition counts as its disk, whose stat
 * has its I/O and whose queue it uses); -1 when known, unknown or full. */
static int add_devt(struct devstat_set *set, dev_t dev, unsigned depth)
{
    char path[PATH_MAX], real[PATH_MAX];
    snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(path, real))
        return -1;
    if (snprintf(path, sizeof(path), "%s/partition", real) < (int)sizeof(path) &&
        access(path, F_OK) == 0)
        *strrchr(real, '/') = '\0';
    const char *name = strrchr(real, '/');
    if (!name)
        return -1;
    name++;
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->dev[i].name, name) == 0)
            return -1;
    if (set->n >= DEVSTAT_MAX || strlen(name) >= sizeof(set->dev[0].name))
        return -1;
    struct devstat_dev *d = &set->dev[set->n];
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", name);
    d->depth = depth;
    d->leaf = true;
    d->write_cache = read_flag(name, "queue/write_cache", "write back");
    d->fua = read_flag(name, "queue/fua", "1");
    d->rotational = read_flag(name, "queue/rotational", "1");
    d->iostats = read_flag(name, "queue/iostats", "1");
    virtual_kind(name, d->virtual_kind, sizeof(d->virtual_kind));
    char ra_path[PATH_MAX], ra[32];
    if (snprintf(ra_path, sizeof(ra_path), "/sys/block/%s/queue/read_ahead_kb", name) <
            (int)sizeof(ra_path) &&
        read_text(ra_path, ra, sizeof(ra)))
        d->read_ahead = strtoull(ra, NULL, 10) * 1024u;
    return (int)set->n++;
}

/* The value of option key= in a mountinfo super-options field (commas in
 * values are escaped with a backslash by overlayfs). */
bool devstat_option_value(const char *opts, const char *key, char *out, size_t size)
{
    size_t klen = strlen(key);
    const char *p = opts;
    while (*p) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t n = 0;
            for (p += klen + 1; *p && *p != ','; p++) {
                if (*p == '\\' && p[1])
                    p++;
                if (n + 1 < size)
                    out[n++] = *p;
            }
            out[n] = '\0';
            return n > 0;
        }
        const char *comma = strchr(p, ',');
        if (!comma)
            break;
        p = comma + 1;
    }
    return false;
}

/* overlayfs: where its writes go is the upper layer. */
static bool overlay_upperdir(dev_t dev, char *out, size_t size)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return false;
    char line[8192];
    bool found = false;
    while (!found && fgets(line, sizeof(line), f)) {
        dev_t mdev;
        char *save = NULL, *tok = strtok_r(line, " \n", &save);
        for (int i = 0; tok && i < 2; i++)
            tok = strtok_r(NULL, " \n", &save);
        if (!tok || !parse_devt(tok, &mdev) || mdev != dev)
            continue;
        while (tok && strcmp(tok, "-") != 0)
            tok = strtok_r(NULL, " \n", &save);
        const char *fstype = tok ? strtok_r(NULL, " \n", &save) : NULL;
        const char *source = fstype ? strtok_r(NULL, " \n", &save) : NULL;
        const char *super = source ? strtok_r(NULL, " \n", &save) : NULL;
        if (fstype && super && strcmp(fstype, "overlay") == 0)
            found = devstat_option_value(super, "upperdir", out, size);
    }
    fclose(f);
    return found;
}

/* Entries of a sysfs directory, as device numbers (dm/md members, btrfs
 * devices): the entries are links to the devices' sysfs directories. */
static size_t dir_devts(const char *dir, dev_t *out, size_t max)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, alphasort);
    size_t found = 0;
    for (int i = 0; i < n; i++) {
        char link[PATH_MAX], real[PATH_MAX];
        if (entries[i]->d_name[0] != '.' && found < max &&
            snprintf(link, sizeof(link), "%s/%s", dir, entries[i]->d_name) < (int)sizeof(link) &&
            realpath(link, real) && sysdir_devt(real, &out[found]))
            found++;
        free(entries[i]);
    }
    free(entries);
    return found;
}

/* btrfs has an anonymous device number; its devices are listed under
 * /sys/fs/btrfs/FSID/devices/. */
static size_t btrfs_devts(const char *path, dev_t *out, size_t max)
{
#ifdef BTRFS_IOC_FS_INFO
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct btrfs_ioctl_fs_info_args info;
    memset(&info, 0, sizeof(info));
    int rc = ioctl(fd, BTRFS_IOC_FS_INFO, &info);
    close(fd);
    if (rc != 0)
        return 0;
    const unsigned char *u = info.fsid;
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir),
             "/sys/fs/btrfs/%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x/"
             "devices",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
             u[14], u[15]);
    return dir_devts(dir, out, max);
#else
    (void)path, (void)out, (void)max;
    return 0;
#endif
}

/* The device numbers holding path: its own, or for an anonymous one
 * (overlayfs, btrfs) what is under it.  A few hops at most: a file to
 * its directory, an overlay to its upper layer. */
static size_t path_devts(const char *path, dev_t *out, size_t max)
{
    char cur[PATH_MAX], next[PATH_MAX];
    snprintf(cur, sizeof(cur), "%s", path);
    for (int hop = 0; hop < 8; hop++) {
        struct stat st;
        if (max == 0 || stat(cur, &st) != 0)
            return 0;
        if (S_ISBLK(st.st_mode)) {
            out[0] = st.st_rdev;
            return 1;
        }
        if (major(st.st_dev) != 0) {
            out[0] = st.st_dev;
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            /* overlayfs gives its files another anonymous device number
             * than the mount's: look the mount up from the directory */
            const char *slash = strrchr(cur, '/');
            if (!slash)
                snprintf(next, sizeof(next), ".");
            else
                snprintf(next, sizeof(next), "%.*s", slash == cur ? 1 : (int)(slash - cur), cur);
            memcpy(cur, next, sizeof(cur));
            continue;
        }
        struct statfs sfs;
        if (statfs(cur, &sfs) != 0)
            return 0;
        if ((unsigned long)sfs.f_type == 0x9123683EUL)
            return btrfs_devts(cur, out, max);
        if ((unsigned long)sfs.f_type != 0x794C7630UL ||
            !overlay_upperdir(st.st_dev, next, sizeof(next)))
            return 0;
        memcpy(cur, next, sizeof(cur));
    }
    return 0;
}

void devstat_resolve(const char *path, struct devstat_set *set)
{
    memset(set, 0, sizeof(*set));
    set->resolved = true;
    if (!path)
        return;
    dev_t devs[DEVSTAT_MAX];
    size_t n = path_devts(path, devs, DEVSTAT_MAX);
    for (size_t i = 0; i < n; i++) {
        int index = add_devt(set, devs[i], 0);
        if (index >= 0)
            set->dev[index].own_io = true;
    }
    /* Breadth first, the set itself as the queue: what is under each
     * device is added after it, one level deeper. */
    for (size_t i = 0; i < set->n && set->dev[i].depth < 8; i++) {
        char sys[PATH_MAX], backing[PATH_MAX] = "";
        const unsigned depth = set->dev[i].depth + 1;
        const bool own = set->dev[i].own_io;
        snprintf(sys, sizeof(sys), "/sys/block/%s/loop/backing_file", set->dev[i].name);
        n = read_text(sys, backing, sizeof(backing)) ? path_devts(backing, devs, DEVSTAT_MAX) : 0;
        struct statfs fs;
        if (n == 0 && backing[0] == '/' && statfs(backing, &fs) == 0 &&
            ((unsigned long)fs.f_type == TMPFS_MAGIC || (unsigned long)fs.f_type == RAMFS_MAGIC))
            set->dev[i].memory_backed = true;
        /* a loop device's backing disk carries its file's writeback, not
         * the run's requests */
        for (size_t k = 0; k < n; k++) {
            (void)add_devt(set, devs[k], depth);
            set->dev[i].leaf = false;
        }
        /* dm/md members carry the device's requests */
        snprintf(sys, sizeof(sys), "/sys/block/%s/slaves", set->dev[i].name);
        n = dir_devts(sys, devs, DEVSTAT_MAX);
        for (size_t k = 0; k < n; k++) {
            int index = add_devt(set, devs[k], depth);
            if (index >= 0)
                set->dev[index].own_io = own;
            set->dev[i].leaf = false;
        }
    }
}

/* ---- samples and deltas ---- */

void devstat_sample_all(const struct devstat_set *set, struct devstat_sample *out)
{
    char path[PATH_MAX], line[512];
    for (size_t i = 0; i < set->n; i++) {
        snprintf(path, sizeof(path), "/sys/block/%s/stat", set->dev[i].name);
        if (!read_text(path, line, sizeof(line)) || devstat_parse(line, &out[i]) != 0)
            out[i].nfields = 0;
    }
}

bool devstat_delta(const struct devstat_dev *dev, const struct devstat_sample *before,
                   const struct devstat_sample *after, struct diskio_device_io *out)
{
    memset(out, 0, sizeof(*out));
    if (before->nfields < 11 || after->nfields < 11)
        return false;
    unsigned n = before->nfields < after->nfields ? before->nfields : after->nfields;
    for (unsigned i = 0; i < n; i++)
        if (after->v[i] < before->v[i] && i != 8) /* field 9 is in flight, a level */
            return false;
    snprintf(out->name, sizeof(out->name), "%s", dev->name);
    out->depth = dev->depth;
    out->volatile_cache = dev->write_cache == 1;
    out->fua = dev->fua == 1;
    out->rotational = dev->rotational == 1;
    out->reads = after->v[F_READS] - before->v[F_READS];
    out->read_merges = after->v[F_RMERGES] - before->v[F_RMERGES];
    out->read_sectors = after->v[F_READ_SECTORS] - before->v[F_READ_SECTORS];
    out->writes = after->v[F_WRITES] - before->v[F_WRITES];
    out->write_merges = after->v[F_WMERGES] - before->v[F_WMERGES];
    out->write_sectors = after->v[F_WSECTORS] - before->v[F_WSECTORS];
    out->read_ms = after->v[F_READ_MS] - before->v[F_READ_MS];
    out->write_ms = after->v[F_WRITE_MS] - before->v[F_WRITE_MS];
    out->leaf = dev->leaf;
    out->own_io = dev->own_io;
    out->flushes_known = n >= 17;
    if (out->flushes_known) {
        out->flushes = after->v[F_FLUSHES] - before->v[F_FLUSHES];
        out->flush_ms = after->v[F_FLUSH_MS] - before->v[F_FLUSH_MS];
    }
    return true;
}

/* A request's mean time (us) from requests' summed milliseconds; NAN
 * without requests or below what the milliseconds resolve. */
static double request_us(uint64_t ms, uint64_t requests)
{
    if (!requests || ms < REQUEST_MS_MIN)
        return NAN;
    return 1000.0 * (double)ms / (double)requests;
}

void devstat_figures(const struct diskio_device_io *io, uint64_t ops, struct devstat_figures *out)
{
    double n = (double)ops;
    out->writes_per_op = ops ? (double)io->writes / n : NAN;
    out->merges_per_op = ops ? (double)io->write_merges / n : NAN;
    out->flushes_per_op = ops && io->flushes_known ? (double)io->flushes / n : NAN;
    out->kib_per_write =
        io->writes ? (double)io->write_sectors * 512.0 / 1024.0 / (double)io->writes : NAN;
    out->reads_per_op = ops ? (double)io->reads / n : NAN;
    out->read_merges_per_op = ops ? (double)io->read_merges / n : NAN;
    out->kib_per_read =
        io->reads ? (double)io->read_sectors * 512.0 / 1024.0 / (double)io->reads : NAN;
    out->us_per_read = request_us(io->read_ms, io->reads);
    out->us_per_write = request_us(io->write_ms, io->writes);
    out->us_per_flush = io->flushes_known ? request_us(io->flush_ms, io->flushes) : NAN;
}
