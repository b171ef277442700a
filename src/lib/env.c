/* SPDX-License-Identifier: MIT */
/*
 * The environment probe: what a result needs to be compared honestly
 * with one from another machine.  Every value is optional: whatever
 * cannot be read (no block device under tmpfs, no /sys in a container)
 * stays NULL and is written as null, never guessed.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "diskio_internal.h"

static const char *const env_keys[] = {
    "hostname",
    "machine_id",
    "boot_id",
    "kernel.sysname",
    "kernel.release",
    "kernel.version",
    "kernel.machine",
    "cpu.model",
    "cpu.cores",
    "cpu.idle_driver",
    "cpu.wakeup_ns",
    "memory_bytes",
    "timer.clock",
    "timer.resolution_ns",
    "timer.overhead_ns",
    "timer.clocksource",
    "target.directory",
    "target.filesystem",
    "target.mount_point",
    "target.mount_source",
    "target.mount_options",
    "target.super_options",
    "target.device.name",
    "target.device.partition",
    "target.device.rotational",
    "target.device.scheduler",
    "target.device.write_cache",
    "target.device.logical_block_size",
    "target.device.physical_block_size",
    "target.device.model",
    "target.device.fua",
    "target.ext4.journal",
    "target.ext4.data_mode",
    "target.loop.backing_file",
    "target.loop.backing_filesystem",
    "target.loop.backing_mount_point",
    "target.loop.backing_device",
    "target.overlay.upperdir",
    "target.overlay.upper_filesystem",
    "target.overlay.upper_mount_point",
};
#define ENV_KEYS (sizeof(env_keys) / sizeof(env_keys[0]))

struct env {
    char *values[ENV_KEYS];
    struct devstat_set devices;
};

const struct devstat_set *env_devices(const struct env *env)
{
    return &env->devices;
}

static int key_index(const char *key)
{
    for (size_t i = 0; i < ENV_KEYS; i++)
        if (strcmp(env_keys[i], key) == 0)
            return (int)i;
    return -1;
}

static void env_set(struct env *env, const char *key, const char *value)
{
    int i = key_index(key);
    if (i < 0 || !value)
        return;
    free(env->values[i]);
    env->values[i] = strdup(value);
}

static void env_set_u64(struct env *env, const char *key, uint64_t value)
{
    char text[32];
    snprintf(text, sizeof(text), "%llu", (unsigned long long)value);
    env_set(env, key, text);
}

const char *env_get(const struct env *env, const char *key)
{
    int i = key_index(key);
    return (env && i >= 0) ? env->values[i] : NULL;
}

int64_t env_get_int(const struct env *env, const char *key)
{
    const char *v = env_get(env, key);
    return v ? strtoll(v, NULL, 10) : -1;
}

void env_free(struct env *env)
{
    if (!env)
        return;
    for (size_t i = 0; i < ENV_KEYS; i++)
        free(env->values[i]);
    free(env);
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

/* First line of a small sysfs/proc file, trimmed; NULL if unreadable. */
static char *read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return NULL;
    char *line = fgets(buf, (int)size, f);
    fclose(f);
    if (!line)
        return NULL;
    trim(buf);
    return buf;
}

