/* SPDX-License-Identifier: MIT */
/*
 * Description: whatever bytes the names hold, every result format is valid UTF-8 without controls.
 *
 * Whatever bytes a label, a run's name or the target's path holds, every
 * format (JSON, CSV, text) is valid UTF-8 with no control character for a
 * terminal to act on, and the JSON reads back as Python's UTF-8 decoder
 * reads the bytes; the text shows hostile bytes escaped, and text and CSV
 * show a backslash doubled.  The fields themselves are
 * check_result_formats'.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"
#include "t_result_mem.h"

/* Hostile strings: ill-formed UTF-8 (invalid bytes, overlong forms,
 * surrogates, beyond U+10FFFF, cut short at the end), control characters
 * (C0, DEL, C1, terminal escapes), separators and bidirectional overrides,
 * and well-formed text that must come through unchanged. */
static const char *const hostile[] = {
    "\xff", /* never in UTF-8 */
    "a\xfe"
    "b",                    /* never in UTF-8, inside text */
    "\xc0\x80",             /* overlong NUL */
    "\xc1\xbf",             /* overlong DEL */
    "\xe0\x80\xaf",         /* overlong '/' */
    "\xed\xa0\x80",         /* surrogate U+D800 */
    "\xed\xbf\xbf",         /* surrogate U+DFFF */
    "\xf4\x90\x80\x80",     /* U+110000 */
    "\xf5\x80\x80\x80",     /* lead byte beyond U+10FFFF */
    "\xf8\x88\x80\x80\x80", /* old 5-byte form */
    "\x80"
    "x\xbf",        /* lone continuation bytes */
    "ab\xe2\x82",   /* 3-byte sequence cut short at the end */
    "\xf0\x9f\x9a", /* 4-byte sequence cut short at the end */
    "\xe2\x82"
    "x",                                  /* cut short in the middle */
    "\x1b[31mred\x1b[0m\x1b]0;title\x07", /* colour and window title */
    "tab\there\r\nnew line\b\f",          /* short JSON escapes */
    "\x01\x1f\x7f",                       /* C0 and DEL */
    "\xc2\x9b"
    "31m\xc2\x85",              /* C1: 8-bit CSI and NEL */
    "\xe2\x80\xa8\xe2\x80\xa9", /* line and paragraph separators */
    "\xe2\x80\xae"
    "gnp.exe",                                                  /* right-to-left override */
    "quote\" back\\slash, comma",                               /* JSON and CSV specials */
    "Z\xc3\xbcrich \xe2\x98\x83 \xf0\x9f\x9a\x80 \xef\xbf\xbd", /* well-formed */
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

/* A strict UTF-8 validator, written apart from the library's decoder: it
 * decodes any lead byte's length, then rejects overlong forms, surrogates
 * and values above U+10FFFF by the value.  Returns the offset of the first
 * ill-formed byte, or -1 when all of buf[0..len) is well-formed. */
static long t_utf8_invalid_at(const unsigned char *buf, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned char c = buf[i];
        size_t n = c < 0x80             ? 1
                   : (c & 0xe0) == 0xc0 ? 2
                   : (c & 0xf0) == 0xe0 ? 3
                   : (c & 0xf8) == 0xf0 ? 4
                                        : 0;
        if (n == 0 || i + n > len)
            return (long)i;
        uint32_t cp = n == 1 ? c : (uint32_t)(c & (0x7f >> n));
        for (size_t k = 1; k < n; k++) {
            if ((buf[i + k] & 0xc0) != 0x80)
                return (long)i;
            cp = cp << 6 | (buf[i + k] & 0x3f);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
            return (long)i;
        i += n;
    }
    return -1;
}

/* Where buf holds a character a terminal acts on or that reorders the
 * line: a C0 control other than the line ends of the format itself, DEL,
 * a C1 control, U+2028/2029 or a bidirectional formatting character.
 * buf is well-formed UTF-8.  -1 when none. */
static long t_terminal_unsafe_at(const unsigned char *buf, size_t len)
{
    static const char *const bad[] = {
        "\xc2",         "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaa", "\xe2\x80\xab",
        "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7",
        "\xe2\x81\xa8", "\xe2\x81\xa9", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c"};
    for (size_t i = 0; i < len; i++) {
        if ((buf[i] < 0x20 && buf[i] != '\n') || buf[i] == 0x7f)
            return (long)i;
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
            size_t n = strlen(bad[k]);
            if (i + n <= len && memcmp(buf + i, bad[k], n) == 0 &&
                (n > 1 || (i + 1 < len && buf[i + 1] < 0xa0))) /* C2 80..9F: C1 */
                return (long)i;
        }
    }
    return -1;
}

/* A result labelled s, probed in dir, with one custom run named s. */
static struct diskio_result *t_result_named(const char *s, const char *dir)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(s, &res), 0);
    ck_assert_int_eq(diskio_result_probe(res, dir), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new(s, &run), 0);
    for (uint64_t v = 1; v <= 10; v++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), v * 1000);
    diskio_run_finish(run, 1000000, 10 * 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    return res;
}

