/* SPDX-License-Identifier: MIT */
/*
 * Description: a test hook, loaded with LD_PRELOAD, for a filesystem
 * without RENAME_NOREPLACE (sshfs and other FUSE filesystems):
 * renameat2() with RENAME_NOREPLACE fails with EINVAL, as the kernel
 * answers for a filesystem that does not implement the flag, and open()
 * with O_TMPFILE fails with EOPNOTSUPP, as on FUSE: no unnamed files.  With
 * DISKIO_TEST_NO_LINK=1, link() and linkat() fail with EPERM too, as on a
 * filesystem without hard links.  With DISKIO_TEST_KILL_AFTER_LINK=1 the
 * process is killed (SIGKILL) right after its first successful link() or
 * linkat(), as a power cut or the OOM killer could between giving a file
 * its name and removing its temporary one.  At exit it reports on stderr how often
 * it refused, so a test can see that it did.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stdarg.h>

static unsigned long refused_tmpfiles, refused_renames, refused_links;

/* open() and open64(): O_TMPFILE refused, the rest passed on */
#define OPEN_WITHOUT_TMPFILE(name)                                                                 \
    int name(const char *path, int flags, ...)                                                     \
    {                                                                                              \
        static int (*real)(const char *, int, ...);                                                \
        if ((flags & O_TMPFILE) == O_TMPFILE) {                                                    \
            refused_tmpfiles++;                                                                    \
            errno = EOPNOTSUPP;                                                                    \
            return -1;                                                                             \
        }                                                                                          \
        mode_t mode = 0;                                                                           \
        if (flags & O_CREAT) {                                                                     \
            va_list ap;                                                                            \
            va_start(ap, flags);                                                                   \
            mode = (mode_t)va_arg(ap, int);                                                        \
            va_end(ap);                                                                            \
        }                                                                                          \
        if (!real)                                                                                 \
            real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name);                       \
        return real(path, flags, mode);                                                            \
    }
OPEN_WITHOUT_TMPFILE(open)
OPEN_WITHOUT_TMPFILE(open64)

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
              unsigned int flags)
{
    static int (*real)(int, const char *, int, const char *, unsigned int);
    if (flags & RENAME_NOREPLACE) {
        refused_renames++;
        errno = EINVAL;
        return -1;
    }
    if (!real)
        real = (int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT,
                                                                                  "renameat2");
    return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

static int links_refused(void)
{
    const char *value = getenv("DISKIO_TEST_NO_LINK");
    if (!value || strcmp(value, "1") != 0)
        return 0;
    refused_links++;
    errno = EPERM;
    return 1;
}

static int kill_after_link(int rc)
{
    const char *value = getenv("DISKIO_TEST_KILL_AFTER_LINK");
    if (rc == 0 && value && strcmp(value, "1") == 0)
        raise(SIGKILL);
    return rc;
}

int link(const char *oldpath, const char *newpath)
{
    static int (*real)(const char *, const char *);
    if (links_refused())
        return -1;
    if (!real)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "link");
    return kill_after_link(real(oldpath, newpath));
}

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
    static int (*real)(int, const char *, int, const char *, int);
    if (links_refused())
        return -1;
    if (!real)
        real = (int (*)(int, const char *, int, const char *, int))dlsym(RTLD_NEXT, "linkat");
    return kill_after_link(real(olddirfd, oldpath, newdirfd, newpath, flags));
}

__attribute__((destructor)) static void report(void)
{
    if (refused_tmpfiles || refused_renames || refused_links)
        fprintf(stderr,
                "norename-preload: %lu unnamed files refused, %lu renames without replacing "
                "refused, %lu links refused\n",
                refused_tmpfiles, refused_renames, refused_links);
}
