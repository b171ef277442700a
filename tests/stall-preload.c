/* SPDX-License-Identifier: MIT */
/*
 * Description: a test hook, loaded with LD_PRELOAD: the Nth fdatasync()
 * (DISKIO_TEST_STALL_AT, counted from 1) stalls for DISKIO_TEST_STALL_MS
 * milliseconds before doing its work, as a journal commit or a device
 * hiccup would.  Used to show what fixed-rate measurement reveals.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int fdatasync(int fd)
{
    static int (*real_fdatasync)(int);
    static unsigned long calls;
    if (!real_fdatasync)
        real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    const char *at = getenv("DISKIO_TEST_STALL_AT");
    const char *ms = getenv("DISKIO_TEST_STALL_MS");
    if (at && ms && ++calls == strtoul(at, NULL, 10)) {
        long stall_ms = strtol(ms, NULL, 10);
        struct timespec pause = {stall_ms / 1000, (stall_ms % 1000) * 1000000L};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
    return real_fdatasync(fd);
}
