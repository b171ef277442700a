/* SPDX-License-Identifier: MIT */
/* Command-line parsing for diskio, kept apart from main() so that the
 * unit tests can feed it argument vectors: struct cli_options, the
 * option table's rows, and the functions of the files that read, show
 * and check them (each group names its file). */
#ifndef DISKIO_CLI_OPTIONS_H
#define DISKIO_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diskio.h"

#define CLI_MAX_SIZES 32
#define CLI_MAX_JOBS 16 /* values in one --jobs list */
/* room for every mode of the library (diskio_mode_count()), each listed once */
#define CLI_MAX_MODES 32
/* The command's own defaults; the others are diskio_config_init()'s. */
#define CLI_DEFAULT_RUNTIME_NS (UINT64_C(2) * 1000000000u)
/* --steady: the most a run waits for its window to be steady, and the
 * intervals it judges, unless --runtime and --interval say */
#define CLI_STEADY_RUNTIME_NS (UINT64_C(300) * 1000000000u)
#define CLI_STEADY_INTERVAL_NS UINT64_C(1000000000)
#define CLI_DEFAULT_WARMUP 10
/* the test file holds this many blocks of the largest --bs at least,
 * unless --size says */
#define CLI_DEFAULT_FILE_BLOCKS 8u
#define CLI_REPEAT_MAX 1000
/* a suite's runs of each row (its 'runs', --suite-runs): at most */
#define SUITE_RUNS_MAX 100
/* --repeat-pause: at most an hour between rounds */
#define CLI_REPEAT_PAUSE_MAX_NS (UINT64_C(3600) * UINT64_C(1000000000))
/* the longest DURATION any option takes: 31 days */
#define CLI_DURATION_MAX_NS (UINT64_C(31) * 24 * 3600 * 1000000000u)
/* --label: its characters at most */
#define CLI_LABEL_MAX 200u
/* --rate: the ops per second it takes */
#define CLI_RATE_MIN 0.001
#define CLI_RATE_MAX 10e6
/* --steady's window=N: the fewest intervals it judges (the most: the
 * library's DISKIO_WINDOW_INTERVALS_MAX) */
#define CLI_STEADY_WINDOW_MIN 2u
/* --target's time= and point=: at least */
#define CLI_TARGET_TIME_MIN_NS UINT64_C(100000000)

/* Exit statuses, documented in diskio(1). */
enum cli_exit {
    EXIT_OK = 0,
    EXIT_RUN_FAILED = 1,   /* an operation failed; the partial result was written */
    EXIT_USAGE = 2,        /* bad option or argument; nothing was created */
    EXIT_TARGET = 3,       /* the target or an output file cannot be used */
    EXIT_INTERRUPTED = 130 /* 128 + the signal: SIGINT 130, SIGTERM 143, SIGHUP 129;
                            * the partial result was written */
};

