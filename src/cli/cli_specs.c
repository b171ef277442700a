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

#include "cli_fail.h"
#include "cli_options.h"

/* What --steady takes, its window's range the one steady_item() checks. */
static const char *steady_accepted(void)
{
    static char text[256];
    snprintf(text, sizeof(text),
             "accepted: metric=mean|p99|ops_per_s, window=N (%u to %u intervals), range=PCT, "
             "slope=PCT, ramp=DURATION; e.g. --steady=metric=p99,window=10,range=10,ramp=30s",
             CLI_STEADY_WINDOW_MIN, DISKIO_WINDOW_INTERVALS_MAX);
    return text;
}
#define STEADY_ACCEPTED steady_accepted()

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
        rc = cli_parse_uint(value, CLI_STEADY_WINDOW_MIN, DISKIO_WINDOW_INTERVALS_MAX, &n);
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

/* What --target takes, time='s default diskio_capacity_spec_init()'s. */
static const char *target_accepted(void)
{
    static char text[320];
    struct diskio_capacity_spec spec;
    diskio_capacity_spec_init(&spec);
    char budget[32];
    cli_duration_text(spec.budget_ns, budget, sizeof(budget));
    snprintf(text, sizeof(text),
             "accepted: pP=DURATION (a percentile above 0 to 100 and its target, e.g. p99=2ms, "
             "p99.9=10ms), then time=DURATION (the whole search, default %s) and point=DURATION "
             "(each point's runtime); e.g. --target p99=2ms,time=2m",
             budget);
    return text;
}
#define TARGET_ACCEPTED target_accepted()

/* "p99=2ms": the percentile and its target into spec. */
static int target_first(char *item, struct diskio_capacity_spec *spec, char *err, size_t size)
{
    char *value = strchr(item, '=');
    const char *end = NULL;
    double pct = 0;
    if (item[0] != 'p' || !value)
        return cli_fail(err, size, "--target: '%s' is not pP=DURATION (%s)", item, TARGET_ACCEPTED);
    *value++ = '\0';
    if (cli_parse_number(item + 1, &pct, &end) != 0 || *end || !(pct > 0) || pct > 100)
        return cli_fail(err, size, "--target: '%s' is not a percentile above 0 to 100 (%s)", item,
                        TARGET_ACCEPTED);
    if (cli_parse_duration(value, &spec->target_ns) != 0 || spec->target_ns == 0)
        return cli_fail(err, size, "--target: %s='%s' is not a positive duration (%s)", item, value,
                        TARGET_ACCEPTED);
    spec->percentile = pct;
    return 0;
}

/* A time=/point= item of --target into spec. */
static int target_item(char *item, struct diskio_capacity_spec *spec, char *err, size_t size)
{
    char *value = strchr(item, '=');
    uint64_t ns = 0;
    if (!value)
        return cli_fail(err, size, "--target: '%s' is not KEY=VALUE (%s)", item, TARGET_ACCEPTED);
    *value++ = '\0';
    if (strcmp(item, "time") != 0 && strcmp(item, "point") != 0)
        return cli_fail(err, size, "--target: unknown key '%s' (%s)", item, TARGET_ACCEPTED);
    if (cli_parse_duration(value, &ns) != 0 || ns < CLI_TARGET_TIME_MIN_NS) {
        char least[32];
        cli_duration_text(CLI_TARGET_TIME_MIN_NS, least, sizeof(least));
        return cli_fail(err, size, "--target: %s='%s' is not a duration of at least %s (%s)", item,
                        value, least, TARGET_ACCEPTED);
    }
    if (strcmp(item, "time") == 0)
        spec->budget_ns = ns;
    else
        spec->point_ns = ns;
    return 0;
}

int cli_parse_target(const char *text, struct cli_options *o, char *err, size_t size)
{
    diskio_capacity_spec_init(&o->capacity);
    o->capacity_on = true;
    char copy[256];
    if (strlen(text) >= sizeof(copy))
        return cli_fail(err, size, "--target: the value is too long (%s)", TARGET_ACCEPTED);
    snprintf(copy, sizeof(copy), "%s", text);
    char *rest = copy;
    if (target_first(strsep(&rest, ","), &o->capacity, err, size) != 0)
        return -1;
    for (char *item = strsep(&rest, ","); item; item = strsep(&rest, ","))
        if (target_item(item, &o->capacity, err, size) != 0)
            return -1;
    if (o->capacity.point_ns && o->capacity.point_ns > o->capacity.budget_ns / 4)
        return cli_fail(err, size,
                        "--target: point=%.3g s leaves no room for a search in time=%.3g s; give "
                        "a point of at most a quarter of the time",
                        (double)o->capacity.point_ns / 1e9, (double)o->capacity.budget_ns / 1e9);
    return 0;
}

int cli_check_target(const struct cli_options *o, char *err, size_t size)
{
    if (!o->capacity_on)
        return 0;
    const struct cli_option *rate = cli_option_named("--rate");
    const char *clash = cli_option_given(o, rate) ? "--rate (it searches the rate itself)"
                        : o->steady_on            ? "--steady (each point is a short run)"
                        : o->repeat > 1 ? "--repeat (a search is one measurement; run diskio again "
                                          "for another)"
                        : cli_option_given(o, cli_option_named("--count"))
                            ? "--count (each point's runtime comes from time= and point=)"
                        : cli_option_given(o, cli_option_named("--runtime"))
                            ? "--runtime (each point's runtime comes from time= and point=)"
                        : o->interval_ns ? "--interval (a point is too short for a series)"
                        : o->trace       ? "--trace (a search is many runs; trace one --rate)"
                        : o->durability  ? "--durability (a search is many runs)"
                                         : NULL;
    if (clash)
        return cli_fail(err, size, "--target does not go with %s", clash);
    return 0;
}
