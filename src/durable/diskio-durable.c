/* SPDX-License-Identifier: MIT */
/*
 * diskio-durable(1): the listener of the durability check.  On a machine
 * that keeps its power, it records durably every acknowledgement a
 * diskio --durability run sends (each write the run's storage said was
 * durable), and tells diskio --verify-durability, after the power cut,
 * what must be in the file.
 *
 * One process, one thread, poll(2); no shell, no child process.  It
 * writes only ID.acks files it creates itself (O_EXCL, never through a
 * symlink) in the directory it is given, ID being a run id it was told
 * to expect; every line it reads is at most DURABLE_LINE_MAX bytes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diskio.h"
#include "durable.h"
#include "durable_msg.h"

/* Exit statuses, documented in diskio-durable(1). */
enum {
    EXIT_STOPPED = 0, /* stopped by SIGINT, SIGTERM or SIGHUP */
    EXIT_STORAGE = 1, /* an acknowledgement could not be recorded durably */
    EXIT_USAGE = 2,
    EXIT_SETUP = 3, /* the directory or the address cannot be used */
};

#define MAX_EXPECT 64
#define MAX_CONNS 16
/* a connection must say what it is within this long */
#define FIRST_LINE_NS (UINT64_C(10) * 1000000000u)
/* a query's reader must take its answer within this long per send */
#define QUERY_SEND_TIMEOUT_S 10
/* acknowledgement lines taken from one run per round, before they are
 * written and synced: the batch of one fdatasync */
#define RUN_BATCH_BYTES ((size_t)64 * 1024)

struct listener {
    int dir_fd;
    const char *dir;
    const char *expect[MAX_EXPECT];
    int nexpect;
    bool quiet;
    int listen_fd;
};

enum conn_kind { CONN_FREE, CONN_NEW, CONN_RUN };

struct conn {
    enum conn_kind kind;
    int fd;
    struct durable_in in;
    uint64_t opened_ns;
    /* CONN_RUN */
    uint64_t record_bytes, file_bytes;
    uint64_t last_seq, acks;
    size_t out_used;
    int file_fd;
    char peer[64];
    char run_id[DURABLE_RUN_ID_MAX + 1];
    bool ended, closed; /* END seen; the peer closed (or broke the protocol) */
    char out[RUN_BATCH_BYTES + DURABLE_LINE_MAX];
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int signo)
{
    stop_signal = signo;
}

static uint64_t mono_ns(void)
{
    return diskio_now_ns();
}

static void usage(FILE *out)
{
    fputs("Usage: diskio-durable listen --dir DIR --port PORT --expect RUNID [OPTION]...\n"
          "Record, durably, the acknowledgements of diskio's durability runs, and tell\n"
          "diskio's check after the power cut what they were.  Run it on a machine\n"
          "other than the one whose power is cut.\n"
          "\n"
          "  -d, --dir DIR         where the acknowledgements are kept: one RUNID.acks\n"
          "                        per run, created there (nothing is written elsewhere)\n"
          "  -p, --port PORT       TCP port to listen on, 1 to 65535 (0: any free port,\n"
          "                        printed)\n"
          "  -e, --expect RUNID    a run id to accept a run for (repeat for several);\n"
          "                        1 to 32 of A-Z a-z 0-9 . _ -, not starting with . or -\n"
          "  -b, --bind ADDRESS    the numeric address to listen on (default: 127.0.0.1,\n"
          "                        loopback only; e.g. 0.0.0.0, 192.0.2.7 or ::)\n"
          "  -q, --quiet           no line per run on standard output\n"
          "  -h, --help            this text\n"
          "  -V, --version         the version\n"
          "\n"
          "Stop it with Ctrl-C or SIGTERM.  Exit status: 0 stopped by a signal; 1 an\n"
          "acknowledgement could not be recorded durably; 2 bad usage; 3 DIR or the\n"
          "address cannot be used.  See diskio-durable(1).\n",
          out);
}

static bool expected(const struct listener *l, const char *run_id)
{
    for (int i = 0; i < l->nexpect; i++)
        if (strcmp(l->expect[i], run_id) == 0)
            return true;
    return false;
}

/* ---- sending ---- */

/* Send all of text (blocking or not: a non-blocking socket is waited for
 * up to the send timeout); false when the peer is gone. */
static bool send_all(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, text, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            if (poll(&p, 1, QUERY_SEND_TIMEOUT_S * 1000) <= 0)
                return false;
            continue;
        }
        if (n <= 0)
            return false;
        text += n;
        len -= (size_t)n;
    }
    return true;
}

