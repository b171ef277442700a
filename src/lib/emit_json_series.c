/* SPDX-License-Identifier: MIT */
/* A run over time, in its JSON run object: its latency interval by
 * interval (config.interval_ns), its steady-state window
 * (diskio --steady) and its capacity search's steps (diskio --capacity).
 * The run object: emit_json_run.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emit_json.h"
#include "figures.h"

/* The interval series (config.interval_ns), one line per interval;
 * latency figures null where no op completed. */
void json_intervals(FILE *out, const struct diskio_run *run)
{
    size_t n = diskio_run_interval_count(run);
    if (n == 0) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"interval_ns\": %" PRIu64 ", \"series\": [", run->series->interval_ns);
    for (size_t i = 0; i < n; i++) {
        const struct diskio_interval *iv = diskio_run_interval(run, i);
        fprintf(
            out,
            "%s\n        {\"repetition\": %u, \"start_ns\": %" PRIu64 ", \"duration_ns\": %" PRIu64
            ", \"ops\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"ops_per_s\": ",
            i ? "," : "", iv->repetition + 1, iv->start_ns, iv->duration_ns, iv->ops, iv->bytes);
        json_double(out, figures_per_s(iv->ops, iv->duration_ns));
        fputs(", \"mb_per_s\": ", out);
        json_double(out, figures_mb_per_s(iv->bytes, iv->duration_ns));
        if (iv->ops == 0) {
            fputs(", \"min_ns\": null, \"mean_ns\": null, \"p50_ns\": null, \"p99_ns\": null, "
                  "\"max_ns\": null}",
                  out);
            continue;
        }
        fprintf(out, ", \"min_ns\": %" PRIu64 ", \"mean_ns\": ", iv->min_ns);
        json_double(out, iv->mean_ns);
        fprintf(out, ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"max_ns\": %" PRIu64 "}",
                iv->p50_ns, iv->p99_ns, iv->max_ns);
    }
    fputs("\n      ]}", out);
}

/* The figures of a steady window: its ops and their latencies (those
 * only when it was steady: a window that was not is never a sample of a
 * steady disk). */
static void emit_window_figures(FILE *out, const struct diskio_run *run,
                                const struct diskio_steady_state *st)
{
    struct diskio_hist *h = NULL;
    struct part_summary sum = {0};
    if (st->count && run->series && diskio_hist_new(&h) == 0) {
        (void)steady_window_hist(run, st, h);
        sum.present = st->attained;
        sum.count = diskio_hist_count(h);
        sum.min_ns = diskio_hist_min(h);
        sum.max_ns = diskio_hist_max(h);
        sum.mean_ns = diskio_hist_mean(h);
        sum.stddev_ns = diskio_hist_stddev(h);
        diskio_hist_percentiles(h, summary_pcts, sum.pct_ns, SUMMARY_PCTS);
        diskio_hist_free(h);
    }
    const uint64_t duration = st->count ? st->end_ns - st->start_ns : 0;
    const double seconds = (double)duration / 1e9;
    fprintf(out, ",\n          \"ops\": %" PRIu64 ", \"duration_ns\": %" PRIu64 ", \"ops_per_s\": ",
            sum.count, duration);
    json_if(out, seconds > 0, (double)sum.count / seconds);
    fputs(", \"mb_per_s\": ", out);
    json_if(out, seconds > 0,
            (double)sum.count * (double)run->info.config.block_size / 1e6 / seconds);
    fputs(", \"latency\": ", out);
    json_summary(out, &sum);
}

/* One repetition's steady window (diskio_run_steady()). */
static void emit_window(FILE *out, const struct diskio_run *run,
                        const struct diskio_steady_state *st, size_t rep)
{
    const bool any = st->count > 0, trend = st->slope_per_min == st->slope_per_min;
    fprintf(out, "%s\n        {\"repetition\": %zu, \"attained\": %s, \"first_interval\": ",
            rep ? "," : "", rep + 1, st->attained ? "true" : "false");
    if (any)
        fprintf(out,
                "%zu, \"intervals\": %zu, \"judged\": %zu, \"start_ns\": %" PRIu64
                ", \"end_ns\": %" PRIu64,
                st->first, st->count, st->judged, st->start_ns, st->end_ns);
    else
        fprintf(out,
                "null, \"intervals\": 0, \"judged\": %zu, \"start_ns\": null, "
                "\"end_ns\": null",
                st->judged);
    fputs(",\n          \"average\": ", out);
    json_if(out, st->average == st->average, st->average);
    fputs(", \"range_pct\": ", out);
    json_if(out, st->range_pct == st->range_pct, st->range_pct);
    fputs(", \"slope_pct\": ", out);
    json_if(out, st->slope_pct == st->slope_pct, st->slope_pct);
    fputs(", \"trend\": ", out);
    json_string(out, !trend                  ? NULL
                     : st->slope_per_min > 0 ? "rising"
                     : st->slope_per_min < 0 ? "falling"
                                             : "flat");
    fputs(", \"trend_per_min\": ", out);
    json_if(out, trend, st->slope_per_min);
    fputs(", \"trend_pct_per_min\": ", out);
    json_if(out, trend && st->average > 0, 100.0 * st->slope_per_min / st->average);
    emit_window_figures(out, run, st);
    fputc('}', out);
}

