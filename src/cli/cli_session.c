/* SPDX-License-Identifier: MIT */
/* The session's plan and its end: everything checked and made before
 * the first run (the output names against each other, the output files,
 * the target opened and its modes tried, O_DIRECT's alignment), the list
 * of runs, and the one cleanup (end_session). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_msg.h"
#include "cli_session.h"
#include "cli_signals.h"
#include "cli_suite_run.h"
#include "cli_target.h"

/* ---- output and trace names, all checked before anything is measured ---- */

/* A file diskio writes, for the check that no two are one. */
struct written_file {
    const char *name;
    const char *option;    /* "--output", "--interval-csv", "--trace" */
    const char *given;     /* what the option gave */
    enum diskio_mode mode; /* --trace: the run's mode */
    uint64_t bs;           /* and block size */
};

static void describe_file(char *buf, size_t size, const struct written_file *f)
{
    if (strcmp(f->option, "--trace") == 0)
        snprintf(buf, size, "the trace of run %s %" PRIu64 " (--trace %s), %s",
                 diskio_mode_name(f->mode), f->bs, f->given, f->name);
    else if (strcmp(f->option, "TARGET") == 0)
        snprintf(buf, size, "the test file %s (the target)", f->name);
    else
        snprintf(buf, size, "the %s file %s", f->option, f->name);
}

/* Whether a and b are one file; says so (a usage error). */
static bool same_file_refused(const struct written_file *a, const struct written_file *b)
{
    if (!out_same_file(a->name, b->name))
        return false;
    char one[1024], other[1024];
    describe_file(one, sizeof(one), a);
    describe_file(other, sizeof(other), b);
    cli_usage_msg("%s and %s are the same file, which would be written twice, one replacing the "
                  "other; choose different names",
                  one, other);
    return true;
}

/* Every file diskio writes (the --output, the --interval-csv, each run's
 * and repetition's trace) and the test file when the target is a file
 * are checked against each other before anything is made: the same
 * name, however spelled, or the same existing file under two names
 * (device and inode) is a usage error. */
static int check_output_names(const struct cli_options *opt, bool several_runs)
{
    struct written_file fixed[3];
    size_t nfixed = 0;
    if (opt->output)
        fixed[nfixed++] = (struct written_file){opt->output, "--output", opt->output, 0, 0};
    if (opt->interval_csv)
        fixed[nfixed++] =
            (struct written_file){opt->interval_csv, "--interval-csv", opt->interval_csv, 0, 0};
    struct stat st;
    if (stat(opt->target, &st) != 0 || !S_ISDIR(st.st_mode))
        fixed[nfixed++] = (struct written_file){opt->target, "TARGET", opt->target, 0, 0};
    for (size_t i = 0; i < nfixed; i++)
        for (size_t j = i + 1; j < nfixed; j++)
            if (same_file_refused(&fixed[i], &fixed[j]))
                return EXIT_USAGE;
    if (!opt->trace)
        return EXIT_OK;
    /* the traces differ from each other by construction (a mode or size
     * listed twice is refused); each is checked against the others */
    for (unsigned rep = 1; rep <= opt->repeat; rep++)
        for (size_t s = 0; s < opt->nsizes; s++)
            for (size_t m = 0; m < opt->nmodes; m++) {
                char *name = trace_name(opt->trace, several_runs, opt->modes[m],
                                        opt->block_sizes[s], opt->repeat > 1 ? rep : 0);
                if (!name) {
                    cli_msg("out of memory");
                    return EXIT_RUN_FAILED;
                }
                struct written_file trace = {name, "--trace", opt->trace, opt->modes[m],
                                             opt->block_sizes[s]};
                bool same = false;
                for (size_t i = 0; i < nfixed && !same; i++)
                    same = same_file_refused(&trace, &fixed[i]);
                free(name);
                if (same)
                    return EXIT_USAGE;
            }
    return EXIT_OK;
}

/* Every run's trace file can be made: the name is free (or --force), and
 * its temporary, created and removed at once, fits the filesystem's
 * limits and its directory is writable.  Says why not. */
static bool trace_names_usable(const struct cli_options *opt, bool several_runs,
                               struct out_file *trace)
{
    for (unsigned rep = 1; rep <= opt->repeat; rep++)
        for (size_t s = 0; s < opt->nsizes; s++)
            for (size_t m = 0; m < opt->nmodes; m++) {
                char *name = trace_name(opt->trace, several_runs, opt->modes[m],
                                        opt->block_sizes[s], opt->repeat > 1 ? rep : 0);
                if (!name) {
                    cli_msg("out of memory");
                    return false;
                }
                if (!opt->quiet)
                    out_report_leftovers(name);
                bool usable =
                    out_file_allowed(name, opt->force) && out_file_open(trace, name, true) == 0;
                out_file_discard(trace);
                free(name);
                if (!usable)
                    return false;
            }
    return true;
}