struct cli_options {
    /* 8-byte members first, then 4-byte, then flags: no padding between */
    uint64_t block_sizes[CLI_MAX_SIZES];
    size_t nsizes;
    size_t nmodes;
    uint64_t given;           /* bit i: cli_option_table[i] was given */
    uint64_t count;           /* 0: not given */
    uint64_t runtime_ns;      /* 0: not given */
    uint64_t repeat_pause_ns; /* --repeat-pause: between rounds (default 0) */
    uint64_t file_size;
    uint64_t warmup;
    uint64_t rate_interval_ns; /* 0: as fast as possible */
    uint64_t seed;
    uint64_t interval_ns;             /* --interval: 0, none */
    struct diskio_steady_spec steady; /* --steady[=SPEC] (steady_on) */
    /* --target SPEC (capacity_on): the search, its committers set per run */
    struct diskio_capacity_spec capacity;
    const char *interval_csv; /* --interval-csv FILE */
    const char *label;
    /* --percentiles: the table's, ascending and distinct (0: the default) */
    double percentiles[DISKIO_PERCENTILES_MAX];
    size_t npercentiles;
    const char *output;
    const char *trace;
    const char *target;
    /* diskio --suite (cli_suite.h): the suite's name or file, where to
     * look for it, runs per row and the largest block size to run (0: the
     * suite's) */
    const char *suite;
    const char *suite_path;
    const char *workload_option; /* the first option a suite's rows set */
    /* diskio --durability and --verify-durability (cli_durable.h): the
     * listener's HOST:PORT for a run or for the check after the power
     * cut, and the run id */
    const char *durability;
    const char *verify_durability;
    const char *run_id;
    uint64_t suite_max_bs;
    /* --pattern wal and checkpoint (the library's defaults unless given) */
    uint64_t wal_bytes, wal_segment_size, checkpoint_pages, wal_gap_ns;
    unsigned checkpoint_files, checkpoint_flush_after;
    enum diskio_mode modes[CLI_MAX_MODES];
    unsigned suite_runs;
    enum diskio_pattern pattern;
    enum diskio_format format;
    unsigned iodepth;
    unsigned batch; /* --batch: aio, uring requests per submission */
    unsigned sync_every;
    unsigned repeat;             /* each run this many times, interleaved (default 1) */
    unsigned jobs[CLI_MAX_JOBS]; /* --jobs: concurrent writers, a list sweeps */
    unsigned njobs;
    /* --write-back PCT: modes read and direct-read write blocks back */
    unsigned write_back;
    bool modes_explicit;
    bool format_given;
    bool quiet;
    bool force;
    bool allow_device;
    bool mbps;         /* --mbps: throughput in megabits per second */
    bool shared_file;  /* --shared-file: the jobs write one file */
    bool cached;       /* --cached: mode read from a warm page cache */
    bool verify;       /* --verify: check every block the read modes read */
    bool wal_recycle;  /* --wal-recycle: a new WAL segment is an old one renamed */
    bool steady_on;    /* --steady: each run ends once steady (steady) */
    bool precondition; /* --precondition: the target written twice first */
    bool capacity_on;  /* --target: each run is a search for the capacity */
    bool help;
    bool version;
    /* diskio --suite (cli_suite.h): which of the options that override
     * every row's were given */
    bool size_given, timing_given, warmup_given;
};

/*
 * The option table: every option of diskio once, with what it takes,
 * where its value goes, what it applies to and its line of the usage
 * (fio's struct fio_option).  getopt's options, the usage (--help), the
 * bash completion (completion/diskio, made from it when diskio is built),
 * which runs a value reaches (cli_config()) and the check that an option
 * applies to some run (cli_check_runs()) all read it.
 */

/* How an option's value is read. */
enum cli_opt_type {
    CLI_FLAG,     /* no value: the field (a bool) becomes true */
    CLI_UINT,     /* a whole number from min to max */
    CLI_SIZE,     /* a size (cli_parse_size()) from min to max bytes */
    CLI_DURATION, /* a duration (cli_parse_duration()) from min to max ns */
    CLI_TEXT,     /* text, kept as given: not empty when bad says so */
    CLI_FUNC,     /* the option's own parse function */
};

/* The runs an option's value reaches: one value is given for every run
 * (a list of modes, say), and reaches only those it means something to;
 * given for none of the selected runs it is a usage error. */
enum cli_scope {
    CLI_EVERY_RUN,
    CLI_QUEUED_MODES,       /* diskio_mode_is_queued() */
    CLI_SYNCING_MODES,      /* diskio_mode_syncs() */
    CLI_CACHED_MODES,       /* where the library takes config.cached */
    CLI_VERIFY_MODES,       /* where the library takes config.verify */
    CLI_WRITE_BACK_MODES,   /* where the library takes config.write_back */
    CLI_WAL_PATTERN,        /* the pattern that takes DISKIO_PARAMS_WAL */
    CLI_CHECKPOINT_PATTERN, /* the pattern that takes DISKIO_PARAMS_CHECKPOINT */
};

/* What completing the option's value offers (bash). */
enum cli_complete {
    CLI_COMPLETE_NOTHING, /* a number, a duration, a name: nothing to offer */
    CLI_COMPLETE_MODES,   /* the library's modes, and all and all-reads, a list */
    CLI_COMPLETE_PATTERNS,
    CLI_COMPLETE_FORMATS,
    CLI_COMPLETE_WORDS, /* the option's words (a list: comma-separated) */
    CLI_COMPLETE_FILES,
    CLI_COMPLETE_DIRS,
    CLI_COMPLETE_SUITES, /* the suites found by name, and suite files */
};

/* The usage's sections, in its order. */
enum cli_section {
    CLI_SECTION_WORKLOAD,
    CLI_SECTION_SUITES,
    CLI_SECTION_OUTPUT,
    CLI_SECTION_DURABILITY,
    CLI_SECTION_GENERAL, /* -h, -V: after the last, without a title */
};

