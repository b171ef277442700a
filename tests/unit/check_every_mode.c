/* SPDX-License-Identifier: MIT */
/*
 * Description: every mode really writes each block it claims; runs stop and refuse as they should.
 *
 * every mode really writes: each run's file is read back and
 * every block must carry the stamp (intended offset, op number) of the op
 * that claims to have written it.  Also: aio with many requests in
 * flight (aio and io_uring), append versus overwrite, the create pattern
 * (a new file from its first byte, ending at its size), the read modes
 * (each reads the fill back; a corrupted block fails verify) and their
 * rules, write/sync parts and group commit,
 * runtime limits, the trace, stopping a run, and the target's refusals.
 * The target writes only its own inode: a file planted at its name is
 * neither written by a run nor removed, a file that does not fit the
 * free space is refused before a byte is written, and so is a name
 * longer than NAME_MAX (or a path of PATH_MAX bytes).
 *
 * The cases of the O_DIRECT modes (direct, aio, uring...) run where the
 * filesystem takes O_DIRECT: under the build directory, else the source
 * tree, else /var/tmp; none taking it fails them.  The modes on io_uring
 * run in check_uring_modes, this file's cases built again for them
 * alone (check_uring_modes.c), which skips where the machine cannot run
 * io_uring and says why.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_uring.h"

#define BS 4096

#ifndef T_URING_MODES
#define T_URING_MODES 0 /* 1: the modes on io_uring alone (check_uring_modes.c) */
#endif

/* The modes on io_uring (their names start with "uring") run in
 * check_uring_modes, every other mode here. */
static bool t_runs_here(enum diskio_mode mode)
{
    const bool uring = strncmp(diskio_mode_name(mode), "uring", 5) == 0;
    return uring == (T_URING_MODES != 0);
}

/* NULL when a fresh directory under parent takes O_DIRECT (as the
 * library opens a target for an O_DIRECT mode), else why not. */
static const char *t_refuses_direct(const char *parent)
{
    char *dir = t_mkdtemp_in(parent, "direct");
    if (!dir)
        return strerror(errno);
    struct diskio_target *t;
    int rc = diskio_target_open(dir, BS, 0, &t);
    if (rc == 0) {
        rc = diskio_target_check_mode(t, DISKIO_MODE_DIRECT);
        diskio_target_free(t);
    }
    rmdir(dir);
    free(dir);
    return rc == 0 ? NULL : diskio_strerror(rc);
}

/* Where the O_DIRECT modes' cases make their files: the first of the
 * build directory, the source tree and /var/tmp whose filesystem takes
 * O_DIRECT (a build directory in tmpfs or ramfs may refuse it).  None
 * taking it fails the case, naming each directory and why: those cases
 * are what proves the O_DIRECT modes write what they claim. */
static const char *t_direct_parent(void)
{
    static const char *const tried[] = {".", DISKIO_SRCDIR, "/var/tmp"};
    static const char *found;
    char *why = NULL, cwd[PATH_MAX];
    size_t size = 0;
    if (found)
        return found;
    FILE *f = open_memstream(&why, &size);
    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < sizeof(tried) / sizeof(tried[0]) && !found; i++) {
        const char *problem = t_refuses_direct(tried[i]);
        if (!problem)
            found = tried[i];
        else
            fprintf(f, "%s%s: %s", i ? "; " : "",
                    i == 0 && getcwd(cwd, sizeof(cwd)) ? cwd : tried[i], problem);
    }
    fclose(f);
    if (found && *why)
        fprintf(stderr, "the O_DIRECT cases run under %s (%s)\n", found, why);
    ck_assert_msg(found != NULL,
                  "no directory tried takes O_DIRECT, so the O_DIRECT modes cannot be tested (%s)",
                  why);
    free(why);
    return found;
}

/* A fresh directory for a run of mode: for an O_DIRECT mode where the
 * filesystem takes it (t_direct_parent()), else under the build
 * directory. */
static char *t_mkdtemp_for(enum diskio_mode mode, const char *tag)
{
    if (!diskio_mode_is_direct(mode))
        return t_mkdtemp(tag);
    const char *parent = t_direct_parent();
    char *dir = t_mkdtemp_in(parent, tag);
    ck_assert_msg(dir != NULL, "mkdtemp under %s: %s", parent, strerror(errno));
    return dir;
}

struct stamp {
    uint64_t offset, op;
};

static struct stamp t_read_stamp(int fd, uint64_t offset)
{
    struct stamp s = {UINT64_MAX, UINT64_MAX};
    ck_assert_int_eq(pread(fd, &s, sizeof(s), (off_t)offset), (ssize_t)sizeof(s));
    return s;
}

/* Run cfg on a new file in a new directory; call check(fd, size) on the
 * file before diskio removes it.  Returns the run (caller frees). */
/* The same with the run's hooks opts (NULL: none). */
static struct diskio_run *t_run_opts(const struct diskio_config *cfg,
                                     const struct diskio_run_options *opts,
                                     void (*check)(const struct diskio_config *, int, off_t))
{
    char *dir = t_mkdtemp_for(cfg->mode, "modes");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg->file_size, 0, &t), 0);
    struct diskio_run *run = NULL;
    int rc = diskio_run_execute_opts(cfg, opts, t, &run);
    ck_assert_msg(rc == 0, "%s: %s", diskio_mode_name(cfg->mode), diskio_strerror(rc));
    ck_assert_ptr_nonnull(run);
    int fd = open(diskio_target_path(t), O_RDONLY);
    ck_assert_int_ge(fd, 0);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    if (check)
        check(cfg, fd, st.st_size);
    close(fd);
    diskio_target_free(t);
    t_rmdir_empty(dir); /* the test file is gone */
    return run;
}

static struct diskio_run *t_run(const struct diskio_config *cfg,
                                void (*check)(const struct diskio_config *, int, off_t))
{
    return t_run_opts(cfg, NULL, check);
}

/* seq over a file of B blocks with N ops: block k holds the last op that
 * hit it, op = k + B * floor((N - 1 - k) / B). */
