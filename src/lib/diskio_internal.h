/* SPDX-License-Identifier: MIT */
/* Internals shared by the library's units.  Not installed. */
#ifndef DISKIO_INTERNAL_H
#define DISKIO_INTERNAL_H

#include <sys/types.h>
#include <time.h>

#include "diskio.h"

/* How many parts there are, and the last pattern: the public header has
 * no such enumerator (a program asks diskio_part_count() and the others,
 * answered by the library it runs with, not the header it was built
 * with).  A new pattern or part goes last in its enum and moves its line
 * here; the modes are counted by their table (modes.c). */
#define DISKIO_PATTERN_LAST DISKIO_PATTERN_CHECKPOINT
#define DISKIO_PART_COUNT (DISKIO_PART_SWITCH + 1)

#include "histogram.h"

#define DISKIO_ALWAYS_INLINE inline __attribute__((always_inline))

#include "emit_string.h"

/* O_DIRECT needs the buffer, the offset and the length aligned to the
 * device's logical block size; a page (4096) satisfies every device Linux
 * supports, so buffers are always page-aligned. */
#define DISKIO_BUFFER_ALIGN 4096

static DISKIO_ALWAYS_INLINE uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* ---- block-layer accounting (devstat.c) ---- */
#define DEVSTAT_MAX 16    /* devices followed under one target */
#define DEVSTAT_FIELDS 17 /* /sys/block/NAME/stat fields, Linux 5.5 and later */
struct devstat_dev {
    char name[32];
    unsigned depth;
    signed char write_cache, fua, rotational; /* 1, 0, or -1: unknown */
    bool leaf, own_io;                        /* as in struct diskio_device_io */
    uint64_t read_ahead;                      /* queue/read_ahead_kb in bytes; 0: unknown */
    /* what kind of device whose queue flags are not a medium's: "loop",
     * "virtio", "xen", a hypervisor's SCSI disk ("QEMU", "VMware",
     * "Hyper-V", "VirtualBox", "Google"); "" for any other */
    char virtual_kind[16];
    /* a loop device whose backing file is on tmpfs or ramfs: in memory */
    bool memory_backed;
    /* queue/iostats: 1, 0 (the device counts none of its I/O), -1 unknown */
    signed char iostats;
};
/* The last DISKIO_VERDICT_* bit, for the loops over them. */
#define DEVSTAT_VERDICT_LAST DISKIO_VERDICT_NOT_DIRECT
struct devstat_set {
    bool resolved; /* resolution ran (n may still be 0: tmpfs) */
    size_t n;
    struct devstat_dev dev[DEVSTAT_MAX];
};
struct devstat_sample {
    unsigned nfields; /* 0: unreadable; 11 (before 4.18), 15, or 17 */
    uint64_t v[DEVSTAT_FIELDS];
};
/* What the verdicts are decided from. */
struct devstat_facts {
    enum diskio_mode mode;
    bool has_config;
    unsigned sync_every;
    /* concurrent jobs: one flush can complete a sync of each of them
     * (group commit), so it may take as few as 1/jobs flushes per sync */
    unsigned jobs;
    /* a read mode's write-back percentage (config.write_back): that share
     * of the bytes read is written too */
    unsigned write_back;
    /* a read mode's --cached: its reads are meant to come from memory */
    bool cached;
    /* a device of the run is a loop device over a file in memory (tmpfs) */
    bool memory_backed;
    uint64_t ops, bytes;
    uint64_t sync_p50_ns; /* the sync part's median, or the total's for O_SYNC-like modes */
    uint64_t read_ahead;  /* the largest readahead window of the devices (bytes; 0: unknown) */
    /* the wal and checkpoint patterns: the syncs the run made (the device
     * must flush about this many times), and the bytes it wrote beyond
     * its ops' (new segments' zeros); syncs 0: from ops, sync_every, jobs */
    uint64_t syncs, extra_bytes;
    const struct diskio_device_io *dev;
    size_t ndev;
};
/* Per-op figures of an I/O delta; NAN where ops or writes is 0. */
struct devstat_figures {
    double writes_per_op, merges_per_op, kib_per_write, flushes_per_op;
    /* the same for reads; NAN where ops or reads is 0 */
    double reads_per_op, read_merges_per_op, kib_per_read;
    /* a request's mean time from its start to its completion (us); NAN
     * without requests or under 20 ms of them (the kernel shows whole ms) */
    double us_per_read, us_per_write, us_per_flush;
};
/* Parse one line of /sys/block/NAME/stat: 0, or -EINVAL for fewer than 11
 * numbers or anything else in it. */