enum cli_opt_flags {
    CLI_ROW_SETS = 1u << 0,       /* a suite's rows set it: not beside --suite */
    CLI_NOT_IN_ROW = 1u << 1,     /* the command line's alone: not in a row */
    CLI_SUITE_ONLY = 1u << 2,     /* applies to --suite only */
    CLI_SCOPE_GIVEN = 1u << 3,    /* out of scope when given at all, not only
                                 * with another value than the default */
    CLI_ENDS_PARSING = 1u << 4,   /* --help, --version: the rest is not read */
    CLI_LIST = 1u << 5,           /* takes a comma-separated list */
    CLI_OPTIONAL_VALUE = 1u << 6, /* its value only as --NAME=VALUE; alone, the default */
};

struct cli_options;

struct cli_option {
    /* 8-byte members first, then 4-byte: no padding between */
    const char *name; /* without "--" */
    const char *arg;  /* the value's name in the usage; NULL: takes none */
    /* the field of struct cli_options the value goes to (a list's: its
     * first, the one {default} shows) */
    size_t off, size;
    uint64_t min, max;
    /* CLI_FUNC: reads text into o; 0, or -1 with the message in err */
    int (*parse)(const char *text, struct cli_options *o, char *err, size_t err_size);
    /* a bad value: "--NAME: 'VALUE' " and this ("is not a whole number
     * from MIN to MAX" when NULL); CLI_TEXT: "--NAME: " and this for an
     * empty value (NULL: any text) */
    const char *bad;
    size_t given_off; /* a bool of struct cli_options set when given (0: none) */
    /* the field of struct diskio_config the value goes to (cfg_size 0: none) */
    size_t cfg_off, cfg_size;
    /* out of scope (CLI_*_MODES): "--NAME: " and this, where {modes} is
     * the modes in scope as "a, b and c", {modes,} as "a, b, c" */
    const char *scope_message;
    /* the usage's text; {modes} as above, {modes/} as "a/b", {write-modes}
     * and {read-modes} the library's, {formats} its formats ("a, b or c"),
     * {default} the value when not given (cli_defaults()'s) */
    const char *help;
    const char *words; /* CLI_COMPLETE_WORDS: space-separated */
    int short_name;    /* 0: none */
    enum cli_opt_type type;
    enum cli_scope scope;
    unsigned flags; /* enum cli_opt_flags */
    enum cli_section section;
    enum cli_complete complete;
};

/* Every option, in the usage's order; a row with a NULL name ends it
 * (cli_option_table.c). */
extern const struct cli_option cli_option_table[];
/* The most options: the bits of struct cli_options' given. */
#define CLI_OPTIONS_MAX 64

/* ---- the table's queries (cli_option_query.c) ---- */

/* The option a command-line word names: "--NAME", "--NAME=VALUE", "-X"
 * or "-XVALUE" (no abbreviation); NULL for none. */
const struct cli_option *cli_option_named(const char *word);
/* Whether opt was given in o. */
bool cli_option_given(const struct cli_options *o, const struct cli_option *opt);
/* The pattern parameters a scope is the options of, or
 * DISKIO_PARAMS_NONE; and the pattern that takes them (its name,
 * or NULL). */
enum diskio_pattern_params cli_scope_params(enum cli_scope scope);
const char *cli_params_pattern(enum diskio_pattern_params params);
/* Whether a run of mode and pattern is in the scope of opt. */
bool cli_option_applies(const struct cli_option *opt, enum diskio_mode mode,
                        enum diskio_pattern pattern);
/* Text with its {markers} replaced (cli_expand.c: the scope's modes for
 * opt's, the library's lists, {default}: opt's value when not given,
 * from cli_defaults(), and the other values the usage names): into out,
 * which is always terminated. */
void cli_expand(const struct cli_option *opt, const char *text, char *out, size_t size);
/* A size as the options take it and --help prints it ("8k", "64m",
 * "174"), and a duration ("0", "0.15ms", "2s", "5m", "1h"): into out. */
void cli_size_text(uint64_t bytes, char *out, size_t size);
void cli_duration_text(uint64_t ns, char *out, size_t size);
/* A precondition's passes and writes, between them between: "twice",
 * ", sequentially ", "in 1 MiB writes". */
