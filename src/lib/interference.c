/* SPDX-License-Identifier: MIT */
/*
 * Interference: what else the machine did while a repetition ran.  A
 * latency measured while other processes held the CPUs, the hypervisor
 * stole time, memory was reclaimed or another program wrote to the same
 * disk is not the storage's alone, and a comparison that does not know it
 * calls the neighbour a difference between machines.  The counters are
 * read just before a repetition's measured ops and just after them,
 * outside the timed loop (as the block devices' are, devstat.c):
 *
 *  - /proc/stat: the CPUs' busy time (user, nice, system, irq, softirq;
 *    guest time is inside user) minus this process's own user + system
 *    time (getrusage) is other processes' and the kernel's CPU time, in
 *    CPUs on average over the wall time; steal, as a share of all CPUs'
 *    time; procs_running, sampled at both ends (the sampling thread
 *    itself, running, is not counted).  The busy time counts in USER_HZ
 *    ticks, sampled per CPU at the kernel's tick: over a window shorter
 *    than a tick per CPU and one more these figures are unknown, and
 *    they never exceed what the machine has;
 *  - the measuring threads' own scheduling: their CPU time
 *    (CLOCK_THREAD_CPUTIME_ID) and the time they were runnable but
 *    waited for a CPU (run_delay, /proc/thread-self/schedstat), both in
 *    nanoseconds, read by each thread just before its first measured op
 *    and just after its last; the rest of their wall time they were
 *    blocked (on the device, a lock, writeback throttling);
 *  - /proc/pressure/{cpu,io,memory}: the total= stall times of the some
 *    and full lines, as shares of the wall time (Linux 4.20 and later,
 *    where the kernel has PSI);
 *  - /proc/meminfo: Dirty and Writeback at both ends;
 *  - the run's device deltas (devstat.c): what a device read and wrote
 *    beyond what the run explains, on every device in the stack, a loop
 *    device's backing disk included.
 *
 * What disturbs a repetition depends on what its mode's ops wait for
 * (mode_waits_for_device(), from the mode table).  Ops that wait for
 * the device stack (durable, O_DIRECT, queued, uncached reads) are
 * disturbed by other programs' CPU time (the loop device's worker, the
 * journal's thread and the interrupts need a CPU too) and by their I/O
 * on the same devices.  Ops that copy to or from the page cache (async,
 * read --cached) wait for nothing but a CPU: they are disturbed when the
 * measuring threads themselves waited for one, whatever the other CPUs
 * did, and other programs' device I/O disturbs them only when it caught
 * their pages: buffered writes blocked (off a CPU without waiting for
 * one: writeback throttling, a page under writeback) while a device had
 * foreign I/O.
 *
 * The thresholds that make a repetition "disturbed" were chosen from A/A
 * runs of diskio on this kind of machine with and without a neighbour
 * (doc/verdicts.md, "Thresholds").
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "diskio_internal.h"

/* Ops that wait for the device: other processes' CPU time beyond
 * n - OTHER_CPUS_SPARE CPUs on average,
 * on a machine of n CPUs.  Measured (doc/verdicts.md): on 2 CPUs the
 * fdatasync latency on a loop device stayed at its floor (median 213-261
 * us) up to 1.7 other CPUs, rose 40-80% from 1.7 to 1.9 and 4-10x
 * beyond. */
#define OTHER_CPUS_SPARE 0.3
/* Ops that wait for a CPU: the measuring threads waited for one during
 * more than this share of their time, beyond what their own number
 * explains on the machine's CPUs (jobs beyond the CPUs wait for each
 * other).  A wait costs more than itself (another task had the CPU and
 * its caches): measured (doc/verdicts.md, two aa-load runs, 800 async
 * repetitions of 200 writes of 8 KiB, 0.7 ms each), those that never
 * waited had a median mean of 2.92 and 3.05 us, and every group that
 * waited at all was slower in the median: under 1% of their time 1.11x
 * (7 repetitions), 1-5% 1.10x to 1.23x, 10-20% 1.28x, beyond 50% 4x to
 * 7.5x.  In so short a repetition one wait costs a tenth; the share
 * lets a longer one absorb a wait or two. */
