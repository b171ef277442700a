/* SPDX-License-Identifier: MIT */
/*
 * Description: a column added to the column table, and nowhere else, is in the text, the CSV and the JSON.
 *
 * This test's copy of the table (src/lib/columns.c, compiled here with
 * COLUMNS_TEST_EXTRA) has two rows more, tests/unit/extra-columns.def:
 * a run's figure (twice its ops) and a part's (its count plus a million),
 * each with a CSV header, a JSON key and a text heading.  The library's
 * emitters, linked unchanged, must show both: in the text table's
 * heading and rows (the run's figure on the run's row only), as the last
 * CSV columns of every row, and as keys of the run's JSON object and of
 * each part's HIST.  An emitter that writes its figures by hand rather
 * than from the table fails here.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "diskio_internal.h"
#include "t_helpers.h"

/* a custom run of 100 ops, and an fsync-like run whose write part has 50 */
static struct diskio_result *t_result(void)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("custom-op", &run), 0);
    for (uint64_t v = 1; v <= 100; v++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), v * 1000);
    diskio_run_finish(run, 1000000000u, 100 * 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    ck_assert_int_eq(run_alloc("parts-op", true, false, &run), 0);
    for (uint64_t v = 1; v <= 60; v++)
        diskio_hist_record(run->hist[DISKIO_PART_TOTAL], v * 2000);
    for (uint64_t v = 1; v <= 50; v++) {
        diskio_hist_record(run->hist[DISKIO_PART_WRITE], v * 500);
        diskio_hist_record(run->hist[DISKIO_PART_SYNC], v * 1500);
    }
    diskio_run_finish(run, 1000000000u, 60 * 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    return res;
}

static char *t_write(const struct diskio_result *res, enum diskio_format fmt)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(diskio_result_write(res, fmt, f), 0);
    fclose(f);
    return buf;
}

/* the line of text that starts with start, copied */
static char *t_line(const char *text, const char *start)
{
    const char *at = text;
    while (at && strncmp(at, start, strlen(start)) != 0) {
        at = strchr(at, '\n');
        at = at ? at + 1 : NULL;
    }
    ck_assert_msg(at != NULL, "no line starts with '%s' in:\n%s", start, text);
    return strndup(at, strcspn(at, "\n"));
}

static void t_ends_with(const char *line, const char *end)
{
    const size_t n = strlen(line), m = strlen(end);
    ck_assert_msg(n >= m && strcmp(line + n - m, end) == 0, "'%s' does not end with '%s'", line,
                  end);
}

START_TEST(test_the_tables_extra_rows_are_this_tests)
{
    ck_assert_uint_ge(columns_count, 2);
    ck_assert_str_eq(columns[columns_count - 2].id, "test_twice_ops");
    ck_assert_str_eq(columns[columns_count - 1].id, "test_count_plus");
}
END_TEST

START_TEST(test_a_new_column_is_in_the_text_table)
{
    struct diskio_result *res = t_result();
    char *text = t_write(res, DISKIO_FORMAT_TEXT);
    char *heading = t_line(text, "mode ");
    t_ends_with(heading, "      max     2xops  count+1M");
    char *row = t_line(text, "custom-op ");
    t_ends_with(row, "       200   1000100");
    char *parts = t_line(text, "parts-op ");
    t_ends_with(parts, "       120   1000060");
    /* a part's row: its own figure, none of the run's (after its max,
     * "25.0 us", an empty cell) */
    char *write = t_line(text, "  write ");
    t_ends_with(write, " us             1000050");
    free(heading), free(row), free(parts), free(write), free(text);
    diskio_result_free(res);
}
END_TEST

START_TEST(test_a_new_column_is_in_the_csv)
{
    struct diskio_result *res = t_result();
    char *csv = t_write(res, DISKIO_FORMAT_CSV);
    char *header = t_line(csv, "label,");
    t_ends_with(header, ",direct_evidence,test_twice_ops,test_count_plus");
    char *custom = t_line(csv, ",custom-op,");
    t_ends_with(custom, ",200,1000100");
    char *sync = t_line(csv, ",parts-op,,,,,,,,,,,,,,,,,sync,");
    t_ends_with(sync, ",120,1000050");
    free(header), free(custom), free(sync), free(csv);
    diskio_result_free(res);
}
END_TEST

START_TEST(test_a_new_column_is_in_the_json)
{
    struct diskio_result *res = t_result();
    char *json = t_write(res, DISKIO_FORMAT_JSON);
    /* the run's figure after mb_per_s in its object, the part's after
     * overflow in its HIST */
    static const char *const want[] = {
        "\n      \"test_twice_ops\": 200,",
        "\n      \"test_twice_ops\": 120,",
        "\"overflow\": 0, \"test_count_plus\": 1000100, \"max_trackable_ns\"",
        "\"overflow\": 0, \"test_count_plus\": 1000060, \"max_trackable_ns\"",
        "\"overflow\": 0, \"test_count_plus\": 1000050, \"max_trackable_ns\"",
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        ck_assert_msg(strstr(json, want[i]) != NULL, "no '%s' in the JSON", want[i]);
    free(json);
    diskio_result_free(res);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("columns");
    TCase *tc = tcase_create("a new column");
    tcase_add_test(tc, test_the_tables_extra_rows_are_this_tests);
    tcase_add_test(tc, test_a_new_column_is_in_the_text_table);
    tcase_add_test(tc, test_a_new_column_is_in_the_csv);
    tcase_add_test(tc, test_a_new_column_is_in_the_json);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
