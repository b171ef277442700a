/* SPDX-License-Identifier: MIT */
/* The progress line: a thread that reads the op counter the engine
 * stores after every op and prints once the run has lasted a second. */
#ifndef DISKIO_CLI_PROGRESS_H
#define DISKIO_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "diskio.h"

struct progress {
    pthread_t thread;
    bool running;
    volatile bool done;
    volatile uint64_t ops;
    /* the fill before the run: how far it got (bytes from 0, stored by
     * the library through cfg.fill_progress) out of fill_total */
    volatile uint64_t filled;
    volatile uint64_t fill_total;
    volatile uint64_t run_start_ns;
    const char *volatile label;
    volatile bool printed;
};

/* The thread: start it with pthread_create(..., progress_main, p). */
void *progress_main(void *arg);
/* Erase the line, if one was printed. */
void progress_clear(struct progress *p);

#endif
