/* SPDX-License-Identifier: MIT */
/*
 * Description: the interference probe reads /proc's counters and judges disturbance by what the ops wait for.
 *
 * the interference probe (src/lib/interference.c) reads
 * /proc/stat, /proc/pressure/{cpu,io,memory}, /proc/meminfo and
 * /proc/thread-self/schedstat as the kernel writes them (recorded text)
 * or refuses what they are not; the figures of two samples are other
 * processes' CPU time net of diskio's own (unknown over a window the
 * counters do not resolve, never beyond the machine's CPUs), steal, the
 * run queue without the sampling thread, the measuring thread's wait for
 * a CPU and its blocked time, pressure shares and dirty pages; a
 * repetition is disturbed exactly when a figure that matters to what
 * its mode's ops wait for (the mode table: the device, or a CPU) passes
 * its threshold, with the reason, its figure and the threshold.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "diskio_internal.h"
#include "t_helpers.h"

/* as this machine printed them (Linux 6.18, 2 CPUs) */
#define STAT                                                                                       \
    "cpu  45313 0 22447 85373 6847 0 1243 169 0 0\n"                                               \
    "cpu0 22677 0 9778 45658 2650 0 146 81 0 0\n"                                                  \
    "cpu1 22636 0 12668 39714 4197 0 1097 87 0 0\n"                                                \
    "intr 5371233 0 9 0 0 0 0 0 0 0 0 0\n"                                                         \
    "ctxt 10432313\nbtime 1795778000\nprocesses 18069\nprocs_running 3\nprocs_blocked 0\n"
#define PSI_CPU                                                                                    \
    "some avg10=0.35 avg60=9.33 avg300=10.78 total=114434411\n"                                    \
    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
#define MEMINFO                                                                                    \
    "MemTotal:        8039812 kB\nMemFree:         1234567 kB\nDirty:              25552 kB\n"     \
    "Writeback:            116 kB\n"

START_TEST(test_parse_proc_files_as_written)
{
    struct ifr_sample s;
    memset(&s, 0, sizeof(s));
    ck_assert_int_eq(ifr_parse_stat(STAT, &s), 0);
    ck_assert_uint_eq(s.cpus, 2);
    ck_assert_uint_eq(s.busy_ticks, 45313 + 0 + 22447 + 0 + 1243);
    ck_assert_uint_eq(s.steal_ticks, 169);
    ck_assert_uint_eq(s.procs_running, 3);
    uint64_t some = 0, full = 1;
    bool has_full = false;
    ck_assert_int_eq(ifr_parse_psi(PSI_CPU, &some, &full, &has_full), 0);
    ck_assert_uint_eq(some, 114434411);
    ck_assert(has_full);
    ck_assert_uint_eq(full, 0);
    /* memory's file on older kernels, io's without full: some alone */
    ck_assert_int_eq(
        ifr_parse_psi("some avg10=0.00 avg60=0.00 avg300=0.00 total=17\n", &some, &full, &has_full),
        0);
    ck_assert(!has_full);
    ck_assert_uint_eq(some, 17);
    uint64_t dirty = 0, writeback = 0;
    ck_assert_int_eq(ifr_parse_meminfo(MEMINFO, &dirty, &writeback), 0);
    ck_assert_uint_eq(dirty, 25552);
    ck_assert_uint_eq(writeback, 116);
}
END_TEST