/* diskio --steady (config.steady): the spec and each repetition's
 * window; null for a run made without it. */
void json_steady(FILE *out, const struct diskio_run *run)
{
    const struct run_steady *rs = &run->steady;
    if (!rs->on) {
        fputs("null", out);
        return;
    }
    bool all = rs->nstates > 0;
    for (size_t i = 0; i < rs->nstates; i++)
        all = all && rs->states[i].attained;
    fputs("{\"metric\": ", out);
    json_string(out, diskio_steady_metric_name(rs->spec.metric));
    fprintf(out, ", \"window\": %u, \"range_limit_pct\": ", rs->spec.window);
    json_double(out, rs->spec.range_pct);
    fputs(", \"slope_limit_pct\": ", out);
    json_double(out, rs->spec.slope_pct);
    fprintf(out,
            ", \"ramp_ns\": %" PRIu64 ", \"interval_ns\": %" PRIu64
            ", \"attained\": %s,\n        \"windows\": [",
            rs->spec.ramp_ns, rs->interval_ns, all ? "true" : "false");
    for (size_t i = 0; i < rs->nstates; i++)
        emit_window(out, run, &rs->states[i], i);
    fputs("]}", out);
}

/* One step of a capacity search (diskio_run_capacity_step()). */
static void emit_capacity_step(FILE *out, const struct diskio_capacity_step *st, size_t i)
{
    fprintf(out, "%s\n        {\"step\": %zu, \"phase\": ", i ? "," : "", i);
    json_string(out, diskio_capacity_phase_name(st->phase));
    fprintf(out, ", \"committers\": %u, \"offered_ops_per_s\": ", st->committers);
    json_if(out, st->offered_ops_per_s > 0, st->offered_ops_per_s);
    fputs(", \"achieved_ops_per_s\": ", out);
    json_double(out, st->achieved_ops_per_s);
    fprintf(out, ", \"ops\": %" PRIu64 ", \"duration_ns\": %" PRIu64 ",\n         \"mean_ns\": ",
            st->ops, st->duration_ns);
    json_if(out, st->ops > 0, st->mean_ns);
    fprintf(out,
            ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64 ", \"pct_ns\": %" PRIu64
            ", \"max_ns\": %" PRIu64 ", \"met\": %s, \"rate_held\": %s, \"error\": ",
            st->p50_ns, st->p99_ns, st->pct_ns, st->max_ns, st->met ? "true" : "false",
            st->rate_held ? "true" : "false");
    json_string(out, st->error ? diskio_strerror(st->error) : NULL);
    fputc('}', out);
}

/* diskio --target (diskio_capacity_search()): the answer and every step
 * measured on the way (the latency-versus-offered-rate curve); null for
 * a run made without it. */
void json_capacity(FILE *out, const struct diskio_run *run)
{
    struct diskio_capacity c;
    if (diskio_run_capacity(run, &c) != 0) {
        fputs("null", out);
        return;
    }
    fputs("{\"percentile\": ", out);
    json_double(out, c.percentile);
    fprintf(out, ", \"target_ns\": %" PRIu64 ", \"found\": %s, \"confirmed\": %s, \"ops_per_s\": ",
            c.target_ns, c.found ? "true" : "false", c.confirmed ? "true" : "false");
    json_if(out, c.found, c.ops_per_s);
    fputs(", \"high_ops_per_s\": ", out);
    json_if(out, c.high_ops_per_s > 0, c.high_ops_per_s);
    fprintf(out,
            ", \"committers\": %u,\n        \"budget_ns\": %" PRIu64 ", \"duration_ns\": %" PRIu64
            ", \"steps\": [",
            c.committers, c.budget_ns, c.duration_ns);
    for (size_t i = 0; i < c.nsteps; i++)
        emit_capacity_step(out, diskio_run_capacity_step(run, i), i);
    fputs("]}", out);
}
