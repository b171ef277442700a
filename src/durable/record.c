/* SPDX-License-Identifier: MIT */
/*
 * The record every write of a durability run carries, and what a block
 * read back after the power cut holds of it (diskio-durability(5)).
 */
#include "config.h"

#include <string.h>

#include "durable.h"

/* ---- CRC32C ---- */

/* Slicing-by-8 tables for the reflected polynomial 0x82f63b78, made on
 * first use (the programs that use them are single-threaded there). */
static uint32_t crc_table[8][256];
static bool crc_table_ready;

static void crc_table_make(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1u)));
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
    crc_table_ready = true;
}

static uint32_t crc32c_tables(uint32_t c, const unsigned char *p, size_t len)
{
    if (!crc_table_ready)
        crc_table_make();
    while (len >= 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                           (uint32_t)p[3] << 24);
        c = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
            crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^ crc_table[3][p[4]] ^
            crc_table[2][p[5]] ^ crc_table[1][p[6]] ^ crc_table[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len--)
        c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
    return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The CRC32 instruction (SSE4.2) computes exactly CRC32C, 8 bytes at a
 * time: a 64 KiB record in a few microseconds. */
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t c, const unsigned char *p,
                                                               size_t len)
{
    uint64_t c64 = c;
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, sizeof(v));
        c64 = __builtin_ia32_crc32di(c64, v);
        p += 8;
        len -= 8;
    }
    c = (uint32_t)c64;
    while (len--)
        c = __builtin_ia32_crc32qi(c, *p++);
    return c;
}
#endif

uint32_t durable_crc32c(uint32_t crc, const void *buf, size_t len)
{
    uint32_t c = ~crc;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static int has_sse42 = -1;
    if (has_sse42 < 0)
        has_sse42 = __builtin_cpu_supports("sse4.2") ? 1 : 0;
    if (has_sse42)
        return ~crc32c_sse42(c, buf, len);
#endif
    return ~crc32c_tables(c, buf, len);
}

/* ---- run ids and names ---- */

static bool id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

static bool word_valid(const char *s, size_t max)
{
    size_t n = 0;
    if (!s || !s[0] || s[0] == '.' || s[0] == '-')
        return false;
    for (; s[n]; n++)
        if (n == max || !id_char(s[n]))
            return false;
    return true;
}

bool durable_run_id_valid(const char *id)
{
    return word_valid(id, DURABLE_RUN_ID_MAX);
}

bool durable_name_valid(const char *name)
{
    return word_valid(name, DURABLE_NAME_MAX);
}

int durable_run_init(struct durable_run *run, const char *id)
{
    if (!durable_run_id_valid(id))
        return -1;
    memset(run, 0, sizeof(*run));
    memcpy(run->id, id, strlen(id));
    run->tag = durable_crc32c(0, run->id, strlen(run->id));
    return 0;
}

/* ---- the record ---- */

static void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint16_t get16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The header's fields (diskio-durability(5)). */
enum {
    H_MAGIC = 0,
    H_VERSION = 8,
    H_HEADER_BYTES = 10,
    H_LENGTH = 12,
    H_SEQ = 16,
    H_OFFSET = 24,
    H_CRC = 32,
    H_TAG = 36,
    H_RUN_ID = 40,
};
/* A sector stamp's fields, at the start of sector 1, 2, ... */
enum { S_SEQ = 0, S_OFFSET = 8, S_TAG = 16, S_INDEX = 20 };

uint32_t durable_record_make(unsigned char *buf, uint64_t len, uint64_t offset, uint64_t seq,
                             const struct durable_run *run)
{
    static const char magic[8] = DURABLE_MAGIC; /* no NUL on disk */
    memcpy(buf + H_MAGIC, magic, sizeof(magic));
    put16(buf + H_VERSION, DURABLE_FORMAT_VERSION);
    put16(buf + H_HEADER_BYTES, DURABLE_HEADER_BYTES);
    put32(buf + H_LENGTH, (uint32_t)len);
    put64(buf + H_SEQ, seq);
    put64(buf + H_OFFSET, offset);
    put32(buf + H_CRC, 0);
    put32(buf + H_TAG, run->tag);
    memset(buf + H_RUN_ID, 0, DURABLE_RUN_ID_MAX);
    memcpy(buf + H_RUN_ID, run->id, strlen(run->id));
    for (uint64_t s = 1; s < len / DURABLE_SECTOR; s++) {
        unsigned char *st = buf + s * DURABLE_SECTOR;
        put64(st + S_SEQ, seq);
        put64(st + S_OFFSET, offset);
        put32(st + S_TAG, run->tag);
        put32(st + S_INDEX, (uint32_t)s);
    }
    uint32_t crc = durable_crc32c(0, buf, (size_t)len);
    put32(buf + H_CRC, crc);
    return crc;
}

