/* SPDX-License-Identifier: MIT */
/* The target checks: whether TARGET can take the runs, asked before
 * anything is measured (what the runs need of it, room for their files,
 * O_DIRECT's alignment), and why it cannot, said whole: who holds its
 * lock (/proc/locks), a filesystem of the kernel's own (statfs()'s
 * magic), a name too long.  Then the test file removed at the end. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "cli_msg.h"
#include "cli_options.h"
#include "cli_target.h"

/* ---- why the target cannot be opened ---- */

/* Who holds a lock (flock, or any other) on the file at path, from
 * /proc/locks: "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF", device
 * numbers in hex.  The holder's pid (0 when not found: no /proc, another
 * pid namespace) and its name (/proc/PID/comm) in who. */
static long lock_holder(const char *path, char *who, size_t size)
{
    struct stat st;
    who[0] = '\0';
    if (stat(path, &st) != 0)
        return 0;
    FILE *locks = fopen("/proc/locks", "re");
    if (!locks)
        return 0;
    char line[256];
    long holder = 0;
    while (!holder && fgets(line, sizeof(line), locks)) {
        /* "N: TYPE KIND ACCESS PID MAJ:MIN:INODE START END"; a blocked
         * waiter's line has "->" before TYPE and holds nothing */
        char *field[8], *save = NULL;
        int n = 0;
        for (char *tok = strtok_r(line, " \n", &save); tok && n < 8;
             tok = strtok_r(NULL, " \n", &save))
            field[n++] = tok;
        if (n < 6 || strcmp(field[1], "->") == 0)
            continue;
        char *end;
        long pid = strtol(field[4], &end, 10);
        if (*end || pid <= 0)
            continue;
        unsigned long maj = strtoul(field[5], &end, 16);
        if (*end != ':')
            continue;
        unsigned long min = strtoul(end + 1, &end, 16);
        if (*end != ':')
            continue;
        unsigned long long ino = strtoull(end + 1, &end, 10);
        if (*end == '\0' && maj == major(st.st_dev) && min == minor(st.st_dev) &&
            ino == (unsigned long long)st.st_ino)
            holder = pid;
    }
    fclose(locks);
    if (holder) {
        char comm_path[64];
        snprintf(comm_path, sizeof(comm_path), "/proc/%ld/comm", holder);
        FILE *comm = fopen(comm_path, "re");
        if (comm && fgets(who, (int)size, comm))
            who[strcspn(who, "\n")] = '\0';
        if (comm)
            fclose(comm);
    }
    return holder;
}

/* ", held by process 1234 (diskio)", or "" when nobody is found. */
static const char *held_by(const char *path, char *buf, size_t size)
{
    char who[64];
    long pid = lock_holder(path, who, sizeof(who));
    if (pid <= 0)
        buf[0] = '\0';
    else if (who[0])
        snprintf(buf, size, " by process %ld (%s)", pid, who);
    else
        snprintf(buf, size, " by process %ld", pid);
    return buf;
}

/* The kernel's own filesystems, which hold no test file: a name for
 * statfs()'s f_type, or NULL for any other. */
static const char *virtual_fs_name(long type)
{
    static const struct {
        long magic;
        const char *name;
    } virtual_fs[] = {
        {0x9fa0, "proc"},           {0x62656572, "sysfs"},          {0x27e0eb, "cgroup"},
        {0x63677270, "cgroup2"},    {0x64626720, "debugfs"},        {0x74726163, "tracefs"},
        {0x73636673, "securityfs"}, {(long)0xcafe4a11, "bpf"},      {0x1cd1, "devpts"},
        {0x6165676c, "pstore"},     {(long)0xde5e81e4, "efivarfs"}, {0x62656570, "configfs"},
    };
    for (size_t i = 0; i < sizeof(virtual_fs) / sizeof(virtual_fs[0]); i++)
        if (virtual_fs[i].magic == type)
            return virtual_fs[i].name;
    return NULL;
}

/* The directory diskio tried to create its test file in: target itself,
 * or the directory of a new path.  malloc()ed; NULL if it is not one. */
static char *target_directory(const char *target)
{
    struct stat st;
    char *dir = NULL;
    if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
        dir = strdup(target);
    } else {
        char *copy = strdup(target);
        dir = copy ? strdup(dirname(copy)) : NULL;
        free(copy);
    }
    if (dir && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        free(dir);
        dir = NULL;
    }
    return dir;
}

