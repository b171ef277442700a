/* SPDX-License-Identifier: MIT */
/*
 * Description: what a run's controls do: warmup, patterns, parts, runtime, trace, stop, create.
 *
 * A run's controls, each on a real file read back (t_mode_run.h): warmup ops
 * are written but not recorded; the rand pattern writes aligned blocks
 * inside the file; append grows the file and overwrite does not; the
 * create pattern writes a new file from its first byte and ends at its
 * size; write/sync parts and group commit; runtime limits the run; the
 * trace has a header and a row per recorded op; a stop flag ends a run
 * (partial), or before measuring when it comes during preallocation.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_mode_run.h"

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
    Suite *s = suite_create("run_options");
    TCase *tc = tcase_create("run_options");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_warmup_ops_are_written_but_not_recorded);
    tcase_add_test(tc, test_rand_pattern_writes_aligned_blocks_inside_the_file);
    tcase_add_test(tc, test_append_grows_the_file_and_overwrite_does_not);
    tcase_add_test(tc, test_sync_part_and_group_commit);
    tcase_add_test(tc, test_runtime_limits_the_run);
    tcase_add_test(tc, test_trace_has_header_and_one_row_per_recorded_op);
    tcase_add_test(tc, test_stop_flag_returns_partial_run);
    tcase_add_test(tc, test_stop_during_preallocation_ends_before_measuring);
    tcase_add_loop_test(tc, test_create_writes_a_new_file_from_its_first_byte_and_ends_at_its_size,
                        0, 2);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