static void t_save(const char *path, const void *buf, size_t size)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, size, f), size);
    fclose(f);
}

/* Every output of the result labelled and named s, probed in target, is
 * well-formed UTF-8 without a control character; the first problem goes
 * to why (left as it is when there is none).  With dir, the outputs are
 * saved there as N.json, N.csv, N.text for Python to read. */
static void t_check_outputs(size_t i, const char *target, const char *dir, char *why,
                            size_t why_size)
{
    static const enum diskio_format formats[] = {DISKIO_FORMAT_JSON, DISKIO_FORMAT_CSV,
                                                 DISKIO_FORMAT_TEXT};
    static const char *const names[] = {"json", "csv", "text"};
    struct diskio_result *res = t_result_named(hostile[i], target);
    for (size_t f = 0; f < 3; f++) {
        size_t size;
        char *out = t_write_mem(res, formats[f], &size);
        long bad = t_utf8_invalid_at((const unsigned char *)out, size);
        long unsafe = t_terminal_unsafe_at((const unsigned char *)out, size);
        size_t lines = 0;
        for (size_t k = 0; k < size; k++)
            lines += out[k] == '\n';
        if (*why)
            ; /* the first problem is the one reported */
        else if (bad >= 0)
            snprintf(why, why_size, "case %zu, %s: ill-formed UTF-8 at byte %ld: %.40s", i,
                     names[f], bad, out + bad);
        else if (unsafe >= 0)
            snprintf(why, why_size, "case %zu, %s: control character at byte %ld: %.40s", i,
                     names[f], unsafe, out + unsafe);
        else if (formats[f] == DISKIO_FORMAT_CSV && lines != 2) /* a header, one record */
            snprintf(why, why_size, "case %zu: CSV has %zu lines", i, lines);
        if (dir) {
            char path[700];
            snprintf(path, sizeof(path), "%s/%zu.%s", dir, i, names[f]);
            t_save(path, out, size);
        }
        free(out);
    }
    diskio_result_free(res);
}

START_TEST(test_hostile_strings_give_valid_utf8_without_controls)
{
    const char *python = t_python3();
    char *dir = t_mkdtemp("strings");
    /* a target directory whose name is not UTF-8 and holds an escape */
    char target[512];
    snprintf(target, sizeof(target), "%s/dir\xff\x1b[2J\xed\xa0\x80", dir);
    ck_assert_int_eq(mkdir(target, 0700), 0);
    char why[512] = "";
    char list[600];
    snprintf(list, sizeof(list), "%s/cases", dir);
    FILE *cases = fopen(list, "w");
    for (size_t i = 0; i < NHOSTILE; i++) {
        t_check_outputs(i, target, cases ? dir : NULL, why, sizeof(why));
        if (cases) {
            fprintf(cases, "%zu ", i);
            for (const unsigned char *p = (const unsigned char *)hostile[i]; *p; p++)
                fprintf(cases, "%02x", *p);
            fputc('\n', cases);
        }
    }
    int python_status = -1;
    if (cases) {
        /* Python's json module reads every document, and what it reads is
         * what Python's own UTF-8 decoder makes of the bytes, U+FFFD for
         * each maximal ill-formed subpart; CSV records keep their width */
        fclose(cases);
        char cmd[2048];
        snprintf(
            cmd, sizeof(cmd),
            "%s -c '\n"
            "import csv, io, json, sys\n"
            "d = sys.argv[1]\n"
            "for line in open(d + \"/cases\"):\n"
            "    i, h = line.split()\n"
            "    want = bytes.fromhex(h).decode(\"utf-8\", \"replace\")\n"
            "    doc = json.load(open(\"%%s/%%s.json\" %% (d, i), encoding=\"utf-8\"))\n"
            "    assert doc[\"label\"] == want, (i, doc[\"label\"], want)\n"
            "    assert doc[\"runs\"][0][\"mode\"] == want, (i, doc[\"runs\"][0][\"mode\"])\n"
            "    got = doc[\"environment\"][\"target\"][\"directory\"]\n"
            "    assert got.endswith(\"/dir\\ufffd\\x1b[2J\\ufffd\\ufffd\\ufffd\"), got\n"
            "    text = open(\"%%s/%%s.csv\" %% (d, i), encoding=\"utf-8\", newline=\"\").read()\n"
            "    rows = list(csv.reader(io.StringIO(text)))\n"
            "    assert len(rows) == 2 and len(rows[1]) == len(rows[0]), (i, rows)\n"
            "    assert rows[1][1] == rows[1][0], (i, rows[1][:2])\n"
            "print(\"python read\", int(i) + 1, \"cases\")\n"
            "' %s",
            python, dir);
        python_status = system(cmd);
        for (size_t i = 0; i < NHOSTILE; i++) {
            static const char *const names[] = {"json", "csv", "text"};
            for (size_t f = 0; f < 3; f++) {
                char path[700];
                snprintf(path, sizeof(path), "%s/%zu.%s", dir, i, names[f]);
                unlink(path);
            }
        }
        unlink(list);
    }
    /* clean up before judging: a failure leaves nothing behind */
    rmdir(target);
    t_rmdir_empty(dir);
    ck_assert_msg(!*why, "%s", why);
    ck_assert_msg(python_status == 0, "Python could not read the outputs back as expected");
}
END_TEST

