/* SPDX-License-Identifier: MIT */
/*
 * Description: the library lists its modes, patterns, parts and formats, and says what each mode is.
 *
 * The mode table as a program sees it: the modes, patterns, parts and
 * formats listed by the library it runs with; the read modes as rows of
 * the table; which modes are durable and which wal_sync_method each is;
 * what the pattern table says of each pattern (diskio_pattern_info());
 * and the config rules (write_back, verify on a device, the read modes,
 * the wal and checkpoint patterns) diskio_config_validate() applies.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_mode_run.h"

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
/* What diskio_pattern_info() says of each pattern, and that it agrees
 * with the rules the library applies (diskio_config_check()). */
START_TEST(test_the_pattern_table_says_what_each_pattern_is)
{
    static const struct {
        enum diskio_pattern pattern;
        enum diskio_pattern_params params;
        const char *own_files;
        bool sequential, named_in_label, truncates_when_full, takes_rate, jobs_share_stream,
            wal_sync_methods;
    } known[] = {
        {DISKIO_PATTERN_SEQ, DISKIO_PARAMS_NONE, NULL, true, false, false, true, false, false},
        {DISKIO_PATTERN_RAND, DISKIO_PARAMS_NONE, NULL, false, true, false, true, false, false},
        {DISKIO_PATTERN_APPEND, DISKIO_PARAMS_NONE, NULL, false, true, true, true, false, false},
        {DISKIO_PATTERN_CREATE, DISKIO_PARAMS_NONE, NULL, false, true, false, true, false, false},
        {DISKIO_PATTERN_WAL, DISKIO_PARAMS_WAL, "WAL segment files", false, true, false, true, true,
         true},
        {DISKIO_PATTERN_CHECKPOINT, DISKIO_PARAMS_CHECKPOINT, "files", false, true, false, false,
         false, false},
    };
    ck_assert_uint_eq(sizeof(known) / sizeof(known[0]), diskio_pattern_count());
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const enum diskio_pattern p = known[i].pattern;
        const struct diskio_pattern_info *info = diskio_pattern_info(p);
        ck_assert_ptr_nonnull(info);
        ck_assert_str_eq(info->name, diskio_pattern_name(p));
        ck_assert_msg(info->params == known[i].params, "%s", info->name);
        ck_assert_str_eq(info->own_files ? info->own_files : "(none)",
                         known[i].own_files ? known[i].own_files : "(none)");
        ck_assert_msg(info->sequential == known[i].sequential, "%s", info->name);
        ck_assert_msg(info->named_in_label == known[i].named_in_label, "%s", info->name);
        ck_assert_msg(info->grows_file == diskio_pattern_grows_file(p), "%s", info->name);
        ck_assert_msg(info->truncates_when_full == known[i].truncates_when_full, "%s", info->name);
        ck_assert_msg(info->takes_rate == known[i].takes_rate, "%s", info->name);
        ck_assert_msg(info->jobs_share_stream == known[i].jobs_share_stream, "%s", info->name);
        ck_assert_msg(info->wal_sync_methods == known[i].wal_sync_methods, "%s", info->name);
        /* the library's rules agree: a fixed rate, and with several jobs */
        struct diskio_config cfg;
        t_config(&cfg, DISKIO_MODE_FSYNC);
        cfg.pattern = p;
        cfg.rate_interval_ns = 1000000;
        ck_assert_msg((diskio_config_check(&cfg) == 0) == info->takes_rate, "%s", info->name);
        cfg.jobs = 2;
        ck_assert_msg((diskio_config_check(&cfg) == 0) == info->jobs_share_stream, "%s",
                      info->name);
        /* the modes its wal_sync_methods name are the modes it takes */
        for (unsigned m = 0; info->wal_sync_methods && m < diskio_mode_count(); m++) {
            t_config(&cfg, (enum diskio_mode)m);
            cfg.pattern = p;
            ck_assert_msg((diskio_config_check(&cfg) == 0) ==
                              (diskio_mode_pg_wal_sync_method((enum diskio_mode)m) ||
                               (enum diskio_mode)m == DISKIO_MODE_ASYNC),
                          "%s", diskio_mode_name((enum diskio_mode)m));
        }
    }
    /* PostgreSQL's defaults: every wal_sync_method without O_DIRECT, the
     * checkpointer's fsync; none for the patterns that model no file of
     * PostgreSQL's */
    for (unsigned m = 0; m < diskio_mode_count(); m++) {
        const enum diskio_mode mode = (enum diskio_mode)m;
        ck_assert_msg(diskio_pattern_pg_default_mode(DISKIO_PATTERN_WAL, mode) ==
                          (diskio_mode_pg_wal_sync_method(mode) && !diskio_mode_is_direct(mode)),
                      "%s", diskio_mode_name(mode));
        ck_assert_msg(diskio_pattern_pg_default_mode(DISKIO_PATTERN_CHECKPOINT, mode) ==
                          (mode == DISKIO_MODE_FSYNC),
                      "%s", diskio_mode_name(mode));
        for (unsigned p = 0; p <= DISKIO_PATTERN_CREATE; p++)
            ck_assert(!diskio_pattern_pg_default_mode((enum diskio_pattern)p, mode));
    }
    ck_assert_ptr_null(diskio_pattern_info((enum diskio_pattern)diskio_pattern_count()));
}
END_TEST

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

int main(void)
{
    Suite *s = suite_create("mode_table");
    TCase *tc = tcase_create("mode_table");
    tcase_add_test(tc, test_modes_patterns_parts_and_formats_are_listed_by_the_library);
    tcase_add_test(tc, test_read_modes_are_rows_of_the_mode_table);
    tcase_add_test(tc, test_the_mode_table_says_which_modes_are_durable_and_postgresql_s);
    tcase_add_test(tc, test_the_pattern_table_says_what_each_pattern_is);
    tcase_add_test(tc, test_config_rules_of_the_read_modes);
    tcase_add_test(tc, test_config_rule_of_verify_on_a_device);
    tcase_add_test(tc, test_config_rules_of_write_back);
    tcase_add_test(tc, test_config_rules_of_the_wal_and_checkpoint_patterns);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