static bool send_line(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool send_line(int fd, const char *fmt, ...)
{
    char line[DURABLE_LINE_MAX + 1];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    if ((size_t)n >= sizeof(line) - 2)
        n = (int)sizeof(line) - 2;
    line[n++] = '\n';
    return send_all(fd, line, (size_t)n);
}

static void conn_close(struct conn *c)
{
    if (c->fd >= 0) {
        /* what the peer sent and was not read is read first (a little,
         * without waiting): closing on unread bytes resets the
         * connection, which can take the last answer with it */
        (void)shutdown(c->fd, SHUT_WR);
        char sink[4096];
        for (int i = 0; i < 16 && recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; i++)
            ;
        close(c->fd);
    }
    if (c->file_fd >= 0)
        close(c->file_fd);
    memset(c, 0, sizeof(*c));
    c->kind = CONN_FREE;
    c->fd = -1;
    c->file_fd = -1;
}

/* Refuse what c asked for, say why, and close it. */
static void conn_refuse(struct conn *c, const char *word, const char *why)
{
    (void)send_line(c->fd, "NO %s %s", word, why);
    conn_close(c);
}

/* ---- storage ---- */

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

/* A run's acknowledgement file name: "ID.acks" (ID already valid). */
static void acks_name(char *out, size_t size, const char *run_id)
{
    snprintf(out, size, "%s.acks", run_id);
}

/* ---- a run: DISKIO-DURABLE 1 RUN ID RECORD_BYTES FILE_BYTES NAME ---- */

static int run_start(struct listener *l, struct conn *c, char **w, int n)
{
    uint64_t record_bytes, file_bytes;
    if (n != 7 || !durable_parse_u64(w[4], &record_bytes) ||
        !durable_parse_u64(w[5], &file_bytes) || record_bytes < DURABLE_SECTOR ||
        record_bytes % DURABLE_SECTOR != 0 || record_bytes > DISKIO_BS_MAX ||
        file_bytes < record_bytes || (strcmp(w[6], "-") != 0 && !durable_name_valid(w[6]))) {
        conn_refuse(c, "protocol",
                    "a run is: DISKIO-DURABLE 1 RUN RUNID RECORD_BYTES FILE_BYTES NAME");
        return 0;
    }
    if (!durable_run_id_valid(w[3])) {
        conn_refuse(c, "unexpected-run",
                    "that is not a run id (1 to 32 of A-Z a-z 0-9 . _ -, not starting with "
                    ". or -)");
        return 0;
    }
    if (!expected(l, w[3])) {
        if (!l->quiet)
            durable_log("refused run %s from %s: not expected (start the listener with "
                        "--expect %s)",
                        w[3], c->peer, w[3]);
        conn_refuse(c, "unexpected-run",
                    "this listener does not expect that run id; start it with --expect RUNID");
        return 0;
    }
    char name[DURABLE_RUN_ID_MAX + 8];
    acks_name(name, sizeof(name), w[3]);
    /* a new file of our own, never one that is there (a run id used
     * before, a symlink planted in DIR): O_EXCL and O_NOFOLLOW */
    int fd = openat(l->dir_fd, name,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) {
        if (!l->quiet)
            durable_log("refused run %s from %s: %s/%s exists (a run id is used once)", w[3],
                        c->peer, l->dir, name);
        conn_refuse(c, "run-exists",
                    "the listener already holds a run of that id; give this run a new one");
        return 0;
    }
    if (fd < 0) {
        int err = errno;
        durable_msg("cannot create %s/%s: %s", l->dir, name, strerror(err));
        conn_refuse(c, "storage", "the listener cannot create the run's file");
        return -err;
    }
    c->kind = CONN_RUN;
    c->file_fd = fd;
    memcpy(c->run_id, w[3], strlen(w[3]) + 1);
    c->record_bytes = record_bytes;
    c->file_bytes = file_bytes;
    char header[DURABLE_LINE_MAX];
    int len = snprintf(header, sizeof(header), "diskio-durable %d run %s %s %s %s\n",
                       DURABLE_PROTOCOL_VERSION, w[3], w[4], w[5], w[6]);
    int rc = write_all(fd, header, (size_t)len);
    /* the file and its name survive a crash of this machine too */
    if (rc == 0)
        rc = sync_retry(fd);
    if (rc == 0 && fsync(l->dir_fd) != 0)
        rc = -errno;
    if (rc < 0) {
        durable_msg("cannot write %s/%s: %s", l->dir, name, strerror(-rc));
        conn_refuse(c, "storage", "the listener cannot write the run's file");
        return rc;
    }
    if (!send_line(c->fd, "OK %s", c->run_id)) {
        c->closed = true;
        return 0;
    }
    if (!l->quiet)
        durable_log("run %s from %s: started (file %s, %" PRIu64 "-byte records)", c->run_id,
                    c->peer, w[6], record_bytes);
    return 0;
}

/* An acknowledgement line of a run: A SEQ OFFSET CRC, or END COUNT.
 * false: the run broke the protocol (said so, closed). */
static bool run_line(struct conn *c, char *line)
{
    char *w[4];
    const int n = durable_split(line, w, 4);
    uint64_t seq, offset;
    uint32_t crc;
    if (n == 4 && strcmp(w[0], "A") == 0 && durable_parse_u64(w[1], &seq) &&
        durable_parse_u64(w[2], &offset) && durable_parse_crc(w[3], &crc) && seq > c->last_seq &&
        offset % c->record_bytes == 0 && offset <= c->file_bytes - c->record_bytes) {
        c->out_used += durable_format_ack(c->out + c->out_used, seq, offset, crc);
        c->last_seq = seq;
        c->acks++;
        return true;
    }
    uint64_t count;
    if (n == 2 && strcmp(w[0], "END") == 0 && durable_parse_u64(w[1], &count) && count == c->acks) {
        c->out_used +=
            (size_t)snprintf(c->out + c->out_used, DURABLE_LINE_MAX, "END %" PRIu64 "\n", count);
        c->ended = true;
        return true;
    }
    (void)send_line(c->fd, "NO protocol %s",
                    n == 2 && strcmp(w[0], "END") == 0
                        ? "END does not give the number of acknowledgements sent"
                        : "an acknowledgement is: A SEQ OFFSET CRC, SEQ rising, OFFSET a "
                          "whole record inside the file");
    c->closed = true;
    return false;
}

/* ---- a query: DISKIO-DURABLE 1 QUERY ID ---- */

/* Send back what DIR holds of the run: RUN ID RECORD_BYTES FILE_BYTES
 * NAME, every acknowledgement line, DONE COUNT ENDED. */
static void query(struct listener *l, struct conn *c, char **w, int n)
{
    if (n != 4 || !durable_run_id_valid(w[3])) {
        conn_refuse(c, "protocol", "a query is: DISKIO-DURABLE 1 QUERY RUNID");
        return;
    }
    char name[DURABLE_RUN_ID_MAX + 8];
    acks_name(name, sizeof(name), w[3]);
    int fd = openat(l->dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        conn_refuse(c, "unknown-run", "this listener holds no run of that id");
        return;
    }
    /* the answer may be long: the reader gets a timeout per send */
    int flags = fcntl(c->fd, F_GETFL);
    if (flags >= 0)
        (void)fcntl(c->fd, F_SETFL, flags & ~O_NONBLOCK);
    struct timeval tv = {.tv_sec = QUERY_SEND_TIMEOUT_S};
    (void)setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));

    struct durable_in in = {.used = 0};
    bool header = false, ended = false, ok = true;
    uint64_t acks = 0;
    char out[RUN_BATCH_BYTES + DURABLE_LINE_MAX];
    size_t out_used = 0;
    for (;;) {
        char *line;
        int got = durable_in_line(&in, &line);
        if (got < 0)
            break; /* not a file of ours: answered as far as it went */
        if (got == 0) {
            size_t room;
            char *space = durable_in_space(&in, &room);
            ssize_t r = read(fd, space, room);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break; /* the end; a last line without LF was cut short */
            durable_in_added(&in, (size_t)r);
            continue;
        }
        char *words[7];
        int nw = durable_split(line, words, 7);
        if (!header) {
            if (nw != 7 || strcmp(words[0], "diskio-durable") != 0 || strcmp(words[1], "1") != 0 ||
                strcmp(words[2], "run") != 0 || strcmp(words[3], w[3]) != 0)
                break;
            ok = send_line(c->fd, "RUN %s %s %s %s", words[3], words[4], words[5], words[6]);
            header = true;
        } else if (nw == 4 && strcmp(words[0], "A") == 0) {
            uint64_t seq, offset;
            uint32_t crc;
            if (!durable_parse_u64(words[1], &seq) || !durable_parse_u64(words[2], &offset) ||
                !durable_parse_crc(words[3], &crc))
                break;
            out_used += durable_format_ack(out + out_used, seq, offset, crc);
            acks++;
        } else if (nw == 2 && strcmp(words[0], "END") == 0) {
            ended = true;
        } else {
            break;
        }
        if (ok && out_used >= RUN_BATCH_BYTES) {
            ok = send_all(c->fd, out, out_used);
            out_used = 0;
        }
        if (!ok)
            break;
    }
    close(fd);
    if (ok && !header) {
        conn_refuse(c, "storage", "the run's file in the listener's directory is not one");
        return;
    }
    if (ok && out_used)
        ok = send_all(c->fd, out, out_used);
    if (ok)
        (void)send_line(c->fd, "DONE %" PRIu64 " %d", acks, ended ? 1 : 0);
    if (!l->quiet)
        durable_log("run %s: %" PRIu64 " acknowledgements sent to %s for a check", w[3], acks,
                    c->peer);
    conn_close(c);
}

