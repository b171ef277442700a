/* SPDX-License-Identifier: MIT */
/*
 * Description: a host program that calls setlocale(LC_ALL, ...) with a
 * decimal-comma locale, then writes a libdiskio result as JSON, CSV and
 * text (r.json, r.csv, r.txt in DIR).  Run by tests/cli/locale-output.sh,
 * which reads the files back: the library's output must not depend on
 * the host's locale.
 *
 *   locale-writer DIR LOCALE...
 *
 * The first LOCALE that setlocale() accepts is used.  Exit status: 0 the
 * files were written, 1 failure, 77 no given locale can be set or it has
 * no decimal comma (nothing to test).
 */
#include <diskio.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What printf makes of 1.5 under the current locale. */
static void format_one_and_a_half(char *buf, size_t size)
{
    snprintf(buf, size, "%.1f", 1.5);
}

static int write_as(const struct diskio_result *res, enum diskio_format fmt, const char *dir,
                    const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "locale-writer: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = diskio_result_write(res, fmt, f);
    if (fclose(f) != 0 && rc == 0)
        rc = -errno;
    if (rc != 0) {
        fprintf(stderr, "locale-writer: writing %s: %s\n", path, diskio_strerror(rc));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: locale-writer DIR LOCALE...\n");
        return 1;
    }
    const char *dir = argv[1], *chosen = NULL;
    for (int i = 2; i < argc && !chosen; i++)
        if (setlocale(LC_ALL, argv[i]))
            chosen = argv[i];
    char before[16];
    format_one_and_a_half(before, sizeof(before));
    if (!chosen || strcmp(before, "1,5") != 0) {
        printf("SKIP: no decimal-comma locale could be set (%s)\n", chosen ? chosen : "none");
        return 77;
    }
    printf("locale %s: printf(\"%%.1f\", 1.5) gives %s\n", chosen, before);

    struct diskio_result *res;
    if (diskio_result_new("decimal comma", &res) != 0 || diskio_result_probe(res, dir) != 0) {
        fprintf(stderr, "locale-writer: out of memory\n");
        return 1;
    }
    /* a real paced run (rates and runtime as fractions) and a custom run
     * (1000 ops in 3 s: 333.33 ops/s, a mean of 2000.5 ns) */
    struct diskio_target *target;
    int rc = diskio_target_open(dir, 1 << 20, 0, &target);
    if (rc != 0) {
        fprintf(stderr, "locale-writer: target %s: %s\n", dir, diskio_strerror(rc));
        return 1;
    }
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = DISKIO_MODE_FDATASYNC;
    cfg.file_size = 1 << 20;
    cfg.count = 5;
    cfg.rate_interval_ns = 3000000; /* 333.33 ops/s */
    struct diskio_run *run;
    rc = diskio_run_execute(&cfg, target, &run);
    diskio_target_free(target);
    if (rc != 0 || diskio_result_add_run(res, run) != 0) {
        fprintf(stderr, "locale-writer: run: %s\n", diskio_strerror(rc));
        return 1;
    }
    struct diskio_run *custom;
    if (diskio_run_new("custom", &custom) != 0) {
        fprintf(stderr, "locale-writer: out of memory\n");
        return 1;
    }
    for (uint64_t v = 1; v <= 1000; v++)
        diskio_hist_record(diskio_run_hist(custom, DISKIO_PART_TOTAL), v + 1500);
    diskio_run_finish(custom, 3000000000u, 1000 * 4096);
    if (diskio_result_add_run(res, custom) != 0) {
        fprintf(stderr, "locale-writer: out of memory\n");
        return 1;
    }

    if (write_as(res, DISKIO_FORMAT_JSON, dir, "r.json") != 0 ||
        write_as(res, DISKIO_FORMAT_CSV, dir, "r.csv") != 0 ||
        write_as(res, DISKIO_FORMAT_TEXT, dir, "r.txt") != 0)
        return 1;
    diskio_result_free(res);

    /* the host's locale is the host's: writing a result leaves it alone */
    char after[16];
    format_one_and_a_half(after, sizeof(after));
    if (strcmp(after, before) != 0) {
        fprintf(stderr, "locale-writer: the host's locale changed: 1.5 is now %s\n", after);
        return 1;
    }
    return 0;
}
