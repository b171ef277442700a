/* SPDX-License-Identifier: MIT */
/* The option table's texts with their {markers} filled in: the modes of
 * an option's scope, the library's lists, and every value --help names
 * (an option's default and range, the command's own defaults, the
 * library's) from the one place the code takes it from, so that the
 * usage cannot say one thing while a run does another. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_durable.h"
#include "cli_options.h"

#define NAMES_MAX 64
#define NS_PER_S UINT64_C(1000000000)
#define NS_PER_MIN (60 * NS_PER_S)
#define NS_PER_H (60 * NS_PER_MIN)
#define NS_PER_DAY (24 * NS_PER_H)

/* A size as the options take it: the largest of k, m, g, t (powers of
 * 1024) that it is a whole number of ("8k", "16m", "174"). */
void cli_size_text(uint64_t bytes, char *out, size_t size)
{
    static const char units[] = "kmgt";
    size_t u = 0;
    while (bytes && bytes % 1024 == 0 && u < sizeof(units) - 1) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, size, "%" PRIu64 "%.*s", bytes, u ? 1 : 0, u ? &units[u - 1] : "");
}

/* A duration as the options take it: 0, in ms, in s up to a minute, in
 * whole minutes beyond, in whole hours from an hour ("2s", "60s", "5m",
 * "1h"). */
void cli_duration_text(uint64_t ns, char *out, size_t size)
{
    if (ns == 0)
        snprintf(out, size, "0");
    else if (ns >= NS_PER_H && ns % NS_PER_H == 0)
        snprintf(out, size, "%" PRIu64 "h", ns / NS_PER_H);
    else if (ns > NS_PER_MIN && ns % NS_PER_MIN == 0)
        snprintf(out, size, "%" PRIu64 "m", ns / NS_PER_MIN);
    else if (ns % NS_PER_S == 0)
        snprintf(out, size, "%" PRIu64 "s", ns / NS_PER_S);
    else
        snprintf(out, size, "%gms", (double)ns / 1e6);
}

/* A value of opt's kind, as its option takes it. */
static void value_text(const struct cli_option *opt, uint64_t v, char *out, size_t size)
{
    if (opt->complete == CLI_COMPLETE_PATTERNS)
        snprintf(out, size, "%s", diskio_pattern_name((enum diskio_pattern)v));
    else if (opt->complete == CLI_COMPLETE_FORMATS)
        snprintf(out, size, "%s", diskio_format_name((enum diskio_format)v));
    else if (opt->type == CLI_SIZE || (opt->arg && strncmp(opt->arg, "SIZE", 4) == 0))
        cli_size_text(v, out, size);
    else if (opt->type == CLI_DURATION)
        cli_duration_text(v, out, size);
    else
        snprintf(out, size, "%" PRIu64, v);
}

/* ---- the markers ---- */

static void scope_modes(const struct cli_option *opt, const char *sep, const char *last, char *out,
                        size_t size)
{
    const char *names[NAMES_MAX];
    size_t n = 0;
    for (unsigned m = 0; diskio_mode_name((enum diskio_mode)m) && n < NAMES_MAX; m++)
        if (cli_option_applies(opt, (enum diskio_mode)m, DISKIO_PATTERN_SEQ))
            names[n++] = diskio_mode_name((enum diskio_mode)m);
    cli_join(names, n, sep, last, out, size);
}

/* {modes}: "a, b and c" */
static void modes_and(const struct cli_option *opt, char *out, size_t size)
{
    scope_modes(opt, ", ", " and ", out, size);
}
/* {modes,}: "a, b, c" */
static void modes_commas(const struct cli_option *opt, char *out, size_t size)
{
    scope_modes(opt, ", ", ", ", out, size);
}
/* {modes/}: "a/b" */
static void modes_slashes(const struct cli_option *opt, char *out, size_t size)
{
    scope_modes(opt, "/", "/", out, size);
}
static void write_modes(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_names(CLI_WRITE_MODES, ", ", ", ", out, size);
}
static void read_modes(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_names(CLI_READ_MODES, ", ", ", ", out, size);
}
static void durable_modes(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_names(CLI_DURABLE_MODES, ", ", " or ", out, size);
}
static void formats(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_names(CLI_FORMATS, ", ", " or ", out, size);
}

/* {default}: opt's value when it is not given, its field (a list's
 * first) in cli_defaults()'s options. */
static void default_value(const struct cli_option *opt, char *out, size_t size)
{
    struct cli_options defaults;
    cli_defaults(&defaults);
    value_text(opt, cli_field_load(&defaults, opt->off, opt->size), out, size);
}

/* {min}, {max}: the range the row takes */
static void min_value(const struct cli_option *opt, char *out, size_t size)
{
    value_text(opt, opt->min, out, size);
}
static void max_value(const struct cli_option *opt, char *out, size_t size)
{
    value_text(opt, opt->max, out, size);
}

/* {runtime}: a run's without --count or --runtime (cli_parse()) */
static void runtime_default(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_duration_text(CLI_DEFAULT_RUNTIME_NS, out, size);
}

/* {steady-runtime}, {steady-interval}: a steady run's, unless --runtime
 * and --interval say */
static void steady_runtime(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_duration_text(CLI_STEADY_RUNTIME_NS, out, size);
}
static void steady_interval(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_duration_text(CLI_STEADY_INTERVAL_NS, out, size);
}

/* {steady-metrics}: the library's, "a|b|c" */
static void steady_metrics(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    const char *names[NAMES_MAX];
    size_t n = 0;
    for (unsigned m = 0; diskio_steady_metric_name((enum diskio_steady_metric)m) && n < NAMES_MAX;
         m++)
        names[n++] = diskio_steady_metric_name((enum diskio_steady_metric)m);
    cli_join(names, n, "|", "|", out, size);
}

