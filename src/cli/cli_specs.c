/* SPDX-License-Identifier: MIT */
/*
 * The values of the options that ask a question of a run rather than
 * describe it: --steady[=SPEC] (when is the run steady) and --target
 * SPEC (what rate meets a latency target).  Each SPEC is a list of
 * KEY=VALUE items, comma-separated, every one optional and named in
 * every message.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli_options.h"

#define STEADY_ACCEPTED                                                                            \
    "accepted: metric=mean|p99|ops_per_s, window=N (2 to 1000 intervals), range=PCT, slope=PCT, "  \
    "ramp=DURATION; e.g. --steady=metric=p99,window=10,range=10,ramp=30s"

/* A percentage above 0 and at most 1000, "%" allowed after it. */
static int parse_pct(const char *text, double *out)
{
    const char *end;
    if (cli_parse_number(text, out, &end) != 0 || (*end && strcmp(end, "%") != 0) || !(*out > 0) ||
        *out > 1000)
        return -1;
    return 0;
}

/* One KEY=VALUE item of --steady into spec: 0, or -1 with the message. */
static int steady_item(char *item, struct diskio_steady_spec *spec, char *err, size_t size)
{
    char *value = strchr(item, '=');
    if (!value)
        return cli_fail(err, size, "--steady: '%s' is not KEY=VALUE (%s)", item, STEADY_ACCEPTED);
    *value++ = '\0';
    uint64_t n = 0;
    int rc;
    if (strcmp(item, "metric") == 0) {
        rc = diskio_steady_metric_parse(value, &spec->metric) == 0 ? 0 : -1;
    } else if (strcmp(item, "window") == 0) {
        rc = cli_parse_uint(value, 2, DISKIO_WINDOW_INTERVALS_MAX, &n);
        spec->window = (unsigned)n;
    } else if (strcmp(item, "range") == 0) {
        rc = parse_pct(value, &spec->range_pct);
    } else if (strcmp(item, "slope") == 0) {
        rc = parse_pct(value, &spec->slope_pct);
    } else if (strcmp(item, "ramp") == 0) {
        rc = cli_parse_duration(value, &spec->ramp_ns);
    } else {
        return cli_fail(err, size, "--steady: unknown key '%s' (%s)", item, STEADY_ACCEPTED);
    }
    if (rc != 0)
        return cli_fail(err, size, "--steady: %s='%s' is not a valid value (%s)", item, value,
                        STEADY_ACCEPTED);
    return 0;
}

int cli_parse_steady(const char *text, struct cli_options *o, char *err, size_t size)
{
    diskio_steady_spec_init(&o->steady);
    o->steady_on = true;
    if (!text)
        return 0; /* --steady alone: SNIA's window */
    if (!*text)
        return cli_fail(err, size, "--steady=: empty (give --steady alone, or %s)",
                        STEADY_ACCEPTED);
    char copy[256];
    if (strlen(text) >= sizeof(copy))
        return cli_fail(err, size, "--steady: the value is too long (%s)", STEADY_ACCEPTED);
    snprintf(copy, sizeof(copy), "%s", text);
    char *rest = copy;
    for (char *item = strsep(&rest, ","); item; item = strsep(&rest, ","))
        if (steady_item(item, &o->steady, err, size) != 0)
            return -1;
    return 0;
}

int cli_check_steady(const struct cli_options *o, char *err, size_t size)
{
    if (!o->steady_on)
        return 0;
    const struct diskio_steady_spec *sp = &o->steady;
    const uint64_t need = sp->ramp_ns + (uint64_t)sp->window * o->interval_ns;
    if (need <= o->runtime_ns)
        return 0;
    return cli_fail(err, size,
                    "--steady: the ramp (%.3g s) and a window of %u intervals of %.3g s "
                    "(--interval) take %.3g s, more than the --runtime (%.3g s), so no run "
                    "could be steady; give a longer --runtime or a shorter --interval",
                    (double)sp->ramp_ns / 1e9, sp->window, (double)o->interval_ns / 1e9,
                    (double)need / 1e9, (double)o->runtime_ns / 1e9);
}
