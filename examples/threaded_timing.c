/* SPDX-License-Identifier: MIT */
/*
 * Description: time the same operation in several threads at once with
 * libdiskio (diskio_run_threads): here, 4 writers each appending records
 * to a log file of their own and fdatasync()ing them, as concurrent
 * committers would.  Every thread records into a histogram of its own,
 * merged into the run; each thread's own figures stay readable
 * (diskio_run_job), and the run carries its parameters
 * (diskio_run_set_param) into the table and the JSON.
 *
 *   cc threaded_timing.c $(pkg-config --cflags --libs libdiskio)
 *   ./a.out [DIR] > result.json
 *
 * Exit status: 0 ok, 1 failure (message on stderr), 77 when DIR cannot
 * be written (skip, for make check).
 */
#include <diskio.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 4
#define RECORDS 100 /* per thread */

struct logs {
    int fd[THREADS]; /* each thread writes its own file: no shared state */
    char record[512];
};

/* One op: append a record and make it durable.  Returns the bytes, or
 * -errno, which stops every thread. */
static int64_t append_record(void *arg, unsigned thread, uint64_t i)
{
    struct logs *logs = arg;
    (void)i;
    if (write(logs->fd[thread], logs->record, sizeof(logs->record)) !=
        (ssize_t)sizeof(logs->record))
        return -EIO;
    if (fdatasync(logs->fd[thread]) != 0)
        return -errno;
    return (int64_t)sizeof(logs->record);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    struct logs logs;
    char path[THREADS][4096];
    memset(logs.record, 'r', sizeof(logs.record));
    for (unsigned t = 0; t < THREADS; t++) {
        snprintf(path[t], sizeof(path[t]), "%s/threaded_timing.%ld.%u.log", dir, (long)getpid(), t);
        logs.fd[t] = open(path[t], O_WRONLY | O_CREAT | O_EXCL | O_APPEND, 0600);
        if (logs.fd[t] < 0) {
            fprintf(stderr, "threaded_timing: cannot create %s: %s\n", path[t], strerror(errno));
            while (t-- > 0)
                unlink(path[t]);
            return 77;
        }
    }

    struct diskio_run *run;
    if (diskio_run_new("log-commit", &run) != 0 ||
        diskio_run_set_param(run, "record", "512") != 0 ||
        diskio_run_set_param(run, "sync", "fdatasync") != 0) {
        fprintf(stderr, "threaded_timing: out of memory\n");
        return 1;
    }
    int rc = diskio_run_threads(run, THREADS, append_record, &logs, RECORDS);
    for (unsigned t = 0; t < THREADS; t++) {
        close(logs.fd[t]);
        unlink(path[t]);
    }
    if (rc < 0 && diskio_run_info(run)->error_job < 0) {
        /* nothing was timed (bad arguments, no memory, no threads) */
        fprintf(stderr, "threaded_timing: %s\n", diskio_strerror(rc));
        diskio_run_free(run);
        return 1;
    }
    if (rc < 0)
        fprintf(stderr, "threaded_timing: thread %d failed at its op %" PRIu64 ": %s\n",
                diskio_run_info(run)->error_job, diskio_run_info(run)->error_op,
                diskio_strerror(rc));

    /* each thread's own figures */
    uint64_t sum = 0;
    for (size_t t = 0; t < diskio_run_job_count(run); t++) {
        struct diskio_job_summary s;
        if (diskio_run_job(run, t, &s) != 0)
            return 1;
        fprintf(stderr, "thread %zu: %" PRIu64 " ops, p50 %" PRIu64 " ns, p99 %" PRIu64 " ns\n", t,
                s.ops, s.p50_ns, s.p99_ns);
        sum += s.ops;
    }

    struct diskio_result *result;
    uint64_t merged = diskio_hist_count(diskio_run_hist(run, DISKIO_PART_TOTAL));
    if (diskio_result_new("threaded-example", &result) != 0 ||
        diskio_result_probe(result, dir) != 0 || diskio_result_add_run(result, run) != 0) {
        fprintf(stderr, "threaded_timing: out of memory\n");
        return 1;
    }
    diskio_result_write(result, DISKIO_FORMAT_TEXT, stderr);
    int written = diskio_result_write(result, DISKIO_FORMAT_JSON, stdout);
    diskio_result_free(result);
    if (rc < 0 || written != 0 || merged != sum || sum != THREADS * RECORDS) {
        fprintf(stderr,
                "threaded_timing: expected %d ops, merged %" PRIu64 ", threads %" PRIu64 "\n",
                THREADS * RECORDS, merged, sum);
        return 1;
    }
    return 0;
}