static void check_seq_stamps(const struct diskio_config *cfg, int fd, off_t size)
{
    uint64_t blocks = cfg->file_size / cfg->block_size;
    uint64_t ops = cfg->count + cfg->warmup;
    ck_assert_uint_eq((uint64_t)size, cfg->file_size);
    for (uint64_t k = 0; k < blocks && k < ops; k++) {
        struct stamp s = t_read_stamp(fd, k * cfg->block_size);
        ck_assert_uint_eq(s.offset, k * cfg->block_size);
        uint64_t last = k + blocks * ((ops - 1 - k) / blocks);
        /* warmup ops and measured ops are numbered from 0 each */
        uint64_t expected = last >= cfg->warmup ? last - cfg->warmup : last;
        ck_assert_msg(s.op == expected, "%s: block %llu has op %llu, expected %llu",
                      diskio_mode_name(cfg->mode), (unsigned long long)k, (unsigned long long)s.op,
                      (unsigned long long)expected);
    }
}

static void t_config(struct diskio_config *cfg, enum diskio_mode mode)
{
    diskio_config_init(cfg);
    cfg->mode = mode;
    cfg->block_size = BS;
    cfg->file_size = 16 * BS;
    cfg->count = 40; /* wraps the 16-block file twice and a half */
    cfg->warmup = 0;
}

/* _i: every mode of the library; the read modes have a test of their own */
START_TEST(test_every_mode_writes_each_block_where_claimed)
{
    enum diskio_mode mode = (enum diskio_mode)_i;
    if (diskio_mode_is_read(mode) || !t_runs_here(mode))
        return;
    struct diskio_config cfg;
    t_config(&cfg, mode);
    if (diskio_mode_is_queued(mode))
        cfg.iodepth = 4;
    struct diskio_run *run = t_run(&cfg, check_seq_stamps);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(info->complete);
    ck_assert_int_eq(info->error, 0);
    ck_assert_uint_eq(info->ops, 40);
    ck_assert_uint_eq(info->bytes, 40 * BS);
    ck_assert_str_eq(info->name, diskio_mode_name(mode));
    const struct diskio_hist *total = diskio_run_hist_const(run, DISKIO_PART_TOTAL);
    ck_assert_uint_eq(diskio_hist_count(total), 40);
    ck_assert_uint_gt(diskio_hist_min(total), 0);
    ck_assert_uint_le(diskio_hist_max(total), info->duration_ns);
    ck_assert_int_eq(diskio_run_hist_const(run, DISKIO_PART_SYNC) != NULL, diskio_mode_syncs(mode));
    diskio_run_free(run);
}
END_TEST

START_TEST(test_warmup_ops_are_written_but_not_recorded)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FDATASYNC);
    cfg.count = 8;
    cfg.warmup = 5;
    struct diskio_run *run = t_run(&cfg, check_seq_stamps);
    ck_assert_uint_eq(diskio_run_info(run)->ops, 8);
    ck_assert_uint_eq(diskio_hist_count(diskio_run_hist_const(run, DISKIO_PART_TOTAL)), 8);
    diskio_run_free(run);
}
END_TEST

static void check_aio_deep(const struct diskio_config *cfg, int fd, off_t size)
{
    check_seq_stamps(cfg, fd, size);
}

START_TEST(test_queued_modes_keep_many_requests_in_flight)
{
    struct diskio_config cfg;
    t_config(&cfg, _i ? DISKIO_MODE_URING : DISKIO_MODE_AIO);
    if (!t_runs_here(cfg.mode))
        return;
    cfg.iodepth = 32;
    cfg.file_size = 64 * BS;
    cfg.count = 1000;
    struct diskio_run *run = t_run(&cfg, check_aio_deep);
    ck_assert_uint_eq(diskio_run_info(run)->ops, 1000);
    ck_assert_uint_eq(diskio_hist_count(diskio_run_hist_const(run, DISKIO_PART_TOTAL)), 1000);
    diskio_run_free(run);
}
END_TEST

static void check_rand_stamps(const struct diskio_config *cfg, int fd, off_t size)
{
    ck_assert_uint_eq((uint64_t)size, cfg->file_size);
    uint64_t stamped = 0;
    for (uint64_t off = 0; off < cfg->file_size; off += cfg->block_size) {
        struct stamp s = t_read_stamp(fd, off);
        if (s.offset == off) {
            ck_assert_uint_lt(s.op, cfg->count);
            stamped++;
        }
    }
    /* 200 random writes over 64 blocks touch nearly all of them, and
     * every block that claims an offset claims its own */
    ck_assert_uint_ge(stamped, 50);
}

START_TEST(test_rand_pattern_writes_aligned_blocks_inside_the_file)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_ODSYNC);
    cfg.pattern = DISKIO_PATTERN_RAND;
    cfg.file_size = 64 * BS;
    cfg.count = 200;
    diskio_run_free(t_run(&cfg, check_rand_stamps));
}
END_TEST

static void check_append_grows(const struct diskio_config *cfg, int fd, off_t size)
{
    /* 40 appends into a 16-block limit: truncated at op 16 and op 32, so
     * 8 blocks remain, written by ops 32..39 */
    ck_assert_int_eq(size, 8 * BS);
    for (uint64_t k = 0; k < 8; k++) {
        struct stamp s = t_read_stamp(fd, k * BS);
        ck_assert_uint_eq(s.offset, k * BS);
        ck_assert_uint_eq(s.op, 32 + k);
    }
}

START_TEST(test_append_grows_the_file_and_overwrite_does_not)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.pattern = DISKIO_PATTERN_APPEND;
    diskio_run_free(t_run(&cfg, check_append_grows));
    /* overwrite: the preallocated size never changes */
    cfg.pattern = DISKIO_PATTERN_SEQ;
    diskio_run_free(t_run(&cfg, check_seq_stamps));
}
END_TEST

