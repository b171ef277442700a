/* SPDX-License-Identifier: MIT */
/*
 * diskio-durable's parts, one file each (diskio-durable(1)):
 *
 *   diskio-durable.c  main: the options, the directory, the socket
 *   listen_loop.c     the connection table and the poll loop: accepting,
 *                     the first line, the deadlines, closing
 *   listen_run.c      a run: its file, its acknowledgements, their
 *                     bounds, writing and syncing them, a full disk
 *   listen_query.c    a query: the run's file read back and sent as the
 *                     socket takes it
 *
 * One process, one thread, poll(2).  No call in the loop blocks on a
 * peer: every socket is non-blocking, a query's answer is sent as the
 * socket drains, and a run's replies are a few short lines, which always
 * fit a socket's send buffer.  What the loop does wait for is its own
 * disk: a run's write and fdatasync, a query's read.
 */
#ifndef DISKIO_LISTENER_H
#define DISKIO_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "durable.h"

/* Exit statuses, documented in diskio-durable(1). */
enum {
    EXIT_STOPPED = 0, /* stopped by SIGINT, SIGTERM or SIGHUP */
    EXIT_STORAGE = 1, /* the disk failed (not full): nothing can be vouched for */
    EXIT_USAGE = 2,
    EXIT_SETUP = 3, /* the directory or the address cannot be used */
};

#define MAX_EXPECT 64
/* checks answered at once: one more is told NO busy */
#define MAX_QUERIES 16
/* The table: every expected run and every check at once, and room for
 * connections that have not said what they are yet.  When it is full,
 * the one of those that has waited longest is dropped for a newcomer, so
 * silent connections never lock a run or a check out. */
#define MAX_GREETING 16
#define MAX_CONNS (MAX_EXPECT + MAX_QUERIES + MAX_GREETING)

#define NS_PER_S UINT64_C(1000000000)
/* a connection must say what it is within this long */
#define FIRST_LINE_S 10
#define FIRST_LINE_TEXT "10 seconds"
/* a check must have taken its whole answer this long after it asked:
 * 300,000 acknowledgements (about 10 MB) take it at 6 KB/s, the most a
 * run may send by default (DEFAULT_MAX_RUN_ACKS, about 3.4 GB) at 2 MB/s */
#define QUERY_DEADLINE_S (30 * 60)
#define QUERY_DEADLINE_TEXT "30 minutes"

/* acknowledgement lines taken from one run per round, before they are
 * written and synced: the batch of one fdatasync */
#define RUN_BATCH_BYTES ((size_t)64 * 1024)
/* a query's answer is made this much at a time, as the socket drains */
#define QUERY_OUT_BYTES ((size_t)64 * 1024)

/* A real run writes its file round and round for as long as its
 * --runtime or --count says (seq wraps to the start, rand draws blocks at
 * random): no multiple of the file's blocks bounds its acknowledgements.
 * What bounds a run worth recording is its check, which must take every
 * acknowledgement within QUERY_DEADLINE_S: 100 million, about 33 minutes
 * of 50,000 syncs a second, 3 hours of 10,000. */
#define DEFAULT_MAX_RUN_ACKS UINT64_C(100000000)
/* The longest acknowledgement line, "A SEQ OFFSET CRC\n", 20-digit
 * numbers, and the longest END line: what a run's acknowledgements may
 * take of its file beyond its first line (at most DURABLE_LINE_MAX). */
#define ACK_LINE_MAX (2 + 20 + 1 + 20 + 1 + 8 + 1)
#define END_LINE_MAX (4 + 20 + 1)
#define BOOT_LINE_MAX (5 + DURABLE_BOOT_ID_LEN + 1)

struct conn;

struct listener {
    int dir_fd;
    const char *dir;
    const char *expect[MAX_EXPECT];
    int nexpect;
    bool quiet;
    int listen_fd;
    uint64_t max_run_acks;  /* acknowledgements a run may send */
    uint64_t max_run_bytes; /* bytes a run's file may take */
    struct conn *conns;     /* the table, MAX_CONNS of them */
};

enum conn_kind { CONN_FREE, CONN_NEW, CONN_RUN, CONN_QUERY };

