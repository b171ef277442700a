/* SPDX-License-Identifier: MIT */
/* The comparison table a person reads at a glance (like pg_test_fsync,
 * with percentiles).
 *
 * This file: the text in order (the verdict lines, the environment
 * header, the table, the lines under each run) and the figures every
 * part formats (times, sizes, untrusted names).  The parts: the verdict
 * lines (emit_text_verdict.c), the environment header
 * (emit_text_header.c), the table's columns and rows (emit_text_table.c)
 * and the lines under a run's row (emit_text_notes.c). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_text.h"

/* Three significant digits with a unit that fits: 812 ns, 2.41 us, 1.23 ms. */
const char *text_ns(char *buf, size_t size, double ns)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1.0, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s "}};
    int u = 0;
    while (u < 3 && ns >= units[u + 1].scale)
        u++;
    double v = ns / units[u].scale;
    int decimals = u == 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
    snprintf(buf, size, "%.*f %s", decimals, v, units[u].unit);
    return buf;
}

const char *text_size(char *buf, size_t size, uint64_t bytes)
{
    if (bytes % (UINT64_C(1) << 20) == 0)
        snprintf(buf, size, "%" PRIu64 " MiB", bytes >> 20);
    else if (bytes % 1024 == 0)
        snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
    else
        snprintf(buf, size, "%" PRIu64 " B", bytes);
    return buf;
}

/* A name, label or path as display_write() shows it: no byte of it can
 * move the cursor, change colours or retitle the terminal. */
size_t text_show(FILE *out, const char *s)
{
    return display_write(out, s, false);
}

/* text_ns() without the padding of "s " (for prose, not columns). */
const char *text_ns_word(char *buf, size_t size, double ns)
{
    text_ns(buf, size, ns);
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] == ' ')
        buf[n - 1] = '\0';
    return buf;
}

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
