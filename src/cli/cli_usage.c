/* SPDX-License-Identifier: MIT */
/* What the option table shows: the usage (diskio --help) and the bash
 * function that completes the options' values (completion/diskio, made
 * when diskio is built), with the library's modes, patterns and formats
 * named as the library names them. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli_options.h"
#include "cli_signals.h"

/* The usage's columns: the options, then their text from column 29, to
 * column 79 at most. */
#define USAGE_TEXT_COLUMN 29
#define USAGE_WIDTH 79

/* ---- the usage ---- */

static const char *const section_titles[] = {
    [CLI_SECTION_WORKLOAD] = "Workload:",
    [CLI_SECTION_SUITES] = "Suites (diskio-suite(5)):",
    [CLI_SECTION_OUTPUT] = "Output:",
    [CLI_SECTION_DURABILITY] =
        "Durability (doc/durability.md; a listener on another machine: diskio-durable(1)):",
    [CLI_SECTION_GENERAL] = NULL,
};

/* text from column at on, in lines up to USAGE_WIDTH, each further line
 * indented to USAGE_TEXT_COLUMN. */
static void print_wrapped(FILE *out, const char *text, size_t at)
{
    const char *p = text;
    while (*p) {
        /* the most words that fit */
        size_t room = USAGE_WIDTH > at ? USAGE_WIDTH - at : 1, len = 0;
        for (size_t i = 0;; i++) {
            if (p[i] == '\0' || p[i] == ' ') {
                if (i <= room || len == 0)
                    len = i;
                if (p[i] == '\0' || i > room)
                    break;
            }
        }
        fprintf(out, "%.*s\n", (int)len, p);
        p += len;
        while (*p == ' ')
            p++;
        if (*p)
            fprintf(out, "%*s", USAGE_TEXT_COLUMN, "");
        at = USAGE_TEXT_COLUMN;
    }
}

static void print_option(FILE *out, const struct cli_option *opt)
{
    char left[96], text[1024];
    int n = opt->short_name
                ? snprintf(left, sizeof(left), "  -%c, --%s", opt->short_name, opt->name)
                : snprintf(left, sizeof(left), "      --%s", opt->name);
    if (opt->arg && n >= 0 && (size_t)n < sizeof(left))
        snprintf(left + n, sizeof(left) - (size_t)n,
                 (opt->flags & CLI_OPTIONAL_VALUE) ? "[=%s]" : " %s", opt->arg);
    cli_expand(opt, opt->help, text, sizeof(text));
    /* the text beside the option when there is room, else below it */
    if (strlen(left) + 1 <= USAGE_TEXT_COLUMN)
        fprintf(out, "%-*s", USAGE_TEXT_COLUMN, left);
    else
        fprintf(out, "%s\n%*s", left, USAGE_TEXT_COLUMN, "");
    print_wrapped(out, text, USAGE_TEXT_COLUMN);
}

void cli_usage(FILE *out)
{
    fputs("Usage: diskio [OPTION]... TARGET\n"
          "Measure the latency of single writes under each durability mode.\n"
          "\n"
          "TARGET is a directory (diskio creates its test file there and removes it),\n"
          "a path that does not exist yet, an existing file (with --force) or a block\n"
          "device (with --allow-device).\n",
          out);
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        if ((opt == cli_option_table || opt[-1].section != opt->section) &&
            section_titles[opt->section])
            fprintf(out, "\n%s\n", section_titles[opt->section]);
        print_option(out, opt);
    }
    /* the statuses as enum cli_exit and cli_signal_status() make them */
    fprintf(out,
            "\n"
            "Exit status: %d ok; %d a write or sync failed (partial result written), or\n"
            "a trace, the result or standard output could not be written (said so);\n"
            "%d bad usage (nothing created); %d the target or an output file cannot be\n"
            "used; %d/%d/%d interrupted by SIGINT/SIGTERM/SIGHUP (partial result\n"
            "written).  With several runs, --trace FILE.csv becomes one FILE.MODE-BS.csv\n"
            "per run.\n"
            "See diskio(1).\n",
            EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE, EXIT_TARGET, cli_signal_status(SIGINT),
            cli_signal_status(SIGTERM), cli_signal_status(SIGHUP));
}

