/* SPDX-License-Identifier: MIT */
/*
 * Description: each diskio option is in its usage, completion and man page; their lists are the library's.
 *
 * diskio's options are written once, in its option table
 * (src/cli/cli_option_table.c); what shows them must not drift from it: every
 * option is in the usage (--help) with its short name, in the bash
 * completion made when diskio is built (those that take a value have a
 * branch of _diskio_value_diskio, the flags none), and in the OPTIONS
 * of diskio(1), which documents no option the table lacks.  The modes
 * and formats the usage lists are the library's (diskio_mode_name(),
 * diskio_format_name()), and its text for --pattern names every pattern
 * of the library.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"
#include "t_helpers.h"

#define TEXT_MAX (256 * 1024)

/* A file of the source or the build tree, whole; NULL-terminated. */
static char *t_read(const char *tree_var, const char *fallback, const char *name)
{
    const char *tree = getenv(tree_var);
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", tree && *tree ? tree : fallback, name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *text = calloc(1, TEXT_MAX + 1);
    ck_assert_ptr_nonnull(text);
    size_t n = fread(text, 1, TEXT_MAX, f);
    ck_assert_uint_lt(n, TEXT_MAX);
    fclose(f);
    return text;
}

/* The usage, its lines joined by single blanks (the wrapping undone). */
static char *t_usage_flat(void)
{
    char *raw = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&raw, &size);
    ck_assert_ptr_nonnull(f);
    cli_usage(f);
    fclose(f);
    char *flat = calloc(1, size + 1);
    ck_assert_ptr_nonnull(flat);
    size_t n = 0;
    for (const char *p = raw; *p; p++) {
        if (*p == '\n' || *p == ' ') {
            if (n && flat[n - 1] != ' ')
                flat[n++] = ' ';
            continue;
        }
        flat[n++] = *p;
    }
    free(raw);
    return flat;
}

/* "--name" as a word of text: not a prefix of a longer option. */
static bool t_has_option(const char *text, const char *dashed)
{
    size_t n = strlen(dashed);
    for (const char *p = strstr(text, dashed); p; p = strstr(p + 1, dashed)) {
        char before = p == text ? ' ' : p[-1], after = p[n];
        bool word_char =
            (after >= 'a' && after <= 'z') || after == '-' || (after >= '0' && after <= '9');
        if ((before == ' ' || before == '\n' || before == '(' || before == ',') && !word_char)
            return true;
    }
    return false;
}

START_TEST(test_every_option_is_in_the_usage)
{
    char *usage = t_usage_flat();
    size_t count = 0;
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++, count++) {
        char want[96], value[64] = "";
        /* an optional value only as --NAME=VALUE: "--steady[=SPEC]" */
        if (opt->arg)
            snprintf(value, sizeof(value), (opt->flags & CLI_OPTIONAL_VALUE) ? "[=%s]" : " %s",
                     opt->arg);
        if (opt->short_name)
            snprintf(want, sizeof(want), "-%c, --%s%s", opt->short_name, opt->name, value);
        else
            snprintf(want, sizeof(want), "--%s%s", opt->name, value);
        ck_assert_msg(strstr(usage, want) != NULL, "the usage lacks '%s'", want);
        ck_assert_msg(opt->help && *opt->help, "--%s has no usage text", opt->name);
        /* each name and short name once */
        for (const struct cli_option *o = cli_option_table; o < opt; o++) {
            ck_assert_str_ne(o->name, opt->name);
            ck_assert(!opt->short_name || o->short_name != opt->short_name);
        }
    }
    /* one bit of struct cli_options' given each */
    ck_assert_uint_le(count, 64);
    free(usage);
}
END_TEST

/* Each row says what it needs to: a field for its value (or a parse
 * function of its own), a value name exactly when it takes a value, the
 * message and words its scope and completion show. */
START_TEST(test_every_row_is_whole)
{
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        ck_assert_msg((opt->type == CLI_FLAG) == (opt->arg == NULL), "--%s", opt->name);
        if (opt->type == CLI_FUNC)
            ck_assert_msg(opt->parse != NULL, "--%s has no parse function", opt->name);
        else
            ck_assert_msg(opt->size != 0, "--%s has no field", opt->name);
        if (opt->cfg_size)
            ck_assert_msg(opt->size != 0, "--%s goes to the config from no field", opt->name);
        if (opt->type == CLI_UINT || opt->type == CLI_SIZE || opt->type == CLI_DURATION)
            ck_assert_msg(opt->min <= opt->max && opt->size >= sizeof(unsigned),
                          "--%s: its range or field", opt->name);
        if (opt->scope != CLI_EVERY_RUN && opt->scope != CLI_WAL_PATTERN &&
            opt->scope != CLI_CHECKPOINT_PATTERN)
            ck_assert_msg(opt->scope_message != NULL, "--%s has no scope message", opt->name);
        if (opt->complete == CLI_COMPLETE_WORDS)
            ck_assert_msg(opt->words != NULL, "--%s has no words to complete", opt->name);
    }
}
END_TEST

