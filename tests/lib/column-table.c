/* SPDX-License-Identifier: MIT */
/*
 * Description: the library's column table (src/lib/columns.def), one
 * line a column, for the tests to hold the schema and its page to it:
 *
 *   ID run|part CSV_NAME|- JSON_KEY|- TYPE
 *
 * in the table's order, TYPE the JSON type of its value on a custom run
 * of a few ops (integer, number, boolean, string, array, null); a
 * percentile's "%s" is left in its names.  With "csv-header": the CSV
 * header line of a result with no runs and the default percentiles, as
 * the library writes it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "diskio_internal.h"

static const char *json_type(enum column_kind kind)
{
    switch (kind) {
    case COLUMN_NONE: return "null";
    case COLUMN_U64: return "integer";
    case COLUMN_F64: return "number";
    case COLUMN_BOOL: return "boolean";
    case COLUMN_STR: return "string";
    case COLUMN_LIST: return "array";
    }
    return "?";
}

int main(int argc, char **argv)
{
    struct diskio_result *res;
    if (diskio_result_new(NULL, &res) != 0)
        return 1;
    if (argc > 1 && strcmp(argv[1], "csv-header") == 0) {
        int rc = diskio_result_write(res, DISKIO_FORMAT_CSV, stdout);
        diskio_result_free(res);
        return rc == 0 ? 0 : 1;
    }
    struct diskio_run *run;
    if (diskio_run_new("op", &run) != 0)
        return 1;
    for (uint64_t v = 1; v <= 10; v++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), v * 1000);
    diskio_run_finish(run, 1000000, 10 * 4096);
    struct run_figures rf;
    struct part_figures pf;
    columns_run_figures(res, run, &rf);
    columns_part_figures(res, &rf, DISKIO_PART_TOTAL, run->hist[DISKIO_PART_TOTAL],
                         COLUMNS_PCTS_ALL, &pf);
    for (size_t i = 0; i < columns_count; i++) {
        const struct column *c = &columns[i];
        printf("%s %s %s %s %s\n", c->id, c->scope == COLUMN_RUN ? "run" : "part",
               c->csv_name ? c->csv_name : "-", c->json_key ? c->json_key : "-",
               json_type(c->value(&pf, 0).kind));
    }
    diskio_run_free(run);
    diskio_result_free(res);
    return 0;
}
