/* SPDX-License-Identifier: MIT */
/*
 * The per-op trace's output: rows formatted into chunks and written
 * whole, between operations (trace.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

/* Write all of buf: a short write (the file reached a size limit or the
 * filesystem filled up part way) is followed by another, which then fails
 * with the reason, so the error reported is the real one, never a stale
 * errno.  0 or -errno. */
int trace_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (n == 0)
            return -EIO;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

void trace_out_line(struct trace_out *o, const char *line, size_t len)
{
    if (o->used + len > sizeof(o->chunk)) {
        if (*o->error == 0)
            *o->error = trace_write_all(o->fd, o->chunk, o->used);
        o->used = 0;
    }
    memcpy(o->chunk + o->used, line, len);
    o->used += len;
}

void trace_out_end(struct trace_out *o)
{
    if (o->used && *o->error == 0)
        *o->error = trace_write_all(o->fd, o->chunk, o->used);
    o->used = 0;
}

int trace_flush(struct trace *t)
{
    struct trace_out o = {.fd = t->fd, .error = &t->error};
    for (size_t i = 0; i < t->rows_used; i++) {
        const struct trace_row *r = &t->rows[i];
        char line[128];
        int n = snprintf(line, sizeof(line),
                         "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->op,
                         r->start_ns, r->latency_ns, r->write_ns, r->sync_ns);
        trace_out_line(&o, line, (size_t)n);
    }
    trace_out_end(&o);
    t->rows_used = 0;
    return t->error;
}
