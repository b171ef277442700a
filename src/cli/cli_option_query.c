/* SPDX-License-Identifier: MIT */
/* The option table's queries: the option a word names, whether it was
 * given, which runs it reaches, its text with its {markers} filled in
 * (the modes of its scope, the library's lists, its default from
 * cli_defaults()), whether its value is the next word, and a field of
 * the structures its rows point into. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_options.h"

uint64_t cli_field_load(const void *base, size_t off, size_t size)
{
    const char *p = (const char *)base + off;
    if (size == sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    if (size == sizeof(unsigned)) {
        unsigned v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    return *(const bool *)p;
}

const struct cli_option *cli_option_named(const char *word)
{
    if (word[0] != '-' || !word[1])
        return NULL;
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        size_t n = strlen(opt->name);
        if (word[1] == '-' ? strncmp(word + 2, opt->name, n) == 0 &&
                                 (word[2 + n] == '\0' || word[2 + n] == '=')
                           : word[1] == opt->short_name)
            return opt;
    }
    return NULL;
}

bool cli_option_given(const struct cli_options *o, const struct cli_option *opt)
{
    return o->given >> (opt - cli_option_table) & 1u;
}

enum diskio_pattern_params cli_scope_params(enum cli_scope scope)
{
    return scope == CLI_WAL_PATTERN          ? DISKIO_PARAMS_WAL
           : scope == CLI_CHECKPOINT_PATTERN ? DISKIO_PARAMS_CHECKPOINT
                                             : DISKIO_PARAMS_NONE;
}

const char *cli_params_pattern(enum diskio_pattern_params params)
{
    for (unsigned p = 0; p < diskio_pattern_count(); p++) {
        const struct diskio_pattern_info *info = diskio_pattern_info((enum diskio_pattern)p);
        if (info && info->params == params)
            return info->name;
    }
    return NULL;
}

bool cli_option_applies(const struct cli_option *opt, enum diskio_mode mode,
                        enum diskio_pattern pattern)
{
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = mode;
    const struct diskio_pattern_info *info = diskio_pattern_info(pattern);
    switch (opt->scope) {
    case CLI_EVERY_RUN: return true;
    /* the library takes these in every mode and uses them in these */
    case CLI_QUEUED_MODES: return diskio_mode_is_queued(mode);
    case CLI_SYNCING_MODES: return diskio_mode_syncs(mode);
    /* the pattern's own parameters */
    case CLI_WAL_PATTERN:
    case CLI_CHECKPOINT_PATTERN: return info && info->params == cli_scope_params(opt->scope);
    /* these the library's rules refuse where they do not apply */
    case CLI_CACHED_MODES: cfg.cached = 1; break;
    case CLI_VERIFY_MODES: cfg.verify = 1; break;
    case CLI_WRITE_BACK_MODES: cfg.write_back = 100; break;
    }
    return diskio_config_validate(&cfg, NULL) == 0;
}

bool cli_takes_next_word(const struct cli_option *opt)
{
    return opt->arg && !(opt->flags & CLI_OPTIONAL_VALUE);
}

#define NAMES_MAX 64

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

/* A size as the options take it: the largest of k, m, g, t (powers of
 * 1024) that it is a whole number of ("8k", "16m", "174"). */
static void size_text(uint64_t bytes, char *out, size_t size)
{
    static const char units[] = "kmgt";
    size_t u = 0;
    while (bytes && bytes % 1024 == 0 && u < sizeof(units) - 1) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, size, "%" PRIu64 "%.*s", bytes, u ? 1 : 0, u ? &units[u - 1] : "");
}

/* A duration as the options take it: 0, or in s or ms. */
static void duration_text(uint64_t ns, char *out, size_t size)
{
    if (ns == 0)
        snprintf(out, size, "0");
    else if (ns % 1000000000u == 0)
        snprintf(out, size, "%" PRIu64 "s", ns / 1000000000u);
    else
        snprintf(out, size, "%gms", (double)ns / 1e6);
}

/* opt's value when it is not given, as --help shows it: its field (a
 * list's first) in cli_defaults()'s options, by what the value is. */
static void default_text(const struct cli_option *opt, char *out, size_t size)
{
    struct cli_options defaults;
    cli_defaults(&defaults);
    const uint64_t v = cli_field_load(&defaults, opt->off, opt->size);
    if (opt->complete == CLI_COMPLETE_PATTERNS)
        snprintf(out, size, "%s", diskio_pattern_name((enum diskio_pattern)v));
    else if (opt->complete == CLI_COMPLETE_FORMATS)
        snprintf(out, size, "%s", diskio_format_name((enum diskio_format)v));
    else if (opt->type == CLI_SIZE || (opt->arg && strncmp(opt->arg, "SIZE", 4) == 0))
        size_text(v, out, size);
    else if (opt->type == CLI_DURATION)
        duration_text(v, out, size);
    else
        snprintf(out, size, "%" PRIu64, v);
}

void cli_expand(const struct cli_option *opt, const char *text, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    while (*text && used + 1 < size) {
        char list[512] = "";
        const char *marker = NULL;
        static const char *const markers[] = {"{modes}",         "{modes,}",     "{modes/}",
                                              "{write-modes}",   "{read-modes}", "{formats}",
                                              "{durable-modes}", "{default}"};
        for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]) && !marker; i++)
            if (strncmp(text, markers[i], strlen(markers[i])) == 0)
                marker = markers[i];
        if (!marker) {
            out[used++] = *text++;
            out[used] = '\0';
            continue;
        }
        if (strcmp(marker, "{modes}") == 0)
            scope_modes(opt, ", ", " and ", list, sizeof(list));
        else if (strcmp(marker, "{modes,}") == 0)
            scope_modes(opt, ", ", ", ", list, sizeof(list));
        else if (strcmp(marker, "{modes/}") == 0)
            scope_modes(opt, "/", "/", list, sizeof(list));
        else if (strcmp(marker, "{formats}") == 0)
            cli_names(CLI_FORMATS, ", ", " or ", list, sizeof(list));
        else if (strcmp(marker, "{default}") == 0)
            default_text(opt, list, sizeof(list));
        else if (strcmp(marker, "{durable-modes}") == 0)
            cli_names(CLI_DURABLE_MODES, ", ", " or ", list, sizeof(list));
        else
            cli_names(strcmp(marker, "{read-modes}") == 0 ? CLI_READ_MODES : CLI_WRITE_MODES, ", ",
                      ", ", list, sizeof(list));
        used += (size_t)snprintf(out + used, size - used, "%s", list);
        text += strlen(marker);
    }
}
