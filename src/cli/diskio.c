/* SPDX-License-Identifier: MIT */
/* diskio(1): run the modes, print the table, write the result. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cli_durable.h"
#include "cli_msg.h"
#include "cli_options.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "cli_suite.h"
#include "diskio.h"

static volatile sig_atomic_t stop_signal;
static struct diskio_target *volatile current_target;

static void on_signal(int signo)
{
    if (stop_signal) {
        /* A second signal: the run did not stop (a sync stuck on a dead
         * device, say).  Remove what we created and leave at once; a test
         * file that stays is named, as it is the user's to remove now. */
        struct diskio_target *t = current_target;
        if (t && diskio_target_remove(t) < 0) {
            /* shown by the rule, async-signal-safe */
            cli_msg_in_signal("warning: the test file ", diskio_target_path(t),
                              " was not removed; remove it yourself");
        }
        out_file_unlink_pending();
        _exit(128 + signo);
    }
    stop_signal = signo;
}

/* 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP */
static int status_for_signal(int signo)
{
    return 128 + signo;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Every signal whose default action ends the process, except the
     * ones a crash raises (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
     * SIGSYS, SIGTRAP: after a crash nothing in memory can be trusted to
     * name the file to remove), stops the run the same way, so that none
     * leaves the test file behind.  SIGXCPU is RLIMIT_CPU's warning before
     * its SIGKILL.
     * No SA_RESTART: a blocked io_getevents returns EINTR and the loop
     * sees the stop flag.  An inherited "ignore" of SIGINT, SIGQUIT or
     * SIGHUP is kept, as shells (background jobs) and nohup(1) expect. */
    static const int stop_signals[] = {
        SIGINT,    SIGQUIT,   SIGHUP,  SIGTERM, SIGUSR1, SIGUSR2,
        SIGALRM,   SIGVTALRM, SIGPROF, SIGIO,   SIGXCPU,
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
        int signo = stop_signals[i];
        struct sigaction old;
        if ((signo == SIGINT || signo == SIGQUIT || signo == SIGHUP) &&
            sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(signo, &sa, NULL);
    }
    for (int signo = SIGRTMIN; signo <= SIGRTMAX; signo++)
        sigaction(signo, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* over RLIMIT_FSIZE a write must fail with EFBIG (and be reported),
     * not kill the process with the measurements */
    signal(SIGXFSZ, SIG_IGN);
}

/* ---- messages ---- */

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

static int report_target_error(const char *target, int rc)
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

/* What a run's failure asks of the user beyond its errno: a call the
 * kernel or filesystem does not take (a per-write flag before Linux 4.7,
 * say) is the mode's, not the storage's. */
static const char *run_error_hint(int rc)
{
    return rc == -EOPNOTSUPP ? "; the kernel or the filesystem does not support the way this "
                               "mode writes (diskio(1), MODES, says what it needs)"
                             : "";
}

/* Why a run failed: the op and what it was doing, or why it could not
 * start. */
static void report_run_error(const struct diskio_config *cfg, const struct diskio_run *run, int rc)
{
    const struct diskio_run_info *info = run ? diskio_run_info(run) : NULL;
    if (info && info->error_job >= 0)
        cli_msg("mode %s: job %d of %u: %s failed at its op %" PRIu64
                ": %s (the other jobs were stopped)%s",
                diskio_mode_name(cfg->mode), info->error_job, cfg->jobs,
                info->error_during ? info->error_during : "run", info->error_op,
                diskio_strerror(rc),
                rc == -DISKIO_E_VERIFY ? "; the storage returned other data than diskio wrote: "
                                         "check it (kernel log, SMART) before trusting data on it"
                                       : run_error_hint(rc));
    else if (info && rc == -DISKIO_E_VERIFY) {
        /* a sequential run's op says where: it wraps at the file's end */
        char where[96] = "";
        uint64_t blocks = cfg->file_size / cfg->block_size;
        if (cfg->pattern == DISKIO_PATTERN_SEQ && blocks > 0)
            snprintf(where, sizeof(where), " (the block at byte %" PRIu64 ")",
                     (cfg->warmup + info->error_op) % blocks * cfg->block_size);
        cli_msg("mode %s: verify failed at op %" PRIu64
                ": %s%s; the storage returned other data than diskio wrote: check it (kernel log, "
                "SMART) before trusting data on it",
                diskio_mode_name(cfg->mode), info->error_op, diskio_strerror(rc), where);
    } else if (info)
        cli_msg("mode %s: %s failed at op %" PRIu64 ": %s%s", diskio_mode_name(cfg->mode),
                info->error_during ? info->error_during : "run", info->error_op,
                diskio_strerror(rc), run_error_hint(rc));
    else
        cli_msg("mode %s could not start: %s (preparing or opening its %llu-byte test file%s)",
                diskio_mode_name(cfg->mode), diskio_strerror(rc),
                (unsigned long long)cfg->file_size,
                rc == -ENOSPC || rc == -EFBIG || rc == -DISKIO_E_NO_SPACE
                    ? "; a smaller --size needs less room"
                : rc == -DISKIO_E_TARGET_CHANGED
                    ? "; another program replaced it: make sure none renames files in its "
                      "directory"
                    : "");
}

/* Remove the test file (if diskio made it) and release the target; a
 * test file that stays behind is named, as it is the user's to remove. */
static void release_target(struct diskio_target *target)
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

/* What can be known about the target before anything is measured: a
 * device smaller than a block, a filesystem without room for the file.
 * 0, or EXIT_TARGET with a message. */
/* What a run's files take of the free space, in the words of the
 * options that set it (the message of check_target_fits()). */
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
    if (opt->pattern == DISKIO_PATTERN_WAL) {
        use.first_bytes = 3 * opt->wal_segment_size;
        use.what = "WAL segments";
        use.what_is_one = false;
        snprintf(use.how, sizeof(use.how), "3 segments of --wal-segment-size %" PRIu64,
                 opt->wal_segment_size);
        use.remedy = "a smaller --wal-segment-size";
        return use;
    }
    const bool checkpoint = opt->pattern == DISKIO_PATTERN_CHECKPOINT;
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

static int check_target_fits(const struct cli_options *opt, const struct diskio_target *target)
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
                " free (5%% of its size, at most 1 GiB); give %s or free some space.",
                use.what, use.what_is_one ? "s" : "", needed, use.how, diskio_target_dir(target),
                available, reserve, use.remedy);
        return EXIT_TARGET;
    }
    /* a filesystem that cannot say (rc < 0) is left to the writes */
    return 0;
}

