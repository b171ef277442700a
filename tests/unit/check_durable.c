/* SPDX-License-Identifier: MIT */
/*
 * Description: the durability check's records, CRC32C, block classification and wire lines.
 *
 * the durability check's pure parts.  CRC32C gives the
 * published check value; a record made for a run, offset and sequence
 * number reads back whole, and any changed byte, another offset or a
 * short read makes it no record; a block is classified by whose sectors
 * it holds: the acknowledged record (present), a later record of the run
 * over it (whole, or torn over it: allowed), part of it (torn), or
 * nothing of it (lost: older data, another run, zeros, the file's end).
 * Run ids and file names are words that can never be paths; protocol
 * lines are bounded, printable and split at single spaces; numbers,
 * CRCs and HOST:PORT are parsed strictly.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "durable.h"
#include "t_helpers.h"

#define LEN 4096

START_TEST(test_crc32c_gives_the_check_value)
{
    /* the CRC-32C check value of "123456789" (RFC 3720, iSCSI) */
    ck_assert_uint_eq(durable_crc32c(0, "123456789", 9), 0xe3069283u);
    /* in pieces, as in one */
    uint32_t c = durable_crc32c(0, "1234", 4);
    ck_assert_uint_eq(durable_crc32c(c, "56789", 5), 0xe3069283u);
    ck_assert_uint_eq(durable_crc32c(0, "", 0), 0);
}
END_TEST

static struct durable_run t_run(const char *id)
{
    struct durable_run run;
    ck_assert_int_eq(durable_run_init(&run, id), 0);
    return run;
}

static unsigned char *t_record(const struct durable_run *run, uint64_t offset, uint64_t seq,
                               uint32_t *crc)
{
    unsigned char *buf = malloc(LEN);
    for (size_t i = 0; i < LEN; i++)
        buf[i] = (unsigned char)(i * 7 + seq);
    *crc = durable_record_make(buf, LEN, offset, seq, run);
    return buf;
}

START_TEST(test_record_reads_back_whole_and_nothing_else_is_one)
{
    struct durable_run run = t_run("run-1");
    uint32_t crc;
    unsigned char *buf = t_record(&run, 8 * LEN, 42, &crc);
    struct durable_record r;
    ck_assert(durable_record_read(buf, LEN, LEN, 8 * LEN, &r));
    ck_assert_str_eq(r.run_id, "run-1");
    ck_assert_uint_eq(r.seq, 42);
    ck_assert_uint_eq(r.crc, crc);
    /* another place, another length, a short read */
    ck_assert(!durable_record_read(buf, LEN, LEN, 9 * LEN, &r));
    ck_assert(!durable_record_read(buf, LEN, 2 * LEN, 8 * LEN, &r));
    ck_assert(!durable_record_read(buf, LEN - 1, LEN, 8 * LEN, &r));
    /* any byte changed */
    for (size_t i = 0; i < LEN; i += 97) {
        buf[i] ^= 0x10;
        ck_assert_msg(!durable_record_read(buf, LEN, LEN, 8 * LEN, &r), "byte %zu", i);
        buf[i] ^= 0x10;
    }
    free(buf);
}
END_TEST