/* ---- the plan ---- */

/* Output files first: finding out after ten minutes of measuring that
 * the result cannot be written would waste the run.  Trace files are
 * made per run; every one's name is checked now and its temporary
 * created and removed, to prove it can be made. */
static int open_outputs(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    int status = check_output_names(opt, s->several_runs);
    if (status != EXIT_OK)
        return status;
    /* temporary names an earlier diskio, killed, left beside them */
    if (opt->output && !opt->quiet)
        out_report_leftovers(opt->output);
    if (opt->interval_csv && !opt->quiet)
        out_report_leftovers(opt->interval_csv);
    if (opt->output && out_file_open(&s->output, opt->output, opt->force) != 0)
        return EXIT_TARGET;
    if (opt->trace && !trace_names_usable(opt, s->several_runs, &s->trace))
        return EXIT_TARGET;
    if (opt->interval_csv && out_file_open(&s->ivcsv, opt->interval_csv, opt->force) != 0)
        return EXIT_TARGET;
    return EXIT_OK;
}

/* The target opened, and the result that describes its environment. */
static int open_target(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    int rc = diskio_target_open(opt->target, opt->file_size, s->target_flags, &s->target);
    if (rc < 0)
        return cli_report_target_error(opt->target, rc);
    cli_signals_target(s->target);
    if (cli_check_target_fits(opt, s->target) != 0)
        return EXIT_TARGET;
    if (diskio_result_new(opt->label, &s->result) != 0 ||
        diskio_result_probe(s->result, diskio_target_dir(s->target)) != 0) {
        cli_msg("out of memory");
        return EXIT_RUN_FAILED;
    }
    /* what the table shows: checked by cli_parse() already */
    if (opt->npercentiles)
        (void)diskio_result_set_percentiles(s->result, opt->percentiles, opt->npercentiles);
    if (opt->mbps)
        (void)diskio_result_set_throughput_unit(s->result, DISKIO_THROUGHPUT_MBIT_PER_S);
    cli_warn_memory_fs(s->result, opt->target, opt->quiet);
    return EXIT_OK;
}

/* Modes the filesystem cannot open (O_DIRECT on ramfs, say) are found
 * before anything is measured: requested explicitly they end the run
 * (exit 3), from the default list they are skipped with a note.  A
 * suite's rows that cannot run are left out with a note instead. */
static int check_modes(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    for (size_t m = 0; m < CLI_MAX_MODES; m++)
        s->usable[m] = true;
    if (s->is_suite) {
        cli_suite_check_rows(&s->suite, s->target, s->result, opt->quiet);
        size_t runnable = 0;
        for (size_t r = 0; r < s->suite.nrows; r++)
            runnable += !s->suite.rows[r].note;
        if (runnable)
            return EXIT_OK;
        cli_msg("none of the rows of suite %s (%s) can run at %s; see the notes above",
                s->suite.name, s->suite.path, opt->target);
        return EXIT_TARGET;
    }
    const char *fs = diskio_result_env(s->result, "target.filesystem");
    for (size_t m = 0; m < opt->nmodes; m++) {
        enum diskio_mode mode = opt->modes[m];
        int rc = diskio_target_check_mode(s->target, mode);
        if (rc == 0)
            continue;
        s->usable[m] = false;
        char buffered[256];
        cli_names(CLI_BUFFERED_DURABLE_MODES, ", ", " or ", buffered, sizeof(buffered));
        if (rc == -DISKIO_E_NO_DIRECT)
            cli_msg("mode %s: the filesystem at %s (%s) refuses O_DIRECT; use --mode %s there%s",
                    diskio_mode_name(mode), opt->target, fs ? fs : "unknown", buffered,
                    opt->modes_explicit ? "" : " (skipped)");
        else
            cli_msg("mode %s cannot open %s: %s%s", diskio_mode_name(mode),
                    diskio_target_path(s->target), diskio_strerror(rc),
                    opt->modes_explicit ? "" : " (skipped)");
        if (opt->modes_explicit)
            return EXIT_TARGET;
    }
    return EXIT_OK;
}

/* O_DIRECT needs lengths and offsets aligned to what the target's device
 * takes (4096 bytes on a 4Kn disk, not 512): a --bs that breaks it would
 * fail at op 0, so it is a usage error found now, before the first run.
 * The alignment is the target's: the first O_DIRECT mode tells. */
