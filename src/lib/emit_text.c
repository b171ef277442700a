/* SPDX-License-Identifier: MIT */
/* The comparison table a person reads at a glance (like pg_test_fsync,
 * with percentiles).
 *
 * This file: the text in order (the verdict lines, the environment
 * header, the table, the lines under each run).  The parts: the verdict
 * lines (emit_text_verdict.c), the environment header
 * (emit_text_header.c), the table's columns and rows (emit_text_table.c),
 * the lines under a run's row (emit_text_notes.c), and the words every
 * part formats (times, sizes, untrusted names, whether a run was
 * disturbed: emit_text_words.c). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_text.h"

int emit_text(const struct diskio_result *res, FILE *out)
{
    text_header(out, res);
    struct table_cols cols = {0};
    text_columns(out, res, text_any_device(res), &cols);
    for (size_t r = 0; r < res->nruns; r++) {
        text_run_row(out, res, &cols, res->runs[r]);
        text_run_details(out, res, &cols, r);
    }
    /* what a '*' means: "* p99.9 = max: fewer than 1000 ops" */
    char name[32];
    for (size_t i = 0; i < cols.npcts; i++)
        if (cols.limited[i])
            fprintf(out, "* %s = max: fewer than %" PRIu64 " ops\n",
                    pct_name(name, sizeof(name), cols.pcts[i], '.'),
                    hist_pct_min_count(cols.pcts[i]));
    text_verdict_lines(out, res);
    if (!diskio_result_complete(res))
        fputs("\nRESULT INCOMPLETE: the figures cover only the operations that finished.\n", out);
    return 0;
}
