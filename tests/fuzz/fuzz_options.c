/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the command-line parsers in src/cli/cli_parse.c.
 *
 * One input exercises two things:
 *  (a) cli_parse_size, cli_parse_duration and cli_parse_uint on a
 *      NUL-terminated copy of the whole input, checking the documented
 *      ranges of what they accept;
 *  (b) cli_parse on an argument vector made by splitting the input on NUL
 *      or newline bytes (argv[0] = "diskio", at most FUZZ_MAX_ARGS more),
 *      checking the invariants of a successful parse and the shape of the
 *      error message on failure.
 *
 * Built and run by tests/fuzz/option-parsers.sh; see tests/fuzz/README.md. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"

#define FUZZ_MAX_ARGS 32
#define ERR_SIZE 512
#define SENTINEL 0x5a

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_options: invariant violated: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    abort();
}

static void fuzz_scalars(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';

    uint64_t v = 0;
    if (cli_parse_size(text, &v) == 0) {
        /* a size always starts with a digit */
        if (text[0] < '0' || text[0] > '9')
            die("cli_parse_size accepted text not starting with a digit", text);
    }

    v = 0;
    if (cli_parse_duration(text, &v) == 0) {
        /* at most 31 days, as documented for --runtime */
        if (v > UINT64_C(31) * 24 * 3600 * 1000000000u)
            die("cli_parse_duration accepted more than 31 days", text);
    }

    v = 0;
    if (cli_parse_uint(text, 1, UINT64_C(1) << 40, &v) == 0 && (v < 1 || v > (UINT64_C(1) << 40)))
        die("cli_parse_uint returned a value outside [1, 2^40]", text);
    v = 0;
    if (cli_parse_uint(text, 0, UINT64_MAX, &v) == 0 && (text[0] < '0' || text[0] > '9'))
        die("cli_parse_uint accepted text not starting with a digit", text);
    v = 0;
    if (cli_parse_uint(text, 512, 1024, &v) == 0 && (v < 512 || v > 1024))
        die("cli_parse_uint returned a value outside [512, 1024]", text);

    free(text);
}

static void check_success(const struct cli_options *o)
{
    if (o->help || o->version)
        return; /* parsing stops early; nothing else is promised */
    if (!o->target)
        die("success without a target", NULL);
    if (o->nmodes < 1 || o->nmodes > sizeof(o->modes) / sizeof(o->modes[0]))
        die("nmodes out of range", NULL);
    for (size_t i = 0; i < o->nmodes; i++)
        if ((unsigned)o->modes[i] >= diskio_mode_count())
            die("unknown mode in modes[]", NULL);
    if (o->nsizes < 1 || o->nsizes > CLI_MAX_SIZES)
        die("nsizes out of range", NULL);
    uint64_t largest = 0;
    for (size_t i = 0; i < o->nsizes; i++) {
        if (o->block_sizes[i] < DISKIO_BS_MIN || o->block_sizes[i] > DISKIO_BS_MAX)
            die("block size outside DISKIO_BS_MIN..DISKIO_BS_MAX", NULL);
        if (o->block_sizes[i] > largest)
            largest = o->block_sizes[i];
    }
    if (o->file_size < largest)
        die("file size smaller than the largest block size", NULL);
    if (!o->count && !o->runtime_ns)
        die("neither count nor runtime set", NULL);
    if (o->iodepth < 1 || o->iodepth > DISKIO_IODEPTH_MAX)
        die("iodepth out of range", NULL);
    if (o->sync_every < 1)
        die("sync_every is zero", NULL);
    if (o->label && (!*o->label || strlen(o->label) > 200))
        die("label length out of range", o->label);
    if (o->output && !*o->output)
        die("empty output name accepted", NULL);
    if (o->trace && !*o->trace)
        die("empty trace name accepted", NULL);
    if (o->output && o->trace && strcmp(o->output, o->trace) == 0)
        die("output and trace name the same file", o->output);
    /* every run the accepted options make is one the library accepts */
    for (size_t s = 0; s < o->nsizes; s++)
        for (size_t m = 0; m < o->nmodes; m++) {
            struct diskio_config cfg;
            struct diskio_config_verdict v;
            cli_config(o, o->modes[m], o->block_sizes[s], &cfg);
            if (diskio_config_validate(&cfg, &v) != 0)
                die("accepted options make a run the library refuses", v.message);
        }
}

static void fuzz_cli_parse(const uint8_t *data, size_t size)
{
    /* one writable copy; every separator becomes the terminator of an arg */
    char *buf = malloc(size + 1);
    if (!buf)
        return;
    memcpy(buf, data, size);
    buf[size] = '\0';

    char *argv[FUZZ_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)"diskio";
    if (size > 0) {
        char *start = buf;
        for (size_t i = 0; i <= size && argc <= FUZZ_MAX_ARGS; i++) {
            if (i == size || buf[i] == '\0' || buf[i] == '\n') {
                buf[i] = '\0';
                argv[argc++] = start;
                start = buf + i + 1;
            }
        }
    }
    argv[argc] = NULL;

    struct cli_options o;
    char err[ERR_SIZE];
    memset(err, SENTINEL, sizeof(err));
    int rc = cli_parse(argc, argv, &o, err, sizeof(err));
    if (rc == 0) {
        check_success(&o);
    } else if (rc == -1) {
        size_t n = strnlen(err, sizeof(err));
        if (n == sizeof(err))
            die("error message not NUL-terminated", NULL);
        if (n == 0)
            die("empty error message", NULL);
    } else {
        die("cli_parse returned neither 0 nor -1", NULL);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_scalars(data, size);
    fuzz_cli_parse(data, size);
    return 0;
}