#define RUN_DELAY_SHARE_MAX 0.005
/* Buffered writes blocked (off a CPU, not waiting for one) more than this
 * share of their time while a device had foreign I/O (the device_io
 * thresholds): writeback of someone else's I/O reached their pages.
 * Writes that stay in the page cache are blocked a median 0.03% of
 * their time (400 async repetitions, dd oflag=direct beside half of
 * them; 7 above 1%, the largest 11%, all on the side without dd:
 * doc/verdicts.md); a stall of a twentieth of the time is the smallest
 * change diskio-compare calls (5%). */
#define BLOCKED_SHARE_MAX 0.05
/* Steal beyond this share of all CPUs' time. */
#define STEAL_SHARE_MAX 0.05
/* Some task waiting for a CPU during more than this share of the time:
 * the same runs' median latency was 124-289 us up to 0.6 and 452 us to
 * 2.5 ms beyond (doc/verdicts.md). */
#define CPU_PRESSURE_MAX 0.6
/* Some task stalled on memory reclaim during more than this share. */
#define MEMORY_PRESSURE_MAX 0.01
/* Dirty + writeback pages waiting to be written when the repetition
 * started, MiB: writeback that competes with the run's own writes. */
#define DIRTY_MIB_MAX 256.0
/* A device's I/O the run does not explain: beyond this share of the
 * device's bytes, and beyond DEVICE_FOREIGN_MIN_BYTES (a journal
 * commit of the filesystem, a log line of another program are not a
 * neighbour). */
#define DEVICE_FOREIGN_SHARE_MAX 0.5
#define DEVICE_FOREIGN_MIN_BYTES (UINT64_C(4) << 20)

/* ---- parsing ---- */

static bool parse_u64(const char **p, uint64_t *out)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (**p < '0' || **p > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno != 0)
        return false;
    *p = end;
    *out = (uint64_t)v;
    return true;
}

/* The next line after p, or NULL. */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : NULL;
}

/* One line of /proc/stat into s; *seen gets bit 1 for the "cpu" line,
 * 2 for procs_running.  false for a line of those that does not parse. */
static bool stat_line(const char *p, struct ifr_sample *s, unsigned *seen)
{
    if (strncmp(p, "cpu ", 4) == 0) {
        /* user nice system idle iowait irq softirq steal [guest
         * guest_nice]: at least the first eight (Linux 2.6.11) */
        uint64_t v[8];
        p += 4;
        for (int i = 0; i < 8; i++)
            if (!parse_u64(&p, &v[i]))
                return false;
        s->busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6];
        s->steal_ticks = v[7];
        *seen |= 1u;
    } else if (strncmp(p, "cpu", 3) == 0 && p[3] >= '0' && p[3] <= '9') {
        s->cpus++;
    } else if (strncmp(p, "procs_running ", 14) == 0) {
        uint64_t v;
        p += 14;
        if (!parse_u64(&p, &v) || v > 1000000)
            return false;
        s->procs_running = (unsigned)v;
        *seen |= 2u;
    }
    return true;
}

int ifr_parse_stat(const char *text, struct ifr_sample *s)
{
    unsigned seen = 0;
    s->cpus = 0;
    for (const char *line = text; line && *line; line = next_line(line))
        if (!stat_line(line, s, &seen))
            return -EINVAL;
    return seen == 3u && s->cpus > 0 ? 0 : -EINVAL;
}

/* /proc/stat line by line: its intr line alone can be hundreds of
 * kilobytes on a large machine, and only the lines before and after it
 * are wanted.  A long line comes in pieces; only a piece that starts a
 * line is looked at. */
