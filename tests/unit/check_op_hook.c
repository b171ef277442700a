/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's op hook is called around every measured op, never the warmup's.
 *
 * a run's op hook (the op_hook of its struct diskio_run_options) is called around every
 * measured op and never the warmup's: prepare may rewrite the block about
 * to be written (what it wrote is in the file at that op's offset), done
 * says which ops ended with their sync (every sync_every'th with fsync,
 * every op in the modes that sync each write), and a done that fails
 * ends the run with its error.  The hook is refused in the queued and
 * read modes and with several jobs.  A kept target is left in place by
 * diskio_target_free().
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"

#define BS 4096
#define MAX_OPS 64

struct seen {
    unsigned prepared, done;
    uint64_t offsets[MAX_OPS];
    bool synced[MAX_OPS];
    unsigned fail_at; /* done returns -EPIPE for this op (1-based), 0: never */
};

static void t_prepare(void *ctx, unsigned char *buf, uint64_t len, uint64_t offset)
{
    struct seen *s = ctx;
    ck_assert_uint_eq(len, BS);
    ck_assert_uint_lt(s->prepared, MAX_OPS);
    /* prepare and done alternate: one op at a time */
    ck_assert_uint_eq(s->prepared, s->done);
    s->offsets[s->prepared] = offset;
    uint64_t mark = UINT64_C(0x686f6f6b00000000) | s->prepared;
    memcpy(buf, &mark, sizeof(mark));
    s->prepared++;
}

static int t_done(void *ctx, bool synced)
{
    struct seen *s = ctx;
    ck_assert_uint_eq(s->done + 1, s->prepared);
    s->synced[s->done++] = synced;
    return s->fail_at && s->done == s->fail_at ? -EPIPE : 0;
}

static void t_config(struct diskio_config *cfg, enum diskio_mode mode)
{
    diskio_config_init(cfg);
    cfg->mode = mode;
    cfg->block_size = BS;
    cfg->file_size = 32 * BS;
    cfg->count = 9;
    cfg->warmup = 4;
}

/* The run's options: hook and nothing else. */
static struct diskio_run_options t_hooked(const struct diskio_op_hook *hook)
{
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.op_hook = hook;
    return opts;
}

/* Run cfg on a new file; the file's block at each offset the hook saw
 * must begin with the mark its prepare wrote. */
static struct diskio_run *t_run_hooked(const struct diskio_config *cfg,
                                       const struct diskio_op_hook *hook, const struct seen *s,
                                       int *rc)
{
    const struct diskio_run_options opts = t_hooked(hook);
    char *dir = t_mkdtemp("hook");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg->file_size, 0, &t), 0);
    struct diskio_run *run = NULL;
    *rc = diskio_run_execute_opts(cfg, &opts, t, &run);
    int fd = open(diskio_target_path(t), O_RDONLY);
    ck_assert_int_ge(fd, 0);
    for (unsigned i = 0; i < s->prepared && i < s->done; i++) {
        uint64_t mark = 0;
        ck_assert_int_eq(pread(fd, &mark, sizeof(mark), (off_t)s->offsets[i]), sizeof(mark));
        ck_assert_uint_eq(mark, UINT64_C(0x686f6f6b00000000) | i);
    }
    close(fd);
    diskio_target_free(t);
    t_rmdir_empty(dir);
    return run;
}