static void probe_cpu(struct env *env)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (f) {
        char line[512];
        while (fgets(line, sizeof(line), f)) {
            if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    trim(colon);
                    env_set(env, "cpu.model", colon + 1 + (colon[1] == ' '));
                    break;
                }
            }
        }
        fclose(f);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0)
        env_set_u64(env, "cpu.cores", (uint64_t)cores);
    /* how idle CPUs wait ("haltpoll", "intel_idle", "none"): whether a
     * wake-up finds a CPU polling or halted */
    char driver[64];
    if (read_line("/sys/devices/system/cpu/cpuidle/current_driver", driver, sizeof(driver)) &&
        driver[0])
        env_set(env, "cpu.idle_driver", driver);
    const int64_t wakeup_ns = wakeup_probe_ns();
    if (wakeup_ns >= 0)
        env_set_u64(env, "cpu.wakeup_ns", (uint64_t)wakeup_ns);
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0)
        env_set_u64(env, "memory_bytes", (uint64_t)pages * (uint64_t)page_size);
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape_octal(char *s)
{
    char *out = s;
    for (char *in = s; *in; in++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' && in[2] && in[3]) {
            *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
}

static bool is_path_prefix(const char *prefix, const char *path)
{
    size_t n = strlen(prefix);
    if (strcmp(prefix, "/") == 0)
        return true;
    return strncmp(prefix, path, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

struct mount_facts {
    char point[PATH_MAX], fs[64], src[PATH_MAX], opts[1024], super[1024];
};

/* The mount that holds dir: same device number, longest mount point that
 * is a prefix of dir's real path (bind mounts share the device). */
static bool find_mount(const char *real_dir, dev_t dev, struct mount_facts *m)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return false;
    char line[4096];
    char *best_point = m->point, *best_fs = m->fs, *best_src = m->src, *best_opts = m->opts,
         *best_super = m->super;
    size_t best_len = 0;
    bool found = false;
    while (fgets(line, sizeof(line), f)) {
        trim(line);
        char *fields[64];
        int n = 0;
        char *save = NULL;
        for (char *tok = strtok_r(line, " ", &save); tok && n < 64;
             tok = strtok_r(NULL, " ", &save))
            fields[n++] = tok;
        if (n < 10)
            continue;
        /* "major:minor" */
        char *colon, *end;
        unsigned long maj = strtoul(fields[2], &colon, 10);
        if (*colon != ':')
            continue;
        unsigned long min = strtoul(colon + 1, &end, 10);
        if (*end != '\0' || makedev(maj, min) != dev)
            continue;
        int dash = 6;
        while (dash < n && strcmp(fields[dash], "-") != 0)
            dash++;
        if (dash + 3 >= n + 1 || dash + 2 >= n)
            continue;
        unescape_octal(fields[4]);
        size_t len = strlen(fields[4]);
        if (!is_path_prefix(fields[4], real_dir) || (found && len < best_len))
            continue;
        found = true;
        best_len = len;
        snprintf(best_point, sizeof(m->point), "%s", fields[4]);
        snprintf(best_opts, sizeof(m->opts), "%s", fields[5]);
        snprintf(best_fs, sizeof(m->fs), "%s", fields[dash + 1]);
        unescape_octal(fields[dash + 2]);
        snprintf(best_src, sizeof(m->src), "%s", fields[dash + 2]);
        snprintf(best_super, sizeof(m->super), "%s", dash + 3 < n ? fields[dash + 3] : "");
    }
    fclose(f);
    return found;
}

static void probe_mount(struct env *env, const char *real_dir, dev_t dev)
{
    struct mount_facts m;
    if (!find_mount(real_dir, dev, &m))
        return;
    env_set(env, "target.mount_point", m.point);
    env_set(env, "target.mount_options", m.opts);
    env_set(env, "target.super_options", m.super);
    env_set(env, "target.filesystem", m.fs);
    env_set(env, "target.mount_source", m.src);
}

/* The filesystem and mount of a path under the target (a loop device's
 * backing file, an overlay's upper layer), as keys prefix.filesystem and
 * prefix.mount_point; returns its device number (0: unknown). */
static dev_t probe_path_mount(struct env *env, const char *path, const char *fs_key,
                              const char *point_key)
{
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(path, real) || stat(real, &st) != 0)
        return 0;
    struct mount_facts m;
    if (find_mount(real, st.st_dev, &m)) {
        env_set(env, fs_key, m.fs);
        env_set(env, point_key, m.point);
    }
    return st.st_dev;
}

static const char *fs_name_from_magic(unsigned long magic)
{
    switch (magic) {
    case 0xEF53: return "ext2/3/4";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x01021994: return "tmpfs";
    case 0x858458F6: return "ramfs";
    case 0x6969: return "nfs";
    case 0xF2F52010: return "f2fs";
    case 0x2FC12FC1: return "zfs";
    case 0x794C7630: return "overlay";
    case 0x65735546: return "fuse";
    default: return NULL;
    }
}

/* dir/name into buf; false if it does not fit */
static bool join_path(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    return n > 0 && (size_t)n < size;
}

static void probe_device(struct env *env, dev_t dev)
{
    char path[PATH_MAX], real[PATH_MAX], buf[256];
    snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(path, real))
        return;
    char disk[PATH_MAX];
    const char *base = strrchr(real, '/') + 1;
    memcpy(disk, real, sizeof(disk));
    if (join_path(path, sizeof(path), real, "partition") && access(path, F_OK) == 0) {
        /* a partition's sysfs directory sits inside its disk's */
        env_set(env, "target.device.partition", base);
        *strrchr(disk, '/') = '\0';
    }
    env_set(env, "target.device.name", strrchr(disk, '/') + 1);

    static const struct {
        const char *file, *key;
    } queue_files[] = {
        {"queue/rotational", "target.device.rotational"},
        {"queue/write_cache", "target.device.write_cache"},
        {"queue/logical_block_size", "target.device.logical_block_size"},
        {"queue/physical_block_size", "target.device.physical_block_size"},
        {"device/model", "target.device.model"},
        {"queue/fua", "target.device.fua"},
    };
    for (size_t i = 0; i < sizeof(queue_files) / sizeof(queue_files[0]); i++) {
        if (join_path(path, sizeof(path), disk, queue_files[i].file) &&
            read_line(path, buf, sizeof(buf)) && buf[0])
            env_set(env, queue_files[i].key, buf);
    }
    if (join_path(path, sizeof(path), disk, "queue/scheduler") &&
        read_line(path, buf, sizeof(buf))) {
        /* "mq-deadline kyber [none]": the bracketed one is in use */
        char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close) {
            *close = '\0';
            env_set(env, "target.device.scheduler", open + 1);
        } else {
            env_set(env, "target.device.scheduler", buf);
        }
    }
}

