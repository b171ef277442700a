/* SPDX-License-Identifier: MIT */
/* diskio(1): run the modes, print the table, write the result. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_options.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "diskio.h"

static volatile sig_atomic_t stop_signal;
static struct diskio_target *volatile current_target;

/* Async-signal-safe: write(2) only. */
static void say(const char *text)
{
    ssize_t n = write(STDERR_FILENO, text, strlen(text));
    (void)n;
}

static void on_signal(int signo)
{
    if (stop_signal) {
        /* A second signal: the run did not stop (a sync stuck on a dead
         * device, say).  Remove what we created and leave at once; a test
         * file that stays is named, as it is the user's to remove now. */
        struct diskio_target *t = current_target;
        if (t && diskio_target_remove(t) < 0) {
            say("diskio: warning: the test file ");
            say(diskio_target_path(t));
            say(" was not removed; remove it yourself\n");
        }
        out_file_unlink_pending();
        _exit(128 + signo);
    }
    stop_signal = signo;
}

/* 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP */
static int status_for_signal(int signo)
{
    return 128 + signo;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Every signal whose default action ends the process, except the
     * ones a crash raises (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
     * SIGSYS, SIGTRAP: after a crash nothing in memory can be trusted to
     * name the file to remove), stops the run the same way, so that none
     * leaves the test file behind.  SIGXCPU is RLIMIT_CPU's warning before
     * its SIGKILL.
     * No SA_RESTART: a blocked io_getevents returns EINTR and the loop
     * sees the stop flag.  An inherited "ignore" of SIGINT, SIGQUIT or
     * SIGHUP is kept, as shells (background jobs) and nohup(1) expect. */
    static const int stop_signals[] = {
        SIGINT,    SIGQUIT,   SIGHUP,  SIGTERM, SIGUSR1, SIGUSR2,
        SIGALRM,   SIGVTALRM, SIGPROF, SIGIO,   SIGXCPU,
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
        int signo = stop_signals[i];
        struct sigaction old;
        if ((signo == SIGINT || signo == SIGQUIT || signo == SIGHUP) &&
            sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(signo, &sa, NULL);
    }
    for (int signo = SIGRTMIN; signo <= SIGRTMAX; signo++)
        sigaction(signo, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* over RLIMIT_FSIZE a write must fail with EFBIG (and be reported),
     * not kill the process with the measurements */
    signal(SIGXFSZ, SIG_IGN);
}

/* ---- messages ---- */
static int report_target_error(const char *target, int rc)
{
    switch (-rc) {
    case DISKIO_E_TARGET_EXISTS:
        fprintf(stderr,
                "diskio: %s exists and was not created by diskio; refusing to write to "
                "it. Give a directory to create a test file in, or add --force to "
                "overwrite this file's contents.\n",
                target);
        break;
    case DISKIO_E_TARGET_DEVICE:
        fprintf(stderr,
                "diskio: %s is a block device; writing to it destroys its data. Add "
                "--allow-device only if that is what you want.\n",
                target);
        break;
    case DISKIO_E_TARGET_TYPE:
        fprintf(stderr,
                "diskio: %s is a symlink, FIFO, socket or character device; diskio "
                "writes only to a directory, a new file, a regular file (--force) or a "
                "block device (--allow-device).\n",
                target);
        break;
    case DISKIO_E_TARGET_CHANGED:
        fprintf(stderr,
                "diskio: %s changed while diskio opened it (another file, a symlink or "
                "nothing is there now); refusing to write to what it did not check. "
                "Make sure no other program renames files in its directory.\n",
                target);
        break;
    case DISKIO_E_DEVICE_BUSY:
        fprintf(stderr,
                "diskio: %s is in use (mounted, or held by another program such as a RAID, "
                "LVM or swap); refusing to write to it. Unmount or release it first.\n",
                target);
        break;
    case ENOENT:
        fprintf(stderr, "diskio: %s: the directory does not exist; create it first.\n", target);
        break;
    default:
        fprintf(stderr,
                "diskio: cannot create a test file at %s: %s; check that the directory "
                "exists, is writable and has space.\n",
                target, diskio_strerror(rc));
    }
    return EXIT_TARGET;
}

/* Why a run failed: the op and what it was doing, or why it could not
 * start. */
static void report_run_error(const struct diskio_config *cfg, const struct diskio_run *run, int rc)
{
    const struct diskio_run_info *info = run ? diskio_run_info(run) : NULL;
    if (info)
        fprintf(stderr, "diskio: mode %s: %s failed at op %" PRIu64 ": %s\n",
                diskio_mode_name(cfg->mode), info->error_during ? info->error_during : "run",
                info->error_op, diskio_strerror(rc));
    else
        fprintf(stderr,
                "diskio: mode %s could not start: %s (preparing or opening its %llu-byte test "
                "file%s)\n",
                diskio_mode_name(cfg->mode), diskio_strerror(rc),
                (unsigned long long)cfg->file_size,
                rc == -ENOSPC || rc == -EFBIG || rc == -DISKIO_E_NO_SPACE
                    ? "; a smaller --size needs less room"
                : rc == -DISKIO_E_TARGET_CHANGED
                    ? "; another program replaced it: make sure none renames files in its "
                      "directory"
                    : "");
}

/* Remove the test file (if diskio made it) and release the target; a
 * test file that stays behind is named, as it is the user's to remove. */
static void release_target(struct diskio_target *target)
{
    if (!target)
        return;
    int rc = diskio_target_remove(target);
    if (rc == -DISKIO_E_TARGET_CHANGED)
        fprintf(stderr,
                "diskio: warning: the name of the test file %s was replaced, renamed or "
                "removed by another program during the run; diskio measured its own file "
                "and left what is at that name now alone. Check %s for files you did "
                "not expect.\n",
                diskio_target_path(target), diskio_target_dir(target));
    else if (rc < 0)
        fprintf(stderr,
                "diskio: warning: could not remove the test file %s: %s; remove it "
                "yourself.\n",
                diskio_target_path(target), diskio_strerror(rc));
    diskio_target_free(target);
}

/* What can be known about the target before anything is measured: a
 * device smaller than a block, a filesystem without room for the file.
 * 0, or EXIT_TARGET with a message. */
static int check_target_fits(const struct cli_options *opt, const struct diskio_target *target)
{
    if (diskio_target_is_device(target)) {
        uint64_t bytes = diskio_target_size(target);
        for (size_t s = 0; s < opt->nsizes; s++) {
            if (opt->block_sizes[s] <= bytes)
                continue;
            fprintf(stderr,
                    "diskio: --bs %" PRIu64 " is larger than the device %s (%" PRIu64
                    " bytes); give a block size of at most its size.\n",
                    opt->block_sizes[s], opt->target, bytes);
            return EXIT_TARGET;
        }
        return 0;
    }
    uint64_t needed = 0, available = 0, reserve = 0;
    int rc = diskio_target_check_space(target, opt->file_size, &needed, &available, &reserve);
    if (rc == -DISKIO_E_NO_SPACE) {
        fprintf(stderr,
                "diskio: the test file needs %" PRIu64 " more bytes (--size %" PRIu64
                ") but the filesystem at %s has %" PRIu64 " bytes available, of which "
                "diskio leaves %" PRIu64 " free (5%% of its size, at most 1 GiB); give a "
                "smaller --size or free some space.\n",
                needed, opt->file_size, diskio_target_dir(target), available, reserve);
        return EXIT_TARGET;
    }
    /* a filesystem that cannot say (rc < 0) is left to the writes */
    return 0;
}

static void warn_memory_fs(const struct diskio_result *res, const char *target, bool quiet)
{
    const char *fs = diskio_result_env(res, "target.filesystem");
    if (quiet || !fs)
        return;
    if (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0)
        fprintf(stderr,
                "diskio: warning: %s is on %s, which lives in memory: the durability "
                "modes measure memory copies there, not storage.\n",
                target, fs);
}

int main(int argc, char **argv)
{
    struct cli_options opt;
    char err[512];
    if (cli_parse(argc, argv, &opt, err, sizeof(err)) != 0) {
        fprintf(stderr, "diskio: %s\nTry 'diskio --help' for more information.\n", err);
        return EXIT_USAGE;
    }
    if (opt.help) {
        cli_usage(stdout);
        return EXIT_OK;
    }
    if (opt.version) {
        printf("diskio %s\n", diskio_version());
        return EXIT_OK;
    }

    /* The library refuses to truncate a file it did not make (the append
     * pattern); ask it before anything is created, as this is a usage
     * error. */
    unsigned flags = (opt.force ? DISKIO_TARGET_FORCE : 0) |
                     (opt.allow_device ? DISKIO_TARGET_DEVICE : 0) |
                     (opt.pattern == DISKIO_PATTERN_APPEND ? DISKIO_TARGET_TRUNCATE : 0);
    if ((flags & DISKIO_TARGET_TRUNCATE) &&
        diskio_target_check(opt.target, flags) == -DISKIO_E_TARGET_EXISTS) {
        fprintf(stderr,
                "diskio: --pattern append truncates its file, so it runs only on a test "
                "file diskio creates; give a directory or a new path instead of %s\n"
                "Try 'diskio --help' for more information.\n",
                opt.target);
        return EXIT_USAGE;
    }

    /* Handlers first: a signal from here on stops the run the same way,
     * so no temporary output file or test file made below is left behind
     * by one (a signal before the first run ends diskio with a result of
     * no runs, marked incomplete). */
    install_signals();

    /* Output files first: finding out after ten minutes of measuring that
     * the result cannot be written would waste the run.  Trace files are
     * made per run; their names are checked now and a first one is opened
     * to prove the directory writable. */
    struct out_file output = {.slot = 0}, trace = {.slot = 1};
    bool several_runs = opt.nmodes * opt.nsizes > 1 || opt.repeat > 1;
    if (opt.output && out_file_open(&output, opt.output, opt.force) != 0)
        return EXIT_TARGET;
    if (opt.trace) {
        bool allowed = true;
        for (unsigned rep = 1; rep <= opt.repeat && allowed; rep++)
            for (size_t s = 0; s < opt.nsizes && allowed; s++)
                for (size_t m = 0; m < opt.nmodes && allowed; m++) {
                    char *name = trace_name(opt.trace, several_runs, opt.modes[m],
                                            opt.block_sizes[s], opt.repeat > 1 ? rep : 0);
                    allowed = name && out_file_allowed(name, opt.force);
                    free(name);
                }
        if (!allowed || out_file_open(&trace, opt.trace, true) != 0) {
            out_file_discard(&output);
            return EXIT_TARGET;
        }
        out_file_discard(&trace);
    }

    struct diskio_target *target = NULL;
    int rc = diskio_target_open(opt.target, opt.file_size, flags, &target);
    if (rc < 0) {
        out_file_discard(&output);
        out_file_discard(&trace);
        return report_target_error(opt.target, rc);
    }
    current_target = target;
    if (check_target_fits(&opt, target) != 0) {
        current_target = NULL;
        release_target(target);
        out_file_discard(&output);
        out_file_discard(&trace);
        return EXIT_TARGET;
    }

    struct diskio_result *result = NULL;
    if (diskio_result_new(opt.label, &result) != 0 ||
        diskio_result_probe(result, diskio_target_dir(target)) != 0) {
        fprintf(stderr, "diskio: out of memory\n");
        current_target = NULL;
        release_target(target);
        out_file_discard(&output);
        out_file_discard(&trace);
        return EXIT_RUN_FAILED;
    }
    warn_memory_fs(result, opt.target, opt.quiet);

    /* Modes the filesystem cannot open (O_DIRECT on ramfs, say) are found
     * before anything is measured: requested explicitly they end the run
     * (exit 3), from the default list they are skipped with a note. */
    bool usable[DISKIO_MODE_COUNT];
    for (unsigned m = 0; m < DISKIO_MODE_COUNT; m++)
        usable[m] = true;
    for (size_t m = 0; m < opt.nmodes; m++) {
        enum diskio_mode mode = opt.modes[m];
        if (!usable[mode] || (rc = diskio_target_check_mode(target, mode)) == 0)
            continue;
        usable[mode] = false;
        const char *fs = diskio_result_env(result, "target.filesystem");
        if (rc == -DISKIO_E_NO_DIRECT)
            fprintf(stderr,
                    "diskio: mode %s: the filesystem at %s (%s) refuses O_DIRECT; use "
                    "--mode osync, odsync, fsync or fdatasync there%s\n",
                    diskio_mode_name(mode), opt.target, fs ? fs : "unknown",
                    opt.modes_explicit ? "" : " (skipped)");
        else
            fprintf(stderr, "diskio: mode %s cannot open %s: %s%s\n", diskio_mode_name(mode),
                    diskio_target_path(target), diskio_strerror(rc),
                    opt.modes_explicit ? "" : " (skipped)");
        if (opt.modes_explicit) {
            diskio_result_free(result);
            current_target = NULL;
            release_target(target);
            out_file_discard(&output);
            out_file_discard(&trace);
            return EXIT_TARGET;
        }
    }

    /* O_DIRECT needs lengths and offsets aligned to what the target's
     * device takes (4096 bytes on a 4Kn disk, not 512): a --bs that
     * breaks it would fail at op 0, so it is a usage error found now,
     * before the first run. */
    for (size_t m = 0; m < opt.nmodes; m++) {
        if (!usable[opt.modes[m]] || !diskio_mode_is_direct(opt.modes[m]))
            continue;
        uint64_t offset_align, mem_align;
        if (diskio_target_direct_align(target, &offset_align, &mem_align) != 0)
            break;
        const char *problem = NULL;
        uint64_t bad_bs = 0;
        for (size_t s = 0; s < opt.nsizes && !problem; s++)
            if (opt.block_sizes[s] % offset_align != 0) {
                problem = "bs";
                bad_bs = opt.block_sizes[s];
            }
        /* libdiskio's request buffers are aligned to 4096 bytes */
        if (!problem && mem_align > 4096)
            problem = "mem";
        if (!problem)
            break;
        if (bad_bs)
            fprintf(stderr,
                    "diskio: --bs %llu: mode %s (O_DIRECT) on %s needs sizes and offsets "
                    "aligned to %llu bytes (the device's direct I/O alignment); use a --bs "
                    "that is a multiple of %llu, or a mode without O_DIRECT\n",
                    (unsigned long long)bad_bs, diskio_mode_name(opt.modes[m]), opt.target,
                    (unsigned long long)offset_align, (unsigned long long)offset_align);
        else
            fprintf(stderr,
                    "diskio: mode %s (O_DIRECT) on %s needs buffers aligned to %llu bytes, "
                    "more than diskio's 4096; use a mode without O_DIRECT\n",
                    diskio_mode_name(opt.modes[m]), opt.target, (unsigned long long)mem_align);
        diskio_result_free(result);
        current_target = NULL;
        release_target(target);
        out_file_discard(&output);
        out_file_discard(&trace);
        return EXIT_USAGE;
    }

    struct progress progress = {0};
    if (!opt.quiet && isatty(STDERR_FILENO))
        progress.running = pthread_create(&progress.thread, NULL, progress_main, &progress) == 0;

    /* The result's run for each (size, mode): the first repetition's,
     * into which the later ones are merged. */
    size_t nslots = opt.nsizes * opt.nmodes;
    struct diskio_run **merged = calloc(nslots, sizeof(*merged));
    int status = merged ? EXIT_OK : EXIT_RUN_FAILED;
    if (!merged)
        fprintf(stderr, "diskio: out of memory\n");
    char label[96];
    /* --repeat: round after round of every run, so that a slow minute of
     * the machine (writeback, a neighbour) spreads over all the modes
     * instead of landing on one of them */
    for (unsigned rep = 1; rep <= opt.repeat && status == EXIT_OK; rep++) {
        for (size_t s = 0; s < opt.nsizes && status == EXIT_OK; s++) {
            for (size_t m = 0; m < opt.nmodes && status == EXIT_OK; m++) {
                if (stop_signal)
                    break;
                if (!usable[opt.modes[m]])
                    continue;
                struct diskio_config cfg;
                cli_config(&opt, opt.modes[m], opt.block_sizes[s], &cfg);
                char *trace_path = NULL;
                if (opt.trace) {
                    trace_path = trace_name(opt.trace, several_runs, cfg.mode, cfg.block_size,
                                            opt.repeat > 1 ? rep : 0);
                    if (!trace_path || out_file_open(&trace, trace_path, opt.force) != 0) {
                        free(trace_path);
                        status = EXIT_TARGET;
                        break;
                    }
                }
                cfg.trace_fd = trace.stream ? fileno(trace.stream) : -1;
                cfg.stop = &stop_signal;
                cfg.progress = &progress.ops;

                if (opt.repeat > 1)
                    snprintf(label, sizeof(label), "%s %" PRIu64 "B (%u/%u)",
                             diskio_mode_name(cfg.mode), cfg.block_size, rep, opt.repeat);
                else
                    snprintf(label, sizeof(label), "%s %" PRIu64 "B", diskio_mode_name(cfg.mode),
                             cfg.block_size);
                progress.label = label;
                progress.ops = 0;
                progress.run_start_ns = diskio_now_ns();

                struct diskio_run *run = NULL;
                rc = diskio_run_execute(&cfg, target, &run);
                progress.run_start_ns = 0;
                progress_clear(&progress);
                /* a trace keeps what it recorded, interrupted or not */
                if (trace.stream && out_file_commit(&trace, opt.force) != 0 && rc == 0)
                    rc = -EIO;
                free(trace_path);

                if (rc < 0 && rc != -DISKIO_E_INTERRUPTED && !stop_signal)
                    report_run_error(&cfg, run, rc);
                /* every repetition measured, failed or interrupted ones
                 * too, ends up in the result */
                if (run) {
                    struct diskio_run **slot = &merged[s * opt.nmodes + m];
                    int keep_rc = 0;
                    if (!*slot) {
                        keep_rc = diskio_result_add_run(result, run);
                        if (keep_rc == 0)
                            *slot = run;
                    } else {
                        keep_rc = diskio_run_merge(*slot, run);
                        diskio_run_free(run);
                    }
                    if (keep_rc < 0 && rc == 0) {
                        fprintf(stderr, "diskio: mode %s: cannot keep the run: %s\n",
                                diskio_mode_name(cfg.mode), diskio_strerror(keep_rc));
                        rc = keep_rc;
                    }
                }
                if (rc == -DISKIO_E_INTERRUPTED || stop_signal)
                    status = status_for_signal(stop_signal ? stop_signal : SIGINT);
                else if (rc < 0)
                    status = EXIT_RUN_FAILED;
            }
        }
    }
    free(merged);
    if (stop_signal && status == EXIT_OK)
        status = status_for_signal(stop_signal);
    if (status != EXIT_OK)
        diskio_result_set_incomplete(result);

    if (progress.running) {
        progress.done = true;
        pthread_join(progress.thread, NULL);
        progress_clear(&progress);
    }
    current_target = NULL;
    release_target(target);

    if (!opt.quiet && (output.stream || opt.format == DISKIO_FORMAT_TEXT))
        diskio_result_write(result, DISKIO_FORMAT_TEXT, stdout);
    if (output.stream) {
        if (diskio_result_write(result, opt.format, output.stream) != 0 ||
            out_file_commit(&output, opt.force) != 0)
            status = status == EXIT_OK ? EXIT_RUN_FAILED : status;
    } else if (opt.format != DISKIO_FORMAT_TEXT) {
        diskio_result_write(result, opt.format, stdout);
    }
    if (!diskio_result_complete(result) && !opt.quiet)
        fprintf(stderr, "diskio: the result is incomplete (%s)\n",
                status >= 128 ? "interrupted" : "a run failed");
    diskio_result_free(result);
    return status;
}