/* Whether the header at buf (got bytes of it read) says it is a record
 * of len bytes for offset: the sequence number and run tag in *seq and
 * *tag. */
static bool header_read(const unsigned char *buf, uint64_t got, uint64_t len, uint64_t offset,
                        uint64_t *seq, uint32_t *tag)
{
    if (got < DURABLE_HEADER_BYTES || memcmp(buf + H_MAGIC, DURABLE_MAGIC, 8) != 0 ||
        get16(buf + H_VERSION) != DURABLE_FORMAT_VERSION ||
        get16(buf + H_HEADER_BYTES) != DURABLE_HEADER_BYTES || get32(buf + H_LENGTH) != len ||
        get64(buf + H_OFFSET) != offset)
        return false;
    *seq = get64(buf + H_SEQ);
    *tag = get32(buf + H_TAG);
    return true;
}

bool durable_record_read(const unsigned char *buf, uint64_t got, uint64_t len, uint64_t offset,
                         struct durable_record *out)
{
    uint64_t seq;
    uint32_t tag;
    if (got < len || len > UINT32_MAX || !header_read(buf, got, len, offset, &seq, &tag))
        return false;
    const uint32_t stored = get32(buf + H_CRC);
    /* the CRC over the record with its own field taken as zero */
    static const unsigned char zero[4];
    uint32_t crc = durable_crc32c(0, buf, H_CRC);
    crc = durable_crc32c(crc, zero, sizeof(zero));
    crc = durable_crc32c(crc, buf + H_CRC + 4, (size_t)len - H_CRC - 4);
    if (crc != stored)
        return false;
    const unsigned char *id = buf + H_RUN_ID;
    size_t n = 0;
    while (n < DURABLE_RUN_ID_MAX && id[n])
        n++;
    memcpy(out->run_id, id, n);
    out->run_id[n] = '\0';
    /* a run id that is not one (or a tag that is not its CRC) was never
     * written by a run */
    if (!durable_run_id_valid(out->run_id) || durable_crc32c(0, id, n) != tag)
        return false;
    out->seq = seq;
    out->crc = crc;
    return true;
}

/* Which of run's records sector s of the block at offset came from (its
 * sequence number), or 0 when none (not written whole by this run for
 * this offset, or beyond the got bytes read). */
static uint64_t sector_owner(const unsigned char *buf, uint64_t got, uint64_t len, uint64_t offset,
                             uint64_t s, const struct durable_run *run)
{
    uint64_t seq;
    uint32_t tag;
    if (s == 0) {
        if (!header_read(buf, got, len, offset, &seq, &tag) || tag != run->tag ||
            memcmp(buf + H_RUN_ID, run->id, strlen(run->id)) != 0)
            return 0;
        return seq;
    }
    const unsigned char *st = buf + s * DURABLE_SECTOR;
    if ((s + 1) * DURABLE_SECTOR > got || get64(st + S_OFFSET) != offset ||
        get32(st + S_TAG) != run->tag || get32(st + S_INDEX) != s)
        return 0;
    return get64(st + S_SEQ);
}

enum durable_found durable_classify(const unsigned char *buf, uint64_t got, uint64_t len,
                                    uint64_t offset, const struct durable_run *run, uint64_t seq,
                                    uint32_t crc)
{
    struct durable_record r;
    if (durable_record_read(buf, got, len, offset, &r) && strcmp(r.run_id, run->id) == 0) {
        if (r.seq == seq && r.crc == crc)
            return DURABLE_PRESENT;
        if (r.seq > seq)
            return DURABLE_LATER;
    }
    uint64_t mine = 0, later = 0, other = 0;
    const uint64_t sectors = len / DURABLE_SECTOR;
    for (uint64_t s = 0; s < sectors; s++) {
        const uint64_t owner = sector_owner(buf, got, len, offset, s, run);
        if (owner == seq)
            mine++;
        else if (owner > seq)
            later++;
        else
            other++;
    }
    if (mine == 0 && later == 0)
        return DURABLE_LOST;
    /* every sector is seq's or a later write's, yet the record is not
     * whole: a later write tore it, or (all seq's) a sector of it holds
     * other bytes than were written after its stamp */
    if (other == 0 && later > 0)
        return DURABLE_LATER_TORN;
    return DURABLE_TORN;
}
