/* SPDX-License-Identifier: MIT */
/* check_null's rows for the mode, pattern and format tables, the config and the target:
 * one function per public function, NULL in every pointer (t_null.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_null.h"

static void null_mode_name(void)
{
    ck_assert_ptr_null(diskio_mode_name((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_count(void)
{
    ck_assert_uint_gt(diskio_mode_count(), 0); /* no pointer argument */
}
static void null_mode_parse(void)
{
    enum diskio_mode m;
    ck_assert_int_eq(diskio_mode_parse(NULL, &m), -EINVAL);
    ck_assert_int_eq(diskio_mode_parse("fsync", NULL), -EINVAL);
}
static void null_mode_is_direct(void)
{
    ck_assert(!diskio_mode_is_direct((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_is_queued(void)
{
    ck_assert(!diskio_mode_is_queued((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_syncs(void)
{
    ck_assert(!diskio_mode_syncs((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_is_read(void)
{
    ck_assert(!diskio_mode_is_read((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_is_durable(void)
{
    ck_assert(!diskio_mode_is_durable((enum diskio_mode)diskio_mode_count()));
}
static void null_mode_pg_wal_sync_method(void)
{
    ck_assert_ptr_null(diskio_mode_pg_wal_sync_method((enum diskio_mode)diskio_mode_count()));
}
static void null_pattern_name(void)
{
    ck_assert_ptr_null(diskio_pattern_name((enum diskio_pattern)99));
}
static void null_pattern_count(void)
{
    ck_assert_uint_gt(diskio_pattern_count(), 0);
}
static void null_pattern_info(void)
{
    ck_assert_ptr_null(diskio_pattern_info((enum diskio_pattern)diskio_pattern_count()));
}
static void null_pattern_pg_default_mode(void)
{
    ck_assert(!diskio_pattern_pg_default_mode((enum diskio_pattern)diskio_pattern_count(),
                                              DISKIO_MODE_FSYNC));
    ck_assert(
        !diskio_pattern_pg_default_mode(DISKIO_PATTERN_WAL, (enum diskio_mode)diskio_mode_count()));
}
static void null_pattern_grows_file(void)
{
    ck_assert(!diskio_pattern_grows_file((enum diskio_pattern)diskio_pattern_count()));
}
static void null_pattern_parse(void)
{
    enum diskio_pattern p;
    ck_assert_int_eq(diskio_pattern_parse(NULL, &p), -EINVAL);
    ck_assert_int_eq(diskio_pattern_parse("seq", NULL), -EINVAL);
}
static void null_format_parse(void)
{
    enum diskio_format f;
    ck_assert_int_eq(diskio_format_parse(NULL, &f), -EINVAL);
    ck_assert_int_eq(diskio_format_parse("json", NULL), -EINVAL);
}
static void null_format_count(void)
{
    ck_assert_uint_gt(diskio_format_count(), 0);
}
static void null_format_name(void)
{
    ck_assert_ptr_null(diskio_format_name((enum diskio_format)diskio_format_count()));
}
static void null_config_init(void)
{
    diskio_config_init(NULL);
}
static void null_config_validate(void)
{
    struct diskio_config_verdict v;
    ck_assert_int_eq(diskio_config_validate(NULL, &v), -EINVAL);
    ck_assert_ptr_nonnull(v.message);
    ck_assert_int_eq(diskio_config_validate(NULL, NULL), -EINVAL);
}
static void null_config_validate_target(void)
{
    struct diskio_config_verdict v;
    ck_assert_int_eq(diskio_config_validate_target(NULL, DISKIO_TARGET_DEVICE, &v), -EINVAL);
    ck_assert_ptr_nonnull(v.message);
    ck_assert_int_eq(diskio_config_validate_target(NULL, 0, NULL), -EINVAL);
}
static void null_config_validate_opts(void)
{
    struct diskio_config_verdict v;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    ck_assert_int_eq(diskio_config_validate_opts(NULL, &opts, 0, &v), -EINVAL);
    ck_assert_ptr_nonnull(v.message);
    ck_assert_int_eq(diskio_config_validate_opts(NULL, NULL, 0, NULL), -EINVAL);
}
static void null_config_check(void)
{
    ck_assert_int_eq(diskio_config_check(NULL), -EINVAL);
}
static void null_config_problem(void)
{
    /* its failure is a sentence: NULL would say "nothing is wrong" */
    ck_assert_ptr_nonnull(diskio_config_problem(NULL));
}
static void null_target_open(void)
{
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(NULL, 4096, 0, &t), -EINVAL);
    ck_assert_int_eq(diskio_target_open(".", 4096, 0, NULL), -EINVAL);
}
static void null_target_check(void)
{
    ck_assert_int_eq(diskio_target_check(NULL, 0), -EINVAL);
}
static void null_target_path(void)
{
    ck_assert_ptr_null(diskio_target_path(NULL));
}
static void null_target_dir(void)
{
    ck_assert_ptr_null(diskio_target_dir(NULL));
}
static void null_target_check_mode(void)
{
    ck_assert_int_eq(diskio_target_check_mode(NULL, DISKIO_MODE_FSYNC), -EINVAL);
}
static void null_target_direct_align(void)
{
    uint64_t a, b;
    ck_assert_int_eq(diskio_target_direct_align(NULL, &a, &b), -EINVAL);
}
static void null_buffer_align(void)
{
    ck_assert_uint_ge(diskio_buffer_align(), 512); /* no pointer argument */
}
static void null_target_is_device(void)
{
    ck_assert(!diskio_target_is_device(NULL));
}
static void null_target_size(void)
{
    ck_assert_uint_eq(diskio_target_size(NULL), 0);
}
static void null_target_check_space(void)
{
    ck_assert_int_eq(diskio_target_check_space(NULL, 4096, NULL, NULL, NULL), -EINVAL);
}
static void null_target_remove(void)
{
    ck_assert_int_eq(diskio_target_remove(NULL), -EINVAL);
}
static void null_target_keep(void)
{
    ck_assert_int_eq(diskio_target_keep(NULL), -EINVAL);
}
static void null_target_free(void)
{
    diskio_target_free(NULL);
}
static void null_target_unlink_now(void)
{
    diskio_target_unlink_now(NULL);
}

const struct t_null_row t_null_tables_rows[] = {
    T_NULL_ROW(mode_count),
    T_NULL_ROW(mode_name),
    T_NULL_ROW(mode_parse),
    T_NULL_ROW(mode_is_direct),
    T_NULL_ROW(mode_is_queued),
    T_NULL_ROW(mode_syncs),
    T_NULL_ROW(mode_is_read),
    T_NULL_ROW(mode_is_durable),
    T_NULL_ROW(mode_pg_wal_sync_method),
    T_NULL_ROW(pattern_count),
    T_NULL_ROW(pattern_name),
    T_NULL_ROW(pattern_parse),
    T_NULL_ROW(pattern_grows_file),
    T_NULL_ROW(pattern_info),
    T_NULL_ROW(pattern_pg_default_mode),
    T_NULL_ROW(format_parse),
    T_NULL_ROW(format_count),
    T_NULL_ROW(format_name),
    T_NULL_ROW(config_init),
    T_NULL_ROW(config_validate),
    T_NULL_ROW(config_validate_target),
    T_NULL_ROW(config_validate_opts),
    T_NULL_ROW(config_check),
    T_NULL_ROW(config_problem),
    T_NULL_ROW(target_open),
    T_NULL_ROW(target_check),
    T_NULL_ROW(target_path),
    T_NULL_ROW(target_dir),
    T_NULL_ROW(target_check_mode),
    T_NULL_ROW(target_direct_align),
    T_NULL_ROW(buffer_align),
    T_NULL_ROW(target_is_device),
    T_NULL_ROW(target_size),
    T_NULL_ROW(target_check_space),
    T_NULL_ROW(target_remove),
    T_NULL_ROW(target_keep),
    T_NULL_ROW(target_free),
    T_NULL_ROW(target_unlink_now),
};
const size_t t_null_tables_count = sizeof(t_null_tables_rows) / sizeof(t_null_tables_rows[0]);
