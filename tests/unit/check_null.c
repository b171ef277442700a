/* SPDX-License-Identifier: MIT */
/*
 * Description: every public function given NULL fails the way its man page says.
 *
 * the one rule for NULL (libdiskio(3), CONVENTIONS): every
 * public function given NULL for an object or for a place to write fails
 * the way its RETURN VALUE says it fails -- -EINVAL from a function that
 * returns an int, NULL from one that returns a pointer, 0, 0.0 or false
 * from one that returns a number or a bool, nothing at all from a void
 * one -- and never crashes.  One row per function of the public header;
 * a function the header declares that has no row fails the test, so a new
 * function cannot escape the rule.  The rows live by API area in
 * null_hist.c, null_tables.c, null_run.c and null_result.c (t_null.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_null.h"

#ifndef DISKIO_HEADER
#error "DISKIO_HEADER: the path of the generated include/diskio.h"
#endif

/* Every row, area by area. */
static const struct {
    const struct t_null_row *rows;
    const size_t *count;
} areas[] = {
    {t_null_hist_rows, &t_null_hist_count},
    {t_null_tables_rows, &t_null_tables_count},
    {t_null_run_rows, &t_null_run_count},
    {t_null_result_rows, &t_null_result_count},
};
#define NAREAS (sizeof(areas) / sizeof(areas[0]))

static int t_row_count(void)
{
    size_t n = 0;
    for (size_t a = 0; a < NAREAS; a++)
        n += *areas[a].count;
    return (int)n;
}

/* The i-th row of all the areas. */
static const struct t_null_row *t_row(int i)
{
    for (size_t a = 0; a < NAREAS; a++) {
        if ((size_t)i < *areas[a].count)
            return &areas[a].rows[i];
        i -= (int)*areas[a].count;
    }
    return NULL;
}

/* Each function on its own (a fork each): one that crashes is named. */
START_TEST(test_null_is_refused_as_the_man_page_says)
{
    const struct t_null_row *row = t_row(_i);
    fprintf(stderr, "%s\n", row->name);
    row->call();
}
END_TEST

/* Every function the public header declares (as tests/check-exports.sh
 * reads it: each diskio_NAME followed by a parenthesis) has a row. */
START_TEST(test_every_declared_function_has_a_row)
{
    FILE *in = fopen(DISKIO_HEADER, "r");
    ck_assert_msg(in != NULL, "cannot read %s", DISKIO_HEADER);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof(text) - 1, in);
    fclose(in);
    text[len] = '\0';
    int declared = 0;
    for (const char *p = text; (p = strstr(p, "diskio_")) != NULL;) {
        const char *start = p;
        if (start > text && (isalnum((unsigned char)start[-1]) || start[-1] == '_')) {
            p += 7;
            continue;
        }
        p += 7;
        while (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_')
            p++;
        if (*p != '(')
            continue;
        char name[64];
        snprintf(name, sizeof(name), "%.*s", (int)(p - start), start);
        bool found = false;
        for (int r = 0; r < t_row_count() && !found; r++)
            found = strcmp(t_row(r)->name, name) == 0;
        ck_assert_msg(found, "%s is declared in diskio.h but has no row in tests/unit/null_*.c",
                      name);
        declared++;
    }
    ck_assert_int_ge(declared, t_row_count());
}
END_TEST

/* The mean of values whose sum passes 2^64 is still exact (the sum is
 * kept modulo 2^64 by the record path, which stays one add). */
START_TEST(test_mean_of_huge_values_is_exact)
{
    struct diskio_hist *h = t_hist();
    diskio_hist_record(h, UINT64_MAX);
    diskio_hist_record(h, UINT64_MAX);
    ck_assert_msg(diskio_hist_mean(h) == (double)UINT64_MAX, "mean %.17g", diskio_hist_mean(h));
    ck_assert(diskio_hist_stddev(h) == 0.0);
    diskio_hist_reset(h);
    /* a spread that passes 2^64 too: 3 * 2^63 and 1 */
    const uint64_t big = UINT64_C(1) << 63;
    diskio_hist_record_n(h, big, 3);
    diskio_hist_record(h, 1);
    double want = ((double)big * 3.0 + 1.0) / 4.0;
    ck_assert_msg(diskio_hist_mean(h) > want * 0.999999 && diskio_hist_mean(h) < want * 1.000001,
                  "mean %.17g, want %.17g", diskio_hist_mean(h), want);
    diskio_hist_free(h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("null");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_null_is_refused_as_the_man_page_says, 0, t_row_count());
    tcase_add_test(tc, test_every_declared_function_has_a_row);
    tcase_add_test(tc, test_mean_of_huge_values_is_exact);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
