/* SPDX-License-Identifier: MIT */
/* A progress line on stderr while a run longer than a second measures. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "cli_progress.h"

void *progress_main(void *arg)
{
    struct progress *p = arg;
    while (!p->done) {
        struct timespec pause = {0, 250000000L};
        nanosleep(&pause, NULL);
        uint64_t start = p->run_start_ns;
        if (p->done || start == 0)
            continue;
        uint64_t elapsed = diskio_now_ns() - start;
        if (elapsed < 1000000000u)
            continue;
        uint64_t filled = p->filled, total = p->fill_total;
        if (filled > 0 && filled < total)
            /* the fill is its own step, not the run's ops */
            fprintf(stderr, "\r\033[K%s: filling %.0f MiB\u2026 %.0f%%", p->label ? p->label : "",
                    (double)total / 1048576.0, 100.0 * (double)filled / (double)total);
        else
            fprintf(stderr, "\r\033[K%s: %" PRIu64 " ops, %.1f s", p->label ? p->label : "", p->ops,
                    (double)elapsed / 1e9);
        p->printed = true;
    }
    return NULL;
}

void progress_clear(struct progress *p)
{
    if (p->printed) {
        fputs("\r\033[K", stderr);
        p->printed = false;
    }
}
