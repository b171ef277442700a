/* SPDX-License-Identifier: MIT */
/*
 * Description: link libdiskio into your own test.  This program times its
 * own operation (append a record and fdatasync it, as a log would) with
 * libdiskio's histograms, then writes the same JSON result diskio(1)
 * writes, so diskio-correlate and diskio-plot read it like any other.
 *
 *   cc custom_timing.c $(pkg-config --cflags --libs libdiskio)
 *   ./a.out [DIR] > result.json
 *
 * Exit status: 0 ok, 1 failure (message on stderr), 77 when DIR cannot
 * be written (skip, for make check).
 */
#include <diskio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RECORDS 200

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof(path), "%s/custom_timing.%ld.log", dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0600);
    if (fd < 0) {
        fprintf(stderr, "custom_timing: cannot create %s: %s\n", path, strerror(errno));
        return 77;
    }

    struct diskio_run *run;
    if (diskio_run_new("log-append", &run) != 0 || diskio_run_enable_parts(run) != 0) {
        fprintf(stderr, "custom_timing: out of memory\n");
        return 1;
    }
    struct diskio_hist *total = diskio_run_hist(run, DISKIO_PART_TOTAL);
    struct diskio_hist *write_part = diskio_run_hist(run, DISKIO_PART_WRITE);
    struct diskio_hist *sync_part = diskio_run_hist(run, DISKIO_PART_SYNC);

    char record[256];
    memset(record, 'x', sizeof(record));
    uint64_t run_start_ns = diskio_now_ns();
    for (int i = 0; i < RECORDS; i++) {
        uint64_t start_ns = diskio_now_ns();
        ssize_t written = write(fd, record, sizeof(record));
        uint64_t write_done_ns = diskio_now_ns();
        int synced = fdatasync(fd);
        uint64_t end_ns = diskio_now_ns();
        if (written != (ssize_t)sizeof(record) || synced != 0) {
            fprintf(stderr, "custom_timing: write/fdatasync failed: %s\n", strerror(errno));
            unlink(path);
            return 1;
        }
        diskio_hist_record(total, end_ns - start_ns);
        diskio_hist_record(write_part, write_done_ns - start_ns);
        diskio_hist_record(sync_part, end_ns - write_done_ns);
    }
    diskio_run_finish(run, diskio_now_ns() - run_start_ns, RECORDS * sizeof(record));
    close(fd);
    unlink(path);

    struct diskio_result *result;
    if (diskio_result_new("custom-example", &result) != 0 ||
        diskio_result_probe(result, dir) != 0 || diskio_result_add_run(result, run) != 0) {
        fprintf(stderr, "custom_timing: out of memory\n");
        return 1;
    }
    /* a person's summary on stderr, the machine-readable result on stdout */
    diskio_result_write(result, DISKIO_FORMAT_TEXT, stderr);
    int rc = diskio_result_write(result, DISKIO_FORMAT_JSON, stdout);
    uint64_t count = diskio_hist_count(total);
    diskio_result_free(result);
    if (rc != 0 || count != RECORDS) {
        fprintf(stderr, "custom_timing: expected %d records, histogram has %llu\n", RECORDS,
                (unsigned long long)count);
        return 1;
    }
    return 0;
}
