/* SPDX-License-Identifier: MIT */
/* Command-line parsing for diskio, kept apart from main() so that the
 * unit tests can feed it argument vectors. */
#ifndef DISKIO_CLI_OPTIONS_H
#define DISKIO_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "diskio.h"

#define CLI_MAX_SIZES 32
#define CLI_MAX_JOBS 16 /* values in one --jobs list */
/* room for every mode of the library (diskio_mode_count()), each listed once */
#define CLI_MAX_MODES 32
/* The command's own defaults; the others are diskio_config_init()'s. */
#define CLI_DEFAULT_RUNTIME_NS (UINT64_C(2) * 1000000000u)
#define CLI_DEFAULT_WARMUP 10
#define CLI_REPEAT_MAX 1000
/* --repeat-pause: at most an hour between rounds */
#define CLI_REPEAT_PAUSE_MAX_NS (UINT64_C(3600) * UINT64_C(1000000000))

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
    uint64_t count;           /* 0: not given */
    uint64_t runtime_ns;      /* 0: not given */
    uint64_t repeat_pause_ns; /* --repeat-pause: between rounds (default 0) */
    uint64_t file_size;
    uint64_t warmup;
    uint64_t rate_interval_ns; /* 0: as fast as possible */
    uint64_t seed;
    uint64_t interval_ns;     /* --interval: 0, none */
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
    bool mbps;        /* --mbps: throughput in megabits per second */
    bool shared_file; /* --shared-file: the jobs write one file */
    bool cached;      /* --cached: mode read from a warm page cache */
    bool verify;      /* --verify: check every block the read modes read */
    bool wal_recycle; /* --wal-recycle: a new WAL segment is an old one renamed */
    /* which of the wal and checkpoint options were given */
    bool wal_option_given, checkpoint_option_given;
    bool help;
    bool version;
    /* diskio --suite (cli_suite.h): which of the options that override
     * every row's were given */
    bool size_given, timing_given, warmup_given;
};

/* Parse argv into o.  Returns 0, or -1 with a message naming the option
 * and the accepted values in err. */
int cli_parse(int argc, char **argv, struct cli_options *o, char *err, size_t err_size);

/* The library's config for one run: mode and block size, with every
 * option mapped to its field (trace_fd, stop and progress left unset). */
void cli_config(const struct cli_options *o, enum diskio_mode mode, uint64_t block_size,
                struct diskio_config *cfg);

/* Check every run o makes (each mode with each block size, mapped by
 * cli_config) with the library, and report the earliest rule broken
 * against the option behind it.  0, or -1 with the message in err. */
int cli_check_runs(const struct cli_options *o, uint64_t largest_bs, char *err, size_t err_size);
/* Format a message into err; returns -1. */
int cli_fail(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

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

void cli_usage(FILE *out);

#endif
