/* SPDX-License-Identifier: MIT */
/*
 * One connection of the listener (listener.h): a line said without
 * waiting, closed after what it sent is read, dropped with a reset, or
 * refused; and the names and clock the loop, runs and queries share.
 * The loop, runs and queries are listen_loop.c, listen_run.c and
 * listen_query.c, above this file.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "diskio.h"
#include "durable_msg.h"
#include "listener.h"

uint64_t listener_now_ns(void)
{
    return diskio_now_ns();
}

bool listener_expects(const struct listener *l, const char *run_id)
{
    for (int i = 0; i < l->nexpect; i++)
        if (strcmp(l->expect[i], run_id) == 0)
            return true;
    return false;
}

void listener_acks_name(char *out, size_t size, const char *run_id)
{
    snprintf(out, size, "%s.acks", run_id);
}

bool listener_send_now(int fd, const char *text, size_t len)
{
    for (;;) {
        const ssize_t n = send(fd, text, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        return n == (ssize_t)len;
    }
}

bool conn_say(struct conn *c, const char *fmt, ...)
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
    return listener_send_now(c->fd, line, (size_t)n);
}

void conn_free(struct conn *c)
{
    if (c->file_fd >= 0)
        close(c->file_fd);
    c->kind = CONN_FREE;
    c->fd = -1;
    c->file_fd = -1;
    c->in.used = 0;
    c->in.taken = 0;
    c->peer[0] = '\0';
    c->run_id[0] = '\0';
}

void conn_close(struct conn *c)
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
    conn_free(c);
}

void conn_abort(struct conn *c)
{
    if (c->fd >= 0) {
        /* a reset: what the socket still holds for the peer is dropped
         * now, not kept by the kernel for a peer that does not read */
        const struct linger now = {.l_onoff = 1, .l_linger = 0};
        (void)setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &now, sizeof(now));
        close(c->fd);
    }
    conn_free(c);
}

void conn_refuse(struct conn *c, const char *word, const char *why)
{
    (void)conn_say(c, "NO %s %s", word, why);
    conn_close(c);
}