START_TEST(test_sync_part_and_group_commit)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.sync_every = 4;
    struct diskio_run *run = t_run(&cfg, check_seq_stamps);
    const struct diskio_hist *total = diskio_run_hist_const(run, DISKIO_PART_TOTAL);
    const struct diskio_hist *write_part = diskio_run_hist_const(run, DISKIO_PART_WRITE);
    const struct diskio_hist *sync_part = diskio_run_hist_const(run, DISKIO_PART_SYNC);
    ck_assert_uint_eq(diskio_hist_count(total), 40);
    ck_assert_uint_eq(diskio_hist_count(write_part), 40);
    ck_assert_uint_eq(diskio_hist_count(sync_part), 10);
    /* an op is its write plus, every 4th, its sync */
    double parts_sum = diskio_hist_mean(write_part) * 40 + diskio_hist_mean(sync_part) * 10;
    ck_assert_double_le(parts_sum, diskio_hist_mean(total) * 40 + 1.0);
    ck_assert_double_ge(parts_sum, diskio_hist_mean(total) * 40 * 0.95);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_runtime_limits_the_run)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_ASYNC);
    cfg.count = 0;
    cfg.runtime_ns = 200 * 1000 * 1000;
    struct diskio_run *run = t_run(&cfg, NULL);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(info->complete);
    ck_assert_uint_gt(info->ops, 100);
    ck_assert_uint_ge(info->duration_ns, cfg.runtime_ns);
    /* it stops: well before the count-less run would end, however busy
     * the machine (not a measure of how soon) */
    ck_assert_uint_lt(info->duration_ns, 50 * cfg.runtime_ns);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_trace_has_header_and_one_row_per_recorded_op)
{
    char *dir = t_mkdtemp("trace");
    char path[300];
    snprintf(path, sizeof(path), "%s/trace.csv", dir);
    int trace_fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(trace_fd, 0);
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FDATASYNC);
    cfg.count = 5000; /* more than one buffer of rows */
    cfg.warmup = 3;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.trace_fd = trace_fd;
    struct diskio_run *run = t_run_opts(&cfg, &opts, NULL);
    close(trace_fd);
    FILE *f = fopen(path, "r");
    /* the library writes the header: a complete CSV without the command */
    char header[64];
    ck_assert_ptr_nonnull(fgets(header, sizeof(header), f));
    ck_assert_str_eq(header, "op,start_ns,latency_ns,write_ns,sync_ns\n");
    unsigned long long op, start, latency, write_ns, sync_ns, prev_start = 0;
    uint64_t rows = 0;
    while (fscanf(f, "%llu,%llu,%llu,%llu,%llu\n", &op, &start, &latency, &write_ns, &sync_ns) ==
           5) {
        ck_assert_uint_eq(op, rows);
        ck_assert_uint_ge(start, prev_start);
        ck_assert_uint_le(write_ns, latency);
        ck_assert_uint_le(sync_ns, latency);
        prev_start = start;
        rows++;
    }
    fclose(f);
    ck_assert_uint_eq(rows, 5000);
    unlink(path);
    t_rmdir_empty(dir);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_stop_flag_returns_partial_run)
{
    static volatile sig_atomic_t stop = 1;
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.stop = &stop;
    char *dir = t_mkdtemp("stop");
    struct diskio_target *t;
    /* preallocated now: a stop during the run's own fill would end it
     * before it opened the file, with no run to return */
    ck_assert_int_eq(diskio_target_open(dir, cfg.file_size, DISKIO_TARGET_PREALLOCATE, &t), 0);
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, &opts, t, &run), -DISKIO_E_INTERRUPTED);
    ck_assert_ptr_nonnull(run);
    ck_assert(!diskio_run_info(run)->complete);
    ck_assert_str_eq(diskio_run_info(run)->error_during, "interrupted");
    diskio_run_free(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

static volatile sig_atomic_t stop_later;
static void *raise_stop(void *arg)
{
    (void)arg;
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    stop_later = 1;
    return NULL;
}

START_TEST(test_stopping_queued_modes_reaps_requests_in_flight)
{
    struct diskio_config cfg;
    t_config(&cfg, _i ? DISKIO_MODE_URING : DISKIO_MODE_AIO);
    if (!t_runs_here(cfg.mode))
        return;
    stop_later = 0;
    cfg.iodepth = 16;
    cfg.count = 0;
    cfg.runtime_ns = UINT64_C(30) * 1000000000u;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.stop = &stop_later;
    char *dir = t_mkdtemp_for(cfg.mode, "aiostop");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg.file_size, 0, &t), 0);
    pthread_t thread;
    pthread_create(&thread, NULL, raise_stop, NULL);
    struct diskio_run *run = NULL;
    uint64_t start = diskio_now_ns();
    int rc = diskio_run_execute_opts(&cfg, &opts, t, &run);
    pthread_join(thread, NULL);
    ck_assert_msg(rc == -DISKIO_E_INTERRUPTED, "%s: %s", diskio_mode_name(cfg.mode),
                  diskio_strerror(rc));
    ck_assert_uint_lt(diskio_now_ns() - start, UINT64_C(10) * 1000000000u);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(!info->complete);
    ck_assert_uint_gt(info->ops, 0);
    /* every completed request was recorded, none twice */
    ck_assert_uint_eq(diskio_hist_count(diskio_run_hist_const(run, DISKIO_PART_TOTAL)), info->ops);
    diskio_run_free(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_stop_during_preallocation_ends_before_measuring)
{
    static volatile sig_atomic_t stop = 1;
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.stop = &stop;
    char *dir = t_mkdtemp("stopfill");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg.file_size, 0, &t), 0);
    struct diskio_run *run = (struct diskio_run *)&run;
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, &opts, t, &run), -DISKIO_E_INTERRUPTED);
    ck_assert_ptr_null(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_append_never_truncates_a_file_diskio_did_not_create)
{
    char *dir = t_mkdtemp("appendforce");
    char file[300];
    snprintf(file, sizeof(file), "%s/user-file", dir);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_eq(write(fd, "data", 4), 4);
    close(fd);
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(file, 1 << 16, DISKIO_TARGET_FORCE, &t), 0);
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.pattern = DISKIO_PATTERN_APPEND;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), -DISKIO_E_TARGET_EXISTS);
    ck_assert_ptr_null(run);
    diskio_target_free(t);
    struct stat st;
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert_int_eq(st.st_size, 4);
    unlink(file);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_target_refuses_what_diskio_did_not_create)
{
    char *dir = t_mkdtemp("refuse");
    char file[300], link[300], fifo[300];
    snprintf(file, sizeof(file), "%s/precious", dir);
    snprintf(link, sizeof(link), "%s/link", dir);
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_eq(write(fd, "keep me", 7), 7);
    close(fd);
    ck_assert_int_eq(symlink("precious", link), 0);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);

    struct diskio_target *t = NULL;
    ck_assert_int_eq(diskio_target_open(file, 1 << 20, 0, &t), -DISKIO_E_TARGET_EXISTS);
    ck_assert_int_eq(diskio_target_open(link, 1 << 20, DISKIO_TARGET_FORCE, &t),
                     -DISKIO_E_TARGET_TYPE);
    ck_assert_int_eq(diskio_target_open(fifo, 1 << 20, DISKIO_TARGET_FORCE, &t),
                     -DISKIO_E_TARGET_TYPE);
    ck_assert_int_eq(diskio_target_open("/dev/null", 1 << 20, DISKIO_TARGET_FORCE, &t),
                     -DISKIO_E_TARGET_TYPE);
    ck_assert_ptr_null(t);
    struct stat st;
    ck_assert_int_eq(stat(file, &st), 0);
    ck_assert_int_eq(st.st_size, 7);

    /* a new path is created and removed; a forced existing file is kept */
    char fresh[300];
    snprintf(fresh, sizeof(fresh), "%s/fresh", dir);
    ck_assert_int_eq(diskio_target_open(fresh, 1 << 16, DISKIO_TARGET_PREALLOCATE, &t), 0);
    ck_assert_int_eq(stat(fresh, &st), 0);
    ck_assert_int_eq(st.st_size, 1 << 16);
    diskio_target_free(t);
    ck_assert_int_ne(stat(fresh, &st), 0);
    ck_assert_int_eq(diskio_target_open(file, 1 << 16, DISKIO_TARGET_FORCE, &t), 0);
    diskio_target_free(t);
    ck_assert_int_eq(stat(file, &st), 0);

    unlink(file);
    unlink(link);
    unlink(fifo);
    t_rmdir_empty(dir);
}
END_TEST

