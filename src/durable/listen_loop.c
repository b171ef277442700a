/* SPDX-License-Identifier: MIT */
/*
 * The listener's connection table and poll loop (listener.h): accepting,
 * each connection's first line, the deadlines.  A run's lines are
 * listen_run.c's, a query's answer listen_query.c's; saying a line to a
 * connection and closing it, listen_conn.c's.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "diskio.h"
#include "durable_msg.h"
#include "listener.h"

/* A run whose machine lost its power sends nothing more, not even a
 * reset: its connection is found dead by keepalive probes, after
 * KEEPALIVE_IDLE_S of silence and KEEPALIVE_COUNT unanswered probes
 * KEEPALIVE_INTERVAL_S apart (two minutes), and its slot freed. */
#define KEEPALIVE_IDLE_S 60
#define KEEPALIVE_INTERVAL_S 10
#define KEEPALIVE_COUNT 6

static volatile sig_atomic_t stop_signal;

static void on_signal(int signo)
{
    stop_signal = signo;
}

void listener_signals(void)
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

/* A connection's first line says what it is: a run or a query.
 * 0, or -errno when the disk failed. */
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
        if (!query_admit(l, c, w, n))
            return 0;
        /* what the run sent before this check came is in its file first */
        const int drained = run_drain(l, w[3]);
        if (drained < 0) {
            conn_refuse(c, "storage", "the listener cannot record acknowledgements");
            return drained;
        }
        return query_start(l, c, w[3]);
    }
    conn_refuse(c, "protocol",
                "a first line is DISKIO-DURABLE 1 RUN ... or DISKIO-DURABLE 1 QUERY ...");
    return 0;
}

/* Bytes that cannot be a line: the run is refused (what it sent before
 * is recorded first), any other connection closed. */
static void conn_bad_line(struct conn *c)
{
    char why[DURABLE_LINE_MAX];
    snprintf(why, sizeof(why), "lines are at most %d bytes of printable ASCII",
             DURABLE_LINE_MAX - 1);
    if (c->kind == CONN_RUN)
        run_refuse(c, "protocol", why);
    else
        conn_refuse(c, "protocol", why);
}

/* More of what c sent, into its line buffer: true when bytes came; false
 * when none is waiting, or the peer closed or broke off (a run is marked
 * closed, any other connection closed). */
static bool conn_recv(struct conn *c)
{
    for (;;) {
        size_t room;
        char *space = durable_in_space(&c->in, &room);
        const ssize_t r = recv(c->fd, space, room, MSG_DONTWAIT);
        if (r > 0) {
            durable_in_added(&c->in, (size_t)r);
            return true;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return false;
        if (c->kind == CONN_RUN)
            c->u.run.closed = true;
        else
            conn_close(c);
        return false;
    }
}

/* A run's lines, while it takes more this round (none for a connection
 * that is not a run). */
static void run_read(struct listener *l, struct conn *c)
{
    while (run_wants_lines(c)) {
        char *line;
        const int got = durable_in_line(&c->in, &line);
        if (got < 0) {
            conn_bad_line(c);
            return;
        }
        if (got > 0)
            run_line(l, c, line);
        else if (!conn_recv(c))
            return;
    }
}

/* Take what c sent: its first line (a run or a query started), then a
 * run's lines until none is left or it takes no more this round.  0, or
 * -errno when the disk failed.  (Draining a run for a query reads with
 * run_read(), never back through here.) */
static int conn_read(struct listener *l, struct conn *c)
{
    while (c->kind == CONN_NEW) {
        char *line;
        const int got = durable_in_line(&c->in, &line);
        if (got < 0) {
            conn_bad_line(c);
            return 0;
        }
        if (got > 0) {
            const int rc = conn_first_line(l, c, line);
            if (rc < 0)
                return rc;
        } else if (!conn_recv(c)) {
            return 0;
        }
    }
    run_read(l, c);
    return 0;
}

/* Batches run_drain() takes of one run at most: 16 MiB of
 * acknowledgements, more than 450,000 lines. */
#define DRAIN_BATCHES_MAX 256

int run_drain(struct listener *l, const char *run_id)
{
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &l->conns[i];
        if (c->kind != CONN_RUN || strcmp(c->run_id, run_id) != 0)
            continue;
        /* batch after batch while they come whole (a stopped run's last
         * lines still arriving included), at most DRAIN_BATCHES_MAX: a
         * run that floods cannot hold the loop beyond them */
        for (int rounds = 0; rounds < DRAIN_BATCHES_MAX && c->kind == CONN_RUN; rounds++) {
            run_read(l, c);
            const bool full = c->kind == CONN_RUN && c->u.run.batch_used >= RUN_BATCH_BYTES;
            const int rc = runs_commit(l, l->conns);
            if (rc < 0)
                return rc;
            if (!full)
                break;
        }
    }
    return 0;
}

/* ---- the table ---- */

/* A slot for a new connection: a free one, else the one that has waited
 * longest for its first line (told so and closed); NULL when none is. */
static struct conn *conn_slot(struct listener *l)
{
    struct conn *oldest = NULL;
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &l->conns[i];
        if (c->kind == CONN_FREE)
            return c;
        if (c->kind == CONN_NEW && (!oldest || c->opened_ns < oldest->opened_ns))
            oldest = c;
    }
    if (oldest)
        conn_refuse(oldest, "busy",
                    "the listener's connections are all taken and this one said nothing for "
                    "longest; connect again and say what you are at once");
    return oldest;
}

