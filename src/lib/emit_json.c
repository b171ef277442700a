/* SPDX-License-Identifier: MIT */
/* The JSON result document, schema version 2: the format is
 * doc/result-schema.json (tests/cli/results-match-schema.sh validates what
 * this file and the emit_json_*.c beside it write for every kind of run
 * against it), explained in doc/result-schema.md.  A key added here is
 * added there too.
 *
 * This file: the document's envelope (schema, tool, label, the
 * precondition, the list of runs, the suite).  The parts: the environment
 * object (emit_json_env.c), each run object (emit_json_run.c), what a run
 * observed beside its latency (emit_json_observed.c), a run over time
 * (emit_json_series.c), and the values every part writes (strings,
 * numbers, null, a latency summary: emit_json_values.c). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emit_json.h"

/* diskio --precondition (diskio_result_set_precondition()): what was
 * written before the runs, or null. */
static void emit_precondition(FILE *out, const struct diskio_result *res)
{
    const struct diskio_precondition *p = &res->precondition;
    fputs("  \"precondition\": ", out);
    if (!res->preconditioned) {
        fputs("null,\n", out);
        return;
    }
    const double seconds = (double)p->duration_ns / 1e9;
    fprintf(out,
            "{\"passes\": %u, \"block_size\": %" PRIu64 ", \"bytes\": %" PRIu64
            ", \"written\": %" PRIu64
            ", \"direct\": %s, \"complete\": %s, \"duration_ns\": %" PRIu64 ", \"mb_per_s\": ",
            p->passes, p->block_size, p->bytes, p->written, p->direct ? "true" : "false",
            p->complete ? "true" : "false", p->duration_ns);
    json_if(out, seconds > 0, (double)p->written / 1e6 / seconds);
    fputs("},\n", out);
}

/* diskio --suite: the suite and its rows, each naming its run by index */
static void emit_suite(FILE *out, const struct diskio_result *res)
{
    fputs(",\n  \"suite\": {\"name\": ", out);
    json_string(out, res->suite_name);
    fputs(", \"title\": ", out);
    json_string(out, res->suite_title);
    fputs(", \"summary\": ", out);
    json_string(out, res->suite_summary);
    fputs(",\n    \"rows\": [", out);
    for (size_t i = 0; i < res->suite_nrows; i++) {
        const struct diskio_suite_row *row = &res->suite_rows[i];
        fputs(i ? ",\n      {\"label\": " : "\n      {\"label\": ", out);
        json_string(out, row->label);
        fputs(", \"column\": ", out);
        json_string(out, row->column);
        if (row->run < res->nruns)
            fprintf(out, ", \"run\": %zu", row->run);
        else
            fputs(", \"run\": null", out);
        fputs(", \"note\": ", out);
        json_string(out, row->note);
        fputs("}", out);
    }
    fputs(res->suite_nrows ? "\n    ]}" : "]}", out);
}

int emit_json(const struct diskio_result *res, FILE *out)
{
    fprintf(out,
            "{\n  \"schema\": \"diskio-result\",\n  \"schema_version\": %d,\n"
            "  \"tool\": {\"name\": \"diskio\", \"version\": \"%s\"},\n  \"label\": ",
            DISKIO_SCHEMA_VERSION, diskio_version());
    json_string(out, res->label);
    fprintf(out, ",\n  \"start_time\": \"%s\",\n  \"complete\": %s,\n", res->start_time,
            diskio_result_complete(res) ? "true" : "false");
    json_environment(out, res->env);
    emit_precondition(out, res);
    /* the earliest start of a measured run: the runs' repetitions are
     * placed in time from there */
    uint64_t origin_ns = UINT64_MAX;
    for (size_t i = 0; i < res->nruns; i++) {
        uint64_t start_ns = res->runs[i]->info.start_ns;
        if (start_ns && start_ns < origin_ns)
            origin_ns = start_ns;
    }
    fputs("  \"runs\": [\n", out);
    for (size_t i = 0; i < res->nruns; i++) {
        json_run(out, res, res->runs[i], origin_ns);
        fputs(i + 1 < res->nruns ? ",\n" : "\n", out);
    }
    fputs("  ]", out);
    if (res->suite_name)
        emit_suite(out, res);
    fputs("\n}\n", out);
    return 0;
}
