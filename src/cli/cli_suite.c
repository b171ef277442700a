/* SPDX-License-Identifier: MIT */
/*
 * Suite files: a suite is data, not code.  A file, found by name or given
 * as a path (cli_suite_find.c), is read strictly (any line that is not
 * exactly right is an error naming file:line), and each row's options are
 * parsed by cli_parse() as an ordinary run's would be.  The format is
 * documented in diskio-suite(5) and doc/suites.md; the suite's own view
 * of its runs is cli_suite_view.c's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_fail.h"
#include "cli_msg.h"
#include "cli_suite.h"
#include "cli_suite_find.h"

#define SUITE_LINE_MAX 1024
#define SUITE_ROWS_MAX 256
#define SUITE_TOKENS_MAX 64
#define SUITE_LABEL_MAX 40  /* a row's label: characters at most */
#define SUITE_COLUMN_MAX 20 /* its column's */
#define SUITE_FILE_MAX ((size_t)256 * 1024)

/* The units a row can be shown in (the suite file's "unit" directive),
 * each with the bytes it counts (0: operations, or a latency), the
 * decimals it is shown with (whole numbers for the small units, as
 * bonnie++ and thput-fsys show them) and whether it is an op's mean
 * latency (less is better: "best" is the lowest). */
static const struct suite_unit_info units[] = {
    [SUITE_UNIT_MB] = {"MB/s", 1e6, 2, false},
    [SUITE_UNIT_MIB] = {"MiB/s", 1048576.0, 2, false},
    [SUITE_UNIT_KIB] = {"KiB/s", 1024.0, 0, false},
    [SUITE_UNIT_B] = {"B/s", 1.0, 0, false},
    [SUITE_UNIT_IOPS] = {"IOPS", 0, 0, false},
    [SUITE_UNIT_US] = {"us/op", 0, 2, true},
};

const struct suite_unit_info *suite_unit_info(enum suite_unit unit)
{
    return &units[unit];
}

/* The unit a suite file's "unit" names into *unit: 0, or -1 for none. */
static int suite_unit_parse(const char *name, enum suite_unit *unit)
{
    for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
        if (strcmp(name, units[u].name) == 0) {
            *unit = (enum suite_unit)u;
            return 0;
        }
    return -1;
}

/* Split a line into tokens: blanks separate them, "double quotes" keep
 * blanks inside one, # outside quotes starts a comment.  The line is cut
 * in place.  Number of tokens, or -1 with the problem in *why. */
static int tokenize(char *line, char **tokens, int max, const char **why)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            return n;
        if (n == max) {
            *why = "too many words";
            return -1;
        }
        if (*p == '"') {
            tokens[n++] = ++p;
            char *end = strchr(p, '"');
            if (!end) {
                *why = "a \" is not closed";
                return -1;
            }
            *end = '\0';
            p = end + 1;
            if (*p && *p != ' ' && *p != '\t') {
                *why = "a closing \" must be followed by a blank";
                return -1;
            }
            continue;
        }
        tokens[n++] = p;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '"') {
                *why = "a \" inside a word (quote the whole word)";
                return -1;
            }
            p++;
        }
        if (*p)
            *p++ = '\0';
    }
}