int devstat_parse(const char *line, struct devstat_sample *out);
/* The devices under path (a file, directory or block device): partitions
 * as their disk, loop devices down to their backing file's device, dm/md
 * to their members, btrfs to its devices, overlay to its upper layer. */
void devstat_resolve(const char *path, struct devstat_set *set);
/* The value of key= in a comma-separated option list (backslash escapes
 * a comma, as overlayfs writes them). */
bool devstat_option_value(const char *opts, const char *key, char *out, size_t size);
void devstat_sample_all(const struct devstat_set *set, struct devstat_sample *out);
/* after - before for one device; false if either is unreadable or a
 * counter went backwards (the device was replaced). */
bool devstat_delta(const struct devstat_dev *dev, const struct devstat_sample *before,
                   const struct devstat_sample *after, struct diskio_device_io *out);
void devstat_figures(const struct diskio_device_io *io, uint64_t ops, struct devstat_figures *out);
unsigned devstat_judge(const struct devstat_facts *facts);
/* Record the deltas and verdicts in run (allocates; -ENOMEM). */
/* Add a repetition's device figures to a merged run's and judge the sum
 * again; a repetition without them (or over other devices) leaves the
 * merged run without any. */
void devstat_merge(struct diskio_run *into, const struct diskio_run *repetition);
int devstat_record(struct diskio_run *run, const struct devstat_set *set,
                   const struct devstat_sample *before, const struct devstat_sample *after);

/* ---- whether O_DIRECT was direct (direct.c) ----
 * Some filesystems take O_DIRECT and do the I/O through the page cache
 * instead (ext4 with data=journal, files with inline data; btrfs, NFS in
 * some cases): the kernel says so with STATX_DIOALIGN (Linux 6.1) where
 * the filesystem reports it, and the devices' counters show it (the ops'
 * bytes did not reach the device during the run). */
struct direct_statx {
    bool known;                       /* the kernel gave STATX_DIOALIGN */
    uint32_t offset_align, mem_align; /* the files' (offset: the smallest; 0 is none) */
};
/* What the rule (direct_rule) decides from. */
struct direct_facts {
    bool reads; /* a read mode: its device reads are counted, not writes */
    struct direct_statx statx;
    uint64_t ops, bytes;
    const struct diskio_device_io *total; /* the depth-0 devices' total; NULL: none */
    bool blind; /* a depth-0 device counts none of its I/O (queue/iostats 0) */
};
struct direct_check {
    bool applies;       /* a run of an O_DIRECT mode */
    int honoured;       /* 1, 0 (the filesystem buffered it), -1 unknown */
    const char *source; /* "statx", "device", NULL */
    char evidence[192];
};
/* The rule, pure: from statx where the kernel gives it, else from the
 * device counters, else unknown. */
void direct_rule(const struct direct_facts *f, struct direct_check *out);
/* An O_DIRECT run: the files' STATX_DIOALIGN (t and its job files) and
 * the rule on it and the run's device figures, into run->direct and the
 * verdict DISKIO_VERDICT_NOT_DIRECT (which excludes
 * DISKIO_VERDICT_MERGED: merges are then the page cache's writeback). */
void direct_record(struct diskio_run *run, const struct diskio_target *t);
/* A repetition's statx answer added to into's, and into judged again
 * (after devstat_merge()). */
void direct_merge(struct diskio_run *into, const struct diskio_run *repetition);

/* ---- interference (interference.c) ----
 * What else the machine did while a repetition ran, from counters read
 * just before and just after it (never between two clock reads): other
 * processes' CPU time and steal (/proc/stat against getrusage), the
 * measuring threads' own wait for a CPU (/proc/thread-self/schedstat),
 * the run queue, pressure stall information (/proc/pressure), dirty and
 * writeback pages (/proc/meminfo) and the device I/O the run does not
 * explain; and from those, by what the mode's ops wait for, whether the
 * repetition was disturbed. */
