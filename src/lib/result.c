/* SPDX-License-Identifier: MIT */
/* A result: the environment and the runs made there. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diskio_internal.h"

const double summary_pcts[SUMMARY_PCTS] = {50.0, 90.0, 99.0, 99.9, 99.99};
const double table_pcts[TABLE_PCTS] = {50.0, 99.0, 99.9};

/* Whether pct is named as the last of the n percentiles in list: two
 * that agree to the ten significant digits of their key (99.99999999991
 * and 100 are both p100) are one key of the JSON and one CSV column, so
 * the second is dropped. */
static bool same_key_as_last(const double *list, size_t n, double pct)
{
    char last[32], key[32];
    return n > 0 && strcmp(pct_name(last, sizeof(last), list[n - 1], '_'),
                           pct_name(key, sizeof(key), pct, '_')) == 0;
}

int diskio_result_set_percentiles(struct diskio_result *res, const double *pcts, size_t n)
{
    if (!res || !pcts || n == 0 || n > DISKIO_PERCENTILES_MAX)
        return -EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!(pcts[i] > 0.0 && pcts[i] <= 100.0) || (i > 0 && !(pcts[i] > pcts[i - 1])))
            return -EINVAL;
    res->npcts = 0;
    for (size_t i = 0; i < n; i++)
        if (!same_key_as_last(res->pcts, res->npcts, pcts[i]))
            res->pcts[res->npcts++] = pcts[i];
    return 0;
}

int diskio_result_set_throughput_unit(struct diskio_result *res, enum diskio_throughput_unit unit)
{
    if (!res || (unit != DISKIO_THROUGHPUT_MB_PER_S && unit != DISKIO_THROUGHPUT_MBIT_PER_S))
        return -EINVAL;
    res->unit = unit;
    return 0;
}

const double *result_table_pcts(const struct diskio_result *res, size_t *n)
{
    *n = res->npcts ? res->npcts : TABLE_PCTS;
    return res->npcts ? res->pcts : table_pcts;
}

size_t diskio_result_percentiles(const struct diskio_result *res, const double **pcts)
{
    size_t n = TABLE_PCTS;
    const double *list = res ? result_table_pcts(res, &n) : table_pcts;
    if (pcts)
        *pcts = list;
    return n;
}

size_t result_pcts(const struct diskio_result *res, double *out)
{
    size_t n = 0, ntable, i = 0, j = 0;
    const double *table = result_table_pcts(res, &ntable);
    /* merge two ascending lists */
    while (i < SUMMARY_PCTS || j < ntable) {
        double next;
        if (j == ntable || (i < SUMMARY_PCTS && summary_pcts[i] <= table[j]))
            next = summary_pcts[i++];
        else
            next = table[j++];
        if (!same_key_as_last(out, n, next))
            out[n++] = next;
    }
    return n;
}

const char *pct_name(char *buf, size_t size, double pct, char sep)
{
    snprintf(buf, size, "p%.10g", pct);
    if (strchr(buf, 'e') && pct > 0) {
        /* never an exponent (p1e-05): a name is digits and one point, as
         * readers of the JSON keys and CSV columns expect; ten
         * significant digits, as %.10g gives */
        int decimals = 9 - (int)floor(log10(pct));
        snprintf(buf, size, "p%.*f", decimals > 40 ? 40 : decimals, pct);
        size_t len = strlen(buf);
        while (len > 2 && buf[len - 1] == '0')
            buf[--len] = '\0';
        if (buf[len - 1] == '.')
            buf[--len] = '\0';
    }
    char *dot = strchr(buf, '.');
    if (dot)
        *dot = sep;
    return buf;
}

int diskio_result_new(const char *label, struct diskio_result **out)
{
    if (!out)
        return -EINVAL;
    struct diskio_result *res = calloc(1, sizeof(*res));
    if (!res)
        return -ENOMEM;
    if (label && !(res->label = strdup(label))) {
        free(res);
        return -ENOMEM;
    }
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(res->start_time, sizeof(res->start_time), "%Y-%m-%dT%H:%M:%SZ", &utc);
    *out = res;
    return 0;
}

