/* SPDX-License-Identifier: MIT */
/* check_null's rows: one function per public function of libdiskio, each
 * calling it with NULL in every pointer and asserting what its RETURN
 * VALUE says (libdiskio(3), CONVENTIONS).  The rows live by API area in
 * null_hist.c, null_tables.c, null_run.c and null_result.c; check_null.c
 * runs them all and fails a function the header declares without a row. */
#ifndef T_NULL_H
#define T_NULL_H

#include <stddef.h>
#include <stdint.h>

#include "diskio.h"
#include "t_helpers.h"

struct t_null_row {
    const char *name;
    void (*call)(void);
};

#define T_NULL_ROW(fn)                                                                             \
    {                                                                                              \
        "diskio_" #fn, null_##fn                                                                   \
    }

extern const struct t_null_row t_null_hist_rows[];
extern const size_t t_null_hist_count;
extern const struct t_null_row t_null_tables_rows[];
extern const size_t t_null_tables_count;
extern const struct t_null_row t_null_run_rows[];
extern const size_t t_null_run_count;
extern const struct t_null_row t_null_result_rows[];
extern const size_t t_null_result_count;

/* A histogram, run, result, target and config to pass beside a NULL. */
static inline struct diskio_hist *t_hist(void)
{
    struct diskio_hist *h = NULL;
    ck_assert_int_eq(diskio_hist_new(&h), 0);
    return h;
}

static inline struct diskio_run *t_run(void)
{
    struct diskio_run *run = NULL;
    ck_assert_int_eq(diskio_run_new("custom", &run), 0);
    return run;
}

static inline int64_t t_op(void *arg, unsigned thread, uint64_t i)
{
    (void)arg;
    (void)thread;
    (void)i;
    return 0;
}

#endif