enum ifr_psi { IFR_PSI_CPU, IFR_PSI_IO, IFR_PSI_MEMORY, IFR_PSI_COUNT };
/* The measuring threads' scheduling (one per job), summed over them:
 * CLOCK_MONOTONIC, their CPU time (CLOCK_THREAD_CPUTIME_ID) and the time
 * they were runnable but waited for a CPU (schedstat's run_delay), ns.
 * Both clocks count to the nanosecond, so a window of any length has
 * these figures. */
struct ifr_thread {
    bool ok;          /* every thread's read (false: none, or one unreadable) */
    unsigned threads; /* how many are summed */
    uint64_t mono_ns, cpu_ns, delay_ns;
};
struct ifr_sample {
    uint64_t mono_ns; /* CLOCK_MONOTONIC when sampled */
    int64_t real_s;   /* CLOCK_REALTIME when sampled */
    uint32_t real_ms; /* its milliseconds */
    bool stat_ok;     /* /proc/stat read */
    unsigned cpus;    /* cpuN lines in /proc/stat */
    unsigned procs_running;
    uint64_t busy_ticks;  /* user nice system irq softirq, all CPUs (USER_HZ) */
    uint64_t steal_ticks; /* steal, all CPUs */
    uint64_t own_cpu_ns;  /* this process: user + system (getrusage) */
    bool psi_ok[IFR_PSI_COUNT], psi_full_ok[IFR_PSI_COUNT];
    uint64_t psi_some_us[IFR_PSI_COUNT], psi_full_us[IFR_PSI_COUNT];
    bool mem_ok;
    uint64_t dirty_kib, writeback_kib;
    struct ifr_thread thread; /* the measuring threads (ifr_thread_sample) */
};
/* The kinds of disturbance, in the order they are reported. */
enum ifr_kind {
    IFR_OTHER_CPU,       /* other processes' CPU time, in CPUs on average */
    IFR_RUN_DELAY,       /* the measuring threads waited for a CPU, a share of their time */
    IFR_STEAL,           /* steal time, a share of all CPUs' time */
    IFR_CPU_PRESSURE,    /* /proc/pressure/cpu some, a share of the wall time */
    IFR_MEMORY_PRESSURE, /* /proc/pressure/memory some, a share of the wall time */
    IFR_DIRTY,           /* dirty + writeback pages when it started, MiB */
    IFR_DEVICE_IO,       /* a device's I/O the run does not explain, a share */
    IFR_WRITEBACK,       /* buffered writes blocked while another's I/O held a device */
    IFR_KIND_COUNT
};
#define IFR_DEVICES DEVSTAT_MAX
struct ifr_device {
    char name[32];
    unsigned depth;
    uint64_t bytes;         /* read + written during the repetition */
    uint64_t foreign_bytes; /* beyond what the run explains */
};
struct ifr_reason {
    enum ifr_kind kind;
    double figure, threshold;
    char device[32];     /* IFR_DEVICE_IO, IFR_WRITEBACK: which device */
    double device_share; /* IFR_WRITEBACK: that device's foreign share */
};
struct interference {
    bool known;          /* probed (false: custom runs, results read back) */
    char start_time[32]; /* wall clock when it started, ISO 8601 UTC with ms */
    uint64_t wall_ns;
    unsigned cpus;
    /* What the mode's ops wait for (mode_waits_for_device()): the device
     * stack, or a CPU (the page cache); and, waiting for a CPU, whether
     * they write into the page cache (writeback can catch them). */
    bool waits_device, buffered_writes;
    /* NAN where unknown: other_cpu_s, other_cpus and steal_share also
     * over a window shorter than stat_resolution_s */
    double own_cpu_s, other_cpu_s, other_cpus, steal_share;
    /* how far /proc/stat's busy time over all CPUs can be off, s: a
     * USER_HZ tick for the reading and one per CPU for the ticks the
     * kernel samples (0: unknown) */
    double stat_resolution_s;
    /* the measuring threads (NAN where unknown): how many, their wall,
     * CPU and run-delay time, the share of their wall time they waited
     * for a CPU, and the share they were off a CPU without waiting for
     * one (blocked: on I/O, a lock, writeback throttling) */
    unsigned threads;
    double thread_wall_s, thread_cpu_s, run_delay_s, run_delay_share, blocked_share;
    int run_queue_before, run_queue_after;                   /* other runnable tasks; -1 unknown */
    double psi_some[IFR_PSI_COUNT], psi_full[IFR_PSI_COUNT]; /* shares of wall */
    int64_t dirty_kib_before, writeback_kib_before, dirty_kib_after, writeback_kib_after;
    size_t ndevices;
    struct ifr_device devices[IFR_DEVICES];
    size_t nreasons;
    struct ifr_reason reasons[IFR_KIND_COUNT];
};
/* Parsers of the files' text (pure): 0, or -EINVAL when the text is not
 * what the file holds. */