int diskio_result_probe(struct diskio_result *res, const char *dir)
{
    if (!res || !dir)
        return -EINVAL;
    struct env *env = env_probe(dir);
    if (!env)
        return -ENOMEM;
    env_free(res->env);
    res->env = env;
    return 0;
}

const char *diskio_result_env(const struct diskio_result *res, const char *key)
{
    return res && key ? env_get(res->env, key) : NULL;
}

int diskio_result_add_run(struct diskio_result *res, struct diskio_run *run)
{
    if (!res || !run)
        return -EINVAL; /* nothing taken: run stays the caller's */
    if (res->nruns == res->cap) {
        size_t cap = res->cap ? res->cap * 2 : 8;
        struct diskio_run **runs = realloc(res->runs, cap * sizeof(*runs));
        if (!runs) {
            diskio_run_free(run);
            return -ENOMEM;
        }
        res->runs = runs;
        res->cap = cap;
    }
    res->runs[res->nruns++] = run;
    return 0;
}

size_t diskio_result_run_count(const struct diskio_result *res)
{
    return res ? res->nruns : 0;
}

const struct diskio_run *diskio_result_run(const struct diskio_result *res, size_t i)
{
    return res && i < res->nruns ? res->runs[i] : NULL;
}

static void suite_clear(struct diskio_result *res)
{
    for (size_t i = 0; i < res->suite_nrows; i++) {
        free((char *)res->suite_rows[i].label);
        free((char *)res->suite_rows[i].column);
        free((char *)res->suite_rows[i].note);
    }
    free(res->suite_rows);
    free(res->suite_name);
    free(res->suite_title);
    free(res->suite_summary);
    res->suite_rows = NULL;
    res->suite_nrows = 0;
    res->suite_name = res->suite_title = res->suite_summary = NULL;
}

static bool copy_string(const char *from, char **to)
{
    *to = from ? strdup(from) : NULL;
    return !from || *to;
}

int diskio_result_set_suite(struct diskio_result *res, const char *name, const char *title,
                            const char *summary, const struct diskio_suite_row *rows, size_t nrows)
{
    if (!res || !name || (nrows && !rows))
        return -EINVAL;
    for (size_t i = 0; i < nrows; i++)
        if (!rows[i].label || !rows[i].column)
            return -EINVAL;
    suite_clear(res);
    bool ok = copy_string(name, &res->suite_name) && copy_string(title, &res->suite_title) &&
              copy_string(summary, &res->suite_summary);
    if (ok && nrows) {
        res->suite_rows = calloc(nrows, sizeof(*res->suite_rows));
        ok = res->suite_rows != NULL;
    }
    for (size_t i = 0; ok && i < nrows; i++) {
        struct diskio_suite_row *row = &res->suite_rows[i];
        char *label = NULL, *column = NULL, *note = NULL;
        ok = copy_string(rows[i].label, &label) && copy_string(rows[i].column, &column) &&
             copy_string(rows[i].note, &note);
        row->label = label;
        row->column = column;
        row->note = note;
        row->run = rows[i].run;
        res->suite_nrows = i + 1;
    }
    if (!ok) {
        suite_clear(res);
        return -ENOMEM;
    }
    return 0;
}

void diskio_result_set_incomplete(struct diskio_result *res)
{
    if (res)
        res->incomplete = true;
}

bool diskio_result_complete(const struct diskio_result *res)
{
    if (!res || res->incomplete)
        return false;
    for (size_t i = 0; i < res->nruns; i++)
        if (!res->runs[i]->info.complete)
            return false;
    return true;
}

void diskio_result_free(struct diskio_result *res)
{
    if (!res)
        return;
    for (size_t i = 0; i < res->nruns; i++)
        diskio_run_free(res->runs[i]);
    free(res->runs);
    suite_clear(res);
    env_free(res->env);
    free(res->label);
    free(res);
}