/* The kernel's name of the block device dev (a partition's own name),
 * as /proc/fs/ext4 and /sys/fs/ext4 use it; the disk's with to_disk. */
static bool block_name(dev_t dev, bool to_disk, char *out, size_t size)
{
    char path[PATH_MAX], real[PATH_MAX];
    snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    if (!realpath(path, real))
        return false;
    if (to_disk && join_path(path, sizeof(path), real, "partition") && access(path, F_OK) == 0)
        *strrchr(real, '/') = '\0';
    snprintf(out, size, "%s", strrchr(real, '/') + 1);
    return true;
}

/* ext4: whether it has a journal (jbd2's thread, "<none>" without one)
 * and its data= mode, which /proc/fs/ext4 shows only with a journal. */
static void probe_ext4(struct env *env, dev_t dev)
{
    char name[64], path[PATH_MAX], buf[256];
    if (!block_name(dev, false, name, sizeof(name)))
        return;
    snprintf(path, sizeof(path), "/sys/fs/ext4/%s/journal_task", name);
    if (read_line(path, buf, sizeof(buf)))
        env_set(env, "target.ext4.journal", strcmp(buf, "<none>") == 0 ? "0" : "1");
    snprintf(path, sizeof(path), "/proc/fs/ext4/%s/options", name);
    FILE *f = fopen(path, "re");
    if (!f)
        return;
    bool data = false;
    while (fgets(buf, sizeof(buf), f)) {
        trim(buf);
        if (strncmp(buf, "data=", 5) == 0) {
            env_set(env, "target.ext4.data_mode", buf + 5);
            data = true;
        }
    }
    fclose(f);
    if (!env_get(env, "target.ext4.journal"))
        env_set(env, "target.ext4.journal", data ? "1" : "0");
}

/* A loop device's backing file, and the filesystem and device it is on. */
static void probe_loop(struct env *env, const char *disk)
{
    char path[PATH_MAX], backing[PATH_MAX];
    snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", disk);
    if (!read_line(path, backing, sizeof(backing)))
        return;
    env_set(env, "target.loop.backing_file", backing);
    dev_t dev = probe_path_mount(env, backing, "target.loop.backing_filesystem",
                                 "target.loop.backing_mount_point");
    char name[64];
    if (major(dev) != 0 && block_name(dev, true, name, sizeof(name)))
        env_set(env, "target.loop.backing_device", name);
}