/* The target is locked (flock) while it is open: a second open of the
 * same file, by another diskio or in the same program, is refused with
 * -DISKIO_E_TARGET_LOCKED, as is a file another program keeps locked;
 * freeing the target releases it. */
START_TEST(test_target_is_locked_while_open)
{
    char *dir = t_mkdtemp("locked");
    char file[300];
    snprintf(file, sizeof(file), "%s/shared", dir);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);

    struct diskio_target *first = NULL, *second = NULL;
    ck_assert_int_eq(diskio_target_open(file, 1 << 16, DISKIO_TARGET_FORCE, &first), 0);
    ck_assert_int_eq(diskio_target_open(file, 1 << 16, DISKIO_TARGET_FORCE, &second),
                     -DISKIO_E_TARGET_LOCKED);
    ck_assert_ptr_null(second);
    ck_assert_str_eq(diskio_strerror(-DISKIO_E_TARGET_LOCKED),
                     "Another process holds a lock on the target");
    diskio_target_free(first);
    ck_assert_int_eq(diskio_target_open(file, 1 << 16, DISKIO_TARGET_FORCE, &second), 0);
    diskio_target_free(second);

    /* a lock of another program's own */
    fd = open(file, O_RDONLY);
    ck_assert_int_eq(flock(fd, LOCK_SH | LOCK_NB), 0);
    ck_assert_int_eq(diskio_target_open(file, 1 << 16, DISKIO_TARGET_FORCE, &second),
                     -DISKIO_E_TARGET_LOCKED);
    close(fd);

    unlink(file);
    t_rmdir_empty(dir);
}
END_TEST

static void t_write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void t_assert_content(const char *path, const char *text)
{
    char buf[64] = {0};
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(read(fd, buf, sizeof(buf) - 1), (ssize_t)strlen(text));
    close(fd);
    ck_assert_str_eq(buf, text);
}

/* path of name bytes of 'n' after dir/ (and missing/ when deeper) */
static void t_long_name(char *out, size_t size, const char *dir, bool deeper, size_t len)
{
    int at = snprintf(out, size, "%s/%s", dir, deeper ? "missing/" : "");
    memset(out + at, 'n', len);
    out[at + (int)len] = '\0';
}

/* A name no open() takes is refused by its length, whether the
 * directories before it exist or not, and nothing is created. */
START_TEST(test_target_refuses_a_name_longer_than_name_max)
{
    char *dir = t_mkdtemp("longname");
    char path[PATH_MAX + 64];
    struct diskio_target *t = NULL;
    for (int deeper = 0; deeper < 2; deeper++) {
        t_long_name(path, sizeof(path), dir, deeper, NAME_MAX + 1);
        ck_assert_int_eq(diskio_target_check(path, 0), -ENAMETOOLONG);
        ck_assert_int_eq(diskio_target_open(path, 1 << 16, 0, &t), -ENAMETOOLONG);
        ck_assert_ptr_null(t);
        /* the longest name is not refused for its length */
        t_long_name(path, sizeof(path), dir, deeper, NAME_MAX);
        ck_assert_int_eq(diskio_target_check(path, 0), 0);
    }
    /* a whole path of PATH_MAX bytes and more: names of 200 bytes */
    int at = snprintf(path, sizeof(path), "%s", dir);
    while (at < PATH_MAX) {
        path[at++] = '/';
        for (int i = 0; i < 200 && at < PATH_MAX; i++)
            path[at++] = 'p';
    }
    path[at] = '\0';
    ck_assert_int_eq(diskio_target_check(path, 0), -ENAMETOOLONG);
    path[PATH_MAX - 1] = '\0';
    ck_assert_int_ne(diskio_target_check(path, 0), -ENAMETOOLONG);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_target_writes_only_its_own_inode)
{
    char *dir = t_mkdtemp("planted");
    char victim[300], spare[300];
    snprintf(victim, sizeof(victim), "%s/victim", dir);
    snprintf(spare, sizeof(spare), "%s/spare", dir);
    t_write_file(victim, "keep me");

    struct diskio_target *t = NULL;
    ck_assert_int_eq(diskio_target_open(dir, 64 * BS, 0, &t), 0);
    const char *name = diskio_target_path(t);
    /* ln -f victim NAME: a hard link replaces the test file's name */
    ck_assert_int_eq(link(victim, spare), 0);
    ck_assert_int_eq(rename(spare, name), 0);

    ck_assert_int_eq(diskio_target_check_mode(t, DISKIO_MODE_OSYNC), 0);
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.file_size = 64 * BS;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), 0);
    ck_assert_uint_eq(diskio_run_info(run)->ops, cfg.count);
    diskio_run_free(run);
    t_assert_content(victim, "keep me");
    ck_assert_uint_eq(diskio_target_size(t), 64 * BS);

    /* the name is the victim's now: left alone, and said so */
    ck_assert_int_eq(diskio_target_remove(t), -DISKIO_E_TARGET_CHANGED);
    ck_assert_int_eq(diskio_target_remove(t), 0); /* nothing more to do */
    t_assert_content(name, "keep me");
    ck_assert_int_eq(unlink(name), 0);
    diskio_target_free(t);
    ck_assert_int_eq(unlink(victim), 0);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_target_refuses_a_file_larger_than_the_free_space)
{
    char *dir = t_mkdtemp("space");
    struct diskio_target *t = NULL;
    const uint64_t huge = UINT64_C(1) << 60;
    /* with the preallocation in the open: refused, nothing left */
    ck_assert_int_eq(diskio_target_open(dir, huge, DISKIO_TARGET_PREALLOCATE, &t),
                     -DISKIO_E_NO_SPACE);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(t_dir_entries(dir), 0);

    ck_assert_int_eq(diskio_target_open(dir, 0, 0, &t), 0);
    uint64_t needed = 0, available = 0, reserve = 0;
    ck_assert_int_eq(diskio_target_check_space(t, huge, &needed, &available, &reserve),
                     -DISKIO_E_NO_SPACE);
    ck_assert_uint_eq(needed, huge);
    ck_assert_uint_gt(available, 0);
    ck_assert_uint_gt(reserve, 0);
    ck_assert_uint_le(reserve, UINT64_C(1) << 30);
    ck_assert_int_eq(diskio_target_check_space(t, BS, NULL, NULL, NULL), 0);
    ck_assert(!diskio_target_is_device(t));
    /* a run that would not fit writes nothing */
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.file_size = huge;
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute(&cfg, t, &run), -DISKIO_E_NO_SPACE);
    ck_assert_ptr_null(run);
    struct stat st;
    ck_assert_int_eq(stat(diskio_target_path(t), &st), 0);
    ck_assert_int_eq(st.st_size, 0);
    ck_assert_int_eq(diskio_target_remove(t), 0);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