int ifr_parse_stat(const char *text, struct ifr_sample *s);
/* /proc/pressure/X: the some line's total= (and the full line's, where
 * the file has one: *has_full). */
int ifr_parse_psi(const char *text, uint64_t *some_us, uint64_t *full_us, bool *has_full);
int ifr_parse_meminfo(const char *text, uint64_t *dirty_kib, uint64_t *writeback_kib);
/* /proc/thread-self/schedstat: its second field, run_delay (ns). */
int ifr_parse_schedstat(const char *text, uint64_t *delay_ns);
/* Read every counter of the machine now (what cannot be read is marked
 * so); s->thread is left unread. */
void ifr_sample(struct ifr_sample *s);
/* The calling thread's scheduling now (read closest to the measured ops:
 * a sample's thread), and a thread's added to a sum of them (the jobs'
 * threads). */
void ifr_thread_sample(struct ifr_thread *t);
void ifr_thread_add(struct ifr_thread *into, const struct ifr_thread *t);
/* The figures of the span between two samples (no device figures, no
 * verdict): pure. */
void ifr_figures(const struct ifr_sample *before, const struct ifr_sample *after,
                 struct interference *out);
/* The device I/O of run (its devices' deltas, devstat_record) that the
 * run does not explain, into out->devices. */
void ifr_devices(const struct diskio_run *run, struct interference *out);
/* Judge the figures against the thresholds, by what the ops wait for
 * (out->waits_device, out->buffered_writes): out->reasons. */
void ifr_judge(struct interference *out);
/* All three for a measured run, between samples before and after. */
void ifr_record(struct diskio_run *run, const struct ifr_sample *before,
                const struct ifr_sample *after);
/* A reason's key in the JSON ("other_cpu"...), the unit of its figure,
 * and a sentence (buf, IFR_TEXT_MAX is room for any) saying what was
 * measured against what. */
#define IFR_TEXT_MAX 256
const char *ifr_kind_name(enum ifr_kind kind);
const char *ifr_kind_unit(enum ifr_kind kind);
const char *ifr_reason_text(const struct ifr_reason *r, char *buf, size_t size);
/* Whether the CPU figure f's rule judges by was unknown (the others' CPUs
 * over a window shorter than /proc/stat resolves, or unreadable, where
 * the threads' own wait does not stand in): CPU pressure alone judged. */
bool ifr_cpu_unjudged(const struct interference *f);
/* Whether a mode's ops wait for the device stack (modes.c, from its row:
 * a durable, O_DIRECT or queued mode, and reads from a dropped cache) or
 * for a CPU (writes into the page cache, cached reads).  What disturbs a
 * run depends on it: for the device's modes other programs' CPU and
 * device I/O, for the others their own wait for a CPU. */
bool mode_waits_for_device(enum diskio_mode mode, bool cached);
/* What run itself explains of device d's I/O, in bytes read and
 * written: its data, a journal commit per op (two below a loop device or
 * in a dm/md member: the backing filesystem journals too), and for mode
 * read the readahead windows. */
void devstat_own_bytes(const struct diskio_run *run, const struct diskio_device_io *d,
                       double *read_own, double *write_own);

