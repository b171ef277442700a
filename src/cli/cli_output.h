/* SPDX-License-Identifier: MIT */
/* diskio's output files: temporary name, renamed into place when whole. */
#ifndef DISKIO_CLI_OUTPUT_H
#define DISKIO_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diskio.h"

#define OUT_FILE_SLOTS 2

struct out_file {
    const char *path; /* final name */
    char *tmp_path;
    FILE *stream;
    int slot; /* 0 .. OUT_FILE_SLOTS-1, for out_file_unlink_pending() */
};

/* Whether path may be created (or replaced, with force); says why not. */
bool out_file_allowed(const char *path, bool force);
/* Create PATH.tmp.PID to write to.  0, or -1 with a message printed. */
int out_file_open(struct out_file *f, const char *path, bool force);
/* Remove the temporary file and forget it. */
void out_file_discard(struct out_file *f);
/* Flush, make durable and rename into place.  0 or -1 (message printed). */
int out_file_commit(struct out_file *f, bool force);
/* Async-signal-safe: remove every temporary file still being written. */
void out_file_unlink_pending(void);
/* The trace file name for one run: PATH itself, or with several runs
 * PATH with ".MODE-BS" before its extension, and "-rN" after it for
 * repetition N (repetition 0: not repeated).  malloc()ed; NULL if out of
 * memory. */
char *trace_name(const char *path, bool several, enum diskio_mode mode, uint64_t bs,
                 unsigned repetition);

#endif
