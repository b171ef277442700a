/* SPDX-License-Identifier: MIT */
/* Helpers shared by the Check suites (t_ prefix, as liburing's tests). */
#ifndef T_HELPERS_H
#define T_HELPERS_H

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fresh directory under parent, removed by t_rmdir_empty(); NULL with
 * errno set when parent takes none (read-only, say). */
static inline char *t_mkdtemp_in(const char *parent, const char *tag)
{
    size_t size = strlen(parent) + strlen(tag) + 16;
    char *path = malloc(size);
    if (!path)
        abort();
    snprintf(path, size, "%s/t-%s.XXXXXX", parent, tag);
    if (!mkdtemp(path)) {
        const int saved = errno;
        free(path);
        errno = saved;
        return NULL;
    }
    return path;
}

/* A fresh directory under the build directory (a real filesystem, unlike
 * a tmpfs /tmp on some systems), removed by t_rmdir_empty(). */
static inline char *t_mkdtemp(const char *tag)
{
    char *path = t_mkdtemp_in(".", tag);
    if (!path) {
        perror("mkdtemp");
        abort();
    }
    return path;
}

/* Number of entries in dir besides . and .. */
static inline int t_dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *ent;
    if (!d)
        return -1;
    while ((ent = readdir(d)))
        if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static inline void t_rmdir_empty(char *dir)
{
    ck_assert_msg(t_dir_entries(dir) == 0, "%s still holds files", dir);
    rmdir(dir);
    free(dir);
}

/* The Python configure chose (make check passes it as PYTHON3), for the
 * suites that read their outputs back with it: configure requires one,
 * so only a run outside make check lacks it, and that fails, never
 * passing without the check. */
static inline const char *t_python3(void)
{
    const char *python = getenv("PYTHON3");
    ck_assert_msg(python && *python,
                  "PYTHON3 is not set: run the suite through make check, which sets it");
    return python;
}

static inline int t_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

#endif
