/* SPDX-License-Identifier: MIT */
/*
 * A run (listener.h): DISKIO-DURABLE 1 RUN ID RECORD_BYTES FILE_BYTES
 * NAME, then its acknowledgements, recorded in DIR/ID.acks batch by
 * batch, each written and fdatasync'ed before the next is read.
 *
 * A run may claim a file of at most DURABLE_BLOCKS_MAX records, send at
 * most DURABLE_WRITES_PER_BLOCK_MAX acknowledgements per record of that
 * file (a real run stops there; the check reads no more) and at most
 * --max-run-acks in all, and its file takes at most
 * --max-run-bytes; past a bound, and when the disk is full, that run is
 * refused (what it sent within the bound is recorded) and the listener
 * goes on.  The file only ever holds whole lines: a batch the disk could
 * not take whole is cut off again, back to the last line of the batch
 * before.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskio.h"
#include "durable_msg.h"
#include "listener.h"

/* A full disk, a quota, the filesystem's largest file: what this run
 * cannot have, not a failing disk.  Anything else (EIO above all: after
 * a failed fdatasync the kernel may have dropped the pages it could not
 * write) means the listener cannot vouch for what it holds. */
static bool disk_full(int err)
{
    return err == -ENOSPC || err == -EDQUOT || err == -EFBIG;
}

/* Write all of buf to fd: 0 or -errno. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return -EIO;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static int sync_retry(int fd)
{
    while (fdatasync(fd) != 0)
        if (errno != EINTR)
            return -errno;
    return 0;
}

void run_refuse(struct conn *c, const char *word, const char *why)
{
    struct run_state *r = &c->u.run;
    if (r->refusal)
        return;
    r->refusal = word;
    snprintf(r->refusal_text, sizeof(r->refusal_text), "%s", why);
}

/* ---- the first line ---- */

/* The file run_start() made and could not write: removed (it is the
 * listener's own, holding at most part of its first line), so that the
 * run can be tried again once there is room. */
