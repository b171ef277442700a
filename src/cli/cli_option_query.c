/* SPDX-License-Identifier: MIT */
/* The option table's queries: the option a word names, whether it was
 * given, which runs it reaches, whether its value is the next word, and
 * a field of the structures its rows point into.  Its texts' {markers}
 * are cli_expand.c's. */
#include "config.h"

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