START_TEST(test_parse_refuses_what_the_files_are_not)
{
    struct ifr_sample s;
    memset(&s, 0, sizeof(s));
    ck_assert_int_eq(ifr_parse_stat("cpu  1 2 3\nprocs_running 1\ncpu0 1\n", &s), -EINVAL);
    ck_assert_int_eq(ifr_parse_stat("cpu0 1 2 3 4 5 6 7 8\nprocs_running 1\n", &s), -EINVAL);
    ck_assert_int_eq(ifr_parse_stat("cpu  1 2 3 4 5 6 7 8\ncpu0 1\n", &s), -EINVAL);
    ck_assert_int_eq(ifr_parse_stat("cpu  1 2 3 4 5 6 7 x\ncpu0 1\nprocs_running 1\n", &s),
                     -EINVAL);
    uint64_t a, b;
    bool f;
    ck_assert_int_eq(ifr_parse_psi("full avg10=0.00 total=3\n", &a, &b, &f), -EINVAL);
    ck_assert_int_eq(ifr_parse_psi("some avg10=0.00 total=x\n", &a, &b, &f), -EINVAL);
    ck_assert_int_eq(ifr_parse_psi("", &a, &b, &f), -EINVAL);
    ck_assert_int_eq(ifr_parse_meminfo("Dirty: 12 kB\n", &a, &b), -EINVAL);
    ck_assert_int_eq(ifr_parse_meminfo("Dirty: 12 MB\nWriteback: 0 kB\n", &a, &b), -EINVAL);
}
END_TEST

/* Two samples wall_s apart on 2 CPUs: busy ticks (USER_HZ) spent by
 * everyone, of which own_s by diskio. */
static void samples(struct ifr_sample *b, struct ifr_sample *a, double wall_s, uint64_t busy,
                    double own_s)
{
    memset(b, 0, sizeof(*b));
    memset(a, 0, sizeof(*a));
    b->stat_ok = a->stat_ok = true;
    b->cpus = a->cpus = 2;
    b->procs_running = 1;
    a->procs_running = 4;
    b->mono_ns = 1000;
    a->mono_ns = 1000 + (uint64_t)(wall_s * 1e9);
    a->busy_ticks = busy;
    a->own_cpu_ns = (uint64_t)(own_s * 1e9);
    b->real_s = 1795778000; /* 2026-11-27T11:13:20Z */
    b->real_ms = 42;
    for (int i = 0; i < IFR_PSI_COUNT; i++)
        b->psi_ok[i] = a->psi_ok[i] = true;
    b->mem_ok = a->mem_ok = true;
}

START_TEST(test_figures_net_of_diskios_own_cpu)
{
    const long hz = sysconf(_SC_CLK_TCK);
    struct ifr_sample b, a;
    /* 10 s, 1.9 CPUs busy on average, diskio 1 s of it */
    samples(&b, &a, 10.0, (uint64_t)(19 * hz), 1.0);
    a.psi_some_us[IFR_PSI_CPU] = 500000; /* 5% of 10 s */
    a.steal_ticks = (uint64_t)hz;        /* 1 s of 20 CPU-seconds */
    b.dirty_kib = 1024;
    struct interference f;
    ifr_figures(&b, &a, &f);
    f.waits_device = true;
    ck_assert(f.known);
    ck_assert_uint_eq(f.cpus, 2);
    ck_assert(fabs(f.own_cpu_s - 1.0) < 1e-9);
    ck_assert(fabs(f.other_cpu_s - 18.0) < 1e-6);
    ck_assert(fabs(f.other_cpus - 1.8) < 1e-6);
    ck_assert(fabs(f.steal_share - 0.05) < 1e-6);
    ck_assert_int_eq(f.run_queue_before, 0); /* the sampling thread itself */
    ck_assert_int_eq(f.run_queue_after, 3);
    ck_assert(fabs(f.psi_some[IFR_PSI_CPU] - 0.05) < 1e-9);
    ck_assert(isnan(f.psi_full[IFR_PSI_CPU])); /* no full line read */
    ck_assert_int_eq(f.dirty_kib_before, 1024);
    ck_assert_str_eq(f.start_time, "2026-11-27T11:13:20.042Z");
    ifr_judge(&f);
    /* 1.8 other CPUs of 2: less than 0.3 left for diskio */
    ck_assert_uint_eq(f.nreasons, 1);
    ck_assert_int_eq(f.reasons[0].kind, IFR_OTHER_CPU);
    ck_assert(fabs(f.reasons[0].threshold - 1.7) < 1e-9);
    char text[160];
    ck_assert_str_eq(ifr_reason_text(&f.reasons[0], text, sizeof(text)),
                     "other processes used 1.80 CPUs (threshold 1.70)");
    ck_assert_str_eq(ifr_kind_name(f.reasons[0].kind), "other_cpu");
}
END_TEST