/* A program lists the modes, patterns, parts and formats from the library
 * it runs with: each numbered from 0 to its count - 1, named, the name
 * parsed back to the value, and nothing named at the count. */
START_TEST(test_modes_patterns_parts_and_formats_are_listed_by_the_library)
{
    ck_assert_uint_eq(diskio_mode_count(), DISKIO_MODE_PWRITEV2_SYNC + 1);
    for (unsigned m = 0; m < diskio_mode_count(); m++) {
        enum diskio_mode parsed;
        ck_assert_ptr_nonnull(diskio_mode_name((enum diskio_mode)m));
        ck_assert_int_eq(diskio_mode_parse(diskio_mode_name((enum diskio_mode)m), &parsed), 0);
        ck_assert_int_eq(parsed, m);
    }
    ck_assert_ptr_null(diskio_mode_name((enum diskio_mode)diskio_mode_count()));

    ck_assert_uint_eq(diskio_pattern_count(), DISKIO_PATTERN_CHECKPOINT + 1);
    for (unsigned p = 0; p < diskio_pattern_count(); p++) {
        enum diskio_pattern parsed;
        ck_assert_ptr_nonnull(diskio_pattern_name((enum diskio_pattern)p));
        ck_assert_int_eq(diskio_pattern_parse(diskio_pattern_name((enum diskio_pattern)p), &parsed),
                         0);
        ck_assert_int_eq(parsed, p);
    }
    ck_assert_ptr_null(diskio_pattern_name((enum diskio_pattern)diskio_pattern_count()));

    static const char *const formats[] = {"text", "json", "csv", "intervals"};
    ck_assert_uint_eq(diskio_format_count(), 4);
    for (unsigned f = 0; f < diskio_format_count(); f++) {
        enum diskio_format parsed;
        ck_assert_str_eq(diskio_format_name((enum diskio_format)f), formats[f]);
        ck_assert_int_eq(diskio_format_parse(formats[f], &parsed), 0);
        ck_assert_int_eq(parsed, f);
    }
    ck_assert_ptr_null(diskio_format_name((enum diskio_format)diskio_format_count()));

    /* the parts as the JSON's keys and the CSV's part column name them */
    static const char *const parts[] = {"total", "write", "sync", "service", "switch"};
    ck_assert_uint_eq(diskio_part_count(), 5);
    for (unsigned p = 0; p < diskio_part_count(); p++)
        ck_assert_str_eq(diskio_part_name((enum diskio_part)p), parts[p]);
    ck_assert_ptr_null(diskio_part_name((enum diskio_part)diskio_part_count()));
    const int below = -1;
    ck_assert_ptr_null(diskio_part_name((enum diskio_part)below));
}
END_TEST

START_TEST(test_read_modes_are_rows_of_the_mode_table)
{
    static const struct {
        enum diskio_mode mode;
        const char *name;
        bool direct, queued;
    } reads[] = {
        {DISKIO_MODE_READ, "read", false, false},
        {DISKIO_MODE_DIRECT_READ, "direct-read", true, false},
        {DISKIO_MODE_AIO_READ, "aio-read", true, true},
        {DISKIO_MODE_URING_READ, "uring-read", true, true},
    };
    for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
        enum diskio_mode parsed;
        ck_assert_str_eq(diskio_mode_name(reads[i].mode), reads[i].name);
        ck_assert_int_eq(diskio_mode_parse(reads[i].name, &parsed), 0);
        ck_assert_int_eq(parsed, reads[i].mode);
        ck_assert(diskio_mode_is_read(reads[i].mode));
        ck_assert_int_eq(diskio_mode_is_direct(reads[i].mode), reads[i].direct);
        ck_assert_int_eq(diskio_mode_is_queued(reads[i].mode), reads[i].queued);
        ck_assert(!diskio_mode_syncs(reads[i].mode));
    }
    for (unsigned m = 0; m < DISKIO_MODE_READ; m++)
        ck_assert(!diskio_mode_is_read((enum diskio_mode)m));
    ck_assert(!diskio_mode_is_read((enum diskio_mode)diskio_mode_count()));
    enum diskio_pattern p;
    ck_assert_int_eq(diskio_pattern_parse("create", &p), 0);
    ck_assert_int_eq(p, DISKIO_PATTERN_CREATE);
    ck_assert_str_eq(diskio_pattern_name(DISKIO_PATTERN_CREATE), "create");
}
END_TEST

/* What the mode table says of the modes a durability check and
 * PostgreSQL know: which are durable (a sync call after the write, or a
 * flag making the write durable), which sync with a call, and the
 * wal_sync_method each is (O_DIRECT: the method with O_DIRECT). */