START_TEST(test_block_is_classified_by_whose_sectors_it_holds)
{
    struct durable_run run = t_run("run-1"), other = t_run("run-2");
    const uint64_t at = 3 * LEN;
    uint32_t crc5, crc9, crc2, crc_other;
    unsigned char *acked = t_record(&run, at, 5, &crc5);
    unsigned char *later = t_record(&run, at, 9, &crc9);
    unsigned char *older = t_record(&run, at, 2, &crc2);
    unsigned char *foreign = t_record(&other, at, 5, &crc_other);
    unsigned char *blk = malloc(LEN);

    ck_assert_int_eq(durable_classify(acked, LEN, LEN, at, &run, 5, crc5), DURABLE_PRESENT);
    ck_assert_int_eq(durable_classify(later, LEN, LEN, at, &run, 5, crc5), DURABLE_LATER);
    ck_assert_int_eq(durable_classify(older, LEN, LEN, at, &run, 5, crc5), DURABLE_LOST);
    ck_assert_int_eq(durable_classify(foreign, LEN, LEN, at, &run, 5, crc5), DURABLE_LOST);
    /* the record, but meant for another place */
    ck_assert_int_eq(durable_classify(acked, LEN, LEN, at + LEN, &run, 5, crc5), DURABLE_LOST);
    memset(blk, 0, LEN);
    ck_assert_int_eq(durable_classify(blk, LEN, LEN, at, &run, 5, crc5), DURABLE_LOST);
    /* the file ends before the block */
    ck_assert_int_eq(durable_classify(acked, 0, LEN, at, &run, 5, crc5), DURABLE_LOST);

    /* its first half written, the rest older data or zeros: torn */
    memcpy(blk, acked, LEN / 2);
    memcpy(blk + LEN / 2, older + LEN / 2, LEN / 2);
    ck_assert_int_eq(durable_classify(blk, LEN, LEN, at, &run, 5, crc5), DURABLE_TORN);
    memset(blk, 0, LEN / 2);
    memcpy(blk + LEN / 2, acked + LEN / 2, LEN / 2);
    ck_assert_int_eq(durable_classify(blk, LEN, LEN, at, &run, 5, crc5), DURABLE_TORN);
    /* the file ends in the middle of it */
    ck_assert_int_eq(durable_classify(acked, LEN / 2, LEN, at, &run, 5, crc5), DURABLE_TORN);
    /* every sector its own, one byte inside a sector not: torn */
    memcpy(blk, acked, LEN);
    blk[LEN - 1] ^= 1;
    ck_assert_int_eq(durable_classify(blk, LEN, LEN, at, &run, 5, crc5), DURABLE_TORN);
    /* a later write tore it: the acknowledged record under it is whole */
    memcpy(blk, later, LEN / 2);
    memcpy(blk + LEN / 2, acked + LEN / 2, LEN / 2);
    ck_assert_int_eq(durable_classify(blk, LEN, LEN, at, &run, 5, crc5), DURABLE_LATER_TORN);
    /* a later write tore what was older than the acknowledged one */
    memcpy(blk + LEN / 2, older + LEN / 2, LEN / 2);
    ck_assert_int_eq(durable_classify(blk, LEN, LEN, at, &run, 5, crc5), DURABLE_TORN);

    free(acked);
    free(later);
    free(older);
    free(foreign);
    free(blk);
}
END_TEST

START_TEST(test_run_ids_and_names_are_words_never_paths)
{
    ck_assert(durable_run_id_valid("a"));
    ck_assert(durable_run_id_valid("cut-2026.11_27"));
    ck_assert(durable_run_id_valid("0123456789abcdef0123456789abcdef")); /* 32 */
    ck_assert(!durable_run_id_valid("0123456789abcdef0123456789abcdef0"));
    ck_assert(!durable_run_id_valid(""));
    ck_assert(!durable_run_id_valid(NULL));
    ck_assert(!durable_run_id_valid("../x"));
    ck_assert(!durable_run_id_valid("a/b"));
    ck_assert(!durable_run_id_valid(".hidden"));
    ck_assert(!durable_run_id_valid("-option"));
    ck_assert(!durable_run_id_valid("a b"));
    ck_assert(!durable_run_id_valid("\xc3\xa9t\xc3\xa9"));
    ck_assert(durable_name_valid("diskio-test.123.0"));
    ck_assert(!durable_name_valid("-"));
    struct durable_run run;
    ck_assert_int_eq(durable_run_init(&run, "../x"), -1);
}
END_TEST

START_TEST(test_boot_ids_are_the_kernels_form_only)
{
    ck_assert(durable_boot_id_valid("0a1b2c3d-4e5f-6789-abcd-ef0123456789"));
    ck_assert(!durable_boot_id_valid("0A1B2C3D-4E5F-6789-ABCD-EF0123456789"));  /* upper case */
    ck_assert(!durable_boot_id_valid("0a1b2c3d-4e5f-6789-abcd-ef012345678"));   /* short */
    ck_assert(!durable_boot_id_valid("0a1b2c3d-4e5f-6789-abcd-ef01234567890")); /* long */
    ck_assert(!durable_boot_id_valid("0a1b2c3d04e5f-6789-abcd-ef0123456789"));  /* no dash */
    ck_assert(!durable_boot_id_valid("0a1b2c3d-4e5f-6789-abcd-ef012345678/"));
    ck_assert(!durable_boot_id_valid(""));
    /* this machine's own, where the kernel has one */
    char boot[DURABLE_BOOT_ID_LEN + 1];
    if (access("/proc/sys/kernel/random/boot_id", R_OK) == 0) {
        ck_assert_int_eq(durable_boot_id(boot), 0);
        ck_assert(durable_boot_id_valid(boot));
    }
}
END_TEST