static bool read_stat(struct ifr_sample *s)
{
    FILE *f = fopen("/proc/stat", "re");
    if (!f)
        return false;
    char line[512];
    unsigned seen = 0;
    bool ok = true, at_start = true;
    s->cpus = 0;
    while (ok && fgets(line, sizeof(line), f)) {
        if (at_start)
            ok = stat_line(line, s, &seen);
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    return ok && seen == 3u && s->cpus > 0;
}

/* "total=N" in one line of a pressure file. */
static bool psi_total(const char *line, uint64_t *out)
{
    const char *nl = strchr(line, '\n');
    const char *t = strstr(line, "total=");
    if (!t || (nl && t > nl))
        return false;
    t += 6;
    return parse_u64(&t, out) && (*t == '\n' || *t == '\0' || *t == ' ');
}

int ifr_parse_psi(const char *text, uint64_t *some_us, uint64_t *full_us, bool *has_full)
{
    bool some = false;
    *has_full = false;
    for (const char *line = text; line && *line; line = next_line(line)) {
        if (strncmp(line, "some ", 5) == 0) {
            if (!psi_total(line, some_us))
                return -EINVAL;
            some = true;
        } else if (strncmp(line, "full ", 5) == 0) {
            if (!psi_total(line, full_us))
                return -EINVAL;
            *has_full = true;
        }
    }
    return some ? 0 : -EINVAL;
}

int ifr_parse_meminfo(const char *text, uint64_t *dirty_kib, uint64_t *writeback_kib)
{
    bool dirty = false, writeback = false;
    for (const char *line = text; line && *line; line = next_line(line)) {
        const char *p = line;
        uint64_t *into = NULL;
        if (strncmp(p, "Dirty:", 6) == 0) {
            into = dirty_kib;
            dirty = true;
            p += 6;
        } else if (strncmp(p, "Writeback:", 10) == 0) {
            into = writeback_kib;
            writeback = true;
            p += 10;
        } else {
            continue;
        }
        if (!parse_u64(&p, into) || strncmp(p, " kB", 3) != 0)
            return -EINVAL;
    }
    return dirty && writeback ? 0 : -EINVAL;
}

int ifr_parse_schedstat(const char *text, uint64_t *delay_ns)
{
    /* "on-CPU-ns run-delay-ns timeslices\n" (Documentation/scheduler/
     * sched-stats.rst); the first lags the running thread by up to a
     * tick, so its CPU time comes from CLOCK_THREAD_CPUTIME_ID instead */
    const char *p = text;
    uint64_t on_cpu, slices;
    if (!parse_u64(&p, &on_cpu) || !parse_u64(&p, delay_ns) || !parse_u64(&p, &slices))
        return -EINVAL;
    while (*p == ' ' || *p == '\t')
        p++;
    return *p == '\n' || *p == '\0' ? 0 : -EINVAL;
}

/* ---- sampling ---- */

/* A small /proc file whole (they are generated at read time: one read
 * of a large enough buffer); false when unreadable. */
static bool read_proc(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 0;
}

void ifr_sample(struct ifr_sample *s)
{
    static const char *const psi_files[IFR_PSI_COUNT] = {"/proc/pressure/cpu", "/proc/pressure/io",
                                                         "/proc/pressure/memory"};
    char buf[4096];
    memset(s, 0, sizeof(*s));
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        s->own_cpu_ns = (uint64_t)ru.ru_utime.tv_sec * UINT64_C(1000000000) +
                        (uint64_t)ru.ru_utime.tv_usec * 1000u +
                        (uint64_t)ru.ru_stime.tv_sec * UINT64_C(1000000000) +
                        (uint64_t)ru.ru_stime.tv_usec * 1000u;
    s->stat_ok = read_stat(s);
    for (int i = 0; i < IFR_PSI_COUNT; i++)
        s->psi_ok[i] =
            read_proc(psi_files[i], buf, sizeof(buf)) &&
            ifr_parse_psi(buf, &s->psi_some_us[i], &s->psi_full_us[i], &s->psi_full_ok[i]) == 0;
    s->mem_ok = read_proc("/proc/meminfo", buf, sizeof(buf)) &&
                ifr_parse_meminfo(buf, &s->dirty_kib, &s->writeback_kib) == 0;
    s->thread.ok = false;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    s->real_s = (int64_t)ts.tv_sec;
    s->real_ms = (uint32_t)(ts.tv_nsec / 1000000);
    s->mono_ns = now_ns();
}

static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return UINT64_MAX;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

void ifr_thread_sample(struct ifr_thread *t)
{
    char buf[128];
    memset(t, 0, sizeof(*t));
    t->threads = 1;
    /* the thread runs as it reads: its run_delay is complete to now */
    t->ok = read_proc("/proc/thread-self/schedstat", buf, sizeof(buf)) &&
            ifr_parse_schedstat(buf, &t->delay_ns) == 0;
    t->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    t->mono_ns = now_ns();
    t->ok = t->ok && t->cpu_ns != UINT64_MAX;
}

void ifr_thread_add(struct ifr_thread *into, const struct ifr_thread *t)
{
    into->ok = (into->threads == 0 || into->ok) && t->ok;
    into->threads += t->threads;
    into->mono_ns += t->mono_ns;
    into->cpu_ns += t->cpu_ns;
    into->delay_ns += t->delay_ns;
}

/* ---- figures ---- */

static double share_of(uint64_t before, uint64_t after, double wall_us)
{
    if (after < before || wall_us <= 0)
        return NAN;
    double v = (double)(after - before) / wall_us;
    return v > 1.0 ? 1.0 : v;
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* /proc/stat's figures: other processes' CPU time and steal, known only
 * over a window the counters resolve, and never beyond the machine's
 * CPUs; the run queue at both readings. */
static void stat_figures(const struct ifr_sample *b, const struct ifr_sample *a, double wall_s,
                         struct interference *out)
{
    out->other_cpu_s = out->other_cpus = out->steal_share = NAN;
    out->run_queue_before = out->run_queue_after = -1;
    if (!b->stat_ok || !a->stat_ok || a->busy_ticks < b->busy_ticks ||
        a->steal_ticks < b->steal_ticks || a->cpus == 0 || wall_s <= 0)
        return;
    const long hz = sysconf(_SC_CLK_TCK);
    const double tick_s = 1.0 / (double)(hz > 0 ? hz : 100);
    out->cpus = a->cpus;
    /* the busy time over all CPUs is truncated to a USER_HZ tick when
     * read, and each CPU's is counted a kernel tick at a time (at most a
     * USER_HZ tick: the kernel's HZ is 100 or more) */
    out->stat_resolution_s = (double)(a->cpus + 1) * tick_s;
    /* the sampling thread is running when it reads procs_running */
    out->run_queue_before = b->procs_running > 0 ? (int)b->procs_running - 1 : 0;
    out->run_queue_after = a->procs_running > 0 ? (int)a->procs_running - 1 : 0;
    if (wall_s < out->stat_resolution_s)
        return;
    const double busy_s = (double)(a->busy_ticks - b->busy_ticks) * tick_s;
    const double other = busy_s - (isnan(out->own_cpu_s) ? 0.0 : out->own_cpu_s);
    out->other_cpu_s = clamp(other, 0.0, wall_s * (double)a->cpus);
    out->other_cpus = out->other_cpu_s / wall_s;
    out->steal_share = clamp(
        (double)(a->steal_ticks - b->steal_ticks) * tick_s / (wall_s * (double)a->cpus), 0.0, 1.0);
}

/* The measuring threads' figures: their wall, CPU and run-delay time
 * (summed over them), the share of it they waited for a CPU and the
 * share they were blocked. */
static void thread_figures(const struct ifr_thread *b, const struct ifr_thread *a,
                           struct interference *out)
{
    out->threads = 0;
    out->thread_wall_s = out->thread_cpu_s = out->run_delay_s = NAN;
    out->run_delay_share = out->blocked_share = NAN;
    if (!b->ok || !a->ok || a->threads != b->threads || a->threads == 0 ||
        a->mono_ns <= b->mono_ns || a->cpu_ns < b->cpu_ns || a->delay_ns < b->delay_ns)
        return;
    out->threads = a->threads;
    const double wall = (double)(a->mono_ns - b->mono_ns) / 1e9;
    out->thread_wall_s = wall;
    out->thread_cpu_s = (double)(a->cpu_ns - b->cpu_ns) / 1e9;
    out->run_delay_s = (double)(a->delay_ns - b->delay_ns) / 1e9;
    /* the clocks are read one after the other: their sum may pass the
     * wall time by the reads' own */
    out->run_delay_share = clamp(out->run_delay_s / wall, 0.0, 1.0);
    out->blocked_share = clamp(1.0 - (out->thread_cpu_s + out->run_delay_s) / wall, 0.0, 1.0);
}

void ifr_figures(const struct ifr_sample *b, const struct ifr_sample *a, struct interference *out)
{
    memset(out, 0, sizeof(*out));
    out->known = true;
    out->wall_ns = a->mono_ns > b->mono_ns ? a->mono_ns - b->mono_ns : 0;
    const double wall_s = (double)out->wall_ns / 1e9;
    time_t start = (time_t)b->real_s;
    struct tm utc;
    if (gmtime_r(&start, &utc)) {
        char sec[24];
        strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &utc);
        snprintf(out->start_time, sizeof(out->start_time), "%s.%03uZ", sec, (unsigned)b->real_ms);
    }
    out->own_cpu_s =
        a->own_cpu_ns >= b->own_cpu_ns ? (double)(a->own_cpu_ns - b->own_cpu_ns) / 1e9 : NAN;
    stat_figures(b, a, wall_s, out);
    thread_figures(&b->thread, &a->thread, out);
    const double wall_us = (double)out->wall_ns / 1e3;
    for (int i = 0; i < IFR_PSI_COUNT; i++) {
        out->psi_some[i] = out->psi_full[i] = NAN;
        if (b->psi_ok[i] && a->psi_ok[i])
            out->psi_some[i] = share_of(b->psi_some_us[i], a->psi_some_us[i], wall_us);
        if (b->psi_full_ok[i] && a->psi_full_ok[i])
            out->psi_full[i] = share_of(b->psi_full_us[i], a->psi_full_us[i], wall_us);
    }
    out->dirty_kib_before = out->writeback_kib_before = -1;
    out->dirty_kib_after = out->writeback_kib_after = -1;
    if (b->mem_ok) {
        out->dirty_kib_before = (int64_t)b->dirty_kib;
        out->writeback_kib_before = (int64_t)b->writeback_kib;
    }
    if (a->mem_ok) {
        out->dirty_kib_after = (int64_t)a->dirty_kib;
        out->writeback_kib_after = (int64_t)a->writeback_kib;
    }
}

void ifr_devices(const struct diskio_run *run, struct interference *out)
{
    out->ndevices = 0;
    for (size_t i = 0; i < run->ndevices && out->ndevices < IFR_DEVICES; i++) {
        const struct diskio_device_io *d = &run->devices[i];
        double read_own, write_own;
        devstat_own_bytes(run, d, &read_own, &write_own);
        const double read = (double)d->read_sectors * 512.0;
        const double written = (double)d->write_sectors * 512.0;
        /* a loop device's backing disk carries the run's writes as its
         * file's writeback, so they are the run's there too */
        double foreign = (read > read_own ? read - read_own : 0.0) +
                         (written > write_own ? written - write_own : 0.0);
        struct ifr_device *to = &out->devices[out->ndevices++];
        snprintf(to->name, sizeof(to->name), "%s", d->name);
        to->depth = d->depth;
        to->bytes = (uint64_t)(read + written);
        to->foreign_bytes = (uint64_t)foreign;
    }
}

static struct ifr_reason *add_reason(struct interference *out, enum ifr_kind kind, double figure,
                                     double threshold, const char *device)
{
    struct ifr_reason *r = &out->reasons[out->nreasons++];
    memset(r, 0, sizeof(*r));
    r->kind = kind;
    r->figure = figure;
    r->threshold = threshold;
    snprintf(r->device, sizeof(r->device), "%s", device ? device : "");
    return r;
}

/* The device whose I/O is least the run's, beyond the thresholds, and
 * its foreign share; NULL when none is. */
static const struct ifr_device *foreign_device(const struct interference *out, double *share_out)
{
    const struct ifr_device *worst = NULL;
    double worst_share = 0.0;
    for (size_t i = 0; i < out->ndevices; i++) {
        const struct ifr_device *d = &out->devices[i];
        double share = d->bytes ? (double)d->foreign_bytes / (double)d->bytes : 0.0;
        if (d->foreign_bytes > DEVICE_FOREIGN_MIN_BYTES && share > DEVICE_FOREIGN_SHARE_MAX &&
            share > worst_share) {
            worst = d;
            worst_share = share;
        }
    }
    *share_out = worst_share;
    return worst;
}

/* The share of the measuring threads' time their own number explains
 * waiting for a CPU: jobs beyond the CPUs take turns. */
static double own_run_delay_share(const struct interference *out)
{
    if (!out->cpus || out->threads <= out->cpus)
        return 0.0;
    return 1.0 - (double)out->cpus / (double)out->threads;
}

void ifr_judge(struct interference *out)
{
    out->nreasons = 0;
    if (!out->known)
        return;
    const bool device = out->waits_device;
    /* ops that wait for a CPU are judged by their own wait for one; by
     * the others' CPU time, as the device's are, only where that wait
     * is unknown (no schedstat) */
    const bool own_wait = !device && !isnan(out->run_delay_share);
    const double spare_cpus = out->cpus > 1 ? (double)out->cpus - OTHER_CPUS_SPARE : 0.7;
    if (!own_wait && out->other_cpus > spare_cpus)
        add_reason(out, IFR_OTHER_CPU, out->other_cpus, spare_cpus, NULL);
    const double delay_max = own_run_delay_share(out) + RUN_DELAY_SHARE_MAX;
    if (own_wait && out->run_delay_share > delay_max)
        add_reason(out, IFR_RUN_DELAY, out->run_delay_share, delay_max, NULL);
    if (out->steal_share > STEAL_SHARE_MAX)
        add_reason(out, IFR_STEAL, out->steal_share, STEAL_SHARE_MAX, NULL);
    if (out->psi_some[IFR_PSI_CPU] > CPU_PRESSURE_MAX)
        add_reason(out, IFR_CPU_PRESSURE, out->psi_some[IFR_PSI_CPU], CPU_PRESSURE_MAX, NULL);
    if (out->psi_some[IFR_PSI_MEMORY] > MEMORY_PRESSURE_MAX)
        add_reason(out, IFR_MEMORY_PRESSURE, out->psi_some[IFR_PSI_MEMORY], MEMORY_PRESSURE_MAX,
                   NULL);
    /* dirty pages compete with writes, to the device or into the cache;
     * a cached read does not wait for them */
    if ((device || out->buffered_writes) && out->dirty_kib_before >= 0) {
        double mib = (double)(out->dirty_kib_before + out->writeback_kib_before) / 1024.0;
        if (mib > DIRTY_MIB_MAX)
            add_reason(out, IFR_DIRTY, mib, DIRTY_MIB_MAX, NULL);
    }
    double share;
    const struct ifr_device *worst = foreign_device(out, &share);
    if (!worst || !(device || out->buffered_writes))
        return;
    /* buffered writes of unknown blocked time are judged as the
     * device's: whether another's I/O caught them cannot be told */
    if (device || isnan(out->blocked_share))
        add_reason(out, IFR_DEVICE_IO, share, DEVICE_FOREIGN_SHARE_MAX, worst->name);
    else if (out->blocked_share > BLOCKED_SHARE_MAX)
        add_reason(out, IFR_WRITEBACK, out->blocked_share, BLOCKED_SHARE_MAX, worst->name)
            ->device_share = share;
}

void ifr_record(struct diskio_run *run, const struct ifr_sample *before,
                const struct ifr_sample *after)
{
    const struct diskio_config *cfg = &run->info.config;
    ifr_figures(before, after, &run->ifr);
    ifr_devices(run, &run->ifr);
    /* a measured run always has its config */
    run->ifr.waits_device = !run->info.has_config || mode_waits_for_device(cfg->mode, cfg->cached);
    run->ifr.buffered_writes =
        !run->ifr.waits_device && (!diskio_mode_is_read(cfg->mode) || cfg->write_back > 0);
    /* a paced run sleeps between its ops by design: off a CPU is not
     * blocked there */
    if (cfg->rate_interval_ns)
        run->ifr.blocked_share = NAN;
    ifr_judge(&run->ifr);
}

bool ifr_cpu_unjudged(const struct interference *f)
{
    if (!f->known || (!f->waits_device && !isnan(f->run_delay_share)))
        return false;
    return isnan(f->other_cpus);
}

/* ---- names ---- */

static const struct {
    const char *name, *unit;
} kinds[IFR_KIND_COUNT] = {
    [IFR_OTHER_CPU] = {"other_cpu", "CPUs"},
    [IFR_RUN_DELAY] = {"run_delay", "share"},
    [IFR_STEAL] = {"steal", "share"},
    [IFR_CPU_PRESSURE] = {"cpu_pressure", "share"},
    [IFR_MEMORY_PRESSURE] = {"memory_pressure", "share"},
    [IFR_DIRTY] = {"dirty", "MiB"},
    [IFR_DEVICE_IO] = {"device_io", "share"},
    [IFR_WRITEBACK] = {"writeback", "share"},
};

const char *ifr_kind_name(enum ifr_kind kind)
{
    return (unsigned)kind < IFR_KIND_COUNT ? kinds[kind].name : NULL;
}

const char *ifr_kind_unit(enum ifr_kind kind)
{
    return (unsigned)kind < IFR_KIND_COUNT ? kinds[kind].unit : NULL;
}

const char *ifr_reason_text(const struct ifr_reason *r, char *buf, size_t size)
{
    switch (r->kind) {
    case IFR_OTHER_CPU:
        snprintf(buf, size, "other processes used %.2f CPUs (threshold %.2f)", r->figure,
                 r->threshold);
        break;
    case IFR_RUN_DELAY:
        snprintf(buf, size, "diskio waited for a CPU %.1f%% of its time (threshold %.1f%%)",
                 100 * r->figure, 100 * r->threshold);
        break;
    case IFR_STEAL:
        snprintf(buf, size, "the hypervisor stole %.0f%% of the CPU time (threshold %.0f%%)",
                 100 * r->figure, 100 * r->threshold);
        break;
    case IFR_CPU_PRESSURE:
        snprintf(buf, size, "tasks waited for a CPU %.0f%% of the time (threshold %.0f%%)",
                 100 * r->figure, 100 * r->threshold);
        break;
    case IFR_MEMORY_PRESSURE:
        snprintf(buf, size, "tasks stalled on memory %.1f%% of the time (threshold %.1f%%)",
                 100 * r->figure, 100 * r->threshold);
        break;
    case IFR_DIRTY:
        snprintf(buf, size, "%.0f MiB of dirty pages waited for writeback (threshold %.0f MiB)",
                 r->figure, r->threshold);
        break;
    case IFR_DEVICE_IO:
        snprintf(buf, size, "%.0f%% of %s's I/O was not diskio's (threshold %.0f%%)",
                 100 * r->figure, r->device, 100 * r->threshold);
        break;
    case IFR_WRITEBACK:
        snprintf(buf, size,
                 "diskio's buffered writes were blocked %.0f%% of their time while %.0f%% of %s's "
                 "I/O was not diskio's (thresholds %.0f%% and %.0f%%)",
                 100 * r->figure, 100 * r->device_share, r->device, 100 * r->threshold,
                 100 * DEVICE_FOREIGN_SHARE_MAX);
        break;
    default: snprintf(buf, size, "?"); break;
    }
    return buf;
}