static void warn_memory_fs(const struct diskio_result *res, const char *target, bool quiet)
{
    const char *fs = diskio_result_env(res, "target.filesystem");
    if (quiet || !fs)
        return;
    if (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0)
        cli_msg("warning: %s is on %s, which lives in memory: the durability modes measure memory "
                "copies there, not storage.",
                target, fs);
}

/* Sleep ns, or less when a signal arrives (its handler sets stop_signal;
 * the loop sees it). */
static void pause_between_rounds(uint64_t ns)
{
    struct timespec left = {.tv_sec = (time_t)(ns / 1000000000u),
                            .tv_nsec = (long)(ns % 1000000000u)};
    while (!stop_signal && nanosleep(&left, &left) != 0 && errno == EINTR)
        ;
}

/* ---- standard descriptors and standard output ---- */

/* Descriptors 0, 1 and 2 closed when diskio starts are taken by /dev/null
 * before any file is opened: otherwise the output temporary would get
 * number 1 and receive the table, or 2 and the messages.  As gnulib's
 * stdopen does, they are opened the wrong way round (stdin write-only,
 * stdout and stderr read-only), so that writing to a closed standard
 * output still fails, and is reported.  false if /dev/null cannot be
 * opened. */
static bool std_fds_taken(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        /* the lowest free number: fd itself, as those below it are open */
        int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd) {
            if (got >= 0)
                close(got);
            return false;
        }
    }
    return true;
}

static int stdout_error; /* the first failure writing to stdout, -errno */

static void write_stdout(const struct diskio_result *res, enum diskio_format format)
{
    int rc = diskio_result_write(res, format, stdout);
    if (rc < 0 && stdout_error == 0)
        stdout_error = rc;
}

/* Standard output carries the result: failing to write it (a full disk, a
 * closed descriptor, a reader that went away: SIGPIPE is ignored, so that
 * is EPIPE) fails the command with status 1, unless a signal's status
 * applies.  saved_in: the file the result is in, if any. */
static int finish_stdout(int status, const char *saved_in)
{
    int rc = stdout_error;
    errno = 0;
    if (fflush(stdout) != 0 && rc == 0)
        rc = errno ? -errno : -EIO;
    if (ferror(stdout) && rc == 0)
        rc = -EIO;
    if (fclose(stdout) != 0 && rc == 0)
        rc = -errno;
    if (rc == 0)
        return status;
    const char *why = rc == -EPIPE   ? "its reader stopped reading before the end"
                      : rc == -EBADF ? "it is closed"
                                     : out_write_hint(-rc);
    if (saved_in)
        cli_msg("could not write to standard output: %s (%s); the result itself is in %s",
                strerror(-rc), why, saved_in);
    else
        cli_msg("could not write to standard output: %s (%s)", strerror(-rc), why);
    return status == EXIT_OK ? EXIT_RUN_FAILED : status;
}

/* ---- output and trace names, all checked before anything is measured ---- */

/* A file diskio writes, for the check that no two are one. */
struct written_file {
    const char *name;
    const char *option;    /* "--output", "--interval-csv", "--trace" */
    const char *given;     /* what the option gave */
    enum diskio_mode mode; /* --trace: the run's mode */
    uint64_t bs;           /* and block size */
};

static void describe_file(char *buf, size_t size, const struct written_file *f)
{
    if (strcmp(f->option, "--trace") == 0)
        snprintf(buf, size, "the trace of run %s %" PRIu64 " (--trace %s), %s",
                 diskio_mode_name(f->mode), f->bs, f->given, f->name);
    else if (strcmp(f->option, "TARGET") == 0)
        snprintf(buf, size, "the test file %s (the target)", f->name);
    else
        snprintf(buf, size, "the %s file %s", f->option, f->name);
}

/* Whether a and b are one file; says so (a usage error). */
static bool same_file_refused(const struct written_file *a, const struct written_file *b)
{
    if (!out_same_file(a->name, b->name))
        return false;
    char one[1024], other[1024];
    describe_file(one, sizeof(one), a);
    describe_file(other, sizeof(other), b);
    cli_usage_msg("%s and %s are the same file, which would be written twice, one replacing the "
                  "other; choose different names",
                  one, other);
    return true;
}

/* Every file diskio writes (the --output, the --interval-csv, each run's
 * and repetition's trace) and the test file when the target is a file
 * are checked against each other before anything is made: the same
 * name, however spelled, or the same existing file under two names
 * (device and inode) is a usage error. */