START_TEST(test_the_mode_table_says_which_modes_are_durable_and_postgresql_s)
{
    static const struct {
        enum diskio_mode mode;
        bool durable, syncs;
        const char *wal_sync_method;
    } known[] = {
        {DISKIO_MODE_ASYNC, false, false, NULL},
        {DISKIO_MODE_FSYNC, true, true, "fsync"},
        {DISKIO_MODE_FDATASYNC, true, true, "fdatasync"},
        {DISKIO_MODE_OSYNC, true, false, "open_sync"},
        {DISKIO_MODE_ODSYNC, true, false, "open_datasync"},
        {DISKIO_MODE_DIRECT, false, false, NULL},
        {DISKIO_MODE_DIRECT_DSYNC, true, false, "open_datasync"},
        {DISKIO_MODE_AIO, false, false, NULL},
        {DISKIO_MODE_URING, false, false, NULL},
        {DISKIO_MODE_READ, false, false, NULL},
        {DISKIO_MODE_DIRECT_READ, false, false, NULL},
        {DISKIO_MODE_AIO_READ, false, false, NULL},
        {DISKIO_MODE_URING_READ, false, false, NULL},
        {DISKIO_MODE_PWRITEV2_DSYNC, true, false, NULL},
        {DISKIO_MODE_PWRITEV2_SYNC, true, false, NULL},
    };
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const enum diskio_mode m = known[i].mode;
        const char *method = diskio_mode_pg_wal_sync_method(m);
        ck_assert_msg(diskio_mode_is_durable(m) == known[i].durable, "%s", diskio_mode_name(m));
        ck_assert_msg(diskio_mode_syncs(m) == known[i].syncs, "%s", diskio_mode_name(m));
        if (known[i].wal_sync_method)
            ck_assert_str_eq(method ? method : "(null)", known[i].wal_sync_method);
        else
            ck_assert_msg(method == NULL, "%s: %s", diskio_mode_name(m), method);
    }
    /* a sync call makes a mode durable; a mode that reads is not */
    for (unsigned m = 0; m < diskio_mode_count(); m++) {
        ck_assert(!diskio_mode_syncs((enum diskio_mode)m) ||
                  diskio_mode_is_durable((enum diskio_mode)m));
        ck_assert(!diskio_mode_is_read((enum diskio_mode)m) ||
                  !diskio_mode_is_durable((enum diskio_mode)m));
    }
    const enum diskio_mode unknown = (enum diskio_mode)diskio_mode_count();
    ck_assert(!diskio_mode_is_durable(unknown));
    ck_assert_ptr_null(diskio_mode_pg_wal_sync_method(unknown));
}
END_TEST

static void t_expect_rule(const struct diskio_config *cfg, enum diskio_config_rule rule,
                          enum diskio_config_field field)
{
    struct diskio_config_verdict v;
    ck_assert_int_eq(diskio_config_validate(cfg, &v), rule == DISKIO_RULE_OK ? 0 : -EINVAL);
    ck_assert_int_eq(v.rule, rule);
    ck_assert_int_eq(v.field, field);
}

/* write_back: a percentage, for the synchronous read modes, not with verify */
START_TEST(test_config_rules_of_write_back)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_READ);
    cfg.write_back = 100;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.mode = DISKIO_MODE_DIRECT_READ;
    cfg.write_back = 10;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.write_back = 101;
    t_expect_rule(&cfg, DISKIO_RULE_WRITE_BACK, DISKIO_FIELD_WRITE_BACK);
    cfg.write_back = 50;
    cfg.verify = 1;
    t_expect_rule(&cfg, DISKIO_RULE_WRITE_BACK, DISKIO_FIELD_WRITE_BACK);
    t_config(&cfg, DISKIO_MODE_AIO_READ);
    cfg.write_back = 50;
    t_expect_rule(&cfg, DISKIO_RULE_WRITE_BACK, DISKIO_FIELD_WRITE_BACK);
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.write_back = 50;
    t_expect_rule(&cfg, DISKIO_RULE_WRITE_BACK, DISKIO_FIELD_WRITE_BACK);
    ck_assert_str_eq(diskio_config_problem(&cfg),
                     "write-back is a percentage from 0 to 100, for modes read and direct-read, "
                     "without verify");
}
END_TEST

/* verify checks what the fill wrote: a block device, never filled, is
 * refused by the rules between a configuration and its target (the ones
 * diskio_run_execute() applies), not by the target-free check */
