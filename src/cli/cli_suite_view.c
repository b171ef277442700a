/* SPDX-License-Identifier: MIT */
/* A suite's own view (diskio --suite): each row's figures of its runs,
 * summarised as the suite says (best of N, or mean and spread), in the
 * row's unit, as a table of labels and columns with its marks. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_msg.h"
#include "cli_suite.h"

int suite_add_figure(struct suite *s, size_t i, const struct suite_figure *f)
{
    struct suite_row *row = &s->rows[i];
    struct suite_figure *figures =
        realloc(row->figures, (row->nfigures + 1) * sizeof(*row->figures));
    if (!figures)
        return -ENOMEM;
    row->figures = figures;
    row->figures[row->nfigures++] = *f;
    return 0;
}

/* A repetition's figure in the row's unit. */
static double figure_value(const struct suite_row *row, const struct suite_figure *f)
{
    if (suite_unit_info(row->unit)->latency)
        return f->mean_us;
    return suite_unit_info(row->unit)->bytes ? f->mb_per_s * 1e6 / suite_unit_info(row->unit)->bytes
                                             : f->iops;
}

/* A row's complete repetitions summarised in its unit: how many, the
 * best (highest; lowest for a latency) with its IOPS, mean and sample
 * standard deviation. */
struct cell_figures {
    size_t n;
    double best, best_iops, mean, sd;
};

static void summarise(const struct suite_row *row, struct cell_figures *c)
{
    const bool lower = suite_unit_info(row->unit)->latency;
    double sum = 0, sum2 = 0;
    memset(c, 0, sizeof(*c));
    for (size_t i = 0; i < row->nfigures; i++) {
        const struct suite_figure *f = &row->figures[i];
        if (!f->complete)
            continue;
        double v = figure_value(row, f);
        if (c->n == 0 || (lower ? v < c->best : v > c->best)) {
            c->best = v;
            c->best_iops = f->iops;
        }
        c->n++;
        sum += v;
        sum2 += v * v;
    }
    if (c->n == 0)
        return;
    c->mean = sum / (double)c->n;
    double var = c->n > 1 ? (sum2 - sum * c->mean) / (double)(c->n - 1) : 0.0;
    c->sd = var > 0 ? sqrt(var) : 0.0;
}

/* Whether the view shows a row's spread and it is wider than its mean:
 * its repetitions disagree too much for the mean to stand for them. */
static bool spread_exceeds_mean(const struct suite *s, const struct suite_row *row)
{
    struct cell_figures c;
    if (row->note || s->summary != SUITE_MEAN)
        return false;
    summarise(row, &c);
    return c.n > 1 && c.sd > c.mean;
}

/* One cell of the view: the row's figures summarised, in its unit,
 * then its marks ('!' a device verdict, '?' a spread over the mean). */
static void format_cell(const struct suite *s, const struct suite_row *row, char *out, size_t size)
{
    if (row->note) {
        snprintf(out, size, "(not run)");
        return;
    }
    struct cell_figures c;
    summarise(row, &c);
    if (c.n == 0) {
        /* not reached (a signal, a failed run before it), or cut short */
        snprintf(out, size, row->nfigures ? "(incomplete)" : "(not run)");
        return;
    }
    const int decimals = suite_unit_info(row->unit)->decimals;
    const char *name = suite_unit_info(row->unit)->name;
    int used;
    if (s->summary == SUITE_BEST && row->unit == SUITE_UNIT_MB)
        used = snprintf(out, size, "%9.2f MB/s %9.0f IOPS", c.best, c.best_iops);
    else if (s->summary == SUITE_BEST || c.n == 1)
        used = snprintf(out, size, "%9.*f %s", decimals, s->summary == SUITE_BEST ? c.best : c.mean,
                        name);
    else
        used =
            snprintf(out, size, "%9.*f \302\261 %.*f %s", decimals, c.mean, decimals, c.sd, name);
    if (used > 0 && (size_t)used < size && (row->verdicts || spread_exceeds_mean(s, row)))
        snprintf(out + used, size - (size_t)used, " %s%s", row->verdicts ? "!" : "",
                 spread_exceeds_mean(s, row) ? "?" : "");
}

/* Columns on a terminal: text from the suite file is shown by the one
 * rule for untrusted text (cli_msg.h), so a title or label cannot act on
 * the terminal. */
static int display_width(const char *s)
{
    return (int)display_columns(s);
}

static void print_padded(FILE *out, const char *s, int width)
{
    fputs("  ", out);
    display_write(out, s, false);
    fprintf(out, "%*s", width - display_width(s), "");
}

/* "  MARK LABEL COLUMN, LABEL COLUMN: " of the shown rows that have
 * verdict bit (0: a spread over the mean), or nothing when none has. */
static bool mark_rows(const struct suite *s, FILE *out, const char *mark, unsigned bit)
{
    size_t k = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        const struct suite_row *row = &s->rows[r];
        if (row->left_out || row->note ||
            !(bit ? (row->verdicts & bit) != 0 : spread_exceeds_mean(s, row)))
            continue;
        fputs(k++ ? ", " : "  ", out);
        if (k == 1)
            fprintf(out, "%s ", mark);
        display_write(out, row->label, false);
        fputc(' ', out);
        display_write(out, row->column, false);
    }
    if (k)
        fputs(": ", out);
    return k > 0;
}