/* {steady-spec}: --steady alone, diskio_steady_spec_init()'s */
static void steady_spec(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    struct diskio_steady_spec spec;
    diskio_steady_spec_init(&spec);
    char ramp[32] = "no ramp";
    if (spec.ramp_ns) {
        memcpy(ramp, "ramp ", sizeof("ramp "));
        cli_duration_text(spec.ramp_ns, ramp + strlen(ramp), sizeof(ramp) - strlen(ramp));
    }
    snprintf(out, size, "%s, SNIA's %u intervals, range %g%%, slope %g%%, %s",
             diskio_steady_metric_name(spec.metric), spec.window, spec.range_pct, spec.slope_pct,
             ramp);
}

/* {target-time}: the whole search's, diskio_capacity_spec_init()'s */
static void target_time(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    struct diskio_capacity_spec spec;
    diskio_capacity_spec_init(&spec);
    cli_duration_text(spec.budget_ns, out, size);
}

/* {target-bracket}: the % of its top a search's bracket ends within */
static void target_bracket(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    snprintf(out, size, "%u%%", DISKIO_CAPACITY_BRACKET_PCT);
}

void cli_precondition_text(unsigned passes, uint64_t bs, const char *between, char *out,
                           size_t size)
{
    static const char *const times[] = {"", "once", "twice"};
    char count[32];
    if (passes < sizeof(times) / sizeof(times[0]))
        snprintf(count, sizeof(count), "%s", times[passes]);
    else
        snprintf(count, sizeof(count), "%u times", passes);
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB"};
    size_t u = 0;
    while (bs % 1024 == 0 && u + 1 < sizeof(units) / sizeof(units[0])) {
        bs /= 1024;
        u++;
    }
    snprintf(out, size, "%s%sin %" PRIu64 " %s writes", count, between, bs, units[u]);
}

/* {precondition}: its passes and writes, "twice in 1 MiB writes" */
static void precondition(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_precondition_text(DISKIO_PRECONDITION_PASSES, DISKIO_PRECONDITION_BLOCK_SIZE, " ", out,
                          size);
}

/* {interval-min}: the shortest interval the library takes */
static void interval_min(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    cli_duration_text(DISKIO_INTERVAL_MIN_NS, out, size);
}

/* {percentiles}: the table's without --percentiles, the library's */
static void percentiles_default(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    const double *pcts;
    const size_t n = diskio_result_percentiles(NULL, &pcts);
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%g", i ? "," : "", pcts[i]);
}
/* {percentiles-max}: the most the table shows */
static void percentiles_max(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    snprintf(out, size, "%d", DISKIO_PERCENTILES_MAX);
}

/* {duration-max-days}: the longest DURATION any option takes, in days */
static void duration_max_days(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    snprintf(out, size, "%" PRIu64, CLI_DURATION_MAX_NS / NS_PER_DAY);
}

/* {size-blocks}: the blocks of the largest --bs the file holds at least
 * unless --size says (cli_parse()) */
static void size_blocks(const struct cli_option *opt, char *out, size_t size)
{
    (void)opt;
    snprintf(out, size, "%u", CLI_DEFAULT_FILE_BLOCKS);
}

/* A marker is its text function's, or (none) a number's. */
static const struct marker {
    const char *name;
    void (*text)(const struct cli_option *opt, char *out, size_t size);
    int number;
} markers[] = {
    {"{modes}", modes_and, 0},
    {"{modes,}", modes_commas, 0},
    {"{modes/}", modes_slashes, 0},
    {"{write-modes}", write_modes, 0},
    {"{read-modes}", read_modes, 0},
    {"{durable-modes}", durable_modes, 0},
    {"{formats}", formats, 0},
    {"{default}", default_value, 0},
    {"{min}", min_value, 0},
    {"{max}", max_value, 0},
    {"{runtime}", runtime_default, 0},
    {"{steady-runtime}", steady_runtime, 0},
    {"{steady-interval}", steady_interval, 0},
    {"{steady-metrics}", steady_metrics, 0},
    {"{steady-spec}", steady_spec, 0},
    {"{target-time}", target_time, 0},
    {"{target-bracket}", target_bracket, 0},
    {"{precondition}", precondition, 0},
    {"{interval-min}", interval_min, 0},
    {"{percentiles}", percentiles_default, 0},
    {"{percentiles-max}", percentiles_max, 0},
    {"{size-blocks}", size_blocks, 0},
    {"{duration-max-days}", duration_max_days, 0},
    /* --verify-durability's exit statuses */
    {"{exit-ok}", NULL, EXIT_OK},
    {"{exit-failed}", NULL, EXIT_RUN_FAILED},
    {"{exit-lost}", NULL, EXIT_DURABILITY_LOST},
    {"{exit-mismatch}", NULL, EXIT_DURABILITY_MISMATCH},
};

void cli_expand(const struct cli_option *opt, const char *text, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    while (*text && used + 1 < size) {
        const struct marker *marker = NULL;
        for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]) && !marker; i++)
            if (strncmp(text, markers[i].name, strlen(markers[i].name)) == 0)
                marker = &markers[i];
        if (!marker) {
            out[used++] = *text++;
            out[used] = '\0';
            continue;
        }
        char value[512] = "";
        if (marker->text)
            marker->text(opt, value, sizeof(value));
        else
            snprintf(value, sizeof(value), "%d", marker->number);
        used += (size_t)snprintf(out + used, size - used, "%s", value);
        text += strlen(marker->name);
    }
}
