/* SPDX-License-Identifier: MIT */
/*
 * Description: the target writes only its own inode and refuses what it should.
 *
 * The target writes only its own inode: a file planted at its name is
 * neither written by a run nor removed; what diskio did not create (a
 * file, a symlink, a fifo, a device) is refused, and append never
 * truncates a forced file; a file that does not fit the free space is
 * refused before a byte is written, and so is a name longer than
 * NAME_MAX (or a path of PATH_MAX bytes); the target is locked while it
 * is open.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/file.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_mode_run.h"

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

int main(void)
{
    Suite *s = suite_create("target");
    TCase *tc = tcase_create("target");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_append_never_truncates_a_file_diskio_did_not_create);
    tcase_add_test(tc, test_target_refuses_what_diskio_did_not_create);
    tcase_add_test(tc, test_target_refuses_a_name_longer_than_name_max);
    tcase_add_test(tc, test_target_writes_only_its_own_inode);
    tcase_add_test(tc, test_target_is_locked_while_open);
    tcase_add_test(tc, test_target_refuses_a_file_larger_than_the_free_space);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