/* Creating the test file failed with errno err in a directory that
 * exists: what it really is.  true when said. */
static bool report_create_failure(const char *target, int err)
{
    char *dir = target_directory(target);
    if (!dir)
        return false;
    struct statfs sf;
    const char *fs = statfs(dir, &sf) == 0 ? virtual_fs_name((long)sf.f_type) : NULL;
    if (fs)
        cli_msg("cannot create a test file in %s: %s; it is on %s, a filesystem of the kernel's "
                "own that holds no files of yours, not storage. Give a directory on the "
                "filesystem to measure.",
                dir, strerror(err), fs);
    else if (err == ENOENT)
        cli_msg("cannot create a test file in %s: %s, although the directory exists: its "
                "filesystem does not take new files there. Give a directory on the "
                "filesystem to measure.",
                dir, strerror(err));
    free(dir);
    return fs || err == ENOENT;
}

/* A target no open() takes by its length (diskio_target_open(3),
 * ENAMETOOLONG): the name in it that is too long, or the whole path. */
static void report_long_name(const char *target)
{
    unsigned part = 0;
    for (const char *name = target; *name;) {
        const size_t len = strcspn(name, "/");
        part += len > 0;
        if (len > NAME_MAX) {
            cli_msg("%s: name %u of the path ('%.32s...') is %zu bytes long, and a file or "
                    "directory name is at most %d bytes (NAME_MAX); give a shorter name",
                    target, part, name, len, NAME_MAX);
            return;
        }
        name += len + (name[len] == '/');
    }
    cli_msg("%s: the path is %zu bytes long, and a path is at most %d bytes (PATH_MAX - 1); give "
            "a shorter path, or cd to a directory nearer the target first",
            target, strlen(target), PATH_MAX - 1);
}

int cli_report_target_error(const char *target, int rc)
{
    if ((rc == -ENOENT || rc == -EACCES || rc == -EPERM || rc == -EROFS) &&
        report_create_failure(target, -rc))
        return EXIT_TARGET;
    char holder[128];
    switch (-rc) {
    case DISKIO_E_TARGET_LOCKED:
        if (!held_by(target, holder, sizeof(holder))[0])
            snprintf(holder, sizeof(holder), " by another process");
        cli_msg("%s is locked%s: another diskio is measuring it, or a program keeps it locked; "
                "refusing to write to it. Wait until that is done, or give another target.",
                target, holder);
        break;
    case DISKIO_E_TARGET_EXISTS:
        cli_msg(
            "%s exists and was not created by diskio; refusing to write to it. Give a directory to "
            "create a test file in, or add --force to overwrite this file's contents.",
            target);
        break;
    case DISKIO_E_TARGET_DEVICE:
        cli_msg("%s is a block device; writing to it destroys its data. Add --allow-device only if "
                "that is what you want.",
                target);
        break;
    case DISKIO_E_TARGET_TYPE:
        cli_msg(
            "%s is a symlink, FIFO, socket or character device; diskio writes only to a directory, "
            "a new file, a regular file (--force) or a block device (--allow-device).",
            target);
        break;
    case DISKIO_E_TARGET_CHANGED:
        cli_msg("%s changed while diskio opened it (another file, a symlink or nothing is there "
                "now); refusing to write to what it did not check. Make sure no other program "
                "renames files in its directory.",
                target);
        break;
    case DISKIO_E_DEVICE_BUSY:
        /* a diskio measuring it holds a lock on it too: named */
        if (held_by(target, holder, sizeof(holder))[0])
            cli_msg("%s is in use%s; refusing to write to it. Wait until it is done.", target,
                    holder);
        else
            cli_msg("%s is in use (mounted, or held by another program such as a RAID, LVM or "
                    "swap); refusing to write to it. Unmount or release it first.",
                    target);
        break;
    case ENOENT: cli_msg("%s: the directory does not exist; create it first.", target); break;
    case ENAMETOOLONG: report_long_name(target); break;
    default:
        cli_msg("cannot create a test file at %s: %s; check that the directory exists, is writable "
                "and has space.",
                target, diskio_strerror(rc));
    }
    return EXIT_TARGET;
}

/* ---- what the runs need of the target ---- */

/* What the target must be for the runs, asked of the library before
 * anything is created: each is a usage error. */
