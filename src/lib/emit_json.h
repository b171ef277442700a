/* SPDX-License-Identifier: MIT */
/* The JSON result document's parts, shared between the files that write
 * them: emit_json.c (the envelope), emit_json_env.c, emit_json_run.c,
 * emit_json_observed.c, emit_json_series.c, and emit_json_values.c (the
 * values all of them write). */
#ifndef DISKIO_EMIT_JSON_H
#define DISKIO_EMIT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diskio_internal.h"
#include "steady.h"

/* emit_json_values.c: JSON values */
void json_string(FILE *out, const char *s);
void json_double(FILE *out, double v);
void json_if(FILE *out, bool known, double v);
void json_summary(FILE *out, const struct part_summary *s);

/* emit_json_env.c */
void json_environment(FILE *out, const struct env *env);

/* emit_json_run.c */
void json_run(FILE *out, const struct diskio_result *res, const struct diskio_run *run,
              uint64_t origin_ns);

/* emit_json_observed.c */
void json_run_interference(FILE *out, const struct diskio_run *run);
void json_repetitions(FILE *out, const struct diskio_run *run, uint64_t origin_ns);
void json_run_device(FILE *out, const struct diskio_run *run);
void json_run_direct(FILE *out, const struct diskio_run *run);

/* emit_json_series.c */
void json_intervals(FILE *out, const struct diskio_run *run);
void json_steady(FILE *out, const struct diskio_run *run);
void json_capacity(FILE *out, const struct diskio_run *run);

#endif