/* What the marks say, under the view: for each device verdict, the rows
 * it holds for and its claim (its whole sentence is under the table);
 * the rows whose repetitions disagree by more than their mean. */
static void print_marks(const struct suite *s, FILE *out)
{
    for (unsigned bit = 1; bit != 0; bit <<= 1) {
        const char *code = diskio_verdict_name((enum diskio_verdict)bit);
        const char *text = diskio_verdict_text((enum diskio_verdict)bit);
        if (!code || !text || !mark_rows(s, out, "!", bit))
            continue;
        const char *colon = strstr(text, ": ");
        fprintf(out, "%.*s (%s: the lines under the table say more)\n",
                colon ? (int)(colon - text) : (int)strlen(text), text, code);
    }
    if (mark_rows(s, out, "?", 0))
        fputs("the spread exceeds the mean: these repetitions disagree; run more of them "
              "(--suite-runs N) or on a quieter machine\n",
              out);
}

void suite_print(const struct suite *s, FILE *out)
{
    /* the columns and the labels in the order the file first names them */
    const char *columns[16];
    int widths[16];
    size_t ncolumns = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        if (s->rows[r].left_out)
            continue;
        size_t c = 0;
        while (c < ncolumns && strcmp(columns[c], s->rows[r].column) != 0)
            c++;
        if (c == ncolumns && ncolumns < sizeof(columns) / sizeof(columns[0])) {
            widths[ncolumns] = display_width(s->rows[r].column);
            columns[ncolumns++] = s->rows[r].column;
        }
        if (c < ncolumns) {
            char cell[64];
            format_cell(s, &s->rows[r], cell, sizeof(cell));
            if (display_width(cell) > widths[c])
                widths[c] = display_width(cell);
        }
    }
    int width = 5;
    for (size_t r = 0; r < s->nrows; r++)
        if (!s->rows[r].left_out && display_width(s->rows[r].label) > width)
            width = display_width(s->rows[r].label);

    /* the rows' unit, when they share one */
    const char *unit = NULL;
    for (size_t r = 0; r < s->nrows; r++)
        if (!s->rows[r].left_out)
            unit = !unit || strcmp(unit, suite_unit_info(s->rows[r].unit)->name) == 0
                       ? suite_unit_info(s->rows[r].unit)->name
                       : "";
    fprintf(out, "\nsuite %s%s", s->name, s->title ? ": " : "");
    display_write(out, s->title ? s->title : "", false);
    fputs(": ", out);
    const bool one_unit = unit && *unit;
    if (s->summary == SUITE_BEST)
        fprintf(out, "best%s%s%s of %u run%s per row", one_unit ? " (highest " : "",
                one_unit ? unit : "", one_unit ? ")" : "", s->runs, s->runs == 1 ? "" : "s");
    else if (s->runs > 1)
        fprintf(out, "mean %s%s\302\261 standard deviation of %u runs per row",
                one_unit ? unit : "", one_unit ? " " : "", s->runs);
    else
        fprintf(out, "%s%s1 run per row", one_unit ? unit : "", one_unit ? " of " : "");
    fputs(one_unit ? "\n" : ", each row in its unit\n", out);
    fprintf(out, "%*s", width, "");
    for (size_t c = 0; c < ncolumns; c++)
        print_padded(out, columns[c], widths[c]);
    fputc('\n', out);
    size_t left_out = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        if (s->rows[r].left_out) {
            left_out++;
            continue;
        }
        bool seen = false;
        for (size_t q = 0; q < r && !seen; q++)
            seen = strcmp(s->rows[q].label, s->rows[r].label) == 0;
        if (seen)
            continue;
        display_write(out, s->rows[r].label, false);
        fprintf(out, "%*s", width - display_width(s->rows[r].label), "");
        for (size_t c = 0; c < ncolumns; c++) {
            char cell[64] = "-";
            for (size_t q = r; q < s->nrows; q++)
                if (strcmp(s->rows[q].label, s->rows[r].label) == 0 &&
                    strcmp(s->rows[q].column, columns[c]) == 0)
                    format_cell(s, &s->rows[q], cell, sizeof(cell));
            print_padded(out, cell, widths[c]);
        }
        fputc('\n', out);
    }
    for (size_t r = 0; r < s->nrows; r++)
        if (s->rows[r].note && !s->rows[r].left_out) {
            fputs("  ", out);
            display_write(out, s->rows[r].label, false);
            fputc(' ', out);
            display_write(out, s->rows[r].column, false);
            fputs(": ", out);
            display_write(out, s->rows[r].note, false);
            fputc('\n', out);
        }
    print_marks(s, out);
    if (left_out)
        fprintf(out, "  %zu row%s with a larger --bs than --suite-max-bs left out\n", left_out,
                left_out == 1 ? "" : "s");
}
