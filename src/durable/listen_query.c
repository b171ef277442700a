/* SPDX-License-Identifier: MIT */
/*
 * A query (listener.h): DISKIO-DURABLE 1 QUERY ID, answered with what
 * DIR/ID.acks holds: RUN ID RECORD_BYTES FILE_BYTES NAME, the run's BOOT
 * ID when it sent one, every acknowledgement line, DONE COUNT ENDED.  The answer is made from the
 * file QUERY_OUT_BYTES at a time and sent as the socket takes it: a
 * reader that takes it slowly holds its own connection and nothing else,
 * and one that has not taken it all within QUERY_DEADLINE_S is dropped.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "durable_msg.h"
#include "listener.h"

/* A query's turn: it sends this many buffers at most before the other
 * connections have theirs. */
#define QUERY_TURN_BUFFERS 4

static int queries(const struct listener *l)
{
    int n = 0;
    for (int i = 0; i < MAX_CONNS; i++)
        n += l->conns[i].kind == CONN_QUERY;
    return n;
}

bool query_admit(const struct listener *l, struct conn *c, char **w, int n)
{
    if (n != 4 || !durable_run_id_valid(w[3])) {
        conn_refuse(c, "protocol", "a query is: DISKIO-DURABLE 1 QUERY RUNID");
        return false;
    }
    if (queries(l) >= MAX_QUERIES) {
        char why[DURABLE_LINE_MAX];
        snprintf(why, sizeof(why), "the listener answers %d checks already; try again later",
                 MAX_QUERIES);
        conn_refuse(c, "busy", why);
        return false;
    }
    return true;
}

int query_start(struct listener *l, struct conn *c, const char *run_id)
{
    char name[DURABLE_RUN_ID_MAX + 8];
    listener_acks_name(name, sizeof(name), run_id);
    /* O_NONBLOCK: a FIFO planted at the name cannot hold the open */
    const int fd = openat(l->dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        conn_refuse(c, "unknown-run", "this listener holds no run of that id");
        return 0;
    }
    if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
        conn_refuse(c, "busy", "the listener has too many files open; try again later");
        return 0;
    }
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        conn_refuse(c, "storage", "the run's file in the listener's directory is not one");
        return 0;
    }
    c->kind = CONN_QUERY;
    c->file_fd = fd;
    memcpy(c->run_id, run_id, strlen(run_id) + 1);
    struct query_state *q = &c->u.query;
    q->file.used = q->file.taken = 0;
    q->acks = 0;
    q->header = q->ended = q->done = q->boot = false;
    q->out_used = q->out_sent = 0;
    c->deadline_ns = listener_now_ns() + (uint64_t)QUERY_DEADLINE_S * NS_PER_S;
    query_pump(l, c);
    return 0;
}

/* The next line of the run's file: 1 with *line set, 0 at its end (a
 * last line without its LF, cut short by a crash, is no line), -1 when
 * the bytes there cannot be a line, -errno when the file cannot be read. */
static int file_line(struct conn *c, char **line)
{
    struct durable_in *in = &c->u.query.file;
    for (;;) {
        const int got = durable_in_line(in, line);
        if (got != 0)
            return got;
        size_t room;
        char *space = durable_in_space(in, &room);
        const ssize_t r = read(c->file_fd, space, room);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno == EPERM ? -EIO : -errno; /* -1 is taken: -EPERM */
        if (r == 0)
            return 0;
        durable_in_added(in, (size_t)r);
    }
}

/* One line of the file into the answer.  0, -EINVAL when the file does
 * not start as a run's file, -errno when it cannot be read. */
static int query_line(struct conn *c)
{
    struct query_state *q = &c->u.query;
    char *line = NULL;
    const int got = file_line(c, &line);
    if (got < -1)
        return got;
    char *w[7];
    const int n = got > 0 ? durable_split(line, w, 7) : 0;
    char *out = q->out + q->out_used;
    uint64_t seq, offset;
    uint32_t crc;
    if (!q->header) {
        if (n != 7 || strcmp(w[0], "diskio-durable") != 0 || strcmp(w[1], "1") != 0 ||
            strcmp(w[2], "run") != 0 || strcmp(w[3], c->run_id) != 0)
            return -EINVAL;
        q->out_used +=
            (size_t)snprintf(out, DURABLE_LINE_MAX, "RUN %s %s %s %s\n", w[3], w[4], w[5], w[6]);
        q->header = true;
    } else if (n == 2 && strcmp(w[0], "BOOT") == 0 && durable_boot_id_valid(w[1]) && !q->boot &&
               q->acks == 0) {
        q->out_used += (size_t)snprintf(out, DURABLE_LINE_MAX, "BOOT %s\n", w[1]);
        q->boot = true;
    } else if (n == 4 && strcmp(w[0], "A") == 0 && durable_parse_u64(w[1], &seq) &&
               durable_parse_u64(w[2], &offset) && durable_parse_crc(w[3], &crc)) {
        q->out_used += durable_format_ack(out, seq, offset, crc);
        q->acks++;
    } else if (n == 2 && strcmp(w[0], "END") == 0) {
        q->ended = true;
    } else {
        /* the file's end, or the end of what in it is the run's lines
         * (a torn tail after a crash): answered as far as it went */
        q->out_used += (size_t)snprintf(out, DURABLE_LINE_MAX, "DONE %" PRIu64 " %d\n", q->acks,
                                        q->ended ? 1 : 0);
        q->done = true;
    }
    return 0;
}

/* Make the next part of the answer, as much as the buffer holds: 0, or
 * as query_line(). */
static int query_fill(struct conn *c)
{
    struct query_state *q = &c->u.query;
    q->out_used = q->out_sent = 0;
    while (!q->done && QUERY_OUT_BYTES - q->out_used >= DURABLE_LINE_MAX) {
        const int rc = query_line(c);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void query_done(struct listener *l, struct conn *c)
{
    if (!l->quiet)
        durable_log("run %s: %" PRIu64 " acknowledgements sent to %s for a check", c->run_id,
                    c->u.query.acks, c->peer);
    conn_close(c);
}

void query_pump(struct listener *l, struct conn *c)
{
    struct query_state *q = &c->u.query;
    for (int turn = 0; turn < QUERY_TURN_BUFFERS;) {
        if (q->out_sent == q->out_used) {
            if (q->done) {
                query_done(l, c);
                return;
            }
            const int rc = query_fill(c);
            if (rc == -EINVAL) {
                conn_refuse(c, "storage", "the run's file in the listener's directory is not one");
                return;
            }
            if (rc < 0) {
                durable_msg("cannot read %s/%s.acks: %s; the check from %s gets no answer", l->dir,
                            c->run_id, strerror(-rc), c->peer);
                conn_abort(c);
                return;
            }
            turn++;
        }
        const ssize_t n = send(c->fd, q->out + q->out_sent, q->out_used - q->out_sent,
                               MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            if (!l->quiet)
                durable_log("run %s: the check from %s broke off its answer", c->run_id, c->peer);
            conn_abort(c);
            return;
        }
        q->out_sent += (size_t)n;
    }
}

void query_expire(struct listener *l, struct conn *c)
{
    if (!l->quiet)
        durable_log("run %s: the check from %s did not take its answer within " QUERY_DEADLINE_TEXT
                    " (%" PRIu64 " acknowledgements of it made so far); dropped",
                    c->run_id, c->peer, c->u.query.acks);
    conn_abort(c);
}
