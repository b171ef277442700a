/* SPDX-License-Identifier: MIT */
/* Whether io_uring can run here: the tests of the modes on it skip, and
 * say why, only where the machine cannot run it (t_ prefix, as liburing's
 * tests). */
#ifndef T_URING_H
#define T_URING_H

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <linux/io_uring.h>
#endif

/* NULL where io_uring can run, else the machine's reason why not: a
 * build without liburing (configure found none and said so), a kernel
 * without io_uring (io_uring_setup: ENOSYS), or one that refuses it to
 * this process (EPERM: the sysctl kernel.io_uring_disabled, a seccomp
 * filter).  Any other failure is no reason: the tests meet it and fail. */
static inline const char *t_uring_unavailable(void)
{
#ifndef HAVE_LIBURING
    return "this build has no liburing (configure found none: install liburing-dev and run "
           "configure again)";
#else
    static char why[200];
    struct io_uring_params params;
    memset(&params, 0, sizeof(params));
    const long fd = syscall(__NR_io_uring_setup, 1, &params);
    if (fd >= 0) {
        close((int)fd);
        return NULL;
    }
    if (errno == ENOSYS)
        return "this kernel has no io_uring (io_uring_setup: ENOSYS)";
    if (errno != EPERM)
        return NULL;
    int disabled = 0;
    FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
    if (f) {
        if (fscanf(f, "%d", &disabled) != 1)
            disabled = 0;
        fclose(f);
    }
    if (disabled > 0)
        snprintf(why, sizeof(why),
                 "the kernel disables io_uring (/proc/sys/kernel/io_uring_disabled is %d; "
                 "io_uring_setup: EPERM)",
                 disabled);
    else
        snprintf(why, sizeof(why),
                 "io_uring_setup is refused to this process (EPERM: a seccomp filter, as "
                 "containers have)");
    return why;
#endif
}

#endif
