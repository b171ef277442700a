/* SPDX-License-Identifier: MIT */
/* The text's table: its columns (the mode, the block size, the column
 * table's figures with a text column, columns.def, among them the
 * percentiles asked for, and the device column when any run has one)
 * and a run's row (its mode and qualifiers, its figures and device
 * figures).  The text in order: emit_text.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "emit_text.h"
#include "patterns.h"

/* the mode column's least width; a wider row label widens it for the
 * whole table (emit_text) */
#define NAME_WIDTH 14

/* The device column's heading; a row's figures are padded to its width
 * (in display columns: the dot is one) before its request times. */
#define DEVICE_HEADING "dev I/O/op \xc2\xb7 flush/op"
#define DEVICE_HEADING_COLUMNS 21
#define DEVICE_TIME_HEADING "us/I/O \xc2\xb7 us/flush"

/* A request's mean time (us) for the device column; "-" when unknown. */
static void format_request_us(char *buf, size_t size, double us)
{
    if (us != us)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, us < 10.0 ? "%.1f" : "%.0f", us);
}

/* Flushes per op: two decimals, or, for fewer than one in a hundred ops
 * (a flush every few hundred writes: --sync-every, a journal's commit),
 * two significant digits ("0.0039"), so that a per-flush time beside it
 * never stands next to a count that reads 0.00. */
static void format_flushes_per_op(char *buf, size_t size, double v)
{
    int decimals = 2;
    if (v > 0.0 && v < 0.01)
        for (double shown = v * 100.0; decimals < 9 && shown < 10.0; decimals++)
            shown *= 10.0;
    snprintf(buf, size, "%.*f", decimals, v);
}

/* "1.07 · 1.00    179 · 240": device write requests and flushes per op,
 * from the devices the filesystem sits on ("-" where the kernel does not
 * count flushes), then the devices' own mean time per write and per
 * flush request, from its start to its completion, in us ("-" where
 * unknown: fewer than 20 ms of them).  Empty when the run has no device
 * figures. */
static const char *format_device(char *buf, size_t size, const struct diskio_run *run)
{
    size_t n = diskio_run_device_count(run);
    buf[0] = '\0';
    if (n == 0)
        return buf;
    struct devstat_figures f;
    devstat_figures(diskio_run_device_io(run, n), run->info.ops, &f);
    if (run->info.ops == 0)
        return buf;
    char flushes[16] = "-";
    if (f.flushes_per_op == f.flushes_per_op)
        format_flushes_per_op(flushes, sizeof(flushes), f.flushes_per_op);
    /* a read mode: device read requests per op */
    const bool reads = run->info.has_config && diskio_mode_is_read(run->info.config.mode);
    int used = snprintf(buf, size, "%.2f%s \xc2\xb7 %s", reads ? f.reads_per_op : f.writes_per_op,
                        reads ? "r" : "", flushes);
    char request[16], flush[16];
    format_request_us(request, sizeof(request), reads ? f.us_per_read : f.us_per_write);
    format_request_us(flush, sizeof(flush), f.us_per_flush);
    /* the dot is two bytes and one column */
    const int pad = DEVICE_HEADING_COLUMNS - (used - 1);
    if (used > 0 && (size_t)used < size)
        snprintf(buf + used, size - (size_t)used, "%*s  %s%s \xc2\xb7 %s", pad > 0 ? pad : 0, "",
                 request, reads ? "r" : "", flush);
    return buf;
}

bool text_any_device(const struct diskio_result *res)
{
    for (size_t r = 0; r < res->nruns; r++)
        if (diskio_run_device_count(res->runs[r]) > 0)
            return true;
    return false;
}

static bool pct_limited(const struct diskio_hist *h, double pct)
{
    uint64_t count = diskio_hist_count(h);
    return count > 0 && pct < 100.0 && count < hist_pct_min_count(pct);
}

static void note_limited(struct table_cols *cols, const struct diskio_hist *h)
{
    for (size_t i = 0; h && i < cols->npcts; i++)
        if (pct_limited(h, cols->pcts[i]))
            cols->limited[i] = cols->marks = true;
}

