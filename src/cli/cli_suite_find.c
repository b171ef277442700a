/* SPDX-License-Identifier: MIT */
/*
 * Where a suite file is: found by name in the search path (--suite-path,
 * then $DISKIO_SUITE_PATH, then the installed directory, or the source
 * tree's suites/ when diskio runs from its build tree, or
 * $DISKIO_SUITEDIR instead of either), or given as a path; a name not
 * found is answered with the suites there are.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_fail.h"
#include "cli_suite_find.h"

#ifndef DISKIO_SUITEDIR
#define DISKIO_SUITEDIR "/usr/share/diskio/suites"
#endif

/* The suites a "not found" message lists, at most. */
#define SUITES_LISTED_MAX 24

static bool is_file_path(const char *what)
{
    size_t n = strlen(what);
    return strchr(what, '/') || (n > 6 && strcmp(what + n - 6, ".suite") == 0);
}

bool suite_name_ok(const char *name)
{
    if (!*name || strlen(name) > 64)
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return false;
    return true;
}

/* Where the suites are: the installed directory, or the source tree's
 * suites/ when this diskio runs from its build tree (./diskio, whose
 * libtool wrapper runs BUILDDIR/.libs/diskio; BUILDDIR/diskio itself
 * without shared libraries), as ./diskio runs without make install.
 * Only an executable that is the build tree's own is given the build
 * tree's suites: an installed diskio never looks there. */
static const char *suite_dir(void)
{
#if defined(DISKIO_BUILD_TREE) && defined(DISKIO_BUILD_SUITEDIR)
    char exe[PATH_MAX], tree[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash && slash != exe) {
            *slash = '\0';
            /* named as a person would: build/../src/suites as src/suites */
            static char suites[PATH_MAX];
            if ((realpath(DISKIO_BUILD_TREE, tree) && strcmp(exe, tree) == 0) ||
                (realpath(DISKIO_BUILD_TREE "/.libs", tree) && strcmp(exe, tree) == 0))
                return realpath(DISKIO_BUILD_SUITEDIR, suites) ? suites : DISKIO_BUILD_SUITEDIR;
        }
    }
#endif
    return DISKIO_SUITEDIR;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the suites in the directories of path_list (':' between
 * them), sorted and each once, into out as "a, b, c" (at most
 * SUITES_LISTED_MAX, then "and N more"); "none" when there are none. */
static void list_suites(const char *path_list, char *out, size_t size)
{
    char *names[256] = {NULL};
    size_t count = 0, total = 0;
    char *copy = strdup(path_list);
    char *rest = copy;
    for (char *dir = copy ? strsep(&rest, ":") : NULL; dir; dir = strsep(&rest, ":")) {
        DIR *d = *dir ? opendir(dir) : NULL;
        if (!d)
            continue;
        const struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t len = strlen(e->d_name);
            if (len <= 6 || strcmp(e->d_name + len - 6, ".suite") != 0)
                continue;
            char *name = strndup(e->d_name, len - 6);
            if (!name || !suite_name_ok(name)) {
                free(name);
                continue;
            }
            bool seen = false;
            for (size_t i = 0; i < count && !seen; i++)
                seen = strcmp(names[i], name) == 0;
            if (seen || count == sizeof(names) / sizeof(names[0])) {
                free(name);
                continue;
            }
            names[count++] = name;
        }
        closedir(d);
    }
    free(copy);
    qsort(names, count, sizeof(names[0]), compare_names);
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count; i++, total++) {
        if (i < SUITES_LISTED_MAX && used < size)
            used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
        free(names[i]);
    }
    if (count > SUITES_LISTED_MAX && used < size)
        snprintf(out + used, size - used, " and %zu more", total - SUITES_LISTED_MAX);
    if (count == 0)
        snprintf(out, size, "none");
}

/* The file for what: a path as given, or NAME.suite in the first
 * directory of the search path that has it.  Malloc'd, or NULL with err. */
char *suite_find(const char *what, const char *search, char *err, size_t size)
{
    if (is_file_path(what)) {
        char *copy = strdup(what);
        if (!copy)
            cli_fail(err, size, "out of memory");
        return copy;
    }
    if (!suite_name_ok(what)) {
        cli_fail(err, size,
                 "--suite: '%s' is neither a suite name (letters, digits, - and _) nor a "
                 "file (a path with a / or ending in .suite)",
                 what);
        return NULL;
    }
    const char *env = getenv("DISKIO_SUITE_PATH");
    /* the installed suites (the source tree's, run from the build tree),
     * or where $DISKIO_SUITEDIR says they are (a relocated install; a
     * test that must not see what is installed) */
    const char *installed = getenv("DISKIO_SUITEDIR");
    if (!installed || !*installed)
        installed = suite_dir();
    size_t len = (search ? strlen(search) : 0) + (env ? strlen(env) : 0) + strlen(installed) + 3;
    char *path_list = malloc(len);
    if (!path_list) {
        cli_fail(err, size, "out of memory");
        return NULL;
    }
    snprintf(path_list, len, "%s:%s:%s", search ? search : "", env ? env : "", installed);
    char *found = NULL;
    char *rest = path_list;
    for (char *dir = strsep(&rest, ":"); dir && !found; dir = strsep(&rest, ":")) {
        if (!*dir)
            continue;
        size_t n = strlen(dir) + strlen(what) + 8;
        char *candidate = malloc(n);
        if (!candidate)
            break;
        snprintf(candidate, n, "%s/%s.suite", dir, what);
        struct stat st;
        if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode))
            found = candidate;
        else
            free(candidate);
    }
    if (!found) {
        char names[200];
        /* path_list was cut by strsep: list from the directories again */
        snprintf(path_list, len, "%s:%s:%s", search ? search : "", env ? env : "", installed);
        list_suites(path_list, names, sizeof(names));
        cli_fail(err, size,
                 "--suite: no suite named '%s' in --suite-path, $DISKIO_SUITE_PATH or %s "
                 "(the suites there: %s); give a suite file's path to use your own",
                 what, installed, names);
    }
    free(path_list);
    return found;
}