START_TEST(test_quiet_figures_are_not_disturbed)
{
    const long hz = sysconf(_SC_CLK_TCK);
    struct ifr_sample b, a;
    samples(&b, &a, 10.0, (uint64_t)(17 * hz), 1.0); /* 1.6 other CPUs */
    struct interference f;
    ifr_figures(&b, &a, &f);
    f.waits_device = true;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
    /* unknown stays unknown: no reason from what was not read */
    a.stat_ok = false;
    ifr_figures(&b, &a, &f);
    f.waits_device = true;
    ck_assert(isnan(f.other_cpus));
    ck_assert_int_eq(f.run_queue_before, -1);
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
}
END_TEST

START_TEST(test_each_threshold_is_a_reason)
{
    struct interference f;
    memset(&f, 0, sizeof(f));
    f.known = true;
    f.waits_device = true;
    f.cpus = 2;
    f.other_cpus = 0.1;
    f.steal_share = 0.2;
    f.psi_some[IFR_PSI_CPU] = 0.7;
    f.psi_some[IFR_PSI_IO] = 1.0; /* diskio's own waits: never a reason */
    f.psi_some[IFR_PSI_MEMORY] = 0.02;
    f.dirty_kib_before = 300 * 1024;
    f.writeback_kib_before = 0;
    f.ndevices = 2;
    snprintf(f.devices[0].name, sizeof(f.devices[0].name), "loop0");
    f.devices[0].bytes = 1 << 20;
    snprintf(f.devices[1].name, sizeof(f.devices[1].name), "vda");
    f.devices[1].depth = 1;
    f.devices[1].bytes = 100u << 20;
    f.devices[1].foreign_bytes = 58u << 20;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 5);
    ck_assert_int_eq(f.reasons[0].kind, IFR_STEAL);
    ck_assert_int_eq(f.reasons[1].kind, IFR_CPU_PRESSURE);
    ck_assert_int_eq(f.reasons[2].kind, IFR_MEMORY_PRESSURE);
    ck_assert_int_eq(f.reasons[3].kind, IFR_DIRTY);
    ck_assert_int_eq(f.reasons[4].kind, IFR_DEVICE_IO);
    char text[160];
    ck_assert_str_eq(ifr_reason_text(&f.reasons[4], text, sizeof(text)),
                     "58% of vda's I/O was not diskio's (threshold 50%)");
    /* a small foreign share, or a large share of a few bytes: none */
    f.devices[1].foreign_bytes = 40u << 20;
    f.devices[0].foreign_bytes = 1 << 19;
    f.steal_share = f.psi_some[IFR_PSI_CPU] = f.psi_some[IFR_PSI_MEMORY] = 0;
    f.dirty_kib_before = 0;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
}
END_TEST

/* Two readings 1.1 ms apart around 200 async writes of 8 KiB beside a
 * busy loop, in the format this machine (2 CPUs, Linux 6.18) printed
 * them: /proc/stat's busy time moved by two ticks as it crossed a
 * boundary (the garbage of a 1 ms window: 20 ms of CPU "in" 1.1 ms),
 * the thread's run_delay by 330 us. */
#define STAT_BEFORE                                                                                \
    "cpu  799938 1284 287926 296974 42855 0 15696 420 0 0\n"                                       \
    "cpu0 393409 714 144387 163573 19705 0 580 214 0 0\n"                                          \
    "cpu1 406528 569 143538 133401 23150 0 15116 206 0 0\nprocs_running 3\n"
#define STAT_AFTER                                                                                 \
    "cpu  799939 1284 287927 296974 42855 0 15696 420 0 0\n"                                       \
    "cpu0 393410 714 144387 163573 19705 0 580 214 0 0\n"                                          \
    "cpu1 406528 569 143539 133401 23150 0 15116 206 0 0\nprocs_running 2\n"
#define SCHED_BEFORE "31710305 7392822 22\n"
#define SCHED_AFTER "32480305 7722822 24\n"

