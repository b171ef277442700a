/* SPDX-License-Identifier: MIT */
/* diskio's output files: written unnamed (or under a temporary name) and
 * named when whole. */
#ifndef DISKIO_CLI_OUTPUT_H
#define DISKIO_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "diskio.h"

#define OUT_FILE_SLOTS 3

struct out_file {
    const char *path; /* final name */
    /* DIR/.NAME.diskio-tmp.PID, or NULL while written unnamed (O_TMPFILE) */
    char *tmp_path;
    FILE *stream;
    dev_t dev; /* the file diskio writes: its temporary name is removed, */
    ino_t ino; /* and its published name trusted, only while they are it */
    int slot;  /* 0 .. OUT_FILE_SLOTS-1, for out_file_unlink_pending() */
};

/* What out_file_commit() did with the file. */
enum out_saved {
    OUT_SAVED = 0, /* whole, under its name */
    OUT_LOST = -1, /* not written: nothing is left under its name or a
                    * temporary one (a message says why) */
    OUT_KEPT = -2, /* whole, but it could not be put in place: it stays
                    * under its temporary name, which the message names */
};

/* Whether path may be created (or replaced, with force); says why not. */
bool out_file_allowed(const char *path, bool force);
/* Create an unnamed file in PATH's directory to write to (O_TMPFILE), or
 * where the filesystem has none DIR/.NAME.diskio-tmp.PID.  0, or -1 with
 * a message printed. */
int out_file_open(struct out_file *f, const char *path, bool force);
/* Remove the temporary file and forget it. */
void out_file_discard(struct out_file *f);
/* Flush, make durable and put in place; write_error is a failure already
 * met while writing it (-errno) or 0.  Prints what went wrong. */
enum out_saved out_file_commit(struct out_file *f, bool force, int write_error);
/* What the user can do after a failed write with this errno. */
const char *out_write_hint(int err);
/* Whether two output names would be the same file: two names of one
 * existing file (device and inode), or the same last component in the
 * same directory (device and inode, so "./a" and "dir/../a" or a
 * symlinked directory are seen through). */
bool out_same_file(const char *a, const char *b);
/* Async-signal-safe: remove every temporary file still being written
 * (each name only while it still refers to diskio's file). */
void out_file_unlink_pending(void);
/* Warn about the temporary names of path (DIR/.NAME.diskio-tmp.PID) that
 * a diskio no longer running left (a SIGKILL while writing it, or
 * between giving the file its name and removing the temporary one). */
void out_report_leftovers(const char *path);
/* The trace file name for one run: PATH itself, or with several runs
 * PATH with ".MODE-BS" before its extension, and "-rN" after it for
 * repetition N (repetition 0: not repeated).  malloc()ed; NULL if out of
 * memory. */
char *trace_name(const char *path, bool several, enum diskio_mode mode, uint64_t bs,
                 unsigned repetition);

#endif
