/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's hooks given in struct diskio_run_options are honoured and win over the config's.
 *
 * The hooks a program hands diskio_run_execute_opts() in its struct
 * diskio_run_options are the run's: the stop flag stops it, the progress
 * counters count its ops and its fill, the trace gets a row per op, the
 * live histogram is published while it measures, the op hook is called
 * around every op.  NULL options are no hooks.  The config's deprecated
 * members of the same names are still honoured, by diskio_run_execute()
 * and by diskio_run_execute_opts() for a hook the options leave unset;
 * where both are given the options win.  The run records its workload,
 * never a hook.  diskio_config_validate_opts() applies the rules about
 * hooks to the options' hooks, and diskio_capacity_execute_opts() gives
 * every point of its search the options.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"

#define BS 4096
#define OPS 20

static volatile sig_atomic_t raised = 1;
static volatile sig_atomic_t lowered = 0;

static void t_config(struct diskio_config *cfg)
{
    diskio_config_init(cfg);
    cfg->mode = DISKIO_MODE_FDATASYNC;
    cfg->block_size = BS;
    cfg->file_size = 16 * BS;
    cfg->count = OPS;
}

/* A run of cfg with opts on a new file: its code in *rc, its run. */
static struct diskio_run *t_run(const struct diskio_config *cfg,
                                const struct diskio_run_options *opts, bool deprecated, int *rc)
{
    char *dir = t_mkdtemp("runopts");
    struct diskio_target *t;
    /* preallocated now: a stop during the run's own fill returns no run */
    ck_assert_int_eq(diskio_target_open(dir, cfg->file_size, DISKIO_TARGET_PREALLOCATE, &t), 0);
    struct diskio_run *run = NULL;
    *rc =
        deprecated ? diskio_run_execute(cfg, t, &run) : diskio_run_execute_opts(cfg, opts, t, &run);
    ck_assert_ptr_nonnull(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
    return run;
}

/* What an op hook saw: its calls, and whether the live histogram was
 * published while the ops ran. */
struct seen {
    unsigned prepared, done;
    const struct diskio_hist *volatile *live;
    unsigned live_seen;
};

static void t_prepare(void *ctx, unsigned char *buf, uint64_t len, uint64_t offset)
{
    (void)buf, (void)len, (void)offset;
    ((struct seen *)ctx)->prepared++;
}

static int t_done(void *ctx, bool synced)
{
    (void)synced;
    struct seen *s = ctx;
    s->done++;
    if (s->live && *s->live)
        s->live_seen++;
    return 0;
}

/* The rows of the trace at path after its header (-1: no header). */
static long t_trace_rows(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[128];
    long rows = -1;
    if (fgets(line, sizeof(line), f) &&
        strcmp(line, "op,start_ns,latency_ns,write_ns,sync_ns\n") == 0)
        for (rows = 0; fgets(line, sizeof(line), f);)
            rows++;
    fclose(f);
    return rows;
}

/* A new empty file under dir for a trace: its descriptor, its path. */
static int t_trace_open(const char *dir, const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    ck_assert_int_ge(fd, 0);
    return fd;
}

/* The recorded configuration holds the workload and no hook. */
static void t_records_no_hook(const struct diskio_run *run)
{
    const struct diskio_config *rec = &diskio_run_info(run)->config;
    ck_assert_int_eq(rec->trace_fd, -1);
    ck_assert_ptr_null((const void *)rec->stop);
    ck_assert_ptr_null((const void *)rec->progress);
    ck_assert_ptr_null((const void *)rec->fill_progress);
    ck_assert_ptr_null((const void *)rec->live_hist);
    ck_assert_ptr_null(rec->op_hook);
    ck_assert_uint_eq(rec->block_size, BS);
}

START_TEST(test_init_sets_no_hook)
{
    struct diskio_run_options opts;
    memset(&opts, 0xa5, sizeof(opts));
    diskio_run_options_init(&opts);
    ck_assert_int_eq(opts.trace_fd, -1);
    ck_assert_ptr_null((const void *)opts.stop);
    ck_assert_ptr_null((const void *)opts.progress);
    ck_assert_ptr_null((const void *)opts.fill_progress);
    ck_assert_ptr_null((const void *)opts.live_hist);
    ck_assert_ptr_null(opts.op_hook);
    for (size_t i = 0; i < sizeof(opts.reserved_) / sizeof(opts.reserved_[0]); i++)
        ck_assert_ptr_null(opts.reserved_[i]);
    diskio_run_options_init(NULL);
}
END_TEST

START_TEST(test_options_stop_stops_the_run)
{
    struct diskio_config cfg;
    t_config(&cfg);
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.stop = &raised;
    int rc;
    struct diskio_run *run = t_run(&cfg, &opts, false, &rc);
    ck_assert_int_eq(rc, -DISKIO_E_INTERRUPTED);
    ck_assert(!diskio_run_info(run)->complete);
    ck_assert_str_eq(diskio_run_info(run)->error_during, "interrupted");
    t_records_no_hook(run);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_options_hooks_count_trace_publish_and_call)
{
    char *dir = t_mkdtemp("runopts-trace");
    char path[300];
    struct diskio_config cfg;
    t_config(&cfg);
    cfg.warmup = 3;
    static const struct diskio_hist *volatile live;
    static volatile uint64_t progress, filled;
    struct seen s = {.live = &live};
    const struct diskio_op_hook hook = {.prepare = t_prepare, .done = t_done, .ctx = &s};
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.trace_fd = t_trace_open(dir, "trace.csv", path, sizeof(path));
    opts.stop = &lowered;
    opts.progress = &progress;
    opts.fill_progress = &filled;
    opts.live_hist = &live;
    opts.op_hook = &hook;
    /* the fill's counter: a file not written yet is filled by the run */
    char *tdir = t_mkdtemp("runopts-fill");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(tdir, cfg.file_size, 0, &t), 0);
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, &opts, t, &run), 0);
    close(opts.trace_fd);
    diskio_target_free(t);
    t_rmdir_empty(tdir);
    ck_assert(diskio_run_info(run)->complete);
    ck_assert_uint_eq(progress, OPS);
    ck_assert_uint_eq(filled, cfg.file_size);
    ck_assert_int_eq(t_trace_rows(path), OPS);
    /* the hook around every measured op, the histogram published while
     * they ran and taken back after */
    ck_assert_uint_eq(s.prepared, OPS);
    ck_assert_uint_eq(s.done, OPS);
    ck_assert_uint_eq(s.live_seen, OPS);
    ck_assert_ptr_null((const void *)live);
    t_records_no_hook(run);
    diskio_run_free(run);
    unlink(path);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_options_win_over_the_deprecated_members)
{
    char *dir = t_mkdtemp("runopts-win");
    char cfg_path[300], opts_path[300];
    struct diskio_config cfg;
    t_config(&cfg);
    static volatile uint64_t cfg_progress, opts_progress;
    struct seen cfg_seen = {0}, opts_seen = {0};
    const struct diskio_op_hook cfg_hook = {.prepare = t_prepare, .done = t_done, .ctx = &cfg_seen};
    const struct diskio_op_hook opts_hook = {
        .prepare = t_prepare, .done = t_done, .ctx = &opts_seen};
    cfg.trace_fd = t_trace_open(dir, "cfg.csv", cfg_path, sizeof(cfg_path));
    cfg.stop = &raised;
    cfg.progress = &cfg_progress;
    cfg.op_hook = &cfg_hook;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.trace_fd = t_trace_open(dir, "opts.csv", opts_path, sizeof(opts_path));
    opts.stop = &lowered;
    opts.progress = &opts_progress;
    opts.op_hook = &opts_hook;
    int rc;
    struct diskio_run *run = t_run(&cfg, &opts, false, &rc);
    close(cfg.trace_fd);
    close(opts.trace_fd);
    /* the config's raised flag is not the run's: it completes */
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(opts_progress, OPS);
    ck_assert_uint_eq(cfg_progress, 0);
    ck_assert_uint_eq(opts_seen.done, OPS);
    ck_assert_uint_eq(cfg_seen.prepared + cfg_seen.done, 0);
    ck_assert_int_eq(t_trace_rows(opts_path), OPS);
    struct stat st;
    ck_assert_int_eq(stat(cfg_path, &st), 0);
    ck_assert_int_eq(st.st_size, 0);
    t_records_no_hook(run);
    diskio_run_free(run);
    unlink(cfg_path);
    unlink(opts_path);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_deprecated_members_still_honoured)
{
    /* _i 0: diskio_run_execute(); 1: options that leave stop unset */
    struct diskio_config cfg;
    t_config(&cfg);
    static volatile uint64_t progress;
    progress = 0;
    cfg.stop = &raised;
    cfg.progress = &progress;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    int rc;
    struct diskio_run *run = t_run(&cfg, &opts, _i == 0, &rc);
    ck_assert_int_eq(rc, -DISKIO_E_INTERRUPTED);
    t_records_no_hook(run);
    diskio_run_free(run);
    /* the config's counter counts a run it does not stop */
    cfg.stop = NULL;
    run = t_run(&cfg, &opts, _i == 0, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(progress, OPS);
    t_records_no_hook(run);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_null_options_are_no_hooks)
{
    struct diskio_config cfg;
    t_config(&cfg);
    int rc;
    struct diskio_run *run = t_run(&cfg, NULL, false, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert(diskio_run_info(run)->complete);
    ck_assert_uint_eq(diskio_run_info(run)->ops, OPS);
    t_records_no_hook(run);
    diskio_run_free(run);
}
END_TEST

START_TEST(test_validate_opts_applies_the_hook_rules_to_the_options)
{
    struct seen s = {0};
    const struct diskio_op_hook hook = {.prepare = t_prepare, .done = t_done, .ctx = &s};
    struct diskio_config cfg;
    struct diskio_config_verdict v;
    struct diskio_run_options opts;
    t_config(&cfg);
    cfg.mode = DISKIO_MODE_AIO;
    diskio_run_options_init(&opts);
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, &opts, 0, &v), 0);
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, NULL, 0, &v), 0);
    opts.op_hook = &hook;
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, &opts, 0, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_OP_HOOK);
    ck_assert_int_eq(v.field, DISKIO_FIELD_OP_HOOK);
    /* a trace is one op stream's: not with several jobs */
    t_config(&cfg);
    cfg.jobs = 2;
    diskio_run_options_init(&opts);
    opts.trace_fd = 1;
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, &opts, 0, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_JOBS_COMBINATION);
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, NULL, 0, &v), 0);
    /* the target's rules too */
    t_config(&cfg);
    cfg.mode = DISKIO_MODE_READ;
    cfg.verify = 1;
    ck_assert_int_eq(diskio_config_validate_opts(&cfg, NULL, DISKIO_TARGET_DEVICE, &v), -EINVAL);
    ck_assert_int_eq(v.rule, DISKIO_RULE_VERIFY_DEVICE);
    /* and the run refuses what it refuses */
    t_config(&cfg);
    cfg.jobs = 2;
    char *dir = t_mkdtemp("runopts-refused");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg.file_size, 0, &t), 0);
    struct diskio_run *run = (struct diskio_run *)&run;
    ck_assert_int_eq(diskio_run_execute_opts(&cfg, &opts, t, &run), -EINVAL);
    ck_assert_ptr_null(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

START_TEST(test_capacity_search_takes_the_options)
{
    struct diskio_config cfg;
    t_config(&cfg);
    struct diskio_capacity_spec spec;
    diskio_capacity_spec_init(&spec);
    spec.target_ns = 1000000000u;
    spec.budget_ns = 2000000000u;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.stop = &raised;
    char *dir = t_mkdtemp("runopts-capacity");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg.file_size, DISKIO_TARGET_PREALLOCATE, &t), 0);
    struct diskio_run *run = NULL;
    const uint64_t start = diskio_now_ns();
    /* the first point is stopped, and the search with it */
    ck_assert_int_eq(diskio_capacity_execute_opts(&cfg, &opts, t, &spec, &run),
                     -DISKIO_E_INTERRUPTED);
    ck_assert_uint_lt(diskio_now_ns() - start, spec.budget_ns);
    ck_assert_ptr_nonnull(run);
    t_records_no_hook(run);
    diskio_run_free(run);
    diskio_target_free(t);
    t_rmdir_empty(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run_options");
    TCase *tc = tcase_create("run_options");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_init_sets_no_hook);
    tcase_add_test(tc, test_options_stop_stops_the_run);
    tcase_add_test(tc, test_options_hooks_count_trace_publish_and_call);
    tcase_add_test(tc, test_options_win_over_the_deprecated_members);
    tcase_add_loop_test(tc, test_deprecated_members_still_honoured, 0, 2);
    tcase_add_test(tc, test_null_options_are_no_hooks);
    tcase_add_test(tc, test_validate_opts_applies_the_hook_rules_to_the_options);
    tcase_add_test(tc, test_capacity_search_takes_the_options);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