static void conn_setup(struct conn *c, int fd, const struct sockaddr_storage *sa, socklen_t salen)
{
    int one = 1, idle = KEEPALIVE_IDLE_S, interval = KEEPALIVE_INTERVAL_S, count = KEEPALIVE_COUNT;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
    conn_free(c);
    c->kind = CONN_NEW;
    c->fd = fd;
    c->opened_ns = listener_now_ns();
    c->deadline_ns = c->opened_ns + (uint64_t)FIRST_LINE_S * NS_PER_S;
    char host[48], port[8];
    if (getnameinfo((const struct sockaddr *)sa, salen, host, sizeof(host), port, sizeof(port),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0)
        snprintf(c->peer, sizeof(c->peer), "%s port %s", host, port);
    else
        snprintf(c->peer, sizeof(c->peer), "an unknown address");
}

/* Take the connections waiting, MAX_GREETING at most this round. */
static void conn_accept(struct listener *l)
{
    for (int k = 0; k < MAX_GREETING; k++) {
        struct sockaddr_storage sa;
        socklen_t salen = sizeof(sa);
        const int fd =
            accept4(l->listen_fd, (struct sockaddr *)&sa, &salen, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        struct conn *c = conn_slot(l);
        if (!c) {
            static const char busy[] = "NO busy the listener's connections are all taken; "
                                       "try again later\n";
            (void)listener_send_now(fd, busy, sizeof(busy) - 1);
            close(fd);
            continue;
        }
        conn_setup(c, fd, &sa, salen);
    }
}

/* A connection that does not say what it is in time is refused; a
 * check that did not take its answer in time is dropped. */
static void conn_deadlines(struct listener *l)
{
    const uint64_t now = listener_now_ns();
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &l->conns[i];
        if (c->kind == CONN_NEW && now > c->deadline_ns)
            conn_refuse(c, "protocol", "no first line within " FIRST_LINE_TEXT);
        else if (c->kind == CONN_QUERY && now > c->deadline_ns)
            query_expire(l, c);
    }
}

/* The poll set: the listening socket first, then what each connection
 * waits for; map[k] is the slot of p[k]. */
static nfds_t poll_set(const struct listener *l, struct pollfd *p, int *map)
{
    nfds_t n = 0;
    p[n] = (struct pollfd){.fd = l->listen_fd, .events = POLLIN};
    map[n++] = -1;
    for (int i = 0; i < MAX_CONNS; i++) {
        const struct conn *c = &l->conns[i];
        if (c->kind == CONN_FREE)
            continue;
        short events = 0;
        if (c->kind == CONN_QUERY)
            events = POLLOUT;
        else if (c->kind == CONN_NEW || run_wants_lines(c))
            events = POLLIN;
        p[n] = (struct pollfd){.fd = c->fd, .events = events};
        map[n++] = i;
    }
    return n;
}

/* Serve what poll found ready: runs first, recorded, then the new
 * connections, so that what a run sent before a query came is recorded
 * before the query is answered; then the answers being sent.  0, or
 * -errno when the disk failed. */
static int serve_ready(struct listener *l, const struct pollfd *p, const int *map, nfds_t n)
{
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        const enum conn_kind kind = pass == 0 ? CONN_RUN : CONN_NEW;
        for (nfds_t k = 1; k < n && rc == 0; k++) {
            struct conn *c = &l->conns[map[k]];
            if ((p[k].revents & (POLLIN | POLLHUP | POLLERR)) && c->kind == kind)
                rc = conn_read(l, c);
        }
        if (rc == 0)
            rc = runs_commit(l, l->conns);
    }
    for (nfds_t k = 1; k < n && rc == 0; k++) {
        struct conn *c = &l->conns[map[k]];
        if ((p[k].revents & (POLLOUT | POLLHUP | POLLERR)) && c->kind == CONN_QUERY)
            query_pump(l, c);
    }
    return rc;
}

/* The listener stops: every run is told why when the disk failed, or
 * logged as it stands when a signal stopped it; every connection closed. */
static void serve_stop(struct listener *l, int status)
{
    for (int i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &l->conns[i];
        if (c->kind == CONN_RUN && status == EXIT_STORAGE)
            (void)conn_say(c, "NO storage the listener cannot record acknowledgements");
        if (c->kind == CONN_RUN && !l->quiet && status == EXIT_STOPPED)
            durable_log("run %s: the listener stops; %" PRIu64 " acknowledgements recorded",
                        c->run_id, c->u.run.recorded_acks);
        if (c->kind != CONN_FREE)
            conn_close(c);
    }
}

int listener_serve(struct listener *l)
{
    static struct conn conns[MAX_CONNS];
    for (int i = 0; i < MAX_CONNS; i++) {
        conns[i].fd = -1;
        conns[i].file_fd = -1;
        conn_free(&conns[i]);
    }
    l->conns = conns;
    int status = EXIT_STOPPED;
    while (!stop_signal) {
        struct pollfd p[MAX_CONNS + 1];
        int map[MAX_CONNS + 1];
        const nfds_t n = poll_set(l, p, map);
        const int ready = poll(p, n, 1000);
        if (ready < 0 && errno != EINTR) {
            durable_msg("poll: %s", strerror(errno));
            status = EXIT_STORAGE;
            break;
        }
        if (ready > 0 && serve_ready(l, p, map, n) < 0) {
            status = EXIT_STORAGE;
            break;
        }
        if (ready > 0 && (p[0].revents & POLLIN))
            conn_accept(l);
        conn_deadlines(l);
    }
    serve_stop(l, status);
    return status;
}