/* ---- connections ---- */

/* A connection's first line says what it is: a run or a query. */
static int conn_first_line(struct listener *l, struct conn *c, char *line)
{
    char *w[7];
    const int n = durable_split(line, w, 7);
    if (n < 3 || strcmp(w[0], DURABLE_PROTOCOL) != 0) {
        conn_refuse(c, "protocol",
                    "this is a diskio-durable listener: DISKIO-DURABLE 1 RUN ... or QUERY ...");
        return 0;
    }
    if (strcmp(w[1], "1") != 0) {
        conn_refuse(c, "version", "this listener speaks DISKIO-DURABLE 1");
        return 0;
    }
    if (strcmp(w[2], "RUN") == 0)
        return run_start(l, c, w, n);
    if (strcmp(w[2], "QUERY") == 0) {
        query(l, c, w, n);
        return 0;
    }
    conn_refuse(c, "protocol",
                "a first line is DISKIO-DURABLE 1 RUN ... or DISKIO-DURABLE 1 QUERY ...");
    return 0;
}

/* Take what c sent: whole lines, until none is left or a run's batch is
 * full.  0, or -errno when the storage failed. */
static int conn_read(struct listener *l, struct conn *c)
{
    while (c->kind != CONN_FREE && !c->closed && !c->ended && c->out_used < RUN_BATCH_BYTES) {
        char *line;
        const int got = durable_in_line(&c->in, &line);
        if (got < 0) {
            (void)send_line(c->fd, "NO protocol lines are at most %d bytes of printable ASCII",
                            DURABLE_LINE_MAX - 1);
            if (c->kind == CONN_RUN)
                c->closed = true;
            else
                conn_close(c);
            return 0;
        }
        if (got > 0) {
            if (c->kind == CONN_NEW) {
                const int rc = conn_first_line(l, c, line);
                if (rc < 0)
                    return rc;
            } else {
                (void)run_line(c, line);
            }
            continue;
        }
        size_t room;
        char *space = durable_in_space(&c->in, &room);
        const ssize_t r = recv(c->fd, space, room, MSG_DONTWAIT);
        if (r > 0) {
            durable_in_added(&c->in, (size_t)r);
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        /* the peer closed, or the connection broke */
        if (c->kind == CONN_RUN)
            c->closed = true;
        else
            conn_close(c);
        return 0;
    }
    return 0;
}

/* Write every run's new acknowledgements and make them durable: one
 * fdatasync per run per round, however many lines it took.  Then answer
 * the runs that ended and release the ones that are gone.  0 or -errno. */
static int runs_commit(struct listener *l, struct conn *conns)
{
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &conns[i];
        if (c->kind != CONN_RUN || c->out_used == 0)
            continue;
        int rc = write_all(c->file_fd, c->out, c->out_used);
        if (rc == 0)
            rc = sync_retry(c->file_fd);
        if (rc < 0) {
            durable_msg("cannot record the acknowledgements of run %s in %s: %s; stopping (the "
                        "ones recorded before are kept)",
                        c->run_id, l->dir, strerror(-rc));
            return rc;
        }
        c->out_used = 0;
    }
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &conns[i];
        if (c->kind != CONN_RUN || (!c->ended && !c->closed))
            continue;
        if (c->ended) {
            (void)send_line(c->fd, "DONE %" PRIu64, c->acks);
            if (!l->quiet)
                durable_log("run %s: ended; %" PRIu64 " acknowledgements recorded", c->run_id,
                            c->acks);
        } else if (!l->quiet) {
            durable_log("run %s: connection closed after %" PRIu64
                        " acknowledgements, without the run's end (a power cut, or the run "
                        "failed or stopped); all of them are recorded",
                        c->run_id, c->acks);
        }
        conn_close(c);
    }
    return 0;
}