/* ---- target ---- */
struct diskio_target {
    char *path;
    char *dir;
    int dir_fd;   /* the directory holding a created file, or -1 */
    char *name;   /* the created file's name within dir, or NULL */
    bool created; /* diskio created the file and removes it */
    bool kept;    /* diskio_target_keep(): created, but never removed */
    bool is_device;
    uint64_t size;              /* bytes preallocated, or the device size */
    struct devstat_set devices; /* resolved by the first run (devstat.c) */
    /*
     * The file or device itself, open from the moment it was created or
     * checked until diskio_target_free(): O_WRONLY for a file (the fill
     * writes through it), O_WRONLY|O_EXCL for a device (which keeps it
     * from being mounted meanwhile).  Every other open goes through
     * /proc/self/fd/<fd>, which reaches this inode whatever happens to
     * the name; dev and ino are what every open and the unlink compare.
     */
    int fd;
    dev_t dev;
    ino_t ino;
    /* Bytes from offset 0 that this diskio invocation itself wrote (the
     * fill, or an earlier run's fill): the only range known to be
     * allocated and written.  An existing file's size says nothing about
     * that (holes, fallocate()d unwritten extents). */
    uint64_t written;
    /* Runs of several jobs (config.jobs) without shared_file: job j's own
     * file (j from 1; job 0 writes this one), created in dir the way
     * this target's was on first use, removed with it (remove, unlink_now
     * and free act on them too).  Slots are set only once the file is
     * complete, so a signal handler may walk them. */
    struct diskio_target *volatile job_files[DISKIO_JOBS_MAX];
    /* [0, written) is one fill from offset 0 in blocks of fill_block bytes
     * from fill_seed, not written over since (config.verify checks reads
     * against it; otherwise the file is filled again for a check) */
    bool fill_whole;
    uint64_t fill_block, fill_seed;
    /* a file renamed by the run (target_aux_rename()): the buffer its
     * next name is written into before it is published in name (name and
     * name_alt each TARGET_NAME_MAX bytes, swapped at every rename, so a
     * signal handler reading name never sees it freed or half written) */
    char *name_alt;
};
#define TARGET_NAME_MAX 128
/* Files of a run's own beside a created target (the wal pattern's
 * segments), each in the job_files slot it is given (1 <= slot <
 * DISKIO_JOBS_MAX), so that removing the target and the fatal-signal
 * path find them whatever happens.  target_aux_create(): a new file
 * there (the slot must be free), created as the target's own was: 0,
 * -EINVAL, -EBUSY (slot taken) or what creating it returns.
 * target_aux_rename(): rename it within its directory to name, never
 * over an existing name (-EEXIST): 0 or -errno.  target_aux_remove():
 * remove it (only while its name is its own) and free the slot. */
int target_aux_create(struct diskio_target *t, unsigned slot, struct diskio_target **out);
int target_aux_rename(struct diskio_target *aux, const char *name);
int target_aux_remove(struct diskio_target *t, unsigned slot);
/* Job j's file (1 <= j < DISKIO_JOBS_MAX) of a created target, made on
 * first use: 0, -EINVAL (not a file diskio created) or what creating it
 * returns. */
int target_job_file(struct diskio_target *t, unsigned j, struct diskio_target **out);
/* Another open file description of the target with flags (O_WRONLY and
 * the mode's flags): the fd, or -errno, or -DISKIO_E_TARGET_CHANGED when
 * only the path could be used (no /proc) and it leads elsewhere. */
int target_reopen(const struct diskio_target *t, int flags);
/* The target's own inode, reopened with the mode's flags (cfg may be
 * NULL: the mode's own flags; modes.h): the fd, or -errno, or
 * -DISKIO_E_NO_DIRECT where the filesystem refuses O_DIRECT. */
struct mode_ops;
int target_open_for_mode(const struct diskio_target *t, const struct mode_ops *ops,
                         const struct diskio_config *cfg);
/* STATX_DIOALIGN of t's file and its job files: 0 with the smallest
 * offset alignment (0: a file without direct I/O) and the largest memory
 * alignment, or -EOPNOTSUPP where the kernel gives it for none of them. */
int target_dio_statx(const struct diskio_target *t, struct direct_statx *out);
/* Make sure bytes [0, size) of the file were written by this invocation:
 * whatever of it is not yet (t->written) is written in pieces of
 * block_len with distinct random data per block (from seed), then
 * fsync()ed; *filled (when non-NULL) follows how far (bytes from 0) the
 * fill got, for a progress display.  -DISKIO_E_INTERRUPTED when stop rises. */
int target_fill(struct diskio_target *t, uint64_t size, size_t block_len, uint64_t seed,
                const volatile sig_atomic_t *stop, volatile uint64_t *filled);
/* Fill buf (len bytes, a multiple of 8) with random bytes from *state
 * (splitmix64): the data of the fill and of the measured writes. */
void random_bytes(unsigned char *buf, size_t len, uint64_t *state);
/* The fill's stream starts from seed ^ FILL_SEED_MIX; fill_word(seed, n)
 * is its word n (8 bytes, from 0): block k of a fill in blocks of len
 * bytes holds words k * len / 8 onwards. */