START_TEST(test_lines_are_bounded_printable_and_split_strictly)
{
    struct durable_in in = {.used = 0};
    size_t room;
    char *space = durable_in_space(&in, &room);
    ck_assert_uint_eq(room, sizeof(in.buf));
    const char two[] = "A 1 0 0000abcd\nEND 1\nDONE";
    memcpy(space, two, sizeof(two) - 1);
    durable_in_added(&in, sizeof(two) - 1);
    char *line;
    ck_assert_int_eq(durable_in_line(&in, &line), 1);
    ck_assert_str_eq(line, "A 1 0 0000abcd");
    char *w[4];
    ck_assert_int_eq(durable_split(line, w, 4), 4);
    uint64_t v;
    uint32_t crc;
    ck_assert(durable_parse_u64(w[1], &v) && v == 1);
    ck_assert(durable_parse_crc(w[3], &crc) && crc == 0xabcd);
    ck_assert_int_eq(durable_in_line(&in, &line), 1);
    ck_assert_str_eq(line, "END 1");
    ck_assert_int_eq(durable_in_line(&in, &line), 0); /* "DONE" has no LF yet */

    /* a NUL, a control byte, a byte above 0x7e, a line too long */
    const char *bad[] = {"A\0B\n", "A\033[2J\n", "caf\xc3\xa9\n"};
    const size_t bad_len[] = {4, 7, 6};
    for (int i = 0; i < 3; i++) {
        struct durable_in b = {.used = 0};
        memcpy(durable_in_space(&b, &room), bad[i], bad_len[i]);
        durable_in_added(&b, bad_len[i]);
        ck_assert_int_eq(durable_in_line(&b, &line), -1);
    }
    struct durable_in b = {.used = 0};
    memset(durable_in_space(&b, &room), 'A', DURABLE_LINE_MAX);
    durable_in_added(&b, DURABLE_LINE_MAX);
    ck_assert_int_eq(durable_in_line(&b, &line), -1);

    char s1[] = "A  1", s2[] = " A", s3[] = "A ", s4[] = "a b c d e";
    ck_assert_int_eq(durable_split(s1, w, 4), -1);
    ck_assert_int_eq(durable_split(s2, w, 4), -1);
    ck_assert_int_eq(durable_split(s3, w, 4), -1);
    ck_assert_int_eq(durable_split(s4, w, 4), -1);

    ck_assert(durable_parse_u64("18446744073709551615", &v) && v == UINT64_MAX);
    ck_assert(!durable_parse_u64("18446744073709551616", &v));
    ck_assert(!durable_parse_u64("", &v));
    ck_assert(!durable_parse_u64("-1", &v));
    ck_assert(!durable_parse_u64("1e3", &v));
    ck_assert(!durable_parse_crc("ABCDEF01", &crc));
    ck_assert(!durable_parse_crc("abcdef0", &crc));
    ck_assert(!durable_parse_crc("abcdef012", &crc));

    char out[DURABLE_LINE_MAX];
    size_t n = durable_format_ack(out, UINT64_MAX, 4096, 0xe3069283u);
    ck_assert_uint_eq(n, strlen("A 18446744073709551615 4096 e3069283\n"));
    ck_assert(memcmp(out, "A 18446744073709551615 4096 e3069283\n", n) == 0);
}
END_TEST

START_TEST(test_hostport_is_parsed_strictly)
{
    char host[64], port[8];
    ck_assert_int_eq(
        durable_split_hostport("192.0.2.7:7211", host, sizeof(host), port, sizeof(port), false), 0);
    ck_assert_str_eq(host, "192.0.2.7");
    ck_assert_str_eq(port, "7211");
    ck_assert_int_eq(
        durable_split_hostport("[2001:db8::7]:7211", host, sizeof(host), port, sizeof(port), false),
        0);
    ck_assert_str_eq(host, "2001:db8::7");
    ck_assert_int_eq(
        durable_split_hostport("listener:1", host, sizeof(host), port, sizeof(port), false), 0);
    static const char *bad[] = {"2001:db8::7:7211", "host",    "host:",   ":7211",    "host:0",
                                "host:65536",       "host:+1", "host:07", "[::1]7211"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_msg(
            durable_split_hostport(bad[i], host, sizeof(host), port, sizeof(port), false) == -1,
            "%s", bad[i]);
    ck_assert_int_eq(durable_split_hostport("host:0", host, sizeof(host), port, sizeof(port), true),
                     0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("durable");
    TCase *tc = tcase_create("durable");
    tcase_add_test(tc, test_crc32c_gives_the_check_value);
    tcase_add_test(tc, test_record_reads_back_whole_and_nothing_else_is_one);
    tcase_add_test(tc, test_block_is_classified_by_whose_sectors_it_holds);
    tcase_add_test(tc, test_run_ids_and_names_are_words_never_paths);
    tcase_add_test(tc, test_lines_are_bounded_printable_and_split_strictly);
    tcase_add_test(tc, test_hostport_is_parsed_strictly);
    tcase_add_test(tc, test_boot_ids_are_the_kernels_form_only);
    suite_add_tcase(s, tc);
    return t_run_suite(s);
}