START_TEST(test_op_hook_sees_every_measured_op_and_which_were_synced)
{
    struct seen s = {0};
    const struct diskio_op_hook hook = {.prepare = t_prepare, .done = t_done, .ctx = &s};
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.sync_every = 3;
    int rc;
    struct diskio_run *run = t_run_hooked(&cfg, &hook, &s, &rc);
    ck_assert_int_eq(rc, 0);
    /* the 4 warmup ops are not the hook's: 9 measured ops, from block 4 */
    ck_assert_uint_eq(s.prepared, 9);
    ck_assert_uint_eq(s.done, 9);
    for (unsigned i = 0; i < 9; i++) {
        ck_assert_uint_eq(s.offsets[i], (4 + i) * BS);
        /* the measured ops start a group of their own: the syncs fall
         * on measured writes 2, 5 and 8 (from 0) */
        ck_assert_msg(s.synced[i] == (i % 3 == 2), "op %u synced %d", i, s.synced[i]);
    }
    ck_assert_ptr_null(diskio_run_info(run)->config.op_hook);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_op_hook_in_a_mode_that_syncs_each_write_sees_every_op_synced)
{
    static const enum diskio_mode modes[] = {DISKIO_MODE_OSYNC, DISKIO_MODE_ODSYNC};
    struct seen s = {0};
    const struct diskio_op_hook hook = {.prepare = t_prepare, .done = t_done, .ctx = &s};
    struct diskio_config cfg;
    t_config(&cfg, modes[_i]);
    int rc;
    struct diskio_run *run = t_run_hooked(&cfg, &hook, &s, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(s.done, 9);
    for (unsigned i = 0; i < 9; i++)
        ck_assert(s.synced[i]);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_op_hook_failure_ends_the_run_with_its_error)
{
    struct seen s = {.fail_at = 5};
    const struct diskio_op_hook hook = {.prepare = t_prepare, .done = t_done, .ctx = &s};
    struct diskio_config cfg;
    t_config(&cfg, DISKIO_MODE_FDATASYNC);
    int rc;
    struct diskio_run *run = t_run_hooked(&cfg, &hook, &s, &rc);
    ck_assert_int_eq(rc, -EPIPE);
    const struct diskio_run_info *info = diskio_run_info(run);
    ck_assert(!info->complete);
    ck_assert_str_eq(info->error_during, "hook");
    ck_assert_uint_eq(info->error_op, 4);
    /* the op whose hook failed was measured */
    ck_assert_uint_eq(info->ops, 5);
    ck_assert_uint_eq(s.prepared, 5);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_op_hook_is_refused_where_ops_overlap_or_read)
{
    struct seen s = {0};
    const struct diskio_op_hook hook = {.prepare = t_prepare, .done = t_done, .ctx = &s};
    static const enum diskio_mode refused[] = {DISKIO_MODE_AIO, DISKIO_MODE_URING, DISKIO_MODE_READ,
                                               DISKIO_MODE_DIRECT_READ};
    const struct diskio_run_options opts = t_hooked(&hook);
    struct diskio_config cfg;
    struct diskio_config_verdict v;
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        t_config(&cfg, refused[i]);
        ck_assert_int_eq(diskio_config_validate_opts(&cfg, &opts, 0, &v), -EINVAL);
        ck_assert_int_eq(v.rule, DISKIO_RULE_OP_HOOK);
        ck_assert_int_eq(v.field, DISKIO_FIELD_OP_HOOK);
        /* without the hook the mode is fine */
        ck_assert_int_eq(diskio_config_validate_opts(&cfg, NULL, 0, &v), 0);
    }
    t_config(&cfg, DISKIO_MODE_FSYNC);
    cfg.jobs = 2;
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, &opts, 0, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_OP_HOOK);
    cfg.jobs = 1;
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, &opts, 0, &v), 0);
}
END_TEST

START_TEST(test_kept_target_stays_after_free)
{
    char *dir = t_mkdtemp("keep");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, 4 * BS, 0, &t), 0);
    char *path = strdup(diskio_target_path(t));
    ck_assert_int_eq(diskio_target_keep(t), 0);
    ck_assert_int_eq(diskio_target_remove(t), 0);
    diskio_target_unlink_now(t);
    diskio_target_free(t);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(diskio_target_keep(NULL), -EINVAL);
    free(path);
    t_rmdir_empty(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("op_hook");
    TCase *tc = tcase_create("op_hook");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_op_hook_sees_every_measured_op_and_which_were_synced);
    tcase_add_loop_test(tc, test_op_hook_in_a_mode_that_syncs_each_write_sees_every_op_synced, 0,
                        2);
    tcase_add_test(tc, test_op_hook_failure_ends_the_run_with_its_error);
    tcase_add_test(tc, test_op_hook_is_refused_where_ops_overlap_or_read);
    tcase_add_test(tc, test_kept_target_stays_after_free);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