START_TEST(test_usage_lists_are_the_librarys)
{
    char *usage = t_usage_flat();
    char writes[512] = "", reads[512] = "", formats[256] = "", want[1024];
    for (unsigned m = 0; diskio_mode_name((enum diskio_mode)m); m++) {
        char *list = diskio_mode_is_read((enum diskio_mode)m) ? reads : writes;
        snprintf(list + strlen(list), 256, "%s, ", diskio_mode_name((enum diskio_mode)m));
    }
    snprintf(want, sizeof(want),
             "--mode MODE[,MODE...] %sor all (default: all); the reads: %sor "
             "all-reads",
             writes, reads);
    ck_assert_msg(strstr(usage, want) != NULL, "the usage lacks '%s'", want);

    unsigned n = 0;
    while (diskio_format_name((enum diskio_format)n))
        n++;
    ck_assert_uint_ge(n, 2);
    for (unsigned f = 0; f < n; f++)
        snprintf(formats + strlen(formats), sizeof(formats) - strlen(formats), "%s%s",
                 diskio_format_name((enum diskio_format)f),
                 f + 2 < n    ? ", "
                 : f + 2 == n ? " or "
                              : "");
    snprintf(want, sizeof(want), "--format FORMAT %s (default:", formats);
    ck_assert_msg(strstr(usage, want) != NULL, "the usage lacks '%s'", want);

    const char *pattern = strstr(usage, "--pattern PATTERN");
    const char *next = pattern ? strstr(pattern, "--wal-bytes SIZE") : NULL;
    ck_assert(pattern && next);
    for (unsigned p = 0; diskio_pattern_name((enum diskio_pattern)p); p++) {
        const char *name = diskio_pattern_name((enum diskio_pattern)p);
        const char *at = strstr(pattern, name);
        ck_assert_msg(at && at < next, "the usage of --pattern does not name %s", name);
    }
    free(usage);
}
END_TEST

START_TEST(test_every_option_is_in_the_completion)
{
    char *text = t_read("top_builddir", DISKIO_BUILDDIR, "completion/diskio");
    char *start = strstr(text, "\n_diskio_value_diskio()\n");
    ck_assert_ptr_nonnull(start);
    char *end = strstr(start, "\n}\n");
    ck_assert_ptr_nonnull(end);
    *end = '\0';
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        char dashed[64];
        snprintf(dashed, sizeof(dashed), "--%s", opt->name);
        /* a value is completed (or nothing offered); a flag is no value,
         * nor is an optional one (the next word is never it) */
        if (cli_takes_next_word(opt))
            ck_assert_msg(t_has_option(start, dashed), "completion/diskio lacks %s", dashed);
        else
            ck_assert_msg(!t_has_option(start, dashed), "completion/diskio completes flag %s",
                          dashed);
    }
    free(text);
}
END_TEST

/* The options diskio(1)'s OPTIONS section documents: the "--name" at
 * the head of each .TP entry, "\-" unescaped, into names (space-separated). */
static void t_man_options(const char *man, char *names, size_t size)
{
    const char *start = strstr(man, "\n.SH OPTIONS\n");
    ck_assert_ptr_nonnull(start);
    const char *end = strstr(start + 1, "\n.SH ");
    ck_assert_ptr_nonnull(end);
    names[0] = '\0';
    for (const char *p = strstr(start, "\n.TP\n"); p && p < end; p = strstr(p + 1, "\n.TP\n")) {
        const char *head = p + 5, *eol = strchr(head, '\n');
        const char *opt = strstr(head, "\\-\\-");
        if (!opt || opt > eol)
            continue;
        opt += 4;
        char name[64];
        size_t n = 0;
        while (n + 1 < sizeof(name) && ((*opt >= 'a' && *opt <= 'z') || *opt == '\\')) {
            if (opt[0] == '\\' && opt[1] == '-') {
                name[n++] = '-';
                opt += 2;
            } else if (*opt == '\\') {
                break;
            } else {
                name[n++] = *opt++;
            }
        }
        name[n] = '\0';
        snprintf(names + strlen(names), size - strlen(names), " %s ", name);
    }
}

START_TEST(test_every_option_is_in_the_man_page_and_no_other)
{
    char *man = t_read("top_srcdir", DISKIO_SRCDIR, "man/diskio.1.in");
    char names[8192];
    t_man_options(man, names, sizeof(names));
    for (const struct cli_option *opt = cli_option_table; opt->name; opt++) {
        char word[64];
        snprintf(word, sizeof(word), " %s ", opt->name);
        ck_assert_msg(strstr(names, word) != NULL, "diskio(1) OPTIONS lacks --%s", opt->name);
    }
    for (char *name = strtok(names, " "); name; name = strtok(NULL, " ")) {
        char word[80];
        snprintf(word, sizeof(word), "--%s", name);
        ck_assert_msg(cli_option_named(word) != NULL, "diskio(1) documents %s, which diskio lacks",
                      word);
    }
    free(man);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("option table");
    TCase *tc = tcase_create("shown");
    tcase_add_test(tc, test_every_row_is_whole);
    tcase_add_test(tc, test_every_option_is_in_the_usage);
    tcase_add_test(tc, test_usage_lists_are_the_librarys);
    tcase_add_test(tc, test_every_option_is_in_the_completion);
    tcase_add_test(tc, test_every_option_is_in_the_man_page_and_no_other);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
