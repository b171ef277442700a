/* SPDX-License-Identifier: MIT */
/*
 * Description: block-layer accounting's parsing and per-op figures, and the O_DIRECT rule.
 *
 * the pure parts of block-layer accounting (src/lib/devstat.c):
 * a /sys/block/NAME/stat line of every kernel generation (11, 15 and 17
 * fields) is read or refused, deltas and per-op figures are right, the
 * kernel's milliseconds give each request's mean time, an overlay's
 * upperdir is read from its options, and the table shows a rare flush's
 * share of the ops, never 0.00 beside its time; and the rule that says
 * whether O_DIRECT was direct (src/lib/direct.c) decides from statx first
 * and from the device counters otherwise, on counters recorded on this
 * machine's ext4 loop devices.  The verdict rules are
 * check_device_verdicts'.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "diskio_internal.h"
#include "t_devstat.h"
#include "t_helpers.h"

/* as this machine's virtio disk printed them (Linux 6.18) */
#define LINE17                                                                                     \
    "   36997     7816  3331850    15848   330626   165267 11798544    56999        0    21704 "   \
    "   79917     7674       72  5681480     1307   137146     5762\n"
#define LINE15 "  105 0 4272 16 15 41 33296 1 0 12 21 2 0 524296 1\n"
#define LINE11 "  105 0 4272 16 15 41 33296 1 0 12 21\n"