/* "10.4", "812", "0.08": three significant digits or the whole number. */
static const char *format_rate(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.*f", v < 10 ? 2 : v < 100 ? 1 : 0, v);
    return buf;
}

/* What sets a run apart from its mode's default, so that rows of a sweep
 * or of several files can be told apart: "/8", " qd32 rand", " ×4 jobs". */
void text_run_qualifier(const struct diskio_run *run, char *qual, size_t size)
{
    const struct diskio_run_info *info = &run->info;
    qual[0] = '\0';
    if (info->has_config) {
        const struct diskio_config *c = &info->config;
        size_t n = 0;
        if (c->sync_every > 1)
            n += (size_t)snprintf(qual + n, size - n, "/%u", c->sync_every);
        if (c->iodepth > 1 && n < size)
            n += (size_t)snprintf(qual + n, size - n, " qd%u", c->iodepth);
        if (c->batch > 1 && n < size)
            n += (size_t)snprintf(qual + n, size - n, " batch%u", c->batch);
        const char *pattern = diskio_pattern_name(c->pattern);
        if (!pattern_ops_of(c->pattern)->unnamed_in_label && pattern && n < size)
            n += (size_t)snprintf(qual + n, size - n, " %s", pattern);
        /* reads that write blocks back: "read wb100%" */
        if (c->write_back && n < size)
            n += (size_t)snprintf(qual + n, size - n, " wb%u%%", c->write_back);
        /* concurrent writers: "fdatasync ×4 jobs", "×4 jobs 1 file" */
        if (c->jobs > 1 && n < size)
            snprintf(qual + n, size - n, " \xc3\x97%u jobs%s", c->jobs,
                     c->shared_file ? " 1 file" : "");
    } else if (run->njobs > 1) {
        snprintf(qual, size, " \xc3\x97%zu threads", run->njobs);
    }
}

/* A figure's cell (columns.def): its value i as its format says; empty
 * for a run's figure on a row of a part alone. */
static const char *text_cell(char *buf, size_t size, const struct column *c,
                             const struct part_figures *f, size_t i)
{
    buf[0] = '\0';
    if (c->scope == COLUMN_RUN && !f->run)
        return buf;
    const struct column_value v = c->value(f, i);
    const double d = v.kind == COLUMN_U64 ? (double)v.u : v.d;
    if (v.kind != COLUMN_U64 && v.kind != COLUMN_F64)
        return buf;
    switch (c->text_format) {
    case COLUMN_TEXT_U64: snprintf(buf, size, "%" PRIu64, v.u); break;
    case COLUMN_TEXT_F1: snprintf(buf, size, "%.1f", d); break;
    case COLUMN_TEXT_RATE: format_rate(buf, size, d); break;
    case COLUMN_TEXT_NS: text_ns(buf, size, d); break;
    }
    return buf;
}

/* A table row: name (a mode, or a custom run's name, shown safely) and
 * the qualifiers emit_text() wrote itself (qual: "/8", " qd32", " rand",
 * or "") padded to the mode column's width, then the column table's
 * figures (a run's only on its own row), then the device column. */
static void text_row(FILE *out, const struct table_cols *cols, const char *name, const char *qual,
                     const char *bs, const struct part_figures *f, const char *device,
                     const char *marks)
{
    text_show(out, name);
    fputs(qual, out);
    /* columns, not bytes: the qualifier holds a U+00D7, a name may hold
     * any character */
    const size_t width = display_columns(name) + display_columns(qual);
    fprintf(out, "%*s %8s", width < cols->name_width ? (int)(cols->name_width - width) : 0, "", bs);
    size_t order[COLUMNS_MAX];
    const size_t n = columns_in_order(COLUMN_TEXT, order);
    char cell[32];
    for (size_t k = 0; k < n; k++) {
        const struct column *c = &columns[order[k]];
        for (size_t i = 0; i < (c->percentiles ? f->npcts : 1); i++) {
            fprintf(out, " %*s", c->text_width, text_cell(cell, sizeof(cell), c, f, i));
            if (c->percentiles && cols->marks)
                fputc(pct_limited(f->hist, f->pcts[i]) ? '*' : ' ', out);
        }
    }
    if (device && device[0])
        fprintf(out, "  %s", device);
    /* "  ! not direct  ! disturbed": the lines under the row say why */
    if (marks)
        fputs(marks, out);
    fputc('\n', out);
}

