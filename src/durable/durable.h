/* SPDX-License-Identifier: MIT */
/*
 * The durability check's two shared parts, used by diskio (the run and
 * the verify: src/cli/cli_durable.c) and by the listener
 * (diskio-durable): the record every acknowledged write carries
 * (diskio-durability(5)) and the wire protocol's lines (diskio-durable(1),
 * PROTOCOL).  Neither prints, exits or allocates.
 */
#ifndef DISKIO_DURABLE_H
#define DISKIO_DURABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- run ids ---- */

/* A run id: 1 to 32 of A-Z a-z 0-9 . _ -, not starting with . or -: it
 * names the listener's file of the run (ID.acks), so it can never be a
 * path, a hidden file or an option. */
#define DURABLE_RUN_ID_MAX 32
bool durable_run_id_valid(const char *id);

/* ---- the record (diskio-durability(5)) ---- */

#define DURABLE_MAGIC "DSKIODUR" /* 8 bytes, no NUL on disk */
#define DURABLE_FORMAT_VERSION 1
#define DURABLE_HEADER_BYTES 72
#define DURABLE_SECTOR 512
#define DURABLE_STAMP_BYTES 24

struct durable_run {
    char id[DURABLE_RUN_ID_MAX + 1]; /* NUL-terminated */
    uint32_t tag;                    /* CRC32C of id: in every sector stamp */
};
/* 0, or -1 when id is not a valid run id. */
int durable_run_init(struct durable_run *run, const char *id);

/* CRC32C (Castagnoli), as iSCSI and ext4 use it: crc is 0 to start, or
 * the value of the bytes before buf.  The SSE4.2 instruction where the
 * CPU has it, else tables. */
uint32_t durable_crc32c(uint32_t crc, const void *buf, size_t len);

/* Turn the len bytes of buf (len a multiple of DURABLE_SECTOR) into the
 * record seq of run written at offset: the header over the first bytes,
 * a stamp at the start of every further sector, the rest kept; returns
 * the record's CRC32C. */
uint32_t durable_record_make(unsigned char *buf, uint64_t len, uint64_t offset, uint64_t seq,
                             const struct durable_run *run);

/* A whole, valid record as read from the file. */
struct durable_record {
    char run_id[DURABLE_RUN_ID_MAX + 1];
    uint64_t seq;
    uint32_t crc;
};
/* Whether the got bytes read at offset (a record of len bytes was
 * meant to be there) hold a whole record written for that offset: magic,
 * version, length, offset and CRC all right.  *out is set when so. */
bool durable_record_read(const unsigned char *buf, uint64_t got, uint64_t len, uint64_t offset,
                         struct durable_record *out);

/* What the file holds where an acknowledged record must be. */
enum durable_found {
    DURABLE_PRESENT, /* the acknowledged record, whole */
    /* a later record of the run, whole, over the acknowledged one: a
     * write the run made after it (never acknowledged, or it would be
     * the one expected here) */
    DURABLE_LATER,
    /* the acknowledged record partly overwritten by a later write of the
     * run, the rest of it there: a torn write that was never
     * acknowledged, which is allowed */
    DURABLE_LATER_TORN,
    DURABLE_TORN, /* some of the acknowledged record there, not all */
    DURABLE_LOST, /* nothing of the acknowledged record there */
};
/* Classify the got bytes read at offset, where run's record seq (len
 * bytes, CRC32C crc) was acknowledged and no later acknowledged record
 * was written.  Every sector is judged by its owner (the header's or
 * its stamp's sequence number, for this run and offset): a sector of
 * seq's is there, a later seq's overwrote it, anything else (older data,
 * another run, zeros, beyond the end of the file) means seq's is not. */
enum durable_found durable_classify(const unsigned char *buf, uint64_t got, uint64_t len,
                                    uint64_t offset, const struct durable_run *run, uint64_t seq,
                                    uint32_t crc);

/* ---- the wire protocol (diskio-durable(1), PROTOCOL) ---- */

#define DURABLE_PROTOCOL "DISKIO-DURABLE"
#define DURABLE_PROTOCOL_VERSION 1
/* The longest line either side sends or accepts, LF included. */
#define DURABLE_LINE_MAX 160
/* The most records a run's file may hold (FILE_BYTES / RECORD_BYTES):
 * the check keeps 16 bytes for each, 1 GiB for these; the listener
 * refuses a run that claims more, before anything is written. */
#define DURABLE_BLOCKS_MAX (UINT64_C(1) << 26)
/* A test file's name as the run reports it: 1 to 64 of the run id's
 * characters, else "-" (unknown). */
#define DURABLE_NAME_MAX 64
bool durable_name_valid(const char *name);

/* The most writes a run acknowledges per block of its file (a run with
 * more stops there): a check reads at most this many acknowledgements
 * per block of the file it checks (diskio(1), --verify-durability). */
#define DURABLE_WRITES_PER_BLOCK_MAX 65536

/* Split line (NUL-terminated, no LF) at single spaces into at most max
 * words, in place.  Returns how many, or -1 for an empty word (two
 * spaces, a leading or trailing one) or more than max. */
int durable_split(char *line, char **words, int max);
/* A decimal number of 1 to 20 digits, no sign, that fits 64 bits. */
bool durable_parse_u64(const char *text, uint64_t *out);
/* Exactly 8 lowercase hexadecimal digits. */
bool durable_parse_crc(const char *text, uint32_t *out);
/* "A SEQ OFFSET CRC\n" into out (at least DURABLE_LINE_MAX bytes);
 * returns its length. */
size_t durable_format_ack(char *out, uint64_t seq, uint64_t offset, uint32_t crc);

/* Lines from a byte stream, at most DURABLE_LINE_MAX each: bytes are
 * appended to buf (durable_in_space, then durable_in_added) and taken out
 * line by line. */
struct durable_in {
    char buf[4 * DURABLE_LINE_MAX];
    size_t used;
    size_t taken; /* bytes of the line last returned, LF included */
};
/* The next whole line, its LF replaced by NUL: 1 with *line set (valid
 * until the next call), 0 when no whole line is there yet, -1 when the
 * bytes there cannot start a valid line (DURABLE_LINE_MAX bytes without
 * an LF, a NUL or another control byte, a byte above 0x7e). */
int durable_in_line(struct durable_in *in, char **line);
/* Where the next bytes go, and how many fit. */
char *durable_in_space(struct durable_in *in, size_t *room);
void durable_in_added(struct durable_in *in, size_t n);

/* The boot a run was made in: Linux's /proc/sys/kernel/random/boot_id,
 * 36 characters (8-4-4-4-12 lowercase hexadecimal digits and dashes),
 * new at every boot.  A run sends it (BOOT ID, before its first
 * acknowledgement) and the check compares it with its own: the same id
 * means the machine never lost its power in between. */
#define DURABLE_BOOT_ID_LEN 36
bool durable_boot_id_valid(const char *id);
/* This boot's id into out (DURABLE_BOOT_ID_LEN + 1 bytes): 0, or -errno
 * (-EPROTO when the kernel's file does not hold one). */
int durable_boot_id(char *out);

/* "HOST:PORT" or "[IPV6]:PORT" into host and port (decimal 1-65535;
 * port 0 only when allow_zero).  0, or -1 when malformed. */
int durable_split_hostport(const char *text, char *host, size_t host_size, char *port,
                           size_t port_size, bool allow_zero);

#endif