START_TEST(test_config_rule_of_verify_on_a_device)
{
    struct diskio_config cfg;
    struct diskio_config_verdict v;
    t_config(&cfg, DISKIO_MODE_READ);
    cfg.verify = 1;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    ck_assert_int_eq(diskio_config_validate_target(&cfg, DISKIO_TARGET_FORCE, &v), 0);
    ck_assert_int_eq(diskio_config_validate_target(&cfg, DISKIO_TARGET_DEVICE, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_VERIFY_DEVICE);
    ck_assert_int_eq(v.field, DISKIO_FIELD_VERIFY);
    ck_assert_ptr_nonnull(v.message);
    /* the other rules come first */
    cfg.mode = DISKIO_MODE_FSYNC;
    ck_assert_int_eq(diskio_config_validate_target(&cfg, DISKIO_TARGET_DEVICE, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_VERIFY);
    cfg.verify = 0;
    ck_assert_int_eq(diskio_config_validate_target(&cfg, DISKIO_TARGET_DEVICE, &v), 0);
}
END_TEST

START_TEST(test_config_rules_of_the_read_modes)
{
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_READ);
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.pattern = DISKIO_PATTERN_APPEND;
    t_expect_rule(&cfg, DISKIO_RULE_READ_PATTERN, DISKIO_FIELD_PATTERN);
    cfg.pattern = DISKIO_PATTERN_CREATE;
    t_expect_rule(&cfg, DISKIO_RULE_READ_PATTERN, DISKIO_FIELD_PATTERN);
    cfg.pattern = DISKIO_PATTERN_RAND;
    cfg.cached = 1;
    cfg.verify = 1;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    /* cached means nothing to O_DIRECT; verify nothing to a write */
    cfg.mode = DISKIO_MODE_DIRECT_READ;
    t_expect_rule(&cfg, DISKIO_RULE_CACHED, DISKIO_FIELD_CACHED);
    cfg.cached = 0;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.mode = DISKIO_MODE_FSYNC;
    t_expect_rule(&cfg, DISKIO_RULE_VERIFY, DISKIO_FIELD_VERIFY);
    /* the queued reads obey the queued rules */
    t_config(&cfg, DISKIO_MODE_AIO_READ);
    cfg.iodepth = 32;
    t_expect_rule(&cfg, DISKIO_RULE_FILE_IODEPTH, DISKIO_FIELD_FILE_SIZE);
    cfg.iodepth = 4;
    cfg.batch = 2;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    /* create knows every offset beforehand: any depth, unlike append */
    t_config(&cfg, DISKIO_MODE_URING);
    cfg.pattern = DISKIO_PATTERN_CREATE;
    cfg.iodepth = 4;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.pattern = DISKIO_PATTERN_APPEND;
    t_expect_rule(&cfg, DISKIO_RULE_APPEND_QUEUED, DISKIO_FIELD_PATTERN);
}
END_TEST

/* The wal pattern takes PostgreSQL's wal_sync_methods (and fsync off:
 * async), the checkpoint pattern the checkpointer's sync; neither a rate,
 * a series, sync_every or shared_file; the WAL's segment holds whole
 * pages, at least two, and a commit; a checkpoint dirties at most half
 * of its files' pages; several committers may trace, checkpoints not. */
START_TEST(test_config_rules_of_the_wal_and_checkpoint_patterns)
{
    struct diskio_config cfg;
    enum diskio_pattern p;
    ck_assert_int_eq(diskio_pattern_parse("wal", &p), 0);
    ck_assert_int_eq(p, DISKIO_PATTERN_WAL);
    ck_assert_int_eq(diskio_pattern_parse("checkpoint", &p), 0);
    ck_assert_str_eq(diskio_pattern_name(DISKIO_PATTERN_CHECKPOINT), "checkpoint");
    ck_assert_ptr_null(diskio_pattern_name((enum diskio_pattern)diskio_pattern_count()));
    static const enum diskio_mode wal_modes[] = {DISKIO_MODE_FDATASYNC,    DISKIO_MODE_FSYNC,
                                                 DISKIO_MODE_ODSYNC,       DISKIO_MODE_OSYNC,
                                                 DISKIO_MODE_DIRECT_DSYNC, DISKIO_MODE_ASYNC};
    for (unsigned m = 0; m < diskio_mode_count(); m++) {
        t_config(&cfg, (enum diskio_mode)m);
        cfg.pattern = DISKIO_PATTERN_WAL;
        bool takes = false;
        for (size_t i = 0; i < sizeof(wal_modes) / sizeof(wal_modes[0]); i++)
            takes = takes || wal_modes[i] == (enum diskio_mode)m;
        struct diskio_config_verdict v;
        diskio_config_validate(&cfg, &v);
        ck_assert_msg(takes ? v.rule == DISKIO_RULE_OK : v.rule != DISKIO_RULE_OK,
                      "mode %s: rule %d", diskio_mode_name((enum diskio_mode)m), v.rule);
    }
    t_config(&cfg, DISKIO_MODE_DIRECT);
    cfg.pattern = DISKIO_PATTERN_WAL;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_MODE, DISKIO_FIELD_MODE);
    t_config(&cfg, DISKIO_MODE_FDATASYNC);
    cfg.pattern = DISKIO_PATTERN_WAL;
    cfg.block_size = 8192;
    ck_assert_uint_eq(cfg.wal_bytes, DISKIO_WAL_BYTES_DEFAULT);
    ck_assert_uint_eq(cfg.wal_segment_size, UINT64_C(16) << 20);
    cfg.jobs = 4;
    cfg.trace_fd = 1;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.trace_fd = -1;
    cfg.sync_every = 2;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_OPTIONS, DISKIO_FIELD_PATTERN);
    cfg.sync_every = 1;
    cfg.shared_file = 1;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_OPTIONS, DISKIO_FIELD_PATTERN);
    cfg.shared_file = 0;
    cfg.runtime_ns = UINT64_C(1000000000);
    cfg.interval_ns = DISKIO_INTERVAL_MIN_NS;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_OPTIONS, DISKIO_FIELD_PATTERN);
    cfg.interval_ns = 0;
    /* the committers share one fixed rate (--target searches it), but a
     * schedule has no room for a pause after each commit */
    cfg.rate_interval_ns = 1000000;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.wal_gap_ns = 1000;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_OPTIONS, DISKIO_FIELD_PATTERN);
    cfg.wal_gap_ns = 0;
    cfg.rate_interval_ns = 0;
    cfg.wal_segment_size = 8192;
    t_expect_rule(&cfg, DISKIO_RULE_WAL, DISKIO_FIELD_WAL);
    cfg.wal_segment_size = 3 * 8192 + 512;
    t_expect_rule(&cfg, DISKIO_RULE_WAL, DISKIO_FIELD_WAL);
    cfg.wal_segment_size = 2 * 8192;
    cfg.wal_bytes = 2 * 8192 + 1;
    t_expect_rule(&cfg, DISKIO_RULE_WAL, DISKIO_FIELD_WAL);
    cfg.wal_bytes = 0;
    t_expect_rule(&cfg, DISKIO_RULE_WAL, DISKIO_FIELD_WAL);
    cfg.wal_bytes = 2 * 8192;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);

    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.pattern = DISKIO_PATTERN_CHECKPOINT;
    cfg.checkpoint_pages = 16 * 16 / 2; /* half the 16 default files' blocks */
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.mode = DISKIO_MODE_FDATASYNC;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.mode = DISKIO_MODE_ODSYNC;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_MODE, DISKIO_FIELD_MODE);
    cfg.mode = DISKIO_MODE_FSYNC;
    cfg.jobs = 2;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_OPTIONS, DISKIO_FIELD_PATTERN);
    cfg.jobs = 1;
    cfg.rate_interval_ns = 1000000;
    t_expect_rule(&cfg, DISKIO_RULE_PATTERN_OPTIONS, DISKIO_FIELD_PATTERN);
    cfg.rate_interval_ns = 0;
    cfg.block_size = 8192;
    cfg.file_size = 64 * 8192;
    cfg.checkpoint_files = 2;
    cfg.checkpoint_pages = 64;
    t_expect_rule(&cfg, DISKIO_RULE_OK, DISKIO_FIELD_NONE);
    cfg.checkpoint_pages = 65;
    t_expect_rule(&cfg, DISKIO_RULE_CHECKPOINT, DISKIO_FIELD_CHECKPOINT);
    cfg.checkpoint_pages = 1;
    cfg.checkpoint_files = DISKIO_JOBS_MAX + 1;
    t_expect_rule(&cfg, DISKIO_RULE_CHECKPOINT, DISKIO_FIELD_CHECKPOINT);
    cfg.checkpoint_files = 0;
    t_expect_rule(&cfg, DISKIO_RULE_CHECKPOINT, DISKIO_FIELD_CHECKPOINT);
}
END_TEST

/* Every read mode reads the fill back: a target filled by
 * diskio_target_open() (8 KiB blocks, seed 0), read with verify; then one
 * byte of block 3 is inverted on the storage and a sequential run stops
 * at op 3 with -DISKIO_E_VERIFY, keeping the 3 good reads. */