/* The samples of those readings: wall_ns apart, the thread on a CPU for
 * cpu_ns of them (CLOCK_THREAD_CPUTIME_ID) and diskio for own_ns. */
static void recorded(struct ifr_sample *b, struct ifr_sample *a, uint64_t wall_ns, uint64_t cpu_ns,
                     uint64_t own_ns)
{
    memset(b, 0, sizeof(*b));
    memset(a, 0, sizeof(*a));
    ck_assert_int_eq(ifr_parse_stat(STAT_BEFORE, b), 0);
    ck_assert_int_eq(ifr_parse_stat(STAT_AFTER, a), 0);
    b->stat_ok = a->stat_ok = true;
    b->mono_ns = b->thread.mono_ns = 5000000;
    a->mono_ns = a->thread.mono_ns = 5000000 + wall_ns;
    a->own_cpu_ns = own_ns;
    b->thread.ok = a->thread.ok = true;
    b->thread.threads = a->thread.threads = 1;
    b->thread.cpu_ns = 1000000;
    a->thread.cpu_ns = 1000000 + cpu_ns;
    ck_assert_int_eq(ifr_parse_schedstat(SCHED_BEFORE, &b->thread.delay_ns), 0);
    ck_assert_int_eq(ifr_parse_schedstat(SCHED_AFTER, &a->thread.delay_ns), 0);
    for (int i = 0; i < IFR_PSI_COUNT; i++)
        b->psi_ok[i] = a->psi_ok[i] = true;
    b->mem_ok = a->mem_ok = true;
}

/* 120 MiB on vda, 97% of it another program's (dd oflag=direct). */
static void foreign_io(struct interference *f)
{
    f->ndevices = 2;
    snprintf(f->devices[0].name, sizeof(f->devices[0].name), "loop0");
    snprintf(f->devices[1].name, sizeof(f->devices[1].name), "vda");
    f->devices[1].depth = 1;
    f->devices[1].bytes = UINT64_C(120) << 20;
    f->devices[1].foreign_bytes = f->devices[1].bytes / 100 * 97;
}

START_TEST(test_parse_schedstat_as_written)
{
    uint64_t delay = 0;
    ck_assert_int_eq(ifr_parse_schedstat(SCHED_BEFORE, &delay), 0);
    ck_assert_uint_eq(delay, 7392822);
    ck_assert_int_eq(ifr_parse_schedstat("0 0 0", &delay), 0);
    ck_assert_int_eq(ifr_parse_schedstat("1 2\n", &delay), -EINVAL);
    ck_assert_int_eq(ifr_parse_schedstat("1 x 3\n", &delay), -EINVAL);
    ck_assert_int_eq(ifr_parse_schedstat("1 2 3 4\n", &delay), -EINVAL);
    ck_assert_int_eq(ifr_parse_schedstat("", &delay), -EINVAL);
}
END_TEST

START_TEST(test_a_1ms_window_has_no_invented_cpu_figures)
{
    const long hz = sysconf(_SC_CLK_TCK);
    struct ifr_sample b, a;
    recorded(&b, &a, 1100000, 770000, 780000);
    struct interference f;
    ifr_figures(&b, &a, &f);
    /* 20 ms of ticks less 0.78 ms of diskio's over 1.1 ms would be 17
     * "other CPUs" of 2: below the counters' resolution it is unknown */
    ck_assert(fabs(f.stat_resolution_s - 3.0 / (double)hz) < 1e-12);
    ck_assert(isnan(f.other_cpus) && isnan(f.other_cpu_s) && isnan(f.steal_share));
    ck_assert_int_eq(f.run_queue_before, 2);
    /* the thread's own clocks count nanoseconds: known at any length */
    ck_assert_uint_eq(f.threads, 1);
    ck_assert(fabs(f.run_delay_share - 0.3) < 1e-9);
    ck_assert(fabs(f.blocked_share) < 1e-9);
    f.waits_device = true;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
    /* the table says so: the device's rule had no other CPUs to judge by;
     * a buffered run's own wait stands in */
    ck_assert(ifr_cpu_unjudged(&f));
    f.waits_device = false;
    ck_assert(!ifr_cpu_unjudged(&f));
    /* at any length and count of ticks, a known figure is within what
     * the machine has */
    for (uint64_t wall_us = 100; wall_us <= 2000000; wall_us *= 3)
        for (uint64_t ticks = 0; ticks <= 1000; ticks += 7) {
            struct ifr_sample x = b, y = a;
            y.busy_ticks = x.busy_ticks + ticks;
            y.steal_ticks = x.steal_ticks + ticks / 2;
            y.mono_ns = x.mono_ns + wall_us * 1000;
            ifr_figures(&x, &y, &f);
            ck_assert(isnan(f.other_cpus) || (f.other_cpus >= 0 && f.other_cpus <= 2.0));
            ck_assert(isnan(f.steal_share) || (f.steal_share >= 0 && f.steal_share <= 1.0));
            ck_assert(isnan(f.other_cpus) == ((double)wall_us / 1e6 < f.stat_resolution_s));
        }
}
END_TEST