void cli_precondition_text(unsigned passes, uint64_t bs, const char *between, char *out,
                           size_t size);
/* Whether opt's value is the next word of the command line (an
 * optional value is only ever --NAME=VALUE): what completion offers. */
bool cli_takes_next_word(const struct cli_option *opt);
/* A field of size bytes (a bool, 4 or 8) at base + off, as a number: a
 * row's value in struct cli_options or struct diskio_config. */
uint64_t cli_field_load(const void *base, size_t off, size_t size);

/* ---- the library's lists as text (cli_names.c) ---- */

/* The lists the library names, in its order (each name of 0, 1, 2...
 * until NULL). */
enum cli_list {
    CLI_WRITE_MODES,
    CLI_READ_MODES,
    CLI_DURABLE_MODES,          /* diskio_mode_is_durable() */
    CLI_BUFFERED_DURABLE_MODES, /* the durable ones not diskio_mode_is_direct() */
    CLI_PATTERNS,
    CLI_FORMATS,
};
/* A list's names joined into out: sep between them, last before the
 * last one ("a, b or c"). */
void cli_names(enum cli_list list, const char *sep, const char *last, char *out, size_t size);
/* names (n of them) joined into out: sep between them, last before the
 * last one. */
void cli_join(const char *const *names, size_t n, const char *sep, const char *last, char *out,
              size_t size);

/* ---- the usage and the completion (cli_usage.c) ---- */

/* The usage: diskio --help. */
void cli_usage(FILE *out);
/* The bash function that completes diskio's option values
 * (_diskio_value_diskio), made from the table and the library's lists. */
void cli_completion(FILE *out);

/* ---- reading argv (cli_defaults.c, cli_parse.c) ---- */

/* The options when none is given: the library's defaults
 * (diskio_config_init()) and the command's own. */
void cli_defaults(struct cli_options *o);
/* Parse argv into o.  Returns 0, or -1 with a message naming the option
 * and the accepted values in err. */
int cli_parse(int argc, char **argv, struct cli_options *o, char *err, size_t err_size);

/* ---- the options to the library's config (cli_config.c) ---- */

/* The library's config for one run: mode and block size, with every
 * option mapped to its field: the workload only (the run's hooks,
 * struct diskio_run_options, are cli_run.c's). */
void cli_config(const struct cli_options *o, enum diskio_mode mode, uint64_t block_size,
                struct diskio_config *cfg);

/* Check every run o makes (each mode with each block size, mapped by
 * cli_config) with the library, and report the earliest rule broken
 * against the option behind it.  0, or -1 with the message in err. */
int cli_check_runs(const struct cli_options *o, uint64_t largest_bs, char *err, size_t err_size);

/* ---- --steady and --target (cli_specs.c) ---- */

/* The values of --steady[=SPEC] (NULL text: the default spec) and
 * --target SPEC, into o (cli_specs.c): 0, or -1 with the message. */
int cli_parse_steady(const char *text, struct cli_options *o, char *err, size_t size);
/* --steady's window and ramp fit the runtime: 0, or -1 with the message. */
int cli_check_steady(const struct cli_options *o, char *err, size_t size);
int cli_parse_target(const char *text, struct cli_options *o, char *err, size_t size);
/* --target against the options it cannot go with: 0, or -1 with the message. */
int cli_check_target(const struct cli_options *o, char *err, size_t size);

/* ---- numbers, sizes, durations (cli_values.c) ---- */

/* "4k" -> 4096, with k/m/g/t (powers of 1024), optional "b"/"ib"; rejects
 * signs, garbage, zero-length and overflow.  0 or -1. */
int cli_parse_size(const char *text, uint64_t *out);
/* A decimal number: digits, an optional fraction and exponent ("2",
 * "0.5", "1e-5"); no sign, hex, inf or nan.  *end (may be NULL): where it
 * stops.  0 or -1.  The one reader of every option that takes a fraction. */
int cli_parse_number(const char *text, double *out, const char **end);
/* "2", "0.5", "2s", "500ms", "1m", "1h" -> ns (cli_parse_number() and a
 * unit).  0 or -1. */
int cli_parse_duration(const char *text, uint64_t *out_ns);
/* A decimal integer in [min, max].  0 or -1. */
int cli_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out);

#endif