START_TEST(test_read_modes_read_back_the_fill_and_see_corruption)
{
    const enum diskio_mode mode = (enum diskio_mode)_i;
    if (!diskio_mode_is_read(mode) || !t_runs_here(mode))
        return;
    char *dir = t_mkdtemp_for(mode, "reads");
    char path[4096];
    snprintf(path, sizeof(path), "%s/file", dir);
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(path, 16 * 8192, DISKIO_TARGET_PREALLOCATE, &t), 0);
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = mode;
    cfg.block_size = 8192;
    cfg.file_size = 16 * 8192;
    cfg.count = 40;
    cfg.seed = 0;
    cfg.verify = 1;
    cfg.iodepth = diskio_mode_is_queued(mode) ? 4 : 1;
    struct diskio_run *run = NULL;
    int rc = diskio_run_execute(&cfg, t, &run);
    ck_assert_msg(rc == 0, "%s: %s", diskio_mode_name(mode), diskio_strerror(rc));
    ck_assert_uint_eq(diskio_run_info(run)->ops, 40);
    ck_assert_uint_eq(diskio_run_info(run)->bytes, 40 * 8192);
    ck_assert_ptr_null(diskio_run_hist_const(run, DISKIO_PART_SYNC));
    diskio_run_free(run);

    int fd = open(path, O_RDWR);
    ck_assert_int_ge(fd, 0);
    unsigned char byte;
    ck_assert_int_eq(pread(fd, &byte, 1, 3 * 8192 + 77), 1);
    byte = (unsigned char)~byte;
    ck_assert_int_eq(pwrite(fd, &byte, 1, 3 * 8192 + 77), 1);
    ck_assert_int_eq(fsync(fd), 0);
    close(fd);
    cfg.iodepth = 1; /* op 3 is the fourth read */
    cfg.warmup = 0;
    rc = diskio_run_execute(&cfg, t, &run);
    ck_assert_int_eq(rc, -DISKIO_E_VERIFY);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(!info->complete);
    ck_assert_str_eq(info->error_during, "verify");
    ck_assert_uint_eq(info->error_op, 3);
    ck_assert_uint_eq(info->ops, 3);
    diskio_run_free(run);
    diskio_target_free(t);
    unlink(path);
    t_rmdir_empty(dir);
}
END_TEST

static void check_created(const struct diskio_config *cfg, int fd, off_t size)
{
    /* the run ended when the new file reached its size: 16 blocks, block
     * k written by measured op k (the warmup's writes were emptied) */
    ck_assert_int_eq(size, 16 * BS);
    for (uint64_t k = 0; k < 16; k++) {
        struct stamp s = t_read_stamp(fd, k * BS);
        ck_assert_uint_eq(s.offset, k * BS);
        ck_assert_msg(s.op == k, "%s: block %llu has op %llu", diskio_mode_name(cfg->mode),
                      (unsigned long long)k, (unsigned long long)s.op);
    }
}

START_TEST(test_create_writes_a_new_file_from_its_first_byte_and_ends_at_its_size)
{
    static const enum diskio_mode modes[] = {DISKIO_MODE_FSYNC, DISKIO_MODE_AIO};
    struct diskio_config cfg;
    t_config(&cfg, modes[_i]);
    cfg.pattern = DISKIO_PATTERN_CREATE;
    cfg.warmup = 5;
    if (modes[_i] == DISKIO_MODE_AIO)
        cfg.iodepth = 4;
    struct diskio_run *run = t_run(&cfg, check_created);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(info->complete);
    ck_assert_int_eq(info->error, 0);
    ck_assert_uint_eq(info->ops, 16); /* not count (40): the file is full */
    diskio_run_free(run);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("modes");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 120);
    const int modes = (int)diskio_mode_count();
    const char *no_uring = t_uring_unavailable();
    if (T_URING_MODES && no_uring) {
        printf("SKIP: the io_uring modes cannot run here: %s\n", no_uring);
        return 77;
    }
    /* the cases each mode gets (here or in check_uring_modes) */
    tcase_add_loop_test(tc, test_every_mode_writes_each_block_where_claimed, 0, modes);
    tcase_add_loop_test(tc, test_queued_modes_keep_many_requests_in_flight, 0, 2);
    tcase_add_loop_test(tc, test_stopping_queued_modes_reaps_requests_in_flight, 0, 2);
    tcase_add_loop_test(tc, test_read_modes_read_back_the_fill_and_see_corruption, 0, modes);
    suite_add_tcase(s, tc);
    if (T_URING_MODES)
        return t_run_suite(s);
    tcase_add_test(tc, test_warmup_ops_are_written_but_not_recorded);
    tcase_add_test(tc, test_rand_pattern_writes_aligned_blocks_inside_the_file);
    tcase_add_test(tc, test_append_grows_the_file_and_overwrite_does_not);
    tcase_add_test(tc, test_sync_part_and_group_commit);
    tcase_add_test(tc, test_runtime_limits_the_run);
    tcase_add_test(tc, test_trace_has_header_and_one_row_per_recorded_op);
    tcase_add_test(tc, test_stop_flag_returns_partial_run);
    tcase_add_test(tc, test_stop_during_preallocation_ends_before_measuring);
    tcase_add_test(tc, test_append_never_truncates_a_file_diskio_did_not_create);
    tcase_add_test(tc, test_target_refuses_what_diskio_did_not_create);
    tcase_add_test(tc, test_target_refuses_a_name_longer_than_name_max);
    tcase_add_test(tc, test_target_writes_only_its_own_inode);
    tcase_add_test(tc, test_target_is_locked_while_open);
    tcase_add_test(tc, test_target_refuses_a_file_larger_than_the_free_space);
    tcase_add_test(tc, test_modes_patterns_parts_and_formats_are_listed_by_the_library);
    tcase_add_test(tc, test_read_modes_are_rows_of_the_mode_table);
    tcase_add_test(tc, test_the_mode_table_says_which_modes_are_durable_and_postgresql_s);
    tcase_add_test(tc, test_config_rules_of_the_read_modes);
    tcase_add_test(tc, test_config_rule_of_verify_on_a_device);
    tcase_add_test(tc, test_config_rules_of_write_back);
    tcase_add_test(tc, test_config_rules_of_the_wal_and_checkpoint_patterns);
    tcase_add_loop_test(tc, test_create_writes_a_new_file_from_its_first_byte_and_ends_at_its_size,
                        0, 2);
    return t_run_suite(s);
}