int cli_check_target_use(const struct cli_options *opt, unsigned flags)
{
    /* The library refuses to truncate a file it did not make (the
     * append and create patterns). */
    if ((flags & DISKIO_TARGET_TRUNCATE) &&
        diskio_target_check(opt->target, flags) == -DISKIO_E_TARGET_EXISTS) {
        cli_usage_msg("--pattern %s truncates its file, so it runs only on a test file diskio "
                      "creates; give a directory or a new path instead of %s",
                      diskio_pattern_name(opt->pattern), opt->target);
        return EXIT_USAGE;
    }
    /* PostgreSQL's WAL and checkpoint patterns make files of their own
     * (segments, relation files) beside a test file diskio creates: a
     * checkpoint over one file makes none. */
    const struct diskio_pattern_info *info = diskio_pattern_info(opt->pattern);
    if (info->own_files &&
        (info->params != DISKIO_PARAMS_CHECKPOINT || opt->checkpoint_files > 1) &&
        diskio_target_check(opt->target, DISKIO_TARGET_TRUNCATE) == -DISKIO_E_TARGET_EXISTS) {
        cli_usage_msg("--pattern %s makes its %s beside a test file diskio creates; give a "
                      "directory or a new path instead of %s",
                      info->name, info->own_files, opt->target);
        return EXIT_USAGE;
    }
    /* Several jobs without --shared-file write a file each, created
     * beside the first: only in a directory (or at a new path) diskio
     * creates its file in, never beside a user's file or on a device. */
    unsigned max_jobs = 1;
    for (size_t j = 0; j < opt->njobs; j++)
        if (opt->jobs[j] > max_jobs)
            max_jobs = opt->jobs[j];
    if (max_jobs > 1 && !opt->shared_file) {
        int kind = diskio_target_check(opt->target, 0);
        if (kind == -DISKIO_E_TARGET_EXISTS || kind == -DISKIO_E_TARGET_DEVICE) {
            cli_usage_msg("--jobs %u writes a file per job, created in the target's directory; %s "
                          "is an existing %s. Give a directory, or add --shared-file for all jobs "
                          "to write this one.",
                          max_jobs, opt->target,
                          kind == -DISKIO_E_TARGET_DEVICE ? "block device" : "file");
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* Whether O_DIRECT at block size bs misfits the target: bs is not a
 * multiple of the offset alignment it needs, or it needs buffers aligned
 * more than the library aligns them (both alignments stored).  false
 * when the target cannot say: the run finds out. */
bool cli_direct_misfit(const struct diskio_target *target, uint64_t bs, uint64_t *offset_align,
                       uint64_t *mem_align)
{
    return diskio_target_direct_align(target, offset_align, mem_align) == 0 &&
           (bs % *offset_align != 0 || *mem_align > diskio_buffer_align());
}

/* What a run's files take of the free space, in the words of the
 * options that set it (the message of cli_check_target_fits()). */
struct space_use {
    unsigned files;       /* files of --size each beside the first */
    uint64_t first_bytes; /* what the first file (or the WAL) takes */
    const char *what;     /* "test file", "test files", "WAL segments" */
    bool what_is_one;
    char how[96];       /* the options that make the bytes */
    const char *remedy; /* the options that make them fewer */
};

static struct space_use space_use_of(const struct cli_options *opt)
{
    struct space_use use = {.files = 1,
                            .first_bytes = opt->file_size,
                            .what = "test file",
                            .what_is_one = true,
                            .remedy = "a smaller --size"};
    snprintf(use.how, sizeof(use.how), "--size %" PRIu64, opt->file_size);
    const enum diskio_pattern_params params = diskio_pattern_info(opt->pattern)->params;
    if (params == DISKIO_PARAMS_WAL) {
        use.first_bytes = 3 * opt->wal_segment_size;
        use.what = "WAL segments";
        use.what_is_one = false;
        snprintf(use.how, sizeof(use.how), "3 segments of --wal-segment-size %" PRIu64,
                 opt->wal_segment_size);
        use.remedy = "a smaller --wal-segment-size";
        return use;
    }
    const bool checkpoint = params == DISKIO_PARAMS_CHECKPOINT;
    for (size_t j = 0; j < opt->njobs && !opt->shared_file && !checkpoint; j++)
        if (opt->jobs[j] > use.files)
            use.files = opt->jobs[j];
    if (checkpoint)
        use.files = opt->checkpoint_files;
    if (use.files > 1) {
        use.what = "test files";
        use.what_is_one = false;
        snprintf(use.how, sizeof(use.how), "--size %" PRIu64 " for each of the %s", opt->file_size,
                 checkpoint ? "--checkpoint-files" : "--jobs");
        use.remedy = checkpoint ? "a smaller --size, fewer --checkpoint-files"
                                : "a smaller --size, fewer --jobs, --shared-file";
    }
    return use;
}

/* What can be known about the target before anything is measured: a
 * device smaller than a block, a filesystem without room for the file.
 * 0, or EXIT_TARGET with a message. */
int cli_check_target_fits(const struct cli_options *opt, const struct diskio_target *target)
{
    if (diskio_target_is_device(target)) {
        uint64_t bytes = diskio_target_size(target);
        for (size_t s = 0; s < opt->nsizes; s++) {
            if (opt->block_sizes[s] <= bytes)
                continue;
            cli_msg("--bs %" PRIu64 " is larger than the device %s (%" PRIu64
                    " bytes); give a block size of at most its size.",
                    opt->block_sizes[s], opt->target, bytes);
            return EXIT_TARGET;
        }
        /* the offsets cover --size bytes: a device smaller than a --size
         * given would make a result claiming a span it never wrote
         * (without --size, the run covers the device up to the default
         * size, and records what it covered) */
        if (opt->size_given && opt->file_size > bytes) {
            cli_msg("--size %" PRIu64 " is larger than the device %s (%" PRIu64
                    " bytes); give a --size of at most its size, or leave --size out to cover "
                    "the device up to the default size.",
                    opt->file_size, opt->target, bytes);
            return EXIT_TARGET;
        }
        return 0;
    }
    /* --jobs without --shared-file: a file per job, each of --size; a
     * checkpoint's files; the WAL's three segments (the one written, the
     * next, and one to recycle or remove) */
    struct space_use use = space_use_of(opt);
    uint64_t needed = 0, available = 0, reserve = 0;
    int rc = diskio_target_check_space(target, use.first_bytes, &needed, &available, &reserve);
    /* the other jobs' files are not made yet: each needs all of --size */
    uint64_t more = (uint64_t)(use.files - 1) * opt->file_size;
    if (rc == 0 && use.files > 1 && needed + more > 0 && available > reserve &&
        needed + more > available - reserve)
        rc = -DISKIO_E_NO_SPACE;
    needed += more;
    if (rc == -DISKIO_E_NO_SPACE) {
        cli_msg("the %s need%s %" PRIu64 " more bytes (%s) but the filesystem at %s has %" PRIu64
                " bytes available, of which diskio leaves %" PRIu64
                " free (%u%% of its size, at most %" PRIu64 " GiB); give %s or free some space.",
                use.what, use.what_is_one ? "s" : "", needed, use.how, diskio_target_dir(target),
                available, reserve, DISKIO_SPACE_RESERVE_PCT, DISKIO_SPACE_RESERVE_MAX >> 30,
                use.remedy);
        return EXIT_TARGET;
    }
    /* a filesystem that cannot say (rc < 0) is left to the writes */
    return 0;
}

void cli_warn_memory_fs(const struct diskio_result *res, const char *target, bool quiet)
{
    const char *fs = diskio_result_env(res, "target.filesystem");
    if (quiet || !fs)
        return;
    if (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0)
        cli_msg("warning: %s is on %s, which lives in memory: the durability modes measure memory "
                "copies there, not storage.",
                target, fs);
}

/* ---- the end ---- */

/* Remove the test file (if diskio made it) and release the target; a
 * test file that stays behind is named, as it is the user's to remove. */
void cli_release_target(struct diskio_target *target)
{
    if (!target)
        return;
    int rc = diskio_target_remove(target);
    if (rc == -DISKIO_E_TARGET_CHANGED)
        cli_msg("warning: the name of the test file %s was replaced, renamed or removed by another "
                "program during the run; diskio measured its own file and left what is at that "
                "name now alone. Check %s for files you did not expect.",
                diskio_target_path(target), diskio_target_dir(target));
    else if (rc < 0)
        cli_msg("warning: could not remove the test file %s: %s; remove it yourself.",
                diskio_target_path(target), diskio_strerror(rc));
    diskio_target_free(target);
}
