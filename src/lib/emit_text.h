/* SPDX-License-Identifier: MIT */
/* The text's parts, shared between the files that write them:
 * emit_text.c (the text in order), emit_text_verdict.c,
 * emit_text_header.c, emit_text_table.c, emit_text_notes.c, and
 * emit_text_words.c (the words all of them format). */
#ifndef DISKIO_EMIT_TEXT_H
#define DISKIO_EMIT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diskio_internal.h"
#include "steady.h"

/* The table's percentiles, and which of them some row can only show as
 * its max: for too few values (1000 for p99.9) the nearest rank is the
 * largest value, and the cell says so with a '*' and a note. */
struct table_cols {
    const struct diskio_result *res;
    const double *pcts;
    size_t npcts;
    bool limited[DISKIO_PERCENTILES_MAX]; /* some row marks this one */
    bool marks;                           /* any: every cell keeps room for the mark */
    size_t name_width;                    /* the mode column: the widest row label */
};

/* emit_text_words.c: the words every part formats */
const char *text_ns(char *buf, size_t size, double ns);
const char *text_size(char *buf, size_t size, uint64_t bytes);
size_t text_show(FILE *out, const char *s);
const char *text_ns_word(char *buf, size_t size, double ns);
bool text_run_disturbed(const struct diskio_run *run);

/* emit_text_verdict.c */
void text_verdict_lines(FILE *out, const struct diskio_result *res);

/* emit_text_header.c */
void text_header(FILE *out, const struct diskio_result *res);

/* emit_text_table.c */
bool text_any_device(const struct diskio_result *res);
void text_run_qualifier(const struct diskio_run *run, char *qual, size_t size);
/* a row of a part alone (a run's write, sync; its steady windows): the
 * column table's figures of histogram h, none of the run's */
void text_part_row(FILE *out, const struct table_cols *cols, const char *name,
                   const struct diskio_hist *h);
void text_columns(FILE *out, const struct diskio_result *res, bool device_column,
                  struct table_cols *cols);
void text_run_row(FILE *out, const struct diskio_result *res, const struct table_cols *cols,
                  const struct diskio_run *run);

/* emit_text_notes.c */
void text_run_details(FILE *out, const struct diskio_result *res, const struct table_cols *cols,
                      size_t r);

#endif