#define FILL_SEED_MIX UINT64_C(0x5851f42d4c957f2d)
uint64_t fill_word(uint64_t seed, uint64_t n);

/* ---- run ---- */

/* Summary statistics every emitter prints, in the same order; their
 * keys are pct_name()'s (the analysis package's result.py derives the
 * same keys from the same numbers by the same rule). */
#define SUMMARY_PCTS 5
extern const double summary_pcts[SUMMARY_PCTS];

/* One part's figures in one repetition (a histogram reduced to what the
 * emitters print, so a run of many repetitions stays small). */
struct part_summary {
    bool present;
    uint64_t count, min_ns, max_ns;
    double mean_ns, stddev_ns;
    uint64_t pct_ns[SUMMARY_PCTS];
};
struct run_repetition {
    uint64_t ops, bytes, duration_ns, start_ns;
    bool complete;
    struct part_summary parts[DISKIO_PART_COUNT];
    struct interference ifr; /* what else the machine did meanwhile */
};

/* ---- interval series (series.c) ---- */
struct series_bucket {
    uint32_t index; /* histogram bucket */
    uint32_t pad_;
    uint64_t count;
};
struct series_interval {
    struct diskio_interval pub; /* ops, min_ns and max_ns kept as recorded */
    uint64_t sum;
    unsigned __int128 sum_sq;
    struct series_bucket *buckets; /* the counters in use, by index */
    size_t nbuckets;
};
struct series {
    uint64_t origin_ns; /* CLOCK_MONOTONIC: interval 0 starts here */
    uint64_t interval_ns;
    size_t last_index; /* intervals after it are never made (SIZE_MAX: none) */
    size_t count, cap; /* intervals made, room */
    struct series_interval *iv;
    size_t current;           /* the interval the live histogram is for */
    uint64_t next_ns;         /* when it ends (UINT64_MAX: the last) */
    struct diskio_hist *live; /* the timed loop records into this */
    uint64_t block_size;      /* bytes per op */
    unsigned repetition;
    /* intervals closed, published (release) after each close for a
     * reader on another thread (steady.c); they no longer change */
    size_t closed;
};
/* A series of intervals of interval_ns; runtime_ns (0: unknown) bounds it,
 * and all its intervals are allocated here.  0 or -ENOMEM / -EINVAL. */
int series_new(uint64_t interval_ns, uint64_t runtime_ns, uint64_t block_size, struct series **out);
void series_free(struct series *s);
/* Interval 0 begins at origin_ns; returns the histogram to record into
 * until s->next_ns. */
struct diskio_hist *series_start(struct series *s, uint64_t origin_ns);
/* An op ended at t_ns >= s->next_ns: close the current interval, make the
 * ones up to t_ns's (empty in between), and return the histogram to record
 * into from now on; NULL without memory (nothing lost so far). */
struct diskio_hist *series_advance(struct series *s, uint64_t t_ns);
/* The run ended at end_ns: close the last interval and work out every
 * interval's figures.  0 or -ENOMEM (the last interval's ops lost). */
int series_finish(struct series *s, uint64_t end_ns);
/* Add from's intervals to into's, interval k to interval k (concurrent
 * runs started together); both finished, same interval length (else
 * -EINVAL).  0 or -ENOMEM. */
int series_merge(struct series *into, const struct series *from);
/* Append from's intervals after into's (a repetition), marked with
 * repetition, their start times counted from into's origin. */
int series_append(struct series *into, const struct series *from, unsigned repetition);
/* Add interval i's latencies to into: 0 or -EINVAL. */
int series_expand(const struct series *s, size_t i, struct diskio_hist *into);
/* One job's (or thread's) part of a run of several. */
struct run_job {
    uint64_t ops, bytes, duration_ns, error_op;
    int error;
    const char *error_during;
    struct diskio_hist *hist; /* its total latencies */
};
struct run_param {
    char *key, *value;
};
/* A run made with config.steady (steady.c): the spec, and the state of
 * each repetition (one for a run measured once). */
struct run_steady {
    bool on;
    struct diskio_steady_spec spec;
    uint64_t interval_ns;
    struct diskio_steady_state *states;
    size_t nstates;
};