static void conn_accept(struct listener *l, struct conn *conns)
{
    struct sockaddr_storage sa;
    socklen_t salen = sizeof(sa);
    int fd = accept4(l->listen_fd, (struct sockaddr *)&sa, &salen, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0)
        return;
    struct conn *c = NULL;
    for (int i = 0; i < MAX_CONNS && !c; i++)
        if (conns[i].kind == CONN_FREE)
            c = &conns[i];
    if (!c) {
        (void)send_line(fd, "NO busy the listener has %d connections already; try again later",
                        MAX_CONNS);
        close(fd);
        return;
    }
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    conn_close(c);
    c->kind = CONN_NEW;
    c->fd = fd;
    c->opened_ns = mono_ns();
    char host[48], port[8];
    if (getnameinfo((struct sockaddr *)&sa, salen, host, sizeof(host), port, sizeof(port),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0)
        snprintf(c->peer, sizeof(c->peer), "%s port %s", host, port);
    else
        snprintf(c->peer, sizeof(c->peer), "an unknown address");
}

static int serve(struct listener *l)
{
    static struct conn conns[MAX_CONNS];
    for (int i = 0; i < MAX_CONNS; i++) {
        conns[i].fd = -1;
        conns[i].file_fd = -1;
    }
    int status = EXIT_STOPPED;
    while (!stop_signal) {
        struct pollfd p[MAX_CONNS + 1];
        int map[MAX_CONNS + 1];
        nfds_t n = 0;
        p[n] = (struct pollfd){.fd = l->listen_fd, .events = POLLIN};
        map[n++] = -1;
        for (int i = 0; i < MAX_CONNS; i++)
            if (conns[i].kind != CONN_FREE) {
                p[n] = (struct pollfd){.fd = conns[i].fd, .events = POLLIN};
                map[n++] = i;
            }
        const int ready = poll(p, n, 1000);
        if (ready < 0 && errno != EINTR) {
            durable_msg("poll: %s", strerror(errno));
            status = EXIT_STORAGE;
            break;
        }
        /* runs first, recorded, then the new connections: what a run
         * sent before a query came is recorded before the query is
         * answered */
        int rc = 0;
        for (int pass = 0; pass < 2 && ready > 0 && rc == 0; pass++) {
            const enum conn_kind kind = pass == 0 ? CONN_RUN : CONN_NEW;
            for (nfds_t k = 1; k < n && rc == 0; k++)
                if ((p[k].revents & (POLLIN | POLLHUP | POLLERR)) && conns[map[k]].kind == kind)
                    rc = conn_read(l, &conns[map[k]]);
            if (rc == 0)
                rc = runs_commit(l, conns);
        }
        if (rc < 0) {
            status = EXIT_STORAGE;
            break;
        }
        if (ready > 0 && (p[0].revents & POLLIN))
            conn_accept(l, conns);
        /* a connection that does not say what it is in time is dropped */
        const uint64_t now = mono_ns();
        for (int i = 0; i < MAX_CONNS; i++)
            if (conns[i].kind == CONN_NEW && now - conns[i].opened_ns > FIRST_LINE_NS)
                conn_refuse(&conns[i], "protocol", "no first line within 10 seconds");
    }
    for (int i = 0; i < MAX_CONNS; i++) {
        if (conns[i].kind == CONN_RUN && status == EXIT_STORAGE)
            (void)send_line(conns[i].fd, "NO storage the listener cannot record acknowledgements");
        if (conns[i].kind == CONN_RUN && !l->quiet && status == EXIT_STOPPED)
            durable_log("run %s: the listener stops; %" PRIu64 " acknowledgements recorded",
                        conns[i].run_id, conns[i].acks);
        if (conns[i].kind != CONN_FREE)
            conn_close(&conns[i]);
    }
    return status;
}

/* ---- setup ---- */

static int listen_on(struct listener *l, const char *bind_addr, const char *port)
{
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC,
        .ai_socktype = SOCK_STREAM,
        .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
    };
    struct addrinfo *ai = NULL;
    int rc = getaddrinfo(bind_addr, port, &hints, &ai);
    if (rc != 0) {
        durable_msg("--bind: '%s' is not a numeric address (e.g. 127.0.0.1, 0.0.0.0, ::1): %s",
                    bind_addr, gai_strerror(rc));
        return EXIT_USAGE;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    if (fd >= 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, MAX_CONNS) != 0) {
        durable_msg("cannot listen on %s port %s: %s", bind_addr, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return EXIT_SETUP;
    }
    freeaddrinfo(ai);
    l->listen_fd = fd;
    return 0;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: poll returns and the loop sees the flag */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"dir", required_argument, NULL, 'd'},    {"port", required_argument, NULL, 'p'},
        {"expect", required_argument, NULL, 'e'}, {"bind", required_argument, NULL, 'b'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},      {NULL, 0, NULL, 0},
    };
    struct listener l = {.dir_fd = -1, .listen_fd = -1};
    const char *port = NULL, *bind_addr = "127.0.0.1";
    bool listen_cmd = argc > 1 && strcmp(argv[1], "listen") == 0;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc > 1 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("diskio-durable %s\n", diskio_version());
        return 0;
    }
    if (!listen_cmd) {
        durable_usage_msg("%s%s",
                          argc > 1 ? "unknown command (the one command is 'listen'): "
                                   : "no command: give ",
                          argc > 1 ? "" : "'listen'");
        return EXIT_USAGE;
    }
    optind = 2;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":d:p:e:b:qhV", options, NULL)) != -1) {
        uint64_t v;
        switch (c) {
        case 'd': l.dir = optarg; break;
        case 'p':
            if (!durable_parse_u64(optarg, &v) || v > 65535 ||
                (optarg[0] == '0' && optarg[1] != '\0')) {
                durable_msg("--port: '%s' is not a port from 0 to 65535", optarg);
                return EXIT_USAGE;
            }
            port = optarg;
            break;
        case 'e':
            if (!durable_run_id_valid(optarg)) {
                durable_msg("--expect: not a run id (1 to 32 of A-Z a-z 0-9 . _ -, not "
                            "starting with . or -)");
                return EXIT_USAGE;
            }
            if (l.nexpect == MAX_EXPECT) {
                durable_msg("--expect: at most %d run ids", MAX_EXPECT);
                return EXIT_USAGE;
            }
            l.expect[l.nexpect++] = optarg;
            break;
        case 'b': bind_addr = optarg; break;
        case 'q': l.quiet = true; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("diskio-durable %s\n", diskio_version()); return 0;
        case ':': durable_msg("%s needs a value", argv[optind - 1]); return EXIT_USAGE;
        default: durable_usage_msg("unknown option '%s'", argv[optind - 1]); return EXIT_USAGE;
        }
    }
    const char *missing = !l.dir       ? "--dir DIR"
                          : !port      ? "--port PORT"
                          : !l.nexpect ? "--expect RUNID"
                                       : NULL;
    if (missing || optind < argc) {
        if (missing)
            durable_usage_msg("listen needs %s", missing);
        else
            durable_usage_msg("unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    const int dir_fd = open(l.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        durable_msg("--dir %s: %s; give an existing directory", l.dir, strerror(errno));
        return EXIT_SETUP;
    }
    l.dir_fd = dir_fd;
    if (faccessat(l.dir_fd, ".", W_OK, AT_EACCESS) != 0) {
        durable_msg("--dir %s is not writable: %s", l.dir, strerror(errno));
        close(l.dir_fd);
        return EXIT_SETUP;
    }
    install_signals();
    int rc = listen_on(&l, bind_addr, port);
    if (rc != 0) {
        close(l.dir_fd);
        return rc;
    }
    struct sockaddr_storage sa;
    socklen_t salen = sizeof(sa);
    char host[48] = "?", real_port[8] = "?";
    if (getsockname(l.listen_fd, (struct sockaddr *)&sa, &salen) == 0)
        (void)getnameinfo((struct sockaddr *)&sa, salen, host, sizeof(host), real_port,
                          sizeof(real_port), NI_NUMERICHOST | NI_NUMERICSERV);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* " ID" for each run id expected: every one fits */
    char ids[MAX_EXPECT * (DURABLE_RUN_ID_MAX + 1) + 1] = "";
    size_t used = 0;
    for (int i = 0; i < l.nexpect; i++)
        used += (size_t)snprintf(ids + used, sizeof(ids) - used, " %s", l.expect[i]);
    durable_log("listening on %s port %s; recording in %s; expecting run%s", host, real_port, l.dir,
                ids);
    const int status = serve(&l);
    close(l.listen_fd);
    close(l.dir_fd);
    if (!l.quiet && status == EXIT_STOPPED)
        durable_log("stopped");
    return status;
}