void text_part_row(FILE *out, const struct table_cols *cols, const char *name,
                   const struct diskio_hist *h)
{
    struct part_figures f;
    columns_part_figures(cols->res, NULL, DISKIO_PART_TOTAL, h, COLUMNS_PCTS_TABLE, &f);
    text_row(out, cols, name, "", "", &f, NULL, NULL);
}

/* The table's columns: its percentiles, which of them some row can only
 * mark, the width of the mode column; and its heading: the mode, the
 * block size, the column table's and the device column. */
void text_columns(FILE *out, const struct diskio_result *res, bool device_column,
                  struct table_cols *cols)
{
    cols->res = res;
    cols->pcts = result_table_pcts(res, &cols->npcts);
    for (size_t r = 0; r < res->nruns; r++)
        for (int part = 0; part < DISKIO_PART_COUNT; part++)
            note_limited(cols, res->runs[r]->hist[part]);
    cols->name_width = NAME_WIDTH;
    for (size_t r = 0; r < res->nruns; r++) {
        char qual[64];
        text_run_qualifier(res->runs[r], qual, sizeof(qual));
        const size_t width = display_columns(res->runs[r]->info.name) + display_columns(qual);
        if (width > cols->name_width)
            cols->name_width = width;
    }
    fprintf(out, "%-*s %8s", (int)cols->name_width, "mode", "bs");
    const bool mbit = res->unit == DISKIO_THROUGHPUT_MBIT_PER_S;
    size_t order[COLUMNS_MAX];
    const size_t n = columns_in_order(COLUMN_TEXT, order);
    char name[32];
    for (size_t k = 0; k < n; k++) {
        const struct column *c = &columns[order[k]];
        const char *heading = mbit && c->text_heading_mbit ? c->text_heading_mbit : c->text_heading;
        for (size_t i = 0; i < (c->percentiles ? cols->npcts : 1); i++)
            fprintf(
                out, " %*s%s", c->text_width,
                column_name(name, sizeof(name), heading, c->percentiles ? cols->pcts[i] : 0, '.'),
                c->percentiles && cols->marks ? " " : "");
    }
    fprintf(out, "%s\n", device_column ? "  " DEVICE_HEADING "  " DEVICE_TIME_HEADING : "");
}

/* A run's row: its figures, and a custom run's own parameters. */
void text_run_row(FILE *out, const struct diskio_result *res, const struct table_cols *cols,
                  const struct diskio_run *run)
{
    const struct diskio_run_info *info = &run->info;
    char bs[24] = "";
    if (info->has_config)
        text_size(bs, sizeof(bs), info->config.block_size);
    /* the run's figures on its total's row (columns.def); MB and Mbit
     * are decimal (10^6), as fio, CrystalDiskMark and network links
     * count them */
    struct run_figures rf;
    columns_run_figures(res, run, &rf);
    struct part_figures f;
    columns_part_figures(res, &rf, DISKIO_PART_TOTAL, run->hist[DISKIO_PART_TOTAL],
                         COLUMNS_PCTS_TABLE, &f);
    char qual[64];
    text_run_qualifier(run, qual, sizeof(qual));
    char device[64], marks[32];
    snprintf(marks, sizeof(marks), "%s%s",
             (run->verdicts & DISKIO_VERDICT_NOT_DIRECT) ? "  ! not direct" : "",
             text_run_disturbed(run) ? "  ! disturbed" : "");
    text_row(out, cols, info->name, qual, bs, &f, format_device(device, sizeof(device), run),
             marks);
    if (run->nparams) {
        /* a custom run's own parameters, as its program named them */
        fputs("  params", out);
        for (size_t i = 0; i < run->nparams; i++) {
            fputc(' ', out);
            text_show(out, run->params[i].key);
            fputc('=', out);
            text_show(out, run->params[i].value);
        }
        fputc('\n', out);
    }
}