struct diskio_run {
    struct diskio_run_info info;
    struct run_job *jobs; /* njobs > 1: each job's figures; NULL otherwise */
    size_t njobs;
    struct run_param *params;    /* custom runs: diskio_run_set_param() */
    size_t nparams, params_room; /* nparams <= params_room <= DISKIO_RUN_PARAMS_MAX */
    char *name_owned;            /* custom runs */
    const char *open_flags_text;
    struct diskio_hist *hist[DISKIO_PART_COUNT];
    struct run_repetition *reps; /* NULL until the first diskio_run_merge() */
    size_t nreps;
    struct diskio_device_io *devices; /* ndevices, then the total; NULL: none */
    size_t ndevices;
    unsigned verdicts;       /* DISKIO_VERDICT_* */
    struct series *series;   /* config.interval_ns: the intervals; else NULL */
    uint64_t read_ahead;     /* the devices' largest readahead window (devstat_record) */
    struct interference ifr; /* measured runs: what else the machine did (interference.c) */
    bool memory_backed;      /* a loop device over a file in memory (devstat_record) */
    bool counters_blind;     /* a depth-0 device counts no I/O (devstat_record) */
    struct direct_statx dio; /* O_DIRECT modes: the files' STATX_DIOALIGN (direct.c) */
    struct direct_check direct;
    struct run_steady steady; /* config.steady (steady.c) */
    /* diskio_capacity_search(): the answer and its steps (target_search.c) */
    struct diskio_capacity *capacity;
    struct diskio_capacity_step *capacity_steps;
};
int run_alloc(const char *name, bool parts, bool service, struct diskio_run **out);

/* ---- environment probe ---- */
struct env_kv {
    const char *key; /* dotted name */
    char *value;     /* NULL: unknown */
};
struct env;
struct env *env_probe(const char *dir);
/* Half the median round trip of a byte between two threads pinned to two
 * CPUs, each asleep in read() in turn: what waking a task on another CPU
 * costs here (ns); -1 with fewer than two CPUs allowed or on failure. */
int64_t wakeup_probe_ns(void);
const char *env_get(const struct env *env, const char *key);
int64_t env_get_int(const struct env *env, const char *key); /* -1 unknown */
void env_free(struct env *env);
/* The devices under the probed directory (empty when none). */
const struct devstat_set *env_devices(const struct env *env);

/* ---- result and emitters ---- */
struct diskio_result {
    char *label;
    char start_time[32];
    struct env *env;
    struct diskio_run **runs;
    size_t nruns, cap;
    bool incomplete;
    /* what the table shows (diskio_result_set_percentiles(), _units()) */
    double pcts[DISKIO_PERCENTILES_MAX];
    size_t npcts; /* 0: the default, TABLE_PCTS */
    enum diskio_throughput_unit unit;
    struct diskio_suite_row *suite_rows; /* diskio_result_set_suite(): owned copies */
    size_t suite_nrows;
    char *suite_name, *suite_title, *suite_summary;
    /* diskio_result_set_precondition(): preconditioned says it was */
    bool preconditioned;
    struct diskio_precondition precondition;
};

/* The table's percentiles by default. */
#define TABLE_PCTS 3
extern const double table_pcts[TABLE_PCTS];
/* The percentiles the CSV and JSON hold: the summary's and the table's,
 * ascending and distinct, at most SUMMARY_PCTS + DISKIO_PERCENTILES_MAX. */
#define RESULT_PCTS_MAX (SUMMARY_PCTS + DISKIO_PERCENTILES_MAX)
size_t result_pcts(const struct diskio_result *res, double *out);
/* The table's percentiles: a pointer to them, their number in *n. */
const double *result_table_pcts(const struct diskio_result *res, size_t *n);
/* A percentile's name, the one rule for every key, column and header:
 * "p" and the percentile in at most ten significant digits, never an
 * exponent, its point as sep: "p99.9" (sep '.') for the table, "p99_9"
 * (sep '_') as a JSON key or CSV column (doc/result-schema.md, HIST). */
const char *pct_name(char *buf, size_t size, double pct, char sep);

/* Strings in the output: emit_string.h. */

int emit_json(const struct diskio_result *res, FILE *out);
int emit_csv(const struct diskio_result *res, FILE *out);
int emit_intervals_csv(const struct diskio_result *res, FILE *out);
int emit_text(const struct diskio_result *res, FILE *out);

#endif