static int check_output_names(const struct cli_options *opt, bool several_runs)
{
    struct written_file fixed[3];
    size_t nfixed = 0;
    if (opt->output)
        fixed[nfixed++] = (struct written_file){opt->output, "--output", opt->output, 0, 0};
    if (opt->interval_csv)
        fixed[nfixed++] =
            (struct written_file){opt->interval_csv, "--interval-csv", opt->interval_csv, 0, 0};
    struct stat st;
    if (stat(opt->target, &st) != 0 || !S_ISDIR(st.st_mode))
        fixed[nfixed++] = (struct written_file){opt->target, "TARGET", opt->target, 0, 0};
    for (size_t i = 0; i < nfixed; i++)
        for (size_t j = i + 1; j < nfixed; j++)
            if (same_file_refused(&fixed[i], &fixed[j]))
                return EXIT_USAGE;
    if (!opt->trace)
        return EXIT_OK;
    /* the traces differ from each other by construction (a mode or size
     * listed twice is refused); each is checked against the others */
    for (unsigned rep = 1; rep <= opt->repeat; rep++)
        for (size_t s = 0; s < opt->nsizes; s++)
            for (size_t m = 0; m < opt->nmodes; m++) {
                char *name = trace_name(opt->trace, several_runs, opt->modes[m],
                                        opt->block_sizes[s], opt->repeat > 1 ? rep : 0);
                if (!name) {
                    cli_msg("out of memory");
                    return EXIT_RUN_FAILED;
                }
                struct written_file trace = {name, "--trace", opt->trace, opt->modes[m],
                                             opt->block_sizes[s]};
                bool same = false;
                for (size_t i = 0; i < nfixed && !same; i++)
                    same = same_file_refused(&trace, &fixed[i]);
                free(name);
                if (same)
                    return EXIT_USAGE;
            }
    return EXIT_OK;
}

/* Every run's trace file can be made: the name is free (or --force), and
 * its temporary, created and removed at once, fits the filesystem's
 * limits and its directory is writable.  Says why not. */
static bool trace_names_usable(const struct cli_options *opt, bool several_runs,
                               struct out_file *trace)
{
    for (unsigned rep = 1; rep <= opt->repeat; rep++)
        for (size_t s = 0; s < opt->nsizes; s++)
            for (size_t m = 0; m < opt->nmodes; m++) {
                char *name = trace_name(opt->trace, several_runs, opt->modes[m],
                                        opt->block_sizes[s], opt->repeat > 1 ? rep : 0);
                if (!name) {
                    cli_msg("out of memory");
                    return false;
                }
                if (!opt->quiet)
                    out_report_leftovers(name);
                bool usable =
                    out_file_allowed(name, opt->force) && out_file_open(trace, name, true) == 0;
                out_file_discard(trace);
                free(name);
                if (!usable)
                    return false;
            }
    return true;
}

/* ---- suites (cli_suite.c) ---- */

/* The command line's view of a suite's runs, for the checks made once
 * for the target: the largest file and block size, whether a row
 * appends (its file is truncated), and the most jobs a row writes a file
 * each for (they need a directory). */
static void suite_target_options(const struct suite *suite, struct cli_options *opt)
{
    uint64_t file_size = 0, largest_bs = 0;
    for (size_t r = 0; r < suite->nrows; r++) {
        const struct cli_options *row = &suite->rows[r].opt;
        if (suite->rows[r].note)
            continue;
        if (row->file_size > file_size)
            file_size = row->file_size;
        if (row->block_sizes[0] > largest_bs)
            largest_bs = row->block_sizes[0];
        if (row->pattern == DISKIO_PATTERN_APPEND || row->pattern == DISKIO_PATTERN_CREATE)
            opt->pattern = row->pattern;
        if (!row->shared_file && row->jobs[0] > opt->jobs[0]) {
            opt->jobs[0] = row->jobs[0];
            opt->njobs = 1;
        }
    }
    if (file_size)
        opt->file_size = file_size;
    if (largest_bs) {
        opt->block_sizes[0] = largest_bs;
        opt->nsizes = 1;
    }
}

/* Whether O_DIRECT at block size bs misfits the target: bs is not a
 * multiple of the offset alignment it needs, or it needs buffers aligned
 * more than the library aligns them (both alignments stored).  false
 * when the target cannot say: the run finds out. */
static bool direct_misfit(const struct diskio_target *target, uint64_t bs, uint64_t *offset_align,
                          uint64_t *mem_align)
{
    return diskio_target_direct_align(target, offset_align, mem_align) == 0 &&
           (bs % *offset_align != 0 || *mem_align > diskio_buffer_align());
}

/* A row the target cannot run (O_DIRECT refused, as FUSE filesystems
 * such as sshfs do; a block size the device's direct I/O alignment does
 * not divide) is not run, with the reason in the suite's view and the
 * result, rather than ending the whole suite. */
static void suite_check_rows(struct suite *suite, const struct diskio_target *target,
                             const struct diskio_result *result, bool quiet)
{
    const char *fs = diskio_result_env(result, "target.filesystem");
    for (size_t r = 0; r < suite->nrows; r++) {
        struct suite_row *row = &suite->rows[r];
        if (row->note)
            continue;
        enum diskio_mode mode = row->opt.modes[0];
        int rc = diskio_target_check_mode(target, mode);
        uint64_t offset_align, mem_align;
        if (rc == -DISKIO_E_NO_DIRECT)
            snprintf(row->note_buf, sizeof(row->note_buf),
                     "not run: mode %s needs O_DIRECT, which the filesystem (%s) refuses",
                     diskio_mode_name(mode), fs ? fs : "unknown");
        else if (rc < 0)
            snprintf(row->note_buf, sizeof(row->note_buf), "not run: mode %s cannot open it: %s",
                     diskio_mode_name(mode), diskio_strerror(rc));
        else if (diskio_mode_is_direct(mode) &&
                 direct_misfit(target, row->opt.block_sizes[0], &offset_align, &mem_align))
            snprintf(row->note_buf, sizeof(row->note_buf),
                     "not run: O_DIRECT there needs sizes aligned to %llu bytes and buffers "
                     "to %llu",
                     (unsigned long long)offset_align, (unsigned long long)mem_align);
        else
            continue;
        row->note = row->note_buf;
        if (!quiet)
            cli_msg("suite %s, row %s %s (%s:%u): %s", suite->name, row->label, row->column,
                    suite->path, row->line, row->note);
    }
}