/* The text table shows what the JSON cannot keep: each byte of an
 * ill-formed sequence or a control character as \xHH. */
START_TEST(test_text_shows_hostile_bytes_escaped)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new("lab\x1b[31m\xff\xc2\x9b", &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("op\x1b[2J\xe2\x80\xae", &run), 0);
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
    diskio_run_finish(run, 1000000, 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    size_t size;
    char *text = t_write_mem(res, DISKIO_FORMAT_TEXT, &size);
    char *json = t_write_mem(res, DISKIO_FORMAT_JSON, &size);
    char *csv = t_write_mem(res, DISKIO_FORMAT_CSV, &size);
    diskio_result_free(res);
    ck_assert_msg(strstr(text, "label lab\\x1b[31m\\xff\\xc2\\x9b\n") != NULL, "%s", text);
    /* the name column is padded to its width after escaping */
    ck_assert_msg(strstr(text, "\nop\\x1b[2J\\xe2\\x80\\xae ") != NULL, "%s", text);
    ck_assert_msg(strstr(json, "\"label\": \"lab\\u001b[31m\\ufffd\\u009b\"") != NULL, "%s", json);
    ck_assert_msg(strstr(json, "\"mode\": \"op\\u001b[2J\\u202e\"") != NULL, "%s", json);
    ck_assert_msg(strstr(csv, "\nlab\\x1b[31m\\xff\\xc2\\x9b,op\\x1b[2J\\xe2\\x80\\xae,") != NULL,
                  "%s", csv);
    free(text);
    free(json);
    free(csv);
}
END_TEST

/* A backslash is shown doubled in the table and CSV, so that a name
 * holding the four characters \x1b never looks like one holding ESC; the
 * JSON keeps its own escaping. */
START_TEST(test_text_and_csv_show_a_backslash_doubled)
{
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new("lit\\x1b esc\x1b", &res), 0);
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("a\\b", &run), 0);
    diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 1000);
    diskio_run_finish(run, 1000000, 4096);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    size_t size;
    char *text = t_write_mem(res, DISKIO_FORMAT_TEXT, &size);
    char *json = t_write_mem(res, DISKIO_FORMAT_JSON, &size);
    char *csv = t_write_mem(res, DISKIO_FORMAT_CSV, &size);
    diskio_result_free(res);
    ck_assert_msg(strstr(text, "label lit\\\\x1b esc\\x1b\n") != NULL, "%s", text);
    /* the name column is padded to the width of what it shows */
    ck_assert_msg(strstr(text, "\na\\\\b ") != NULL, "%s", text);
    ck_assert_msg(strstr(csv, "\nlit\\\\x1b esc\\x1b,a\\\\b,") != NULL, "%s", csv);
    ck_assert_msg(strstr(json, "\"label\": \"lit\\\\x1b esc\\u001b\"") != NULL, "%s", json);
    free(text);
    free(json);
    free(csv);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strings");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_hostile_strings_give_valid_utf8_without_controls);
    tcase_add_test(tc, test_text_shows_hostile_bytes_escaped);
    tcase_add_test(tc, test_text_and_csv_show_a_backslash_doubled);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