static void probe_overlay(struct env *env)
{
    const char *super = env_get(env, "target.super_options");
    char upper[PATH_MAX];
    if (!super || !devstat_option_value(super, "upperdir", upper, sizeof(upper)))
        return;
    env_set(env, "target.overlay.upperdir", upper);
    probe_path_mount(env, upper, "target.overlay.upper_filesystem",
                     "target.overlay.upper_mount_point");
}

/* Which machine and which boot of it, so that two results can be told
 * to come from the same one: the kernel's random boot id (new at each
 * boot, nothing else in it), and a digest of /etc/machine-id, never the
 * id itself (systemd asks that it not be shown: machine-id(5)).  The
 * digest is FNV-1a over "diskio:" and the id: 64 bits, enough to tell
 * machines apart, too few to give the id back. */
static void probe_identity(struct env *env)
{
    char line[128];
    if (read_line("/proc/sys/kernel/random/boot_id", line, sizeof(line)) && line[0])
        env_set(env, "boot_id", line);
    if (!read_line("/etc/machine-id", line, sizeof(line)) &&
        !read_line("/var/lib/dbus/machine-id", line, sizeof(line)))
        return;
    if (!line[0])
        return;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const char *p = "diskio:"; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    for (const char *p = line; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    char digest[24];
    snprintf(digest, sizeof(digest), "%016llx", (unsigned long long)h);
    env_set(env, "machine_id", digest);
}

struct env *env_probe(const char *dir)
{
    struct env *env = calloc(1, sizeof(*env));
    if (!env)
        return NULL;

    char host[256];
    if (gethostname(host, sizeof(host)) == 0) {
        host[sizeof(host) - 1] = '\0';
        env_set(env, "hostname", host);
    }
    probe_identity(env);
    struct utsname uts;
    if (uname(&uts) == 0) {
        env_set(env, "kernel.sysname", uts.sysname);
        env_set(env, "kernel.release", uts.release);
        env_set(env, "kernel.version", uts.version);
        env_set(env, "kernel.machine", uts.machine);
    }
    probe_cpu(env);

    env_set(env, "timer.clock", "CLOCK_MONOTONIC");
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
        env_set_u64(env, "timer.resolution_ns",
                    (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec);
    env_set_u64(env, "timer.overhead_ns", diskio_timer_overhead_ns());
    char clocksource[64];
    if (read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", clocksource,
                  sizeof(clocksource)) &&
        clocksource[0])
        env_set(env, "timer.clocksource", clocksource);

    if (!dir)
        return env;
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISBLK(st.st_mode)) {
        /* a block device as the target: no filesystem in between */
        env_set(env, "target.directory", dir);
        probe_device(env, st.st_rdev);
        devstat_resolve(dir, &env->devices);
        const char *disk = env_get(env, "target.device.name");
        if (disk)
            probe_loop(env, disk);
        return env;
    }
    char real_dir[PATH_MAX];
    if (!realpath(dir, real_dir))
        snprintf(real_dir, sizeof(real_dir), "%s", dir);
    env_set(env, "target.directory", real_dir);

    struct statfs sfs;
    if (statfs(real_dir, &sfs) == 0)
        env_set(env, "target.filesystem", fs_name_from_magic((unsigned long)sfs.f_type));
    if (stat(real_dir, &st) != 0)
        return env;
    probe_mount(env, real_dir, st.st_dev);
    dev_t dev = st.st_dev;
    /* btrfs and others report an anonymous device number: fall back to the
     * device the mount names */
    const char *source = env_get(env, "target.mount_source");
    struct stat src_st;
    if (major(dev) == 0 && source && source[0] == '/' && stat(source, &src_st) == 0 &&
        S_ISBLK(src_st.st_mode))
        dev = src_st.st_rdev;
    if (major(dev) != 0)
        probe_device(env, dev);
    devstat_resolve(real_dir, &env->devices);
    const char *disk = env_get(env, "target.device.name");
    if (disk)
        probe_loop(env, disk);
    const char *fs = env_get(env, "target.filesystem");
    if (fs && strcmp(fs, "ext4") == 0 && major(dev) != 0)
        probe_ext4(env, dev);
    if (fs && strcmp(fs, "overlay") == 0)
        probe_overlay(env);
    return env;
}