static int line_fail(char *err, size_t size, const char *path, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int line_fail(char *err, size_t size, const char *path, unsigned line, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return cli_fail(err, size, "%s:%u: %s", path, line, text);
}

/* What is wrong with a line of suite text (len bytes, no newline), or
 * NULL: a suite is UTF-8 text of printable characters (blanks and tabs
 * separate words); a NUL, a control character, a character that reorders
 * or breaks the line on a terminal (bidi formatting, U+2028/9) or bytes
 * that are not UTF-8 are refused, by position, never shown raw. */
static const char *line_problem(const char *line, size_t len, char *why, size_t size)
{
    const unsigned char *p = (const unsigned char *)line;
    for (size_t i = 0, n; i < len; i += n) {
        if (p[i] == '\0') {
            snprintf(why, size, "a NUL byte at byte %zu (a suite file is text)", i + 1);
            return why;
        }
        if (p[i] == '\t') {
            n = 1;
            continue;
        }
        const int32_t cp = utf8_decode(p + i, &n);
        if (cp < 0) {
            snprintf(why, size,
                     "byte %zu (0x%02x) is not part of UTF-8 text; save the file as UTF-8", i + 1,
                     p[i]);
            return why;
        }
        if (display_unsafe(cp)) {
            snprintf(why, size,
                     "byte %zu is the control or formatting character U+%04X (a suite file is "
                     "printable text)",
                     i + 1, (unsigned)cp);
            return why;
        }
    }
    return NULL;
}

/* A row's options, parsed as diskio's own with the command line's
 * overrides applied. */
static int parse_row(struct suite *s, struct suite_row *row, char **tokens, int ntokens,
                     const struct cli_options *top, char *err, size_t size)
{
    /* the options that belong to the whole command (outputs, the
     * target, repetitions, the durability check) or would nest suites */
    for (int i = 0; i < ntokens; i++) {
        const struct cli_option *opt = cli_option_named(tokens[i]);
        if (opt && (opt->flags & CLI_NOT_IN_ROW)) {
            char name[64];
            if (tokens[i][1] == '-')
                snprintf(name, sizeof(name), "--%s", opt->name);
            else
                snprintf(name, sizeof(name), "-%c", opt->short_name);
            return cli_fail(err, size,
                            "%s:%u: row '%s': %s is not a row option (outputs, the "
                            "target, --repeat and --suite belong to the command line)",
                            s->path, row->line, row->label, name);
        }
    }
    row->argc = ntokens + 2;
    row->argv = calloc((size_t)row->argc + 1, sizeof(*row->argv));
    if (!row->argv)
        return cli_fail(err, size, "out of memory");
    row->argv[0] = strdup("diskio");
    for (int i = 0; i < ntokens; i++)
        row->argv[i + 1] = strdup(tokens[i]);
    row->argv[ntokens + 1] = strdup(top->target ? top->target : ".");
    for (int i = 0; i < row->argc; i++)
        if (!row->argv[i])
            return cli_fail(err, size, "out of memory");

    char why[512];
    if (cli_parse(row->argc, row->argv, &row->opt, why, sizeof(why)) != 0)
        return cli_fail(err, size, "%s:%u: row '%s': %s", s->path, row->line, row->label, why);
    if (!row->opt.modes_explicit || row->opt.nmodes != 1)
        return cli_fail(err, size, "%s:%u: row '%s': give exactly one --mode", s->path, row->line,
                        row->label);
    if (row->opt.nsizes != 1)
        return cli_fail(err, size, "%s:%u: row '%s': give one --bs (a row is one run)", s->path,
                        row->line, row->label);
    if (row->opt.njobs != 1)
        return cli_fail(err, size,
                        "%s:%u: row '%s': give one --jobs (a row is one run; write a row per "
                        "count of jobs)",
                        s->path, row->line, row->label);

    /* the command line's overrides, for short runs (make check) */
    if (top->suite_max_bs && row->opt.block_sizes[0] > top->suite_max_bs) {
        snprintf(row->note_buf, sizeof(row->note_buf),
                 "not run: --bs %" PRIu64 " is larger than --suite-max-bs %" PRIu64,
                 row->opt.block_sizes[0], top->suite_max_bs);
        row->left_out = true;
        return 0; /* row->note is set once the rows stop moving (suite_load) */
    }
    if (top->size_given)
        row->opt.file_size = top->file_size;
    if (top->timing_given) {
        row->opt.count = top->count;
        row->opt.runtime_ns = top->runtime_ns;
    }
    if (top->warmup_given)
        row->opt.warmup = top->warmup;
    if (cli_check_runs(&row->opt, row->opt.block_sizes[0], why, sizeof(why)) != 0)
        return cli_fail(err, size, "%s:%u: row '%s' with the command line's options: %s%s", s->path,
                        row->line, row->label, why,
                        top->size_given ? "; --suite-max-bs leaves out the rows with a larger --bs"
                                        : "");
    return 0;
}

/* One file as it is read: the suite, the line at, the keywords seen
 * once, the unit of the rows that follow, and where a message goes. */
struct reader {
    struct suite *s;
    const struct cli_options *top;
    char *err;
    size_t size;
    unsigned lineno;
    bool have_runs, have_summary;
    enum suite_unit unit;
};

/* The next line of text from *pos on, checked and split into tokens
 * (line holds them): how many (0: nothing on it), or -1 with the
 * message. */
static int next_line(struct reader *r, const char *text, size_t total, size_t *pos, char *line,
                     char **tokens)
{
    r->lineno++;
    const char *start = text + *pos;
    const char *nl = memchr(start, '\n', total - *pos);
    const char *line_end = nl ? nl : text + total;
    *pos = (size_t)(line_end - text) + (nl ? 1 : 0);
    if (line_end > start && line_end[-1] == '\r')
        line_end--; /* CRLF */
    size_t len = (size_t)(line_end - start);
    if (len > SUITE_LINE_MAX)
        return line_fail(r->err, r->size, r->s->path, r->lineno, "the line is longer than %d bytes",
                         SUITE_LINE_MAX);
    char problem[160];
    if (line_problem(start, len, problem, sizeof(problem)))
        return line_fail(r->err, r->size, r->s->path, r->lineno, "%s", problem);
    memcpy(line, start, len);
    line[len] = '\0';
    for (char *p = line; *p; p++)
        if (*p == '\t')
            *p = ' ';
    const char *why = NULL;
    int n = tokenize(line, tokens, SUITE_TOKENS_MAX, &why);
    if (n < 0)
        return line_fail(r->err, r->size, r->s->path, r->lineno, "%s", why);
    return n;
}

/* text, the problem of the line being read, as the message; -1. */
static int reader_fail(const struct reader *r, const char *text)
{
    return line_fail(r->err, r->size, r->s->path, r->lineno, "%s", text);
}

/* 'suite NAME' and 'title "TEXT"': 0, or -1 with the message. */
static int name_line(struct reader *r, char **tokens, int n)
{
    struct suite *s = r->s;
    if (strcmp(tokens[0], "suite") == 0) {
        if (s->name)
            return reader_fail(r, "a second 'suite' line (one suite per file)");
        if (n != 2 || !suite_name_ok(tokens[1]))
            return reader_fail(r, "'suite NAME' takes one name of letters, digits, - and _");
        if (!(s->name = strdup(tokens[1])))
            return cli_fail(r->err, r->size, "out of memory");
        return 0;
    }
    if (s->title)
        return reader_fail(r, "a second 'title' line");
    if (n != 2)
        return reader_fail(r, "'title \"TEXT\"' takes one quoted text");
    if (!(s->title = strdup(tokens[1])))
        return cli_fail(r->err, r->size, "out of memory");
    return 0;
}

/* 'runs N', 'summary best|mean' and 'unit UNIT': 0, or -1 with the
 * message. */
static int setting_line(struct reader *r, char **tokens, int n)
{
    if (strcmp(tokens[0], "runs") == 0) {
        uint64_t v;
        if (r->have_runs)
            return reader_fail(r, "a second 'runs' line");
        if (n != 2 || cli_parse_uint(tokens[1], 1, SUITE_RUNS_MAX, &v) != 0)
            return line_fail(r->err, r->size, r->s->path, r->lineno,
                             "'runs N' takes a whole number from 1 to %d", SUITE_RUNS_MAX);
        r->s->runs = (unsigned)v;
        r->have_runs = true;
    } else if (strcmp(tokens[0], "summary") == 0) {
        if (r->have_summary)
            return reader_fail(r, "a second 'summary' line");
        if (n == 2 && strcmp(tokens[1], "best") == 0)
            r->s->summary = SUITE_BEST;
        else if (n == 2 && strcmp(tokens[1], "mean") == 0)
            r->s->summary = SUITE_MEAN;
        else
            return reader_fail(r, "'summary' takes 'best' (the best run) or 'mean' (mean and "
                                  "standard deviation)");
        r->have_summary = true;
    } else {
        if (n != 2 || suite_unit_parse(tokens[1], &r->unit) != 0)
            return reader_fail(r, "'unit' takes one of MB/s (10^6 bytes), MiB/s, KiB/s, B/s, "
                                  "IOPS or us/op (an op's mean latency), for the rows that follow");
    }
    return 0;
}

/* 'row LABEL COLUMN OPTIONS...': a new row, its options parsed.  0, or
 * -1 with the message. */
static int row_line(struct reader *r, char **tokens, int n)
{
    struct suite *s = r->s;
    if (n < 4)
        return reader_fail(r, "'row LABEL COLUMN OPTIONS...' needs a label, a column and "
                              "options");
    if (!*tokens[1] || strlen(tokens[1]) > SUITE_LABEL_MAX || !*tokens[2] ||
        strlen(tokens[2]) > SUITE_COLUMN_MAX)
        return line_fail(r->err, r->size, s->path, r->lineno,
                         "a row's label is 1 to %d characters, its column 1 to %d", SUITE_LABEL_MAX,
                         SUITE_COLUMN_MAX);
    if (s->nrows == SUITE_ROWS_MAX)
        return line_fail(r->err, r->size, s->path, r->lineno, "more than %d rows", SUITE_ROWS_MAX);
    for (size_t i = 0; i < s->nrows; i++)
        if (strcmp(s->rows[i].label, tokens[1]) == 0 && strcmp(s->rows[i].column, tokens[2]) == 0) {
            char both[128];
            snprintf(both, sizeof(both), "row '%s' column '%s' is already on line %u", tokens[1],
                     tokens[2], s->rows[i].line);
            return reader_fail(r, both);
        }
    struct suite_row *rows = realloc(s->rows, (s->nrows + 1) * sizeof(*rows));
    if (!rows)
        return cli_fail(r->err, r->size, "out of memory");
    s->rows = rows;
    struct suite_row *row = &rows[s->nrows++];
    memset(row, 0, sizeof(*row));
    row->line = r->lineno;
    row->run = SIZE_MAX;
    row->unit = r->unit;
    row->label = strdup(tokens[1]);
    row->column = strdup(tokens[2]);
    if (!row->label || !row->column)
        return cli_fail(r->err, r->size, "out of memory");
    return parse_row(s, row, tokens + 3, n - 3, r->top, r->err, r->size);
}

static int parse_file(struct suite *s, const char *text, size_t total,
                      const struct cli_options *top, char *err, size_t size)
{
    struct reader r = {.s = s, .top = top, .err = err, .size = size, .unit = SUITE_UNIT_MB};
    char line[SUITE_LINE_MAX + 1];
    char *tokens[SUITE_TOKENS_MAX];
    char no_word[] = "";
    /* every slot a string: the line readers take tokens[0..n) only, which
     * the analyzer cannot follow through tokenize()'s loop */
    for (size_t i = 0; i < SUITE_TOKENS_MAX; i++)
        tokens[i] = no_word;
    /* a UTF-8 byte order mark (editors on Windows write one) is no text */
    size_t pos = total >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    while (pos < total) {
        int n = next_line(&r, text, total, &pos, line, tokens);
        if (n <= 0) {
            if (n < 0)
                return -1;
            continue;
        }
        const char *key = tokens[0];
        int rc;
        if (!s->name && strcmp(key, "suite") != 0)
            return line_fail(err, size, s->path, r.lineno,
                             "'%s': the first line must be 'suite NAME'", key);
        if (strcmp(key, "suite") == 0 || strcmp(key, "title") == 0)
            rc = name_line(&r, tokens, n);
        else if (strcmp(key, "runs") == 0 || strcmp(key, "summary") == 0 ||
                 strcmp(key, "unit") == 0)
            rc = setting_line(&r, tokens, n);
        else if (strcmp(key, "row") == 0)
            rc = row_line(&r, tokens, n);
        else
            rc = line_fail(err, size, s->path, r.lineno,
                           "unknown keyword '%s' (accepted: suite, title, runs, summary, unit, "
                           "row)",
                           key);
        if (rc != 0)
            return -1;
    }
    if (!s->name)
        return cli_fail(err, size, "%s:%u: no 'suite NAME' line (is this a suite file?)", s->path,
                        r.lineno);
    if (!s->nrows)
        return cli_fail(err, size, "%s:%u: the suite has no 'row' line", s->path, r.lineno);
    return 0;
}

int suite_load(const char *what, const struct cli_options *top, struct suite *s, char *err,
               size_t err_size)
{
    memset(s, 0, sizeof(*s));
    s->runs = 1;
    s->summary = SUITE_MEAN;
    s->path = suite_find(what, top->suite_path, err, err_size);
    if (!s->path)
        return -1;
    /* O_NONBLOCK: a FIFO (or a device) at the name must not block the
     * open; only a regular file is read, whole (a symlink to one is
     * followed: reading it is as safe as reading the file) */
    int fd = open(s->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return cli_fail(err, err_size, "--suite: cannot open %s: %s", s->path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return cli_fail(err, err_size, "--suite: cannot read %s: %s", s->path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cli_fail(err, err_size, "--suite: %s is %s, not a suite file; give a regular file",
                        s->path,
                        S_ISFIFO(st.st_mode)  ? "a FIFO"
                        : S_ISDIR(st.st_mode) ? "a directory"
                        : S_ISCHR(st.st_mode) ? "a character device"
                        : S_ISBLK(st.st_mode) ? "a block device"
                                              : "a socket");
    }
    char *text = malloc(SUITE_FILE_MAX + 1);
    size_t total = 0;
    ssize_t n = 0;
    while (text && total <= SUITE_FILE_MAX &&
           (n = read(fd, text + total, SUITE_FILE_MAX + 1 - total)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        total += (size_t)n;
    }
    int read_errno = n < 0 ? errno : 0;
    close(fd);
    int rc;
    if (!text)
        rc = cli_fail(err, err_size, "out of memory");
    else if (read_errno)
        rc = cli_fail(err, err_size, "--suite: cannot read %s: %s", s->path, strerror(read_errno));
    else if (total > SUITE_FILE_MAX)
        rc = cli_fail(err, err_size, "%s: the file is longer than %s bytes (is it a suite file?)",
                      s->path, "262144");
    else
        rc = parse_file(s, text, total, top, err, err_size);
    free(text);
    for (size_t r = 0; r < s->nrows; r++)
        if (s->rows[r].note_buf[0])
            s->rows[r].note = s->rows[r].note_buf;
    if (rc == 0 && top->suite_runs)
        s->runs = top->suite_runs;
    return rc;
}

void suite_free(struct suite *s)
{
    for (size_t r = 0; r < s->nrows; r++) {
        struct suite_row *row = &s->rows[r];
        for (int i = 0; row->argv && i < row->argc; i++)
            free(row->argv[i]);
        free(row->argv);
        free(row->label);
        free(row->column);
        free(row->figures);
    }
    free(s->rows);
    free(s->path);
    free(s->name);
    free(s->title);
    memset(s, 0, sizeof(*s));
}
