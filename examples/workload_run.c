/* SPDX-License-Identifier: MIT */
/*
 * Description: run one of libdiskio's own workloads from your program,
 * with your hooks into the run beside it.  The workload (struct
 * diskio_config: what is measured, recorded in the result) is 200
 * fdatasync'd 8 KiB writes; the hooks (struct diskio_run_options: how
 * this program takes part in the run, never recorded) are a stop flag
 * that Ctrl-C raises and a counter of the operations done.
 *
 *   cc workload_run.c $(pkg-config --cflags --libs libdiskio)
 *   ./a.out [DIR]
 *
 * Exit status: 0 ok, 1 failure (message on stderr), 130 interrupted,
 * 77 when DIR cannot be written (skip, for make check).
 */
#include <diskio.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
    stop = sig;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    struct diskio_config cfg;
    diskio_config_init(&cfg);
    cfg.mode = DISKIO_MODE_FDATASYNC;
    cfg.count = 200;
    cfg.file_size = UINT64_C(1) << 20;

    /* no SA_RESTART: a blocked call returns and the run stops */
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    static volatile uint64_t done;
    struct diskio_run_options opts;
    diskio_run_options_init(&opts);
    opts.stop = &stop;
    opts.progress = &done;

    struct diskio_config_verdict v;
    if (diskio_config_validate_opts(&cfg, &opts, 0, &v) != 0) {
        fprintf(stderr, "workload_run: %s\n", v.message);
        return 1;
    }
    struct diskio_target *target;
    int rc = diskio_target_open(dir, cfg.file_size, 0, &target);
    if (rc < 0) {
        fprintf(stderr, "workload_run: %s: %s\n", dir, diskio_strerror(rc));
        return 77;
    }
    struct diskio_run *run;
    rc = diskio_run_execute_opts(&cfg, &opts, target, &run);
    diskio_target_free(target); /* removes the test file */
    if (!run) {
        fprintf(stderr, "workload_run: could not start: %s\n", diskio_strerror(rc));
        return stop ? 130 : 1;
    }
    const struct diskio_hist *sync_part = diskio_run_hist_const(run, DISKIO_PART_SYNC);
    printf("%" PRIu64 " ops, fdatasync p50 %" PRIu64 " ns, p99 %" PRIu64 " ns%s\n", done,
           diskio_hist_percentile(sync_part, 50), diskio_hist_percentile(sync_part, 99),
           rc < 0 ? " (incomplete)" : "");
    /* the run records its workload, none of this program's hooks */
    const struct diskio_run_info *info = diskio_run_info(run);
    const int ok = rc == 0 && done == info->ops && info->config.stop == NULL;
    diskio_run_free(run);
    if (stop)
        return 130;
    if (!ok) {
        fprintf(stderr, "workload_run: %s\n", rc < 0 ? diskio_strerror(rc) : "progress miscounted");
        return 1;
    }
    return 0;
}