START_TEST(test_buffered_writes_waiting_for_a_cpu_are_disturbed)
{
    struct ifr_sample b, a;
    recorded(&b, &a, 1100000, 770000, 780000);
    struct interference f;
    ifr_figures(&b, &a, &f);
    f.waits_device = false;
    f.buffered_writes = true;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 1);
    ck_assert_int_eq(f.reasons[0].kind, IFR_RUN_DELAY);
    ck_assert(fabs(f.reasons[0].figure - 0.3) < 1e-9);
    char text[IFR_TEXT_MAX];
    ck_assert_str_eq(ifr_reason_text(&f.reasons[0], text, sizeof(text)),
                     "diskio waited for a CPU 30.0% of its time (threshold 0.5%)");
    ck_assert_str_eq(ifr_kind_name(IFR_RUN_DELAY), "run_delay");
    /* four jobs on two CPUs wait for each other half the time: that is
     * the run's own, not a neighbour's */
    f.cpus = 2;
    f.threads = 4;
    f.run_delay_share = 0.504;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
    f.run_delay_share = 0.51;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 1);
    ck_assert(fabs(f.reasons[0].threshold - 0.505) < 1e-9);
}
END_TEST

START_TEST(test_buffered_writes_beside_foreign_device_io_are_not)
{
    /* the same writes, not waiting for a CPU, with dd writing to the
     * disk: they copied into the page cache and never waited for it */
    struct ifr_sample b, a;
    recorded(&b, &a, 1100000, 1095000, 1100000);
    b.thread.delay_ns = a.thread.delay_ns;
    struct interference f;
    ifr_figures(&b, &a, &f);
    foreign_io(&f);
    f.waits_device = false;
    f.buffered_writes = true;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
    /* cached reads alike */
    f.buffered_writes = false;
    f.blocked_share = 0.4;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
    /* writes blocked a fifth of their time while another's I/O held the
     * disk: writeback caught them */
    f.buffered_writes = true;
    f.blocked_share = 0.2;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 1);
    ck_assert_int_eq(f.reasons[0].kind, IFR_WRITEBACK);
    ck_assert_str_eq(f.reasons[0].device, "vda");
    char text[IFR_TEXT_MAX];
    ck_assert_str_eq(ifr_reason_text(&f.reasons[0], text, sizeof(text)),
                     "diskio's buffered writes were blocked 20% of their time while 97% of vda's "
                     "I/O was not diskio's (thresholds 5% and 50%)");
    /* blocked as much without a neighbour's I/O: their own throttling */
    f.ndevices = 0;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
}
END_TEST

START_TEST(test_sync_writes_beside_foreign_device_io_are_disturbed)
{
    /* fdatasync waits for the disk dd writes to */
    struct ifr_sample b, a;
    recorded(&b, &a, 1100000, 1095000, 1100000);
    b.thread.delay_ns = a.thread.delay_ns;
    struct interference f;
    ifr_figures(&b, &a, &f);
    foreign_io(&f);
    f.waits_device = true;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 1);
    ck_assert_int_eq(f.reasons[0].kind, IFR_DEVICE_IO);
    ck_assert_str_eq(f.reasons[0].device, "vda");
    /* and its own wait for a CPU is not its rule: the others' CPUs are */
    f.ndevices = 0;
    f.run_delay_share = 0.9;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 0);
}
END_TEST