static void run_unmake(struct listener *l, const char *name, int fd)
{
    struct stat mine, there;
    if (fstat(fd, &mine) == 0 && fstatat(l->dir_fd, name, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
        mine.st_dev == there.st_dev && mine.st_ino == there.st_ino)
        (void)unlinkat(l->dir_fd, name, 0);
    close(fd);
}

/* The run's first line in its new file, which survives a crash of this
 * machine with its name: 0 or -errno. */
static int run_header(struct listener *l, int fd, char **w, uint64_t *bytes)
{
    char header[DURABLE_LINE_MAX];
    const int len = snprintf(header, sizeof(header), "diskio-durable %d run %s %s %s %s\n",
                             DURABLE_PROTOCOL_VERSION, w[3], w[4], w[5], w[6]);
    int rc = write_all(fd, header, (size_t)len);
    if (rc == 0)
        rc = sync_retry(fd);
    if (rc == 0 && fsync(l->dir_fd) != 0)
        rc = -errno;
    *bytes = (uint64_t)len;
    return rc;
}

/* Whether w (n words) is a run's first line within the bounds; refused
 * (and false) when not. */
static bool run_claim_valid(struct conn *c, char **w, int n, uint64_t *record_bytes,
                            uint64_t *file_bytes)
{
    if (n != 7 || !durable_parse_u64(w[4], record_bytes) || !durable_parse_u64(w[5], file_bytes) ||
        *record_bytes < DURABLE_SECTOR || *record_bytes % DURABLE_SECTOR != 0 ||
        *record_bytes > DISKIO_BS_MAX || *file_bytes < *record_bytes ||
        (strcmp(w[6], "-") != 0 && !durable_name_valid(w[6]))) {
        conn_refuse(c, "protocol",
                    "a run is: DISKIO-DURABLE 1 RUN RUNID RECORD_BYTES FILE_BYTES NAME");
        return false;
    }
    if (*file_bytes / *record_bytes > DURABLE_BLOCKS_MAX) {
        char why[DURABLE_LINE_MAX];
        snprintf(why, sizeof(why),
                 "a run's file holds at most %" PRIu64 " records (a check holds no more)",
                 DURABLE_BLOCKS_MAX);
        conn_refuse(c, "limit-blocks", why);
        return false;
    }
    if (!durable_run_id_valid(w[3])) {
        conn_refuse(c, "unexpected-run",
                    "that is not a run id (1 to 32 of A-Z a-z 0-9 . _ -, not starting with "
                    ". or -)");
        return false;
    }
    return true;
}

/* The run's own new file, never one that is there (a run id used before,
 * a symlink planted in DIR): O_EXCL and O_NOFOLLOW.  The descriptor, or
 * -1 when refused; *err is set when the disk failed. */
static int run_create(struct listener *l, struct conn *c, const char *run_id, const char *name,
                      int *err)
{
    const int fd = openat(l->dir_fd, name,
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    const int e = errno;
    if (e == EEXIST) {
        if (!l->quiet)
            durable_log("refused run %s from %s: %s/%s exists (a run id is used once)", run_id,
                        c->peer, l->dir, name);
        conn_refuse(c, "run-exists",
                    "the listener already holds a run of that id; give this run a new one");
        return -1;
    }
    durable_msg("cannot create %s/%s: %s", l->dir, name, strerror(e));
    if (e == EMFILE || e == ENFILE) {
        conn_refuse(c, "busy", "the listener has too many files open; try again later");
        return -1;
    }
    conn_refuse(c, "storage", "the listener cannot create the run's file");
    if (!disk_full(-e))
        *err = -e;
    return -1;
}

int run_start(struct listener *l, struct conn *c, char **w, int n)
{
    uint64_t record_bytes, file_bytes;
    if (!run_claim_valid(c, w, n, &record_bytes, &file_bytes))
        return 0;
    if (!listener_expects(l, w[3])) {
        if (!l->quiet)
            durable_log("refused run %s from %s: not expected (start the listener with "
                        "--expect %s)",
                        w[3], c->peer, w[3]);
        conn_refuse(c, "unexpected-run",
                    "this listener does not expect that run id; start it with --expect RUNID");
        return 0;
    }
    char name[DURABLE_RUN_ID_MAX + 8];
    listener_acks_name(name, sizeof(name), w[3]);
    int err = 0;
    const int fd = run_create(l, c, w[3], name, &err);
    if (fd < 0)
        return err;
    uint64_t header_bytes;
    const int rc = run_header(l, fd, w, &header_bytes);
    if (rc < 0) {
        durable_msg("cannot write %s/%s: %s", l->dir, name, strerror(-rc));
        if (disk_full(rc))
            run_unmake(l, name, fd);
        else
            close(fd);
        conn_refuse(c, "storage", "the listener cannot write the run's file");
        return disk_full(rc) ? 0 : rc;
    }
    c->kind = CONN_RUN;
    c->file_fd = fd;
    memcpy(c->run_id, w[3], strlen(w[3]) + 1);
    struct run_state *r = &c->u.run;
    memset(r, 0, offsetof(struct run_state, batch));
    r->record_bytes = record_bytes;
    r->file_bytes = file_bytes;
    r->recorded_bytes = header_bytes;
    if (!conn_say(c, "OK %s", c->run_id))
        r->closed = true;
    if (!l->quiet)
        durable_log("run %s from %s: started (file %s, %" PRIu64 "-byte records)", c->run_id,
                    c->peer, w[6], record_bytes);
    return 0;
}

/* ---- its lines ---- */

bool run_wants_lines(const struct conn *c)
{
    const struct run_state *r = &c->u.run;
    return c->kind == CONN_RUN && !r->ended && !r->closed && !r->refusal &&
           r->batch_used < RUN_BATCH_BYTES;
}

/* Whether len more bytes of acknowledgements fit the run's file: its END
 * line always fits after them. */
static bool run_room(const struct listener *l, const struct run_state *r, size_t len)
{
    return r->recorded_bytes + r->batch_used + len + END_LINE_MAX <= l->max_run_bytes;
}

/* An acknowledgement (SEQ OFFSET CRC already parsed) within the run's
 * bounds, taken into its batch. */
static void run_ack(struct listener *l, struct conn *c, uint64_t seq, uint64_t offset, uint32_t crc)
{
    struct run_state *r = &c->u.run;
    char why[DURABLE_LINE_MAX];
    /* a real run stops at DURABLE_WRITES_PER_BLOCK_MAX writes per block
     * of its file (the check reads no more), whatever --max-run-acks */
    if (r->acks >= r->file_bytes / r->record_bytes * DURABLE_WRITES_PER_BLOCK_MAX) {
        snprintf(why, sizeof(why),
                 "a run sends at most %d acknowledgements per block of its file; the ones "
                 "before are recorded",
                 DURABLE_WRITES_PER_BLOCK_MAX);
        run_refuse(c, "limit-acks", why);
        return;
    }
    if (r->acks >= l->max_run_acks) {
        snprintf(why, sizeof(why),
                 "a run sends at most %" PRIu64 " acknowledgements to this listener "
                 "(--max-run-acks); the ones before are recorded",
                 l->max_run_acks);
        run_refuse(c, "limit-acks", why);
        return;
    }
    char line[ACK_LINE_MAX];
    const size_t len = durable_format_ack(line, seq, offset, crc);
    if (!run_room(l, r, len)) {
        snprintf(why, sizeof(why),
                 "a run's file takes at most %" PRIu64 " bytes on this listener "
                 "(--max-run-bytes); the acknowledgements before are recorded",
                 l->max_run_bytes);
        run_refuse(c, "limit-bytes", why);
        return;
    }
    memcpy(r->batch + r->batch_used, line, len);
    r->batch_used += len;
    r->last_seq = seq;
    r->acks++;
}

void run_line(struct listener *l, struct conn *c, char *line)
{
    struct run_state *r = &c->u.run;
    char *w[4];
    const int n = durable_split(line, w, 4);
    uint64_t seq, offset, count;
    uint32_t crc;
    if (n == 4 && strcmp(w[0], "A") == 0 && durable_parse_u64(w[1], &seq) &&
        durable_parse_u64(w[2], &offset) && durable_parse_crc(w[3], &crc) && seq > r->last_seq &&
        offset % r->record_bytes == 0 && offset <= r->file_bytes - r->record_bytes) {
        run_ack(l, c, seq, offset, crc);
        return;
    }
    /* the run's boot, once, before its first acknowledgement: what the
     * check compares with its own to know whether the power was cut */
    if (n == 2 && strcmp(w[0], "BOOT") == 0 && durable_boot_id_valid(w[1]) && !r->boot &&
        r->acks == 0) {
        if (!run_room(l, r, BOOT_LINE_MAX)) {
            run_refuse(c, "limit-bytes",
                       "a run's file cannot take its BOOT line on this "
                       "listener (--max-run-bytes)");
            return;
        }
        r->batch_used +=
            (size_t)snprintf(r->batch + r->batch_used, BOOT_LINE_MAX + 1, "BOOT %s\n", w[1]);
        r->boot = true;
        return;
    }
    if (n == 2 && strcmp(w[0], "END") == 0 && durable_parse_u64(w[1], &count) && count == r->acks) {
        r->batch_used += (size_t)snprintf(r->batch + r->batch_used, END_LINE_MAX + 1,
                                          "END %" PRIu64 "\n", count);
        r->ended = true;
        return;
    }
    run_refuse(c, "protocol",
               n == 2 && strcmp(w[0], "END") == 0
                   ? "END does not give the number of acknowledgements sent"
                   : "an acknowledgement is: A SEQ OFFSET CRC, SEQ rising, OFFSET a whole "
                     "record inside the file (BOOT ID once, before the first)");
}

/* ---- recording ---- */

/* The run's file back to what was recorded before this batch, and that
 * synced: 0 or -errno. */
static int run_cut_back(struct conn *c)
{
    while (ftruncate(c->file_fd, (off_t)c->u.run.recorded_bytes) != 0)
        if (errno != EINTR)
            return -errno;
    return sync_retry(c->file_fd);
}

/* Write the run's batch and make it durable.  When the disk is full, the
 * batch is cut off again and the run refused: its file holds whole lines
 * only (and should the sync of the cut fail for want of room too, a
 * crash of this machine leaves at most part of the batch after them,
 * which no longer grows and a query answers up to its last whole line).
 * 0, or -errno when the disk failed otherwise: the listener stops. */
static int run_commit(struct listener *l, struct conn *c)
{
    struct run_state *r = &c->u.run;
    int rc = write_all(c->file_fd, r->batch, r->batch_used);
    if (rc == 0)
        rc = sync_retry(c->file_fd);
    if (rc == 0) {
        r->recorded_bytes += r->batch_used;
        r->recorded_acks = r->acks;
        r->batch_used = 0;
        return 0;
    }
    const int cut = run_cut_back(c);
    if (!disk_full(rc) || (cut < 0 && !disk_full(cut))) {
        durable_msg("cannot record the acknowledgements of run %s in %s: %s%s%s; stopping (the "
                    "ones recorded before are kept)",
                    c->run_id, l->dir, strerror(-rc), cut < 0 ? ", nor cut its file back: " : "",
                    cut < 0 ? strerror(-cut) : "");
        return disk_full(rc) ? cut : rc;
    }
    durable_msg("run %s: %s is full (%s): its %" PRIu64 " acknowledgements recorded are kept, the "
                "%" PRIu64 " after them refused; the run is refused, the listener goes on",
                c->run_id, l->dir, strerror(-rc), r->recorded_acks, r->acks - r->recorded_acks);
    r->acks = r->recorded_acks;
    r->ended = false;
    r->batch_used = 0;
    r->refusal = NULL;
    run_refuse(c, "storage",
               "the listener's disk is full; the acknowledgements before this batch are recorded");
    return 0;
}

/* Answer a run that ended, was refused or is gone, and close it. */
static void run_finish(struct listener *l, struct conn *c)
{
    const struct run_state *r = &c->u.run;
    if (r->refusal) {
        if (!l->quiet)
            durable_log("run %s: refused (%s: %s); %" PRIu64 " acknowledgements recorded",
                        c->run_id, r->refusal, r->refusal_text, r->recorded_acks);
        conn_refuse(c, r->refusal, r->refusal_text);
        return;
    }
    if (r->ended) {
        (void)conn_say(c, "DONE %" PRIu64, r->recorded_acks);
        if (!l->quiet)
            durable_log("run %s: ended; %" PRIu64 " acknowledgements recorded", c->run_id,
                        r->recorded_acks);
    } else if (!l->quiet) {
        durable_log("run %s: connection closed after %" PRIu64
                    " acknowledgements, without the run's end (a power cut, or the run "
                    "failed or stopped); all of them are recorded",
                    c->run_id, r->recorded_acks);
    }
    conn_close(c);
}

int runs_commit(struct listener *l, struct conn *conns)
{
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &conns[i];
        if (c->kind != CONN_RUN || c->u.run.batch_used == 0)
            continue;
        const int rc = run_commit(l, c);
        if (rc < 0)
            return rc;
    }
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &conns[i];
        if (c->kind == CONN_RUN && (c->u.run.ended || c->u.run.closed || c->u.run.refusal))
            run_finish(l, c);
    }
    return 0;
}