/* A run being recorded. */
struct run_state {
    uint64_t record_bytes, file_bytes; /* as its first line said */
    uint64_t last_seq;
    uint64_t acks;                       /* taken: in the batch or recorded */
    uint64_t recorded_acks;              /* of those, written and synced */
    uint64_t recorded_bytes;             /* the file's size, all of it synced */
    size_t batch_used;                   /* lines taken, not yet written */
    bool ended;                          /* END taken */
    bool boot;                           /* BOOT taken */
    bool closed;                         /* the peer closed, or broke the protocol */
    const char *refusal;                 /* a bound reached or a full disk: NO's WORD */
    char refusal_text[DURABLE_LINE_MAX]; /* and its TEXT */
    char batch[RUN_BATCH_BYTES + DURABLE_LINE_MAX];
};

/* A query being answered. */
struct query_state {
    struct durable_in file; /* the run's file, line by line */
    uint64_t acks;          /* acknowledgement lines made */
    bool header, ended;     /* its first line sent; its END read */
    bool boot;              /* its BOOT line sent */
    bool done;              /* the DONE line made: nothing more to read */
    size_t out_used, out_sent;
    char out[QUERY_OUT_BYTES];
};

struct conn {
    uint64_t opened_ns;   /* when it was accepted */
    uint64_t deadline_ns; /* first line (CONN_NEW), whole answer (CONN_QUERY) */
    struct durable_in in; /* what the peer sent */
    union {
        struct run_state run;
        struct query_state query;
    } u;
    enum conn_kind kind;
    int fd;
    int file_fd; /* the run's file (a run's or a query's) */
    char peer[64];
    char run_id[DURABLE_RUN_ID_MAX + 1];
};

/* listen_loop.c: SIGINT, SIGTERM and SIGHUP stop listener_serve();
 * SIGPIPE is ignored. */
void listener_signals(void);
/* Serve until a signal (EXIT_STOPPED) or a failing disk (EXIT_STORAGE). */
int listener_serve(struct listener *l);

/* listen_conn.c: the clock, the names, one connection */
uint64_t listener_now_ns(void);
bool listener_expects(const struct listener *l, const char *run_id);
/* "ID.acks" into out. */
void listener_acks_name(char *out, size_t size, const char *run_id);
/* Send text on fd without waiting: false when it did not go whole. */
bool listener_send_now(int fd, const char *text, size_t len);
/* Mark c's slot free, closing its file (not its socket). */
void conn_free(struct conn *c);
/* Send one line without waiting: false when it did not go whole (the
 * peer is gone; a few short lines always fit an empty send buffer). */
bool conn_say(struct conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Release c: its socket (after what it sent is read, so that closing
 * does not reset its last answer away), its file. */
void conn_close(struct conn *c);
/* Drop c at once (a reset): for a peer that takes nothing more. */
void conn_abort(struct conn *c);
/* Say NO WORD TEXT to c and close it. */
void conn_refuse(struct conn *c, const char *word, const char *why);

/* listen_run.c: a run */
/* The first line RUN ... (n words w): the run's file made, OK sent, or
 * refused.  0, or -errno when the disk failed. */
int run_start(struct listener *l, struct conn *c, char **w, int n);
/* Whether the run takes more lines this round. */
bool run_wants_lines(const struct conn *c);
/* One more line of the run. */
void run_line(struct listener *l, struct conn *c, char *line);
/* Take no more of the run: what it sent before is recorded, then it is
 * told NO WORD WHY and closed (the first refusal stands). */
void run_refuse(struct conn *c, const char *word, const char *why);
/* Write and sync every run's batch, then answer the runs that ended,
 * were refused or are gone.  0, or -errno when the disk failed. */
int runs_commit(struct listener *l, struct conn *conns);

/* listen_loop.c: what a connection of run_id has sent, read and recorded
 * now, batch after batch while they come whole (at most 16 MiB): a check
 * asked for right after a run stopped sees all of it.  0, or -errno when
 * the disk failed. */
int run_drain(struct listener *l, const char *run_id);

/* listen_query.c: a query.  The first line QUERY ID (n words w) is
 * admitted (true) or refused; the loop then records what a run of that
 * id sent before (run_drain) and starts the answer: OK and the answer
 * begun, or refused.  0, or -errno when the disk failed. */
bool query_admit(const struct listener *l, struct conn *c, char **w, int n);
int query_start(struct listener *l, struct conn *c, const char *run_id);
/* Send what the socket takes of the answer, made from the file as it
 * drains; close c when it took it all or broke off. */
void query_pump(struct listener *l, struct conn *c);
/* The answer was not taken within QUERY_DEADLINE_S: drop c. */
void query_expire(struct listener *l, struct conn *c);

#endif