START_TEST(test_without_the_threads_figures_others_cpu_decides)
{
    /* no schedstat: a buffered run is judged as before, by the others'
     * CPU time and the devices' foreign I/O */
    const long hz = sysconf(_SC_CLK_TCK);
    struct ifr_sample b, a;
    samples(&b, &a, 10.0, (uint64_t)(20 * hz), 1.0); /* 1.9 other CPUs */
    struct interference f;
    ifr_figures(&b, &a, &f);
    ck_assert(isnan(f.run_delay_share) && isnan(f.blocked_share));
    foreign_io(&f);
    f.waits_device = false;
    f.buffered_writes = true;
    ifr_judge(&f);
    ck_assert_uint_eq(f.nreasons, 2);
    ck_assert_int_eq(f.reasons[0].kind, IFR_OTHER_CPU);
    ck_assert_int_eq(f.reasons[1].kind, IFR_DEVICE_IO);
}
END_TEST

START_TEST(test_only_page_cache_modes_wait_for_a_cpu)
{
    /* the mode table's answer: async and cached reads copy to and from
     * memory; every other mode's ops wait for the device */
    for (unsigned m = 0; m < diskio_mode_count(); m++) {
        const enum diskio_mode mode = (enum diskio_mode)m;
        ck_assert_msg(mode_waits_for_device(mode, false) == (mode != DISKIO_MODE_ASYNC), "%s",
                      diskio_mode_name(mode));
        ck_assert_msg(mode_waits_for_device(mode, true) ==
                          (mode != DISKIO_MODE_ASYNC && mode != DISKIO_MODE_READ),
                      "%s", diskio_mode_name(mode));
    }
}
END_TEST

START_TEST(test_sampling_this_machine_reads_something)
{
    /* where /proc is there, the counters are read and the span is
     * positive; a probe that cannot read them says unknown, not 0 */
    struct ifr_sample b, a;
    ifr_sample(&b);
    ifr_sample(&a);
    if (access("/proc/stat", R_OK) != 0)
        return;
    ck_assert(b.stat_ok && a.stat_ok);
    ck_assert_uint_gt(b.cpus, 0);
    ck_assert_uint_ge(a.mono_ns, b.mono_ns);
    struct ifr_thread t, u;
    ifr_thread_sample(&t);
    ifr_thread_sample(&u);
    if (access("/proc/thread-self/schedstat", R_OK) != 0)
        return;
    ck_assert(t.ok && u.ok);
    ck_assert_uint_ge(u.cpu_ns, t.cpu_ns);
    ck_assert_uint_ge(u.delay_ns, t.delay_ns);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interference");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_parse_proc_files_as_written);
    tcase_add_test(tc, test_parse_refuses_what_the_files_are_not);
    tcase_add_test(tc, test_figures_net_of_diskios_own_cpu);
    tcase_add_test(tc, test_quiet_figures_are_not_disturbed);
    tcase_add_test(tc, test_each_threshold_is_a_reason);
    tcase_add_test(tc, test_parse_schedstat_as_written);
    tcase_add_test(tc, test_a_1ms_window_has_no_invented_cpu_figures);
    tcase_add_test(tc, test_buffered_writes_waiting_for_a_cpu_are_disturbed);
    tcase_add_test(tc, test_buffered_writes_beside_foreign_device_io_are_not);
    tcase_add_test(tc, test_sync_writes_beside_foreign_device_io_are_disturbed);
    tcase_add_test(tc, test_without_the_threads_figures_others_cpu_decides);
    tcase_add_test(tc, test_only_page_cache_modes_wait_for_a_cpu);
    tcase_add_test(tc, test_sampling_this_machine_reads_something);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