/* The suite and its rows, into the result (JSON "suite"). */
static int suite_into_result(const struct suite *suite, struct diskio_result *result)
{
    struct diskio_suite_row *rows = calloc(suite->nrows, sizeof(*rows));
    if (!rows)
        return -ENOMEM;
    for (size_t r = 0; r < suite->nrows; r++) {
        rows[r].label = suite->rows[r].label;
        rows[r].column = suite->rows[r].column;
        rows[r].run = suite->rows[r].run;
        rows[r].note = suite->rows[r].note;
        if (rows[r].run == SIZE_MAX && !rows[r].note)
            rows[r].note = "not run: the suite stopped before this row (a signal or a failed run)";
    }
    int rc =
        diskio_result_set_suite(result, suite->name, suite->title,
                                suite->summary == SUITE_BEST ? "best" : "mean", rows, suite->nrows);
    free(rows);
    return rc;
}

/* ---- the session: parse, plan, run, write ---- */

/* One run of the rounds: its options, mode, block size and jobs, and
 * the suite row it is (SIZE_MAX for an ordinary run). */
struct plan_run {
    const struct cli_options *opt;
    enum diskio_mode mode;
    uint64_t bs;
    unsigned jobs;
    size_t row;
};

/* What main holds from one step to the next, released in one place
 * (end_session()). */
struct session {
    struct cli_options opt;
    struct suite suite; /* --suite: its rows */
    bool is_suite;
    unsigned target_flags; /* DISKIO_TARGET_* */
    bool several_runs;     /* the trace names carry the mode and size */
    struct out_file output, trace, ivcsv;
    struct diskio_target *target;
    struct diskio_result *result;
    bool usable[CLI_MAX_MODES]; /* each of opt.modes: the target can open it */
    struct cli_durable *durable;
    struct progress progress;
    struct plan_run *plans; /* the runs of a round */
    size_t nplans;
    const char *stopped_by; /* why the result is incomplete, a run's failure aside */
    const char *saved_in;   /* the file the result was saved in */
    bool on_stdout;         /* the result went to standard output, in some format */
};

/* --suite: a file of rows, each an ordinary run's options, all read and
 * checked before anything is created. */
static int load_suite(struct session *s)
{
    char err[512];
    if (suite_load(s->opt.suite, &s->opt, &s->suite, err, sizeof(err)) != 0) {
        cli_msg("%s", err);
        return EXIT_USAGE;
    }
    suite_target_options(&s->suite, &s->opt);
    /* a row's capacity search is one measurement: a row is not merged
     * from several */
    for (size_t r = 0; r < s->suite.nrows && s->suite.runs > 1; r++)
        if (s->suite.rows[r].opt.capacity_on) {
            cli_msg("%s:%u: row '%s': --target searches once per row; give the suite 'runs 1' "
                    "or --suite-runs 1",
                    s->suite.path, s->suite.rows[r].line, s->suite.rows[r].label);
            return EXIT_USAGE;
        }
    return EXIT_OK;
}

/* What the target must be for the runs, asked of the library before
 * anything is created: each is a usage error. */
