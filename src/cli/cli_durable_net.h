/* SPDX-License-Identifier: MIT */
/* The connection to the durability listener, shared by the run
 * (cli_durable.c) and the verify (cli_durable_verify.c). */
#ifndef DISKIO_CLI_DURABLE_NET_H
#define DISKIO_CLI_DURABLE_NET_H

#include <stddef.h>
#include <stdint.h>

#include "durable.h"

/* Connect to HOST:PORT (option names it in messages): EXIT_OK with *fd,
 * or an exit status after a message.  The socket is blocking, replies
 * are awaited 30 s at most, TCP_NODELAY is set. */
int cli_durable_dial(const char *hostport, const char *option, int *fd);
/* Send all of text: 0 or -errno (no SIGPIPE). */
int cli_durable_send(int fd, const char *text, size_t len);
/* The next line from the listener: 0 with *line set, -EPROTO for bytes
 * that are not a protocol line, -ETIMEDOUT (no byte for 30 s), -ETIME
 * once CLOCK_MONOTONIC reaches deadline_ns (0: none), -ECONNRESET at
 * its end. */
int cli_durable_line(int fd, struct durable_in *in, char **line, uint64_t deadline_ns);
/* CLOCK_MONOTONIC in ns, the clock of deadline_ns. */
uint64_t cli_durable_now_ns(void);
/* Say that the listener refused what (its "NO WORD TEXT" reply, changed
 * in place) and return the exit status: EXIT_DURABILITY_MISMATCH for a
 * run id it does not expect or know, EXIT_TARGET otherwise. */
int cli_durable_refused(const char *listener, const char *what, char *reply);

#endif
