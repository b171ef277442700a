/* SPDX-License-Identifier: MIT */
/*
 * Description: a suite's view marks figures the device does not vouch for and runs that disagree.
 *
 * diskio --suite's own view (suite_print, src/cli/cli_suite.c) from rows
 * and repetitions made here: a cell whose run has a device verdict
 * (backing_cached: the loop device's backing file answered) is marked
 * '!' and the verdict's claim is said under the view, naming the rows;
 * a mean whose standard deviation exceeds it is marked '?' and said to
 * disagree, and one within it is not; a row in us/op shows its
 * repetitions' mean latency (pg_test_fsync's usecs/op), the best of
 * them the lowest.
 */
#include "config.h"

#include "cli_suite.h"
#include "t_helpers.h"

/* A row of label and column with the repetitions' MB/s and latencies. */
static struct suite_row t_row(const char *label, const char *column, enum suite_unit unit,
                              const double *mb_per_s, const double *mean_us, size_t n)
{
    struct suite_row row;
    memset(&row, 0, sizeof(row));
    row.label = (char *)label;
    row.column = (char *)column;
    row.unit = unit;
    row.run = 0;
    row.figures = calloc(n, sizeof(*row.figures));
    ck_assert_ptr_nonnull(row.figures);
    for (size_t i = 0; i < n; i++)
        row.figures[i] = (struct suite_figure){.mb_per_s = mb_per_s[i],
                                               .iops = mb_per_s[i] * 10,
                                               .mean_us = mean_us[i],
                                               .complete = true};
    row.nfigures = n;
    return row;
}

/* The view of rows, as text (malloc'd). */
static char *t_view(struct suite_row *rows, size_t n, enum suite_summary summary)
{
    struct suite s = {.path = "t.suite",
                      .name = "t",
                      .title = "test",
                      .summary = summary,
                      .runs = (unsigned)rows[0].nfigures,
                      .rows = rows,
                      .nrows = n};
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    suite_print(&s, f);
    fclose(f);
    return buf;
}

/* The line of the view that starts with start, or NULL. */
static const char *t_line(const char *view, const char *start)
{
    for (const char *p = view; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, start, strlen(start)) == 0)
            return p;
    return NULL;
}

START_TEST(test_a_verdict_marks_the_cell_and_names_the_rows)
{
    const double mb[] = {3600, 3700}, us[] = {70, 68};
    struct suite_row rows[] = {t_row("SEQ 256K", "write", SUITE_UNIT_MB, mb, us, 2),
                               t_row("SEQ 256K", "read", SUITE_UNIT_MB, mb, us, 2)};
    rows[0].verdicts = DISKIO_VERDICT_BACKING_CACHED;
    char *view = t_view(rows, 2, SUITE_MEAN);
    const char *line = t_line(view, "SEQ 256K");
    ck_assert_ptr_nonnull(line);
    /* the write's cell is marked, the read's (no verdict) is not */
    ck_assert_msg(strstr(line, "3650.00 \302\261 70.71 MB/s !  ") != NULL, "%s", view);
    ck_assert_msg(strstr(line, "MB/s !\n") == NULL, "%s", view);
    const char *note = t_line(view, "  ! SEQ 256K write: ");
    ck_assert_msg(note != NULL, "%s", view);
    ck_assert(strncmp(note,
                      "  ! SEQ 256K write: uncached reads came from memory, or writes did "
                      "not reach the disk in the run's time (backing_cached: ",
                      120) == 0);
    ck_assert_ptr_null(strstr(view, "SEQ 256K read:"));
    /* the best of a CrystalDiskMark-like view is marked too */
    free(view);
    view = t_view(rows, 2, SUITE_BEST);
    ck_assert_msg(strstr(view, "3700.00 MB/s     37000 IOPS !") != NULL, "%s", view);
    free(view);
    free(rows[0].figures);
    free(rows[1].figures);
}
END_TEST

START_TEST(test_a_spread_over_the_mean_is_flagged)
{
    /* 3359.85 ± 3463.92: one run at memory speed, one at the disk's */
    const double wide[] = {910.49, 5809.21}, narrow[] = {3300, 3400}, us[] = {1, 1};
    struct suite_row rows[] = {t_row("SEQ 1M", "read", SUITE_UNIT_MB, wide, us, 2),
                               t_row("SEQ 1M", "write", SUITE_UNIT_MB, narrow, us, 2)};
    char *view = t_view(rows, 2, SUITE_MEAN);
    const char *line = t_line(view, "SEQ 1M");
    ck_assert_ptr_nonnull(line);
    ck_assert_msg(strstr(line, "3359.85 \302\261 3463.92 MB/s ?") != NULL, "%s", view);
    ck_assert_msg(strstr(line, "3350.00 \302\261 70.71 MB/s\n") != NULL, "%s", view);
    ck_assert_msg(t_line(view, "  ? SEQ 1M read: the spread exceeds the mean: these repetitions "
                               "disagree") != NULL,
                  "%s", view);
    ck_assert_ptr_null(strstr(view, "SEQ 1M write:"));
    /* best of N shows no spread: nothing to flag */
    free(view);
    view = t_view(rows, 2, SUITE_BEST);
    ck_assert_ptr_null(strstr(view, "?"));
    free(view);
    free(rows[0].figures);
    free(rows[1].figures);
}
END_TEST

START_TEST(test_a_latency_row_shows_us_per_op)
{
    const double mb[] = {27.8, 22.2, 30.0}, us[] = {290.0, 310.0, 300.0};
    struct suite_row rows[] = {t_row("WAL fdatasync", "commit", SUITE_UNIT_US, mb, us, 3),
                               t_row("SEQ 1M", "write", SUITE_UNIT_MB, mb, us, 3)};
    char *view = t_view(rows, 2, SUITE_MEAN);
    const char *line = t_line(view, "WAL fdatasync");
    ck_assert_ptr_nonnull(line);
    ck_assert_msg(strstr(line, "300.00 \302\261 10.00 us/op") != NULL, "%s", view);
    ck_assert_msg(strstr(view, "each row in its unit") != NULL, "%s", view);
    free(view);
    /* the best latency is the lowest */
    view = t_view(rows, 2, SUITE_BEST);
    ck_assert_msg(strstr(t_line(view, "WAL fdatasync"), "290.00 us/op") != NULL, "%s", view);
    free(view);
    free(rows[0].figures);
    free(rows[1].figures);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("suite view");
    TCase *tc = tcase_create("view");
    tcase_add_test(tc, test_a_verdict_marks_the_cell_and_names_the_rows);
    tcase_add_test(tc, test_a_spread_over_the_mean_is_flagged);
    tcase_add_test(tc, test_a_latency_row_shows_us_per_op);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