static int check_target_use(const struct cli_options *opt, unsigned flags)
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
     * (segments, relation files) beside a test file diskio creates. */
    if ((opt->pattern == DISKIO_PATTERN_WAL ||
         (opt->pattern == DISKIO_PATTERN_CHECKPOINT && opt->checkpoint_files > 1)) &&
        diskio_target_check(opt->target, DISKIO_TARGET_TRUNCATE) == -DISKIO_E_TARGET_EXISTS) {
        cli_usage_msg("--pattern %s makes its %s beside a test file diskio creates; give a "
                      "directory or a new path instead of %s",
                      diskio_pattern_name(opt->pattern),
                      opt->pattern == DISKIO_PATTERN_WAL ? "WAL segment files" : "files",
                      opt->target);
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

/* Output files first: finding out after ten minutes of measuring that
 * the result cannot be written would waste the run.  Trace files are
 * made per run; every one's name is checked now and its temporary
 * created and removed, to prove it can be made. */
static int open_outputs(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    int status = check_output_names(opt, s->several_runs);
    if (status != EXIT_OK)
        return status;
    /* temporary names an earlier diskio, killed, left beside them */
    if (opt->output && !opt->quiet)
        out_report_leftovers(opt->output);
    if (opt->interval_csv && !opt->quiet)
        out_report_leftovers(opt->interval_csv);
    if (opt->output && out_file_open(&s->output, opt->output, opt->force) != 0)
        return EXIT_TARGET;
    if (opt->trace && !trace_names_usable(opt, s->several_runs, &s->trace))
        return EXIT_TARGET;
    if (opt->interval_csv && out_file_open(&s->ivcsv, opt->interval_csv, opt->force) != 0)
        return EXIT_TARGET;
    return EXIT_OK;
}

/* The target opened, and the result that describes its environment. */
static int open_target(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    int rc = diskio_target_open(opt->target, opt->file_size, s->target_flags, &s->target);
    if (rc < 0)
        return report_target_error(opt->target, rc);
    current_target = s->target;
    if (check_target_fits(opt, s->target) != 0)
        return EXIT_TARGET;
    if (diskio_result_new(opt->label, &s->result) != 0 ||
        diskio_result_probe(s->result, diskio_target_dir(s->target)) != 0) {
        cli_msg("out of memory");
        return EXIT_RUN_FAILED;
    }
    /* what the table shows: checked by cli_parse() already */
    if (opt->npercentiles)
        (void)diskio_result_set_percentiles(s->result, opt->percentiles, opt->npercentiles);
    if (opt->mbps)
        (void)diskio_result_set_throughput_unit(s->result, DISKIO_THROUGHPUT_MBIT_PER_S);
    warn_memory_fs(s->result, opt->target, opt->quiet);
    return EXIT_OK;
}

/* Modes the filesystem cannot open (O_DIRECT on ramfs, say) are found
 * before anything is measured: requested explicitly they end the run
 * (exit 3), from the default list they are skipped with a note.  A
 * suite's rows that cannot run are left out with a note instead. */
static int check_modes(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    for (size_t m = 0; m < CLI_MAX_MODES; m++)
        s->usable[m] = true;
    if (s->is_suite) {
        suite_check_rows(&s->suite, s->target, s->result, opt->quiet);
        size_t runnable = 0;
        for (size_t r = 0; r < s->suite.nrows; r++)
            runnable += !s->suite.rows[r].note;
        if (runnable)
            return EXIT_OK;
        cli_msg("none of the rows of suite %s (%s) can run at %s; see the notes above",
                s->suite.name, s->suite.path, opt->target);
        return EXIT_TARGET;
    }
    const char *fs = diskio_result_env(s->result, "target.filesystem");
    for (size_t m = 0; m < opt->nmodes; m++) {
        enum diskio_mode mode = opt->modes[m];
        int rc = diskio_target_check_mode(s->target, mode);
        if (rc == 0)
            continue;
        s->usable[m] = false;
        char buffered[256];
        cli_names(CLI_BUFFERED_DURABLE_MODES, ", ", " or ", buffered, sizeof(buffered));
        if (rc == -DISKIO_E_NO_DIRECT)
            cli_msg("mode %s: the filesystem at %s (%s) refuses O_DIRECT; use --mode %s there%s",
                    diskio_mode_name(mode), opt->target, fs ? fs : "unknown", buffered,
                    opt->modes_explicit ? "" : " (skipped)");
        else
            cli_msg("mode %s cannot open %s: %s%s", diskio_mode_name(mode),
                    diskio_target_path(s->target), diskio_strerror(rc),
                    opt->modes_explicit ? "" : " (skipped)");
        if (opt->modes_explicit)
            return EXIT_TARGET;
    }
    return EXIT_OK;
}

/* O_DIRECT needs lengths and offsets aligned to what the target's device
 * takes (4096 bytes on a 4Kn disk, not 512): a --bs that breaks it would
 * fail at op 0, so it is a usage error found now, before the first run.
 * The alignment is the target's: the first O_DIRECT mode tells. */
static int check_direct_alignment(const struct session *s)
{
    const struct cli_options *opt = &s->opt;
    size_t m = 0;
    while (m < opt->nmodes && !(s->usable[m] && diskio_mode_is_direct(opt->modes[m])))
        m++;
    if (s->is_suite || m == opt->nmodes)
        return EXIT_OK;
    uint64_t offset_align, mem_align;
    /* the sizes first, then (each size fitting the offsets by then) the
     * buffers */
    for (size_t i = 0; i < opt->nsizes; i++) {
        if (!direct_misfit(s->target, opt->block_sizes[i], &offset_align, &mem_align))
            continue;
        if (opt->block_sizes[i] % offset_align != 0) {
            cli_msg("--bs %llu: mode %s (O_DIRECT) on %s needs sizes and offsets aligned to %llu "
                    "bytes (the device's direct I/O alignment); use a --bs that is a multiple of "
                    "%llu, or a mode without O_DIRECT",
                    (unsigned long long)opt->block_sizes[i], diskio_mode_name(opt->modes[m]),
                    opt->target, (unsigned long long)offset_align,
                    (unsigned long long)offset_align);
            return EXIT_USAGE;
        }
    }
    if (direct_misfit(s->target, opt->block_sizes[0], &offset_align, &mem_align)) {
        cli_msg("mode %s (O_DIRECT) on %s needs buffers aligned to %llu bytes, more than "
                "diskio's %llu; use a mode without O_DIRECT",
                diskio_mode_name(opt->modes[m]), opt->target, (unsigned long long)mem_align,
                (unsigned long long)diskio_buffer_align());
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The runs of a round: each (size, mode, jobs), --jobs sweeping inside
 * each mode so that its rows stand side by side; or each suite row that
 * can run.  None when out of memory (said when the rounds start). */
static void list_runs(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    const size_t most = s->is_suite ? s->suite.nrows : opt->nsizes * opt->nmodes * opt->njobs;
    /* never calloc(0), which may return NULL: "out of memory" */
    s->plans = calloc(most ? most : 1, sizeof(*s->plans));
    for (size_t r = 0; s->plans && s->is_suite && r < s->suite.nrows; r++) {
        const struct cli_options *row = &s->suite.rows[r].opt;
        if (!s->suite.rows[r].note)
            s->plans[s->nplans++] = (struct plan_run){row, row->modes[0], row->block_sizes[0],
                                                      row->njobs ? row->jobs[0] : 1, r};
    }
    /* --target: one search over the whole --jobs list (its committers) */
    const size_t njobs = opt->capacity_on ? 1 : opt->njobs;
    for (size_t b = 0; s->plans && !s->is_suite && b < opt->nsizes; b++)
        for (size_t m = 0; m < opt->nmodes; m++)
            for (size_t j = 0; j < njobs && s->usable[m]; j++)
                s->plans[s->nplans++] = (struct plan_run){opt, opt->modes[m], opt->block_sizes[b],
                                                          opt->jobs[j], SIZE_MAX};
}

/* Everything checked and made before the first run, and the runs
 * listed: EXIT_OK, or the status to end with (said why). */
static int plan_session(struct session *s)
{
    struct cli_options *opt = &s->opt;
    s->output.slot = 0;
    s->trace.slot = 1;
    s->ivcsv.slot = 2;
    s->is_suite = opt->suite != NULL;
    if (s->is_suite && load_suite(s) != EXIT_OK)
        return EXIT_USAGE;
    const bool truncates =
        opt->pattern == DISKIO_PATTERN_APPEND || opt->pattern == DISKIO_PATTERN_CREATE;
    s->target_flags = (opt->force ? DISKIO_TARGET_FORCE : 0) |
                      (opt->allow_device ? DISKIO_TARGET_DEVICE : 0) |
                      (truncates ? DISKIO_TARGET_TRUNCATE : 0);
    int status = check_target_use(opt, s->target_flags);
    if (status != EXIT_OK)
        return status;
    /* Handlers first: a signal from here on stops the run the same way,
     * so no temporary output file or test file made below is left
     * behind by one (a signal before the first run ends diskio with a
     * result of no runs, marked incomplete). */
    install_signals();
    s->several_runs = s->is_suite || opt->nmodes * opt->nsizes * opt->njobs > 1 || opt->repeat > 1;
    if ((status = open_outputs(s)) != EXIT_OK || (status = open_target(s)) != EXIT_OK ||
        (status = check_modes(s)) != EXIT_OK || (status = check_direct_alignment(s)) != EXIT_OK)
        return status;
    /* --durability: the run registered with the listener, the test file
     * kept (cli_durable.c) */
    if (opt->durability &&
        (status = cli_durable_start(opt, s->target, s->result, &s->durable)) != EXIT_OK)
        return status;
    list_runs(s);
    return EXIT_OK;
}

/* The trace of one run, made under its name (FILE.MODE-BS-rN with
 * several runs): its descriptor, or -1 without --trace; -2 when it
 * cannot be made (said why). */
static int open_trace(struct session *s, const struct diskio_config *cfg, unsigned rep, char **path)
{
    *path = NULL;
    if (!s->opt.trace)
        return -1;
    *path = trace_name(s->opt.trace, s->several_runs, cfg->mode, cfg->block_size,
                       s->opt.repeat > 1 ? rep : 0);
    if (!*path || out_file_open(&s->trace, *path, s->opt.force) != 0)
        return -2;
    return fileno(s->trace.stream);
}

/* After the run: a trace keeps what it recorded, interrupted or not; one
 * that could not be written whole is removed.  Either way the run's
 * measurements are in the result.  Whether the run failed at its trace
 * (*failed) and whether the trace could not be saved (*lost). */
static void close_trace(struct session *s, const struct diskio_config *cfg,
                        const struct diskio_run_info *info, int rc, const char *path, bool *failed,
                        bool *lost)
{
    *failed = rc < 0 && info && info->error_during && strcmp(info->error_during, "trace") == 0;
    *lost = false;
    if (*failed) {
        out_file_discard(&s->trace);
        cli_msg("mode %s: could not write its trace %s: %s; %s. The run's measurements are kept "
                "in the result; the incomplete trace was removed.",
                diskio_mode_name(cfg->mode), path, diskio_strerror(rc), out_write_hint(-rc));
    } else if (s->trace.stream) {
        *lost = out_file_commit(&s->trace, s->opt.force, 0) != OUT_SAVED;
        if (*lost)
            cli_msg("mode %s: the run's measurements are kept in the result",
                    diskio_mode_name(cfg->mode));
    }
}

/* Every repetition measured, failed or interrupted ones too, ends up in
 * the result: the first of a plan's as its run, the later ones merged
 * into it (and a suite row's figures of each).  rc, or the error of
 * keeping it. */
static int keep_run(struct session *s, size_t p, struct diskio_run **merged, struct diskio_run *run,
                    int rc)
{
    const struct plan_run *plan = &s->plans[p];
    const struct diskio_run_info *info = diskio_run_info(run);
    if (plan->row != SIZE_MAX) {
        /* the suite's view: each repetition's own figures */
        double seconds = (double)info->duration_ns / 1e9;
        const struct diskio_hist *total = diskio_run_hist(run, DISKIO_PART_TOTAL);
        struct suite_figure fig = {
            .mb_per_s = seconds > 0 ? (double)info->bytes / 1e6 / seconds : 0,
            .iops = seconds > 0 ? (double)info->ops / seconds : 0,
            .mean_us = total ? diskio_hist_mean(total) / 1000.0 : 0,
            .complete = info->complete && rc == 0,
        };
        if (suite_add_figure(&s->suite, plan->row, &fig) != 0 && rc == 0)
            rc = -ENOMEM;
    }
    int keep_rc = 0;
    if (!merged[p]) {
        keep_rc = diskio_result_add_run(s->result, run);
        if (keep_rc == 0)
            merged[p] = run;
        if (keep_rc == 0 && plan->row != SIZE_MAX)
            s->suite.rows[plan->row].run = diskio_result_run_count(s->result) - 1;
    } else {
        keep_rc = diskio_run_merge(merged[p], run);
        diskio_run_free(run);
    }
    if (keep_rc < 0 && rc == 0) {
        cli_msg("mode %s: cannot keep the run: %s", diskio_mode_name(plan->mode),
                diskio_strerror(keep_rc));
        rc = keep_rc;
    }
    return rc;
}

/* --target: each step of the search said as it is measured (the
 * progress line cleared first and started again for the next point). */
struct search_say {
    struct session *s;
    const struct diskio_config *cfg;
    const struct diskio_capacity_spec *spec;
    unsigned number, runs;
};

static void say_step(void *ctx, const struct diskio_capacity_step *st)
{
    const struct search_say *say = ctx;
    const struct diskio_capacity_spec *spec = say->spec;
    progress_run_end(&say->s->progress);
    if (!say->s->opt.quiet) {
        char rate[48] = "as fast as it can";
        if (st->offered_ops_per_s > 0)
            snprintf(rate, sizeof(rate), "%.1f/s offered", st->offered_ops_per_s);
        char p99[48] = "";
        if (spec->percentile != 99.0)
            snprintf(p99, sizeof(p99), ", p99 %.3g ms", (double)st->p99_ns / 1e6);
        cli_msg("--target p%g=%.3g ms: %s %llu B x%u: %s: %s, %.1f/s achieved, p%g %.3g ms%s: %s",
                spec->percentile, (double)spec->target_ns / 1e6, diskio_mode_name(say->cfg->mode),
                (unsigned long long)say->cfg->block_size, st->committers,
                diskio_capacity_phase_name(st->phase), rate, st->achieved_ops_per_s,
                spec->percentile, (double)st->pct_ns / 1e6, p99, st->met ? "met" : "missed");
    }
    progress_run_start(&say->s->progress, say->cfg, say->number, say->runs);
}

/* The run of cfg: one measurement, or with --target the search for its
 * capacity (its steps said as they go).  As diskio_run_execute(). */
static int execute(struct session *s, const struct plan_run *plan, const struct diskio_config *cfg,
                   unsigned number, unsigned runs, struct diskio_run **run)
{
    if (!plan->opt->capacity_on)
        return diskio_run_execute(cfg, s->target, run);
    struct search_say say = {s, cfg, &plan->opt->capacity, number, runs};
    struct diskio_capacity_spec spec = plan->opt->capacity;
    spec.committers = plan->opt->jobs;
    spec.ncommitters = plan->opt->njobs ? plan->opt->njobs : 1;
    spec.step_done = say_step;
    spec.ctx = &say;
    return diskio_capacity_execute(cfg, s->target, &spec, run);
}

/* Plan p's run in round rep, the number'th of runs: EXIT_OK to go on,
 * or the status that ends the rounds. */
static int run_one(struct session *s, size_t p, unsigned rep, unsigned *number, unsigned runs,
                   struct diskio_run **merged)
{
    const struct plan_run *plan = &s->plans[p];
    struct diskio_config cfg;
    cli_config(plan->opt, plan->mode, plan->bs, &cfg);
    cfg.jobs = plan->jobs;
    char *trace_path;
    cfg.trace_fd = open_trace(s, &cfg, rep, &trace_path);
    if (cfg.trace_fd == -2) {
        free(trace_path);
        return EXIT_TARGET;
    }
    cfg.stop = &stop_signal;
    cfg.progress = &s->progress.ops;
    cfg.fill_progress = &s->progress.filled;
    cfg.live_hist = &s->progress.live;
    cfg.op_hook = cli_durable_hook(s->durable);

    progress_run_start(&s->progress, &cfg, ++*number, runs);
    struct diskio_run *run = NULL;
    int rc = execute(s, plan, &cfg, *number, runs, &run);
    /* before the run is merged or freed: the line stops reading its
     * histogram */
    progress_run_end(&s->progress);
    cli_durable_note_run(s->durable, run);
    bool trace_failed, trace_lost;
    close_trace(s, &cfg, run ? diskio_run_info(run) : NULL, rc, trace_path, &trace_failed,
                &trace_lost);
    free(trace_path);
    if (rc < 0 && rc != -DISKIO_E_INTERRUPTED && !stop_signal && !trace_failed)
        report_run_error(&cfg, run, rc);
    if (run)
        rc = keep_run(s, p, merged, run, rc);

    if (rc == -DISKIO_E_INTERRUPTED || stop_signal)
        return status_for_signal(stop_signal ? stop_signal : SIGINT);
    if (trace_lost)
        s->stopped_by = "a trace could not be saved";
    return trace_failed || trace_lost || rc < 0 ? EXIT_RUN_FAILED : EXIT_OK;
}

/* --precondition: the whole target written twice before the first run,
 * said so (and kept in the result, done or not).  EXIT_OK, or the status
 * that ends the session before any run. */
static int precondition_target(struct session *s)
{
    struct diskio_precondition pc;
    /* a file: the largest --size a run covers; a device: all of it */
    const uint64_t size =
        diskio_target_is_device(s->target) ? diskio_target_size(s->target) : s->opt.file_size;
    progress_step_start(&s->progress, "precondition", 2 * size);
    int rc = diskio_target_precondition(s->target, size, &stop_signal, &s->progress.filled, &pc);
    progress_run_end(&s->progress);
    (void)diskio_result_set_precondition(s->result, &pc);
    if (rc == 0) {
        if (!s->opt.quiet)
            cli_msg("--precondition: %s written twice, sequentially in 1 MiB writes%s, in %.3g s; "
                    "the runs start from there",
                    diskio_target_path(s->target), pc.direct ? " (O_DIRECT)" : "",
                    (double)pc.duration_ns / 1e9);
        return EXIT_OK;
    }
    if (rc == -DISKIO_E_INTERRUPTED || stop_signal)
        return status_for_signal(stop_signal ? stop_signal : SIGINT);
    cli_msg("--precondition: writing %s failed after %llu bytes: %s; no run was made",
            diskio_target_path(s->target), (unsigned long long)pc.written, diskio_strerror(rc));
    s->stopped_by = "the preconditioning failed";
    return EXIT_RUN_FAILED;
}

/* The rounds: --repeat's round after round of every run, so that a slow
 * minute of the machine (writeback, a neighbour) spreads over all the
 * modes instead of landing on one of them.  Ends with the test file
 * removed (or kept, --durability).  The command's status. */
static int run_all(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    /* the progress line: on a terminal, unless --quiet */
    if (!opt->quiet && isatty(STDERR_FILENO))
        (void)progress_start(&s->progress, opt->target);
    const unsigned repeats = s->is_suite ? s->suite.runs : opt->repeat;
    unsigned runs = (unsigned)s->nplans * repeats, number = 0;
    /* the result's run for each plan: the first repetition's, into which
     * the later ones are merged */
    struct diskio_run **merged =
        s->plans ? calloc(s->nplans ? s->nplans : 1, sizeof(*merged)) : NULL;
    int status = merged ? EXIT_OK : EXIT_RUN_FAILED;
    if (!merged)
        cli_msg("out of memory");
    s->stopped_by = "a run failed";
    if (status == EXIT_OK && opt->precondition)
        status = precondition_target(s);
    for (unsigned rep = 1; rep <= repeats && status == EXIT_OK; rep++) {
        /* --repeat-pause: time between rounds, so that a drift of the
         * machine (a neighbour's job, the host's) lands between them and
         * shows in their spread; a signal ends the wait */
        if (rep > 1 && opt->repeat_pause_ns && !stop_signal)
            pause_between_rounds(opt->repeat_pause_ns);
        for (size_t p = 0; p < s->nplans && status == EXIT_OK && !stop_signal; p++)
            status = run_one(s, p, rep, &number, runs, merged);
    }
    free(merged);
    if (s->is_suite && suite_into_result(&s->suite, s->result) != 0) {
        cli_msg("out of memory");
        if (status == EXIT_OK)
            status = EXIT_RUN_FAILED;
    }
    if (stop_signal && status == EXIT_OK)
        status = status_for_signal(stop_signal);
    if (status != EXIT_OK)
        diskio_result_set_incomplete(s->result);

    progress_stop(&s->progress);
    status = cli_durable_finish(s->durable, status, s->target);
    s->durable = NULL;
    current_target = NULL;
    release_target(s->target);
    s->target = NULL;
    return status;
}

/* The result where it goes: the table on standard output unless
 * --quiet, the --output file in its format (or standard output in it),
 * the interval series' CSV; and where an incomplete result went.  The
 * command's status. */
static int write_results(struct session *s, int status)
{
    const struct cli_options *opt = &s->opt;
    if (!opt->quiet && (s->output.stream || opt->format == DISKIO_FORMAT_TEXT)) {
        write_stdout(s->result, DISKIO_FORMAT_TEXT);
        s->on_stdout = true;
        if (s->is_suite) {
            /* each row's run as merged from its repetitions, judged whole */
            for (size_t r = 0; r < s->suite.nrows; r++)
                if (s->suite.rows[r].run != SIZE_MAX)
                    s->suite.rows[r].verdicts =
                        diskio_run_verdicts(diskio_result_run(s->result, s->suite.rows[r].run));
            suite_print(&s->suite, stdout);
        }
    }
    if (s->output.stream) {
        int written = diskio_result_write(s->result, opt->format, s->output.stream);
        enum out_saved saved = out_file_commit(&s->output, opt->force, written);
        if (saved == OUT_SAVED)
            s->saved_in = opt->output;
        else if (status == EXIT_OK)
            status = EXIT_RUN_FAILED;
        /* A result not written anywhere would lose the measurements: they
         * go to standard output instead (the table, when printed, is
         * already the whole text result). */
        if (saved == OUT_LOST && opt->format == DISKIO_FORMAT_TEXT && !opt->quiet) {
            cli_msg("the table on standard output is the whole result");
        } else if (saved == OUT_LOST) {
            cli_msg("the result is written to standard output instead");
            write_stdout(s->result, opt->format);
            s->on_stdout = true;
        }
    } else if (opt->format != DISKIO_FORMAT_TEXT) {
        write_stdout(s->result, opt->format);
        s->on_stdout = true;
    }
    if (s->ivcsv.stream) {
        int written = diskio_result_write(s->result, DISKIO_FORMAT_INTERVALS, s->ivcsv.stream);
        if (out_file_commit(&s->ivcsv, opt->force, written) != OUT_SAVED && status == EXIT_OK)
            status = EXIT_RUN_FAILED;
        else if (!opt->quiet)
            cli_msg("the interval series is in %s", opt->interval_csv);
    }
    /* (--steady's own series, unasked for, goes without saying) */
    if (cli_option_given(opt, cli_option_named("--interval")) && !opt->quiet &&
        !opt->interval_csv && opt->format != DISKIO_FORMAT_JSON &&
        opt->format != DISKIO_FORMAT_INTERVALS)
        cli_msg("--interval: the series is in the JSON result and the intervals CSV only; give "
                "--output FILE.json or --interval-csv FILE to keep it");
    /* Where the partial result went, in one line; with --quiet too after
     * a signal, which no other message reports (a failed run's error is
     * already on standard error). */
    if (!diskio_result_complete(s->result) && (!opt->quiet || status >= 128))
        cli_msg("the result is incomplete (%s)%s%s%s",
                status >= 128 ? "interrupted" : s->stopped_by,
                s->saved_in ? "; what was measured is in " : "", s->saved_in ? s->saved_in : "",
                s->saved_in    ? ""
                : s->on_stdout ? "; what was measured is on standard output"
                               : "; nothing was kept (--quiet without --output)");
    return status;
}

/* The one way out of a session: every output file not put in place is
 * removed (its temporary name), the test file removed, all freed. */
static int end_session(struct session *s, int status)
{
    out_file_discard(&s->output);
    out_file_discard(&s->trace);
    out_file_discard(&s->ivcsv);
    diskio_result_free(s->result);
    s->result = NULL;
    current_target = NULL;
    release_target(s->target);
    s->target = NULL;
    free(s->plans);
    s->plans = NULL;
    suite_free(&s->suite);
    return status;
}

int main(int argc, char **argv)
{
    /* before anything else opens a file */
    if (!std_fds_taken())
        return EXIT_TARGET;
    static struct session s;
    char err[512];
    if (cli_parse(argc, argv, &s.opt, err, sizeof(err)) != 0) {
        cli_usage_msg("%s", err);
        return EXIT_USAGE;
    }
    if (s.opt.help) {
        cli_usage(stdout);
        return finish_stdout(EXIT_OK, NULL);
    }
    if (s.opt.version) {
        printf("diskio %s\n", diskio_version());
        return finish_stdout(EXIT_OK, NULL);
    }
    /* after the power cut: a check of the file, no run (cli_durable.c) */
    if (s.opt.verify_durability)
        return finish_stdout(cli_durable_verify(&s.opt), NULL);

    int status = plan_session(&s);
    if (status != EXIT_OK)
        return end_session(&s, status);
    status = write_results(&s, run_all(&s));
    return finish_stdout(end_session(&s, status), s.saved_in);
}