/* ---- bash completion ---- */
/* The options of one kind of completion, as one "case" branch. */
static void print_branch(FILE *out, const struct cli_option *first, const char *action)
{
    fputs("   ", out); /* each label after a blank */
    size_t n = 0, column = 3;
    for (const struct cli_option *opt = first; opt->name; opt++)
        if (cli_takes_next_word(opt) && opt->complete == first->complete &&
            (first->complete != CLI_COMPLETE_WORDS || opt == first)) {
            char label[80];
            int len = opt->short_name
                          ? snprintf(label, sizeof(label), "-%c | --%s", opt->short_name, opt->name)
                          : snprintf(label, sizeof(label), "--%s", opt->name);
            /* lines of at most 100 columns, continued */
            if (n && column + 3 + (size_t)len > 98) {
                fputs(" | \\\n       ", out);
                column = 7;
            } else if (n) {
                fputs(" |", out);
                column += 2;
            }
            fprintf(out, " %s", label);
            column += 1 + (size_t)len;
            n++;
        }
    fprintf(out, ")\n        %s ;;\n", action);
}

void cli_completion(FILE *out)
{
    char writes[256], reads[256], patterns[256], formats[256];
    cli_names(CLI_WRITE_MODES, " ", " ", writes, sizeof(writes));
    cli_names(CLI_READ_MODES, " ", " ", reads, sizeof(reads));
    cli_names(CLI_PATTERNS, " ", " ", patterns, sizeof(patterns));
    cli_names(CLI_FORMATS, " ", " ", formats, sizeof(formats));

    fputs("# diskio's option values; 0 when the option takes one (COMPREPLY set).\n"
          "# Made from diskio's option table (src/cli/cli_option_table.c) when\n"
          "# diskio is built: the modes, patterns and formats are the library's.\n"
          "_diskio_value_diskio()\n"
          "{\n"
          "    case $1 in\n",
          out);
    /* each kind once, at its first option: the branches in table order */
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        if (!cli_takes_next_word(opt))
            continue;
        bool first = true;
        for (const struct cli_option *o = cli_option_table; o < opt && first; o++)
            first = !cli_takes_next_word(o) || o->complete != opt->complete ||
                    opt->complete == CLI_COMPLETE_WORDS;
        if (!first)
            continue;
        char action[1536];
        const char *list = opt->flags & CLI_LIST ? "_diskio_comma_list" : NULL;
        switch (opt->complete) {
        case CLI_COMPLETE_NOTHING: snprintf(action, sizeof(action), "COMPREPLY=()"); break;
        case CLI_COMPLETE_MODES:
            snprintf(action, sizeof(action), "_diskio_comma_list \"%s all %s all-reads\" \"$2\"",
                     writes, reads);
            break;
        case CLI_COMPLETE_PATTERNS:
            snprintf(action, sizeof(action), "_diskio_words \"%s\" \"$2\"", patterns);
            break;
        case CLI_COMPLETE_FORMATS:
            snprintf(action, sizeof(action), "_diskio_words \"%s\" \"$2\"", formats);
            break;
        case CLI_COMPLETE_WORDS:
            snprintf(action, sizeof(action), "%s \"%s\" \"$2\"", list ? list : "_diskio_words",
                     opt->words);
            break;
        case CLI_COMPLETE_FILES: snprintf(action, sizeof(action), "_diskio_files \"$2\""); break;
        case CLI_COMPLETE_DIRS: snprintf(action, sizeof(action), "_diskio_dirs \"$2\""); break;
        case CLI_COMPLETE_SUITES: snprintf(action, sizeof(action), "_diskio_suites \"$2\""); break;
        }
        print_branch(out, opt, action);
    }
    fputs("    *) return 1 ;;\n"
          "    esac\n"
          "    return 0\n"
          "}\n",
          out);
}