START_TEST(test_parse_every_kernel_generation)
{
    struct devstat_sample s;
    ck_assert_int_eq(devstat_parse(LINE17, &s), 0);
    ck_assert_uint_eq(s.nfields, 17);
    ck_assert_uint_eq(s.v[4], 330626);   /* writes */
    ck_assert_uint_eq(s.v[5], 165267);   /* write merges */
    ck_assert_uint_eq(s.v[6], 11798544); /* write sectors */
    ck_assert_uint_eq(s.v[15], 137146);  /* flushes */
    ck_assert_int_eq(devstat_parse(LINE15, &s), 0);
    ck_assert_uint_eq(s.nfields, 15);
    ck_assert_int_eq(devstat_parse(LINE11, &s), 0);
    ck_assert_uint_eq(s.nfields, 11);
    ck_assert_uint_eq(s.v[6], 33296);
    /* a future kernel's extra fields are ignored, the known ones kept */
    ck_assert_int_eq(devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", &s), 0);
    ck_assert_uint_eq(s.nfields, 17);
    ck_assert_uint_eq(s.v[16], 17);
}
END_TEST

START_TEST(test_parse_refuses_what_is_not_a_stat_line)
{
    struct devstat_sample s;
    ck_assert_int_eq(devstat_parse("1 2 3 4 5 6 7 8 9 10\n", &s), -EINVAL); /* too few */
    ck_assert_int_eq(devstat_parse("", &s), -EINVAL);
    ck_assert_int_eq(devstat_parse("1 2 3 4 5 6 7 8 9 10 x1\n", &s), -EINVAL);
    ck_assert_int_eq(devstat_parse("1 2 3 4 5 6 7 8 9 10 -11\n", &s), -EINVAL);
    ck_assert_int_eq(devstat_parse("1 2 3 4 5 6 7 8 9 10 11x\n", &s), -EINVAL);
}
END_TEST

START_TEST(test_delta_and_figures)
{
    struct devstat_sample a, b;
    ck_assert_int_eq(devstat_parse("10 0 80 0 100 20 1600 0 3 0 0 0 0 0 0 50 0", &a), 0);
    ck_assert_int_eq(devstat_parse("10 0 80 0 300 60 4800 0 0 0 0 0 0 0 0 150 0", &b), 0);
    struct devstat_dev dev = dev_of("loop0", 1, 0, 1);
    struct diskio_device_io io;
    ck_assert(devstat_delta(&dev, &a, &b, &io)); /* in-flight (field 9) may fall */
    ck_assert_str_eq(io.name, "loop0");
    ck_assert_uint_eq(io.writes, 200);
    ck_assert_uint_eq(io.write_merges, 40);
    ck_assert_uint_eq(io.write_sectors, 3200);
    ck_assert(io.flushes_known);
    ck_assert_uint_eq(io.flushes, 100);
    ck_assert(io.volatile_cache && !io.fua && io.rotational);

    struct devstat_figures f;
    devstat_figures(&io, 100, &f);
    ck_assert(fabs(f.writes_per_op - 2.0) < 1e-9);
    ck_assert(fabs(f.merges_per_op - 0.4) < 1e-9);
    ck_assert(fabs(f.kib_per_write - 8.0) < 1e-9); /* 3200 sectors / 200 writes */
    ck_assert(fabs(f.flushes_per_op - 1.0) < 1e-9);
    devstat_figures(&io, 0, &f);
    ck_assert(isnan(f.writes_per_op) && isnan(f.flushes_per_op));

    /* a 15-field kernel: flushes unknown, not 0 */
    struct devstat_sample c;
    ck_assert_int_eq(devstat_parse(LINE15, &c), 0);
    ck_assert(devstat_delta(&dev, &c, &c, &io));
    ck_assert(!io.flushes_known);
    devstat_figures(&io, 10, &f);
    ck_assert(isnan(f.flushes_per_op) && isnan(f.kib_per_write));
    ck_assert(f.writes_per_op == 0.0);

    /* a counter going backwards: the device was replaced; no figures */
    ck_assert(!devstat_delta(&dev, &b, &a, &io));
    /* unreadable before or after */
    struct devstat_sample none = {0};
    ck_assert(!devstat_delta(&dev, &none, &b, &io));
}
END_TEST

/* The kernel's milliseconds spent in reads, writes and flushes (fields 4,
 * 8 and 17) give each request's mean time from its start to its
 * completion; under 20 ms of requests the whole milliseconds cannot
 * resolve it to 5%, and no mean is given. */
START_TEST(test_request_times_from_the_kernels_milliseconds)
{
    struct devstat_sample a, b;
    ck_assert_int_eq(devstat_parse("10 0 80 7 100 20 1600 50 3 0 0 0 0 0 0 50 20", &a), 0);
    ck_assert_int_eq(devstat_parse("410 0 880 107 300 60 4800 74 0 0 0 0 0 0 0 150 60", &b), 0);
    struct devstat_dev dev = dev_of("loop0", 1, 0, 1);
    struct diskio_device_io io;
    ck_assert(devstat_delta(&dev, &a, &b, &io));
    ck_assert_uint_eq(io.read_ms, 100);
    ck_assert_uint_eq(io.write_ms, 24);
    ck_assert_uint_eq(io.flush_ms, 40);
    struct devstat_figures f;
    devstat_figures(&io, 100, &f);
    ck_assert(fabs(f.us_per_read - 250.0) < 1e-9);  /* 100 ms over 400 reads */
    ck_assert(fabs(f.us_per_write - 120.0) < 1e-9); /* 24 ms over 200 writes */
    ck_assert(fabs(f.us_per_flush - 400.0) < 1e-9); /* 40 ms over 100 flushes */

    /* 19 ms of writes: too few to resolve; no requests: nothing to say */
    io.write_ms = 19;
    io.reads = 0;
    devstat_figures(&io, 100, &f);
    ck_assert(isnan(f.us_per_write) && isnan(f.us_per_read));
    ck_assert(!isnan(f.us_per_flush));

    /* a kernel that does not count flushes does not time them either */
    struct devstat_sample c;
    ck_assert_int_eq(devstat_parse(LINE15, &c), 0);
    ck_assert(devstat_delta(&dev, &c, &c, &io));
    ck_assert_uint_eq(io.flush_ms, 0);
    devstat_figures(&io, 10, &f);
    ck_assert(isnan(f.us_per_flush));
}
END_TEST

/* The table's device column: a run of 22000 writes during which the
 * device flushed once (a journal commit, 22 ms) shows its flushes per op
 * with two significant digits, never "0.00" beside the per-flush time. */
START_TEST(test_table_shows_rare_flushes_per_op)
{
    struct diskio_run *run;
    ck_assert_int_eq(diskio_run_new("rare-flush", &run), 0);
    for (uint64_t i = 0; i < 22000; i++)
        diskio_hist_record(diskio_run_hist(run, DISKIO_PART_TOTAL), 40000);
    diskio_run_finish(run, 1000000000u, (uint64_t)22000 * 262144);
    struct devstat_set set = {.resolved = true, .n = 1};
    snprintf(set.dev[0].name, sizeof(set.dev[0].name), "vdz");
    set.dev[0].leaf = set.dev[0].own_io = true;
    struct devstat_sample before = {.nfields = 17}, after = {.nfields = 17};
    after.v[4] = 22000;       /* writes */
    after.v[6] = 22000 * 512; /* sectors: 256 KiB each */
    after.v[7] = 880;         /* ms writing */
    after.v[15] = 1;          /* one flush */
    after.v[16] = 22;         /* of 22 ms */
    ck_assert_int_eq(devstat_record(run, &set, &before, &after), 0);
    struct diskio_result *res;
    ck_assert_int_eq(diskio_result_new(NULL, &res), 0);
    ck_assert_int_eq(diskio_result_add_run(res, run), 0);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_int_eq(diskio_result_write(res, DISKIO_FORMAT_TEXT, f), 0);
    fclose(f);
    const char *line = strstr(buf, "\nrare-flush ");
    ck_assert_ptr_nonnull(line);
    /* 1/22000 = 0.0000454...: "0.000045", and its 22000 us */
    ck_assert_msg(strstr(line, "1.00 \xc2\xb7 0.000045 ") != NULL, "row: %.200s", line + 1);
    ck_assert_ptr_nonnull(strstr(line, " \xc2\xb7 22000"));
    ck_assert_ptr_null(strstr(line, "\xc2\xb7 0.00 "));
    free(buf);
    diskio_result_free(res);
}
END_TEST

/* A run's device total as a run recorded it: writes, write merges and
 * write sectors, or the same for reads. */
static struct diskio_device_io total_of(uint64_t requests, uint64_t merges, uint64_t sectors,
                                        bool reads)
{
    struct diskio_device_io t = {.name = "total", .flushes_known = true};
    if (reads) {
        t.reads = requests;
        t.read_merges = merges;
        t.read_sectors = sectors;
    } else {
        t.writes = requests;
        t.write_merges = merges;
        t.write_sectors = sectors;
    }
    return t;
}

/* direct_rule() from the counters alone (the kernel gave no statx). */
static int counters_say(const struct diskio_device_io *t, bool reads, struct direct_check *out)
{
    /* 200 ops of 8 KiB, as diskio --mode direct --count 200 */
    const struct direct_facts f = {.reads = reads, .ops = 200, .bytes = 200 * 8192, .total = t};
    direct_rule(&f, out);
    return out->honoured;
}

START_TEST(test_direct_from_recorded_counters)
{
    struct direct_check c;
    /* ext4 data=journal on a loop device, diskio --mode direct,aio
     * --count 200: the writes stayed in the page cache, nothing reached
     * the device during the run */
    struct diskio_device_io journal = total_of(0, 0, 0, false);
    ck_assert_int_eq(counters_say(&journal, false, &c), 0);
    ck_assert_str_eq(c.source, "device");
    ck_assert_str_eq(c.evidence, "device counters: 0.00 device writes per op, merges included; "
                                 "0% of the ops' bytes written during the run");
    /* and direct-read there: the page cache served the reads */
    ck_assert_int_eq(counters_say(&journal, true, &c), 0);
    ck_assert(strstr(c.evidence, "0.00 device reads per op") &&
              strstr(c.evidence, "0% of the ops' bytes read"));
    /* plain ext4 (data=ordered): one device write of the op's size per op */
    struct diskio_device_io plain = total_of(200, 0, 3200, false);
    ck_assert_int_eq(counters_say(&plain, false, &c), 1);
    ck_assert_str_eq(c.evidence, "device counters: 1.00 device writes per op, merges included; "
                                 "100% of the ops' bytes written during the run");
    /* direct-dsync there: a flush's empty write per op beside it */
    struct diskio_device_io dsync = total_of(400, 0, 3200, false);
    ck_assert_int_eq(counters_say(&dsync, false, &c), 1);
    struct diskio_device_io read = total_of(200, 0, 3200, true);
    ck_assert_int_eq(counters_say(&read, true, &c), 1);
    /* merged by the block layer (aio --batch): merges count as requests */
    struct diskio_device_io merged = total_of(50, 150, 3200, false);
    ck_assert_int_eq(counters_say(&merged, false, &c), 1);
    /* the bytes, but in a few large requests: writeback during the run */
    struct diskio_device_io writeback = total_of(20, 0, 3200, false);
    ck_assert_int_eq(counters_say(&writeback, false, &c), 0);
    /* half the bytes is the edge: below it buffered, at it direct */
    struct diskio_device_io half = total_of(200, 0, 1600, false);
    ck_assert_int_eq(counters_say(&half, false, &c), 1);
    half.write_sectors = 1599;
    ck_assert_int_eq(counters_say(&half, false, &c), 0);
}
END_TEST

START_TEST(test_direct_statx_decides_first)
{
    struct direct_check c;
    /* ext4 data=journal, direct-dsync: the journal wrote the data (and
     * more) during the run, so the counters look direct; statx knows */
    struct diskio_device_io journal_dsync = total_of(802, 494, 10360, false);
    ck_assert_int_eq(counters_say(&journal_dsync, false, &c), 1);
    struct direct_facts f = {.ops = 200, .bytes = 200 * 8192, .total = &journal_dsync};
    f.statx = (struct direct_statx){.known = true, .offset_align = 0, .mem_align = 0};
    direct_rule(&f, &c);
    ck_assert_int_eq(c.honoured, 0);
    ck_assert_str_eq(c.source, "statx");
    ck_assert_str_eq(c.evidence, "statx: no direct I/O for this file, dio alignment 0");
    /* and an alignment is direct I/O whatever the counters say */
    struct diskio_device_io none = total_of(0, 0, 0, false);
    f.total = &none;
    f.statx = (struct direct_statx){.known = true, .offset_align = 4096, .mem_align = 512};
    direct_rule(&f, &c);
    ck_assert_int_eq(c.honoured, 1);
    ck_assert_str_eq(c.evidence, "statx: direct I/O for this file, dio alignment 4096, memory 512");
}
END_TEST

START_TEST(test_direct_unknown_without_statx_or_counters)
{
    struct direct_check c;
    struct direct_facts f = {.ops = 200, .bytes = 200 * 8192};
    direct_rule(&f, &c);
    ck_assert_int_eq(c.honoured, -1);
    ck_assert_ptr_null(c.source);
    ck_assert(strstr(c.evidence, "no block device under it was counted"));
    /* a device that counts none of its I/O (queue/iostats 0) shows
     * zeros: no evidence of buffering */
    struct diskio_device_io zeros = total_of(0, 0, 0, false);
    f.total = &zeros;
    f.blind = true;
    direct_rule(&f, &c);
    ck_assert_int_eq(c.honoured, -1);
    ck_assert(strstr(c.evidence, "queue/iostats 0"));
    f.blind = false;
    f.ops = f.bytes = 0;
    direct_rule(&f, &c);
    ck_assert_int_eq(c.honoured, -1);
}
END_TEST

START_TEST(test_not_direct_replaces_merged)
{
    /* a direct run whose merges were the journal's writeback: not_direct,
     * never merged; the merged figures of its repetitions judged again */
    struct diskio_run *run, *rep;
    ck_assert_int_eq(run_alloc("direct", false, false, &run), 0);
    ck_assert_int_eq(run_alloc("direct", false, false, &rep), 0);
    run->info.has_config = rep->info.has_config = true;
    run->info.config.mode = rep->info.config.mode = DISKIO_MODE_DIRECT;
    run->info.ops = 200;
    run->info.bytes = 200 * 8192;
    run->verdicts = DISKIO_VERDICT_MERGED | DISKIO_VERDICT_CACHE_ACK;
    rep->dio = (struct direct_statx){.known = true, .offset_align = 0};
    direct_merge(run, rep);
    ck_assert_uint_eq(run->verdicts, DISKIO_VERDICT_NOT_DIRECT | DISKIO_VERDICT_CACHE_ACK);
    struct diskio_direct d;
    ck_assert_int_eq(diskio_run_direct(run, &d), 0);
    ck_assert_int_eq(d.honoured, 0);
    ck_assert_str_eq(d.source, "statx");
    ck_assert(d.statx_known && d.dio_offset_align == 0);
    ck_assert_str_eq(diskio_verdict_name(DISKIO_VERDICT_NOT_DIRECT), "not_direct");
    /* a mode without O_DIRECT has no such answer */
    run->info.config.mode = DISKIO_MODE_FSYNC;
    direct_merge(run, rep);
    ck_assert_int_eq(diskio_run_direct(run, &d), -EINVAL);
    diskio_run_free(run);
    diskio_run_free(rep);
}
END_TEST

START_TEST(test_overlay_option_value)
{
    char v[64];
    ck_assert(devstat_option_value("rw,lowerdir=/l,upperdir=/u/a\\,b,workdir=/w", "upperdir", v,
                                   sizeof(v)));
    ck_assert_str_eq(v, "/u/a,b");
    ck_assert(devstat_option_value("upperdir=/x", "upperdir", v, sizeof(v)));
    ck_assert_str_eq(v, "/x");
    ck_assert(!devstat_option_value("rw,xupperdir=/x", "upperdir", v, sizeof(v)));
    ck_assert(!devstat_option_value("rw,lowerdir=/l", "upperdir", v, sizeof(v)));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("devstat");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_parse_every_kernel_generation);
    tcase_add_test(tc, test_parse_refuses_what_is_not_a_stat_line);
    tcase_add_test(tc, test_delta_and_figures);
    tcase_add_test(tc, test_request_times_from_the_kernels_milliseconds);
    tcase_add_test(tc, test_table_shows_rare_flushes_per_op);
    tcase_add_test(tc, test_overlay_option_value);
    tcase_add_test(tc, test_direct_from_recorded_counters);
    tcase_add_test(tc, test_direct_statx_decides_first);
    tcase_add_test(tc, test_direct_unknown_without_statx_or_counters);
    tcase_add_test(tc, test_not_direct_replaces_merged);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
