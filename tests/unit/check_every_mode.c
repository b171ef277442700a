/* SPDX-License-Identifier: MIT */
/*
 * Description: every mode really writes each block it claims and reads back what it wrote.
 *
 * The cases every mode gets: each run's file is read back and every
 * block must carry the stamp (intended offset, op number) of the op that
 * claims to have written it; the queued modes (aio and io_uring) keep
 * many requests in flight and reap them when stopped; the read modes
 * each read the fill back, and a corrupted block fails verify.
 *
 * The cases of the O_DIRECT modes (direct, aio, uring...) run where the
 * filesystem takes O_DIRECT: under the build directory, else the source
 * tree, else /var/tmp; none taking it fails them (t_mode_run.h).  The modes
 * on io_uring run in check_uring_modes, this file's cases built again
 * for them alone (check_uring_modes.c), which skips where the machine
 * cannot run io_uring and says why.  What a run's options do is
 * check_run_options', the target's refusals check_target_refusals', and
 * the mode table and config rules check_mode_table's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_mode_run.h"
#include "t_uring.h"

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
    return t_run_suite(s);
}