static int check_direct_alignment(const struct session *s)
{
    const struct cli_options *opt = &s->opt;
    size_t m = 0;
    while (m < opt->nmodes && !(s->usable[m] && diskio_mode_is_direct(opt->modes[m])))
        m++;
    if (s->is_suite || m == opt->nmodes)
        return EXIT_OK;
    uint64_t offset_align, mem_align;
    /* the sizes first, then (each size fitting the offsets by then) the
     * buffers */
    for (size_t i = 0; i < opt->nsizes; i++) {
        if (!cli_direct_misfit(s->target, opt->block_sizes[i], &offset_align, &mem_align))
            continue;
        if (opt->block_sizes[i] % offset_align != 0) {
            cli_msg("--bs %llu: mode %s (O_DIRECT) on %s needs sizes and offsets aligned to %llu "
                    "bytes (the device's direct I/O alignment); use a --bs that is a multiple of "
                    "%llu, or a mode without O_DIRECT",
                    (unsigned long long)opt->block_sizes[i], diskio_mode_name(opt->modes[m]),
                    opt->target, (unsigned long long)offset_align,
                    (unsigned long long)offset_align);
            return EXIT_USAGE;
        }
    }
    if (cli_direct_misfit(s->target, opt->block_sizes[0], &offset_align, &mem_align)) {
        cli_msg("mode %s (O_DIRECT) on %s needs buffers aligned to %llu bytes, more than "
                "diskio's %llu; use a mode without O_DIRECT",
                diskio_mode_name(opt->modes[m]), opt->target, (unsigned long long)mem_align,
                (unsigned long long)diskio_buffer_align());
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* The runs of a round: each (size, mode, jobs), --jobs sweeping inside
 * each mode so that its rows stand side by side; or each suite row that
 * can run.  None when out of memory (said when the rounds start). */
static void list_runs(struct session *s)
{
    const struct cli_options *opt = &s->opt;
    const size_t most = s->is_suite ? s->suite.nrows : opt->nsizes * opt->nmodes * opt->njobs;
    /* never calloc(0), which may return NULL: "out of memory" */
    s->plans = calloc(most ? most : 1, sizeof(*s->plans));
    for (size_t r = 0; s->plans && s->is_suite && r < s->suite.nrows; r++) {
        const struct cli_options *row = &s->suite.rows[r].opt;
        if (!s->suite.rows[r].note)
            s->plans[s->nplans++] = (struct plan_run){row, row->modes[0], row->block_sizes[0],
                                                      row->njobs ? row->jobs[0] : 1, r};
    }
    /* --target: one search over the whole --jobs list (its committers) */
    const size_t njobs = opt->capacity_on ? 1 : opt->njobs;
    for (size_t b = 0; s->plans && !s->is_suite && b < opt->nsizes; b++)
        for (size_t m = 0; m < opt->nmodes; m++)
            for (size_t j = 0; j < njobs && s->usable[m]; j++)
                s->plans[s->nplans++] = (struct plan_run){opt, opt->modes[m], opt->block_sizes[b],
                                                          opt->jobs[j], SIZE_MAX};
}

/* Everything checked and made before the first run, and the runs
 * listed: EXIT_OK, or the status to end with (said why). */
int cli_session_plan(struct session *s)
{
    struct cli_options *opt = &s->opt;
    s->output.slot = 0;
    s->trace.slot = 1;
    s->ivcsv.slot = 2;
    s->is_suite = opt->suite != NULL;
    if (s->is_suite && cli_suite_session_load(&s->opt, &s->suite) != EXIT_OK)
        return EXIT_USAGE;
    const bool truncates = diskio_pattern_grows_file(opt->pattern);
    s->target_flags = (opt->force ? DISKIO_TARGET_FORCE : 0) |
                      (opt->allow_device ? DISKIO_TARGET_DEVICE : 0) |
                      (truncates ? DISKIO_TARGET_TRUNCATE : 0);
    int status = cli_check_target_use(opt, s->target_flags);
    if (status != EXIT_OK)
        return status;
    /* Handlers first: a signal from here on stops the run the same way,
     * so no temporary output file or test file made below is left
     * behind by one (a signal before the first run ends diskio with a
     * result of no runs, marked incomplete). */
    cli_signals_install();
    s->several_runs = s->is_suite || opt->nmodes * opt->nsizes * opt->njobs > 1 || opt->repeat > 1;
    if ((status = open_outputs(s)) != EXIT_OK || (status = open_target(s)) != EXIT_OK ||
        (status = check_modes(s)) != EXIT_OK || (status = check_direct_alignment(s)) != EXIT_OK)
        return status;
    /* --durability: the run registered with the listener, the test file
     * kept (cli_durable.c) */
    if (opt->durability &&
        (status = cli_durable_start(opt, s->target, s->result, &s->durable)) != EXIT_OK)
        return status;
    list_runs(s);
    return EXIT_OK;
}

/* The one way out of a session: every output file not put in place is
 * removed (its temporary name), the test file removed, all freed. */
int cli_session_end(struct session *s, int status)
{
    out_file_discard(&s->output);
    out_file_discard(&s->trace);
    out_file_discard(&s->ivcsv);
    diskio_result_free(s->result);
    s->result = NULL;
    cli_signals_target(NULL);
    cli_release_target(s->target);
    s->target = NULL;
    free(s->plans);
    s->plans = NULL;
    suite_free(&s->suite);
    return status;
}
